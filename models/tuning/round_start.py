"""Where a tuning round begins: a record (``choose WORK --begin-round COMMIT``) names the commit
whose shipped models began the round, and their hashes; :mod:`.choose` measures every candidate
against them too, taken from git at that commit.

>>> ROUND_RECORD
'round_start'
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DEFAULT_DETECTOR
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as DEFAULT_READER

from ..evaluation.records import file_hash, published, read_log, write_record

ROUND_RECORD = "round_start"
"""The record a round begins with (``choose WORK --begin-round COMMIT``): the commit whose shipped
models began the round, and their hashes. Every candidate is also measured against them, and no set
may end the round below its start with an interval wholly below -0.01, however small
each ship's own step (:data:`.choose.SET_FLOOR`). No such record: the shipped models are the round's start."""
ROOT = Path(__file__).resolve().parents[2]


def _weights_at(commit: str, kind: str) -> bytes:
    return subprocess.run(["git", "show", f"{commit}:vision/weights/{kind}.pt"], cwd=ROOT, capture_output=True,
                          check=True).stdout


def begin_round(commit: str) -> Path:
    """Write the :data:`ROUND_RECORD` naming the models shipped at ``commit`` as the new round's start."""
    full = subprocess.run(["git", "rev-parse", "--short", commit], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    models = {kind: hashlib.sha256(_weights_at(full, kind)).hexdigest()[:16] for kind in ("detector", "reader")}
    return write_record(ROUND_RECORD, f"python -m sisepai.models.tuning.choose WORK --begin-round {full}",
                        {"commit": full}, split="none", models=models, options={"commit": full})


def round_start() -> dict | None:
    """The round's start as its record gives it (``{"commit", "detector", "reader"}``), or None."""
    record = published(ROUND_RECORD, read_log())
    return None if record is None else {"commit": record["options"]["commit"], **record["models"]}


def round_start_models(work: Path) -> tuple[Path | None, Path | None]:
    """The round's first detector and reader as files (``None`` for one that is still shipped),
    taken from git at the round's commit (:func:`round_start`) into ``WORK/round-start``."""
    start = round_start()
    out = []
    for kind, shipped in (("detector", DEFAULT_DETECTOR), ("reader", DEFAULT_READER)):
        if start is None or file_hash(shipped) == start[kind]:
            out.append(None)
            continue
        path = work / "round-start" / f"{kind}-{start[kind]}.pt"
        if not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(_weights_at(start["commit"], kind))
        if file_hash(path) != start[kind]:
            raise SystemExit(f"the round's first {kind} at {start['commit']} is not {start[kind]}")
        out.append(path)
    return out[0], out[1]
