"""Reading JSON event logs (Four Color Cards games and Gang of Four matches) with clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import SisepaiError


def read_log(path: str | Path) -> list[dict]:
    """The list of events in a JSON log file, or :class:`SisepaiError` saying what is wrong."""
    try:
        events = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SisepaiError(f"no such log file: {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SisepaiError(f"{path} is not a JSON event log: {exc}") from None
    if not isinstance(events, list) or not events or not all(isinstance(e, dict) for e in events):
        raise SisepaiError(f"{path} is not a JSON event log (a list of events)")
    return events
