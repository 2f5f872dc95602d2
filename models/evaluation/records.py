"""Measurement records: every measurement is appended to ``benchmarks/results/log.jsonl``, with
its figures, the commit, the machine and the hashes of the models it measured, and never
rewritten. ``benchmarks/results/NAME.json``, the record a document quotes, is derived from the log
(:func:`published`):

- a **test** measurement is made once per model version: the published record is the *first* test
  entry of its name for those models (the published number is the first, not the best); a later
  run is kept in the log and changes nothing;
- a benchmark or a tuning measurement publishes its latest entry.

``tests/test_records.py`` checks that every published record is what the log derives.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> first = write_record("demo", "python demo.py", {"f1": 0.9}, split="test", folder=folder)
>>> again = write_record("demo", "python demo.py", {"f1": 0.95}, split="test", folder=folder)
>>> json.loads(again.read_text())["figures"]["f1"]  # the first measurement stands
0.9
>>> [e["figures"]["f1"] for e in read_log(folder)]  # and both are in the log
[0.9, 0.95]
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from sisepai.vision.recognition.runtime import file_hash  # noqa: F401 - how records name a model version

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"

LOG = "log.jsonl"
"""The append-only log of every measurement, one JSON object a line, in ``RESULTS``."""


def shipped_models() -> dict[str, str]:
    """Hashes of the shipped detector and reader."""
    weights = ROOT / "vision" / "weights"
    return {p.stem: file_hash(p) for p in sorted(weights.glob("*.pt"))}


def commit() -> str:
    """The checkout's commit, ``+dirty`` when tracked files differ from it (the records themselves
    aside: the log grows with every measurement); ``unknown`` outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":(exclude)benchmarks/results"], cwd=ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    if head.returncode:
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def machine(note: str | None = None) -> dict:
    """The machine a measurement ran on."""
    gpu = None
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    out = {"arch": platform.machine(), "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
           else os.cpu_count(), "python": platform.python_version(), "gpu": gpu}
    if note:
        out["note"] = note
    return out


def at_defaults(parser, args, names: tuple[str, ...]) -> bool:
    """Whether each option in ``names`` has its ``parser`` default: a test record is made only with
    the defaults, so that a quick, smaller run never becomes the first (kept) record.

    >>> import argparse
    >>> p = argparse.ArgumentParser(); _ = p.add_argument("--scenes", type=int, default=30)
    >>> at_defaults(p, p.parse_args([]), ("scenes",)), at_defaults(p, p.parse_args(["--scenes", "3"]), ("scenes",))
    (True, False)
    """
    return all(getattr(args, name) == parser.get_default(name) for name in names)


def read_log(folder: Path = RESULTS) -> list[dict]:
    """Every entry of the measurement log, oldest first."""
    path = folder / LOG
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def published(name: str, entries: list[dict]) -> dict | None:
    """The record of ``name`` that the log ``entries`` publish: for a test record, the first entry
    of the models of its latest entry (a new model version publishes its own first measurement);
    otherwise the latest entry."""
    mine = [e for e in entries if e["name"] == name]
    if not mine:
        return None
    latest = mine[-1]
    if latest.get("split") != "test":
        return latest
    return next(e for e in mine if e.get("split") == "test" and e.get("models") == latest.get("models"))


def _append(entry: dict, folder: Path) -> None:
    """One line onto the log, in one write (appends of several processes do not interleave)."""
    folder.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    fd = os.open(folder / LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def write_record(name: str, command: str, figures: dict, split: str | None = None, models: dict | None = None,
                 options: dict | None = None, note: str | None = None, folder: Path = RESULTS) -> Path:
    """Append a measurement to the log and publish ``folder/NAME.json`` from it (see the module)."""
    models = shipped_models() if models is None else models
    entry = {"name": name, "command": command, "split": split, "date": time.strftime("%Y-%m-%d"),
             "commit": commit(), "machine": machine(note), "models": models, "options": options or {},
             "figures": json.loads(json.dumps(figures))}
    _append(entry, folder)
    record = published(name, read_log(folder))
    path = folder / f"{name}.json"
    if record != entry and split == "test":
        print(f"{path}: kept the first test measurement of these models ({record.get('date', '?')}); "
              f"this one is in {folder / LOG}; a model change makes a new one", file=sys.stderr)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path
