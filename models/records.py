"""Measurement records: each benchmark and test measurement writes ``benchmarks/results/NAME.json``
with its figures, the commit, the machine and the hashes of the models it measured.

A **test** measurement is made once per model version: a second run with the same models and the
same split keeps the first record (the published number is the first, not the best) and says so.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> first = write_record("demo", "python demo.py", {"f1": 0.9}, split="test", folder=folder)
>>> again = write_record("demo", "python demo.py", {"f1": 0.95}, split="test", folder=folder)
>>> json.loads(again.read_text())["figures"]["f1"]  # the first measurement stands
0.9
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def file_hash(path: Path) -> str:
    """The first 16 hex digits of a file's SHA-256: how records name a model version."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def shipped_models() -> dict[str, str]:
    """Hashes of the shipped detector and reader."""
    weights = ROOT / "vision" / "weights"
    return {p.stem: file_hash(p) for p in sorted(weights.glob("*.pt"))}


def commit() -> str:
    """The checkout's commit, ``+dirty`` when tracked files differ from it; ``unknown`` outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10)
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


def write_record(name: str, command: str, figures: dict, split: str | None = None, models: dict | None = None,
                 options: dict | None = None, note: str | None = None, folder: Path = RESULTS) -> Path:
    """Write ``folder/NAME.json``; a test record of the same models already there is kept (see the module)."""
    models = shipped_models() if models is None else models
    path = folder / f"{name}.json"
    if split == "test" and path.exists():
        try:
            old = json.loads(path.read_text())
        except ValueError:
            old = {}
        if old.get("split") == "test" and old.get("models") == models:
            print(f"{path}: kept the first test measurement of these models ({old.get('date', '?')}); "
                  f"a model change makes a new one", file=sys.stderr)
            return path
    record = {"name": name, "command": command, "split": split, "date": time.strftime("%Y-%m-%d"),
              "commit": commit(), "machine": machine(note), "models": models, "options": options or {},
              "figures": figures}
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path
