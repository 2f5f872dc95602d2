"""Reading JSON event logs (Four Color Cards games and Gang of Four matches) with clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from .errors import SisepaiError


def event_lines(events: list[dict], lines: dict[str, Callable[[dict], str | None]]) -> list[str]:
    """A replay's lines: each event told by its type's line in ``lines`` (``None``: nothing to say).

    >>> event_lines([{"type": "pass", "player": 2}, {"type": "other"}], {"pass": lambda e: f"P{e['player']} passes"})
    ['P2 passes']
    """
    told = (lines[e.get("type")](e) if e.get("type") in lines else None for e in events)
    return [line for line in told if line is not None]


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
