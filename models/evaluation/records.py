"""Measurement records: every measurement is appended to ``benchmarks/results/log.jsonl``, with
its figures, the commit, the machine and the hashes of the models it measured, and never
rewritten. ``benchmarks/results/NAME.json``, the record a document quotes, is derived from the log
(:func:`published`):

- every new entry carries its **key**, what was measured: the models' hashes, the commit, the
  runtime, the inference threads and the data's seeds (:func:`measurement_key`);
- **test data is read through one guard**, :func:`begin_test`, whatever the tool and whatever
  its sizes: it keys the read on *what* was read (:func:`read_key`: the models and the seeds or
  videos), never on *how* (the commit, the runtime, the threads, how many scenes), refuses a read
  that overlaps one made before with the same models (a subset of the same videos too) unless a
  reason is given (``--again REASON``), and logs the read at once, before any test data is opened,
  so even a run that publishes nothing has read the split. The published record is the *first*
  test entry of its name for the reading of its latest entry (the published number is the first,
  not the best); a later run is kept in the log and changes nothing. A test measurement for the
  project's records needs a clean commit;
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

from sisepai.engine.environment import environment
from sisepai.engine.errors import SisepaiError
from sisepai.vision.recognition.runtime import (
    file_hash,  # noqa: F401 - how records name a model version
    inference_threads,
    resolve,
)

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
    """The machine a measurement ran on, and how busy it was: the run queue's averages over the last
    1 and 15 minutes when the record is written (``load``; a 2-core machine at 2.0 had no core to
    spare), where the system tells them.

    >>> sorted(machine())
    ['arch', 'cores', 'gpu', 'load', 'python']
    """
    gpu = None
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    out = {"arch": platform.machine(), "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
           else os.cpu_count(), "python": platform.python_version(), "gpu": gpu,
           "load": [round(x, 2) for x in os.getloadavg()[::2]] if hasattr(os, "getloadavg") else None}
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


def measurement_key(models: dict, runtime: str | None = None, threads: int | str | None = None,
                    seeds: object = None, commit_id: str | None = None) -> dict:
    """What a measurement measured: the models' hashes, the commit, the runtime and inference
    threads (by default the runtime a run here uses, :mod:`sisepai.vision.recognition.runtime`,
    and its thread setting: ``SISEPAI_THREADS`` when set, else ``"by load"``: chosen from the
    machine's load as the run goes, so no one number names them) and the data's seeds.

    >>> k = measurement_key({"reader": "ab"}, runtime="torch", threads=1, seeds=[7100], commit_id="c0ffee")
    >>> sorted(k), k["runtime"]
    (['commit', 'models', 'runtime', 'seeds', 'threads'], 'torch')
    """
    if runtime is None or threads is None:
        runtime = resolve() if runtime is None else runtime
        if threads is None:
            threads = inference_threads() if environment().threads else "by load"
    return {"models": models, "commit": commit() if commit_id is None else commit_id, "runtime": runtime,
            "threads": threads, "seeds": json.loads(json.dumps(seeds))}


def key_of(entry: dict) -> dict:
    """An entry's key; an entry from before keys were kept is known by its models alone."""
    return entry.get("key") or {"models": entry.get("models")}


READ_HOW = ("commit", "runtime", "threads")
"""What a key says of *how* data was read, not of what: left out when reads are compared."""


def read_key(key: dict) -> dict:
    """What a test measurement read: its key without how it was read (:data:`READ_HOW`): the same
    models and data read after another commit, in another runtime or with other threads are the
    same reading.

    >>> read_key({"models": {"reader": "a"}, "commit": "c1", "threads": 2, "runtime": "torch", "seeds": [1]})
    {'models': {'reader': 'a'}, 'seeds': [1]}
    """
    return {k: v for k, v in key.items() if k not in READ_HOW}


def reads_same(a: dict, b: dict) -> bool:
    """Whether two keys read some of the same test data with the same models: the same reading
    but for the seeds, and seeds that overlap (a list of videos or seeds shares one, or they are equal).

    >>> k = {"models": {"reader": "a"}, "seeds": [1, 2, 3]}
    >>> reads_same(k, {**k, "seeds": [3]}), reads_same(k, {**k, "seeds": [4]}), reads_same(k, {**k, "threads": 1})
    (True, False, True)
    """
    ra, rb = read_key(a), read_key(b)
    sa, sb = ra.pop("seeds", None), rb.pop("seeds", None)
    if ra != rb:
        return False
    if isinstance(sa, list) and isinstance(sb, list):
        return bool({json.dumps(s, sort_keys=True) for s in sa} & {json.dumps(s, sort_keys=True) for s in sb})
    return sa == sb


def published(name: str, entries: list[dict]) -> dict | None:
    """The record of ``name`` that the log ``entries`` publish: for a test record, the first entry
    that read what its latest entry read (:func:`read_key`; new models or data publish their own
    first measurement); otherwise the latest entry."""
    mine = [e for e in entries if e["name"] == name and "figures" in e]  # a read alone publishes nothing
    if not mine:
        return None
    latest = mine[-1]
    if latest.get("split") != "test":
        return latest
    return next(e for e in mine if e.get("split") == "test" and read_key(key_of(e)) == read_key(key_of(latest)))


def check_test_read(name: str, key: dict, again: str | None = None, folder: Path = RESULTS) -> None:
    """Before reading the test split: refuse when the project's records need a clean commit and
    this checkout is not, or when ``name`` has read this test data with these models, runtime and
    threads already (:func:`read_key`: whatever the commit), unless ``again`` gives a reason; says
    on stderr that the test split is being read.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> key = {"models": {"reader": "a"}, "commit": "c", "runtime": "torch", "threads": 1, "seeds": [1]}
    >>> _ = write_record("demo", "demo", {"f1": 0.9}, split="test", key=key, folder=folder)
    >>> check_test_read("demo", key, folder=folder)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: demo was measured on the test split with this key already ...
    >>> check_test_read("demo", {**key, "commit": "c2"}, folder=folder)  # a later commit reads the same data
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: demo was measured on the test split with this key already ...
    >>> check_test_read("demo", key, again="the videos were remade", folder=folder)
    """

    if folder == RESULTS and str(key.get("commit", "")).endswith("+dirty"):
        raise SisepaiError("a test measurement for the records needs a clean commit: commit or stash your changes first")
    seen = [e for e in read_log(folder) if e["name"] == name and e.get("split") == "test" and reads_same(key_of(e), key)]
    if seen and not again:
        raise SisepaiError(f"{name} was measured on the test split with this key already ({seen[0].get('date', '?')}): "
                           "the test split is read once a key; to read it again, say why with --again REASON")
    print(f"reading the TEST split for {name}" + (f" again ({again})" if seen else "")
          + ": a test set read after a change is a tuning set", file=sys.stderr)


def _append(entry: dict, folder: Path) -> None:
    """One line onto the log, in one write (appends of several processes do not interleave)."""
    folder.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
    fd = os.open(folder / LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def add_again_option(parser) -> None:
    """``--again REASON``: read the test split again for a key already measured, saying why."""
    parser.add_argument("--again", metavar="REASON", default=None,
                        help="measure the test split again for a key already in the log, and record why")


def begin_test(name: str, models: dict | None, seeds: object, again: str | None, folder: Path = RESULTS) -> dict:
    """The one guard of test data: the key of a test read about to start (:func:`measurement_key`),
    checked (:func:`check_test_read`) and logged as read before any test data is opened, whatever
    the tool's sizes. Every tool that can read the test split calls it first.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = begin_test("demo", {"reader": "a"}, [7, 8], None, folder=folder)
    >>> begin_test("demo", {"reader": "a"}, [8], None, folder=folder)  # a subset of the same data
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: demo was measured on the test split with this key already ...
    >>> [e.get("read") for e in read_log(folder)]
    [True]
    """
    key = measurement_key(shipped_models() if models is None else models, seeds=seeds)
    check_test_read(name, key, again, folder)
    entry = {"name": name, "split": "test", "read": True, "date": time.strftime("%Y-%m-%d"),
             "commit": key.get("commit", commit()), "machine": machine(None), "key": key}
    _append({**entry, **({"again": again} if again else {})}, folder)
    return key


def require_clean_tree(folder: Path = RESULTS) -> None:
    """Refuse, before any work, a measurement whose record would go into the project's records
    (``folder``) from a checkout with uncommitted changes: a record names the clean commit that
    made it, so anyone can make it again. Other folders (a test's) take any tree."""
    if folder.resolve() == RESULTS.resolve() and commit().endswith("+dirty"):
        raise SystemExit("the checkout has uncommitted changes, and a record names a clean commit: "
                         "commit (or stash) them, then measure")


SPLITS = ("tune", "test", "none")
"""What a measurement reads: tuning data, test data, or ``none`` (no labelled data: the speed of
the engine, the generator or the ledger)."""


def write_record(name: str, command: str, figures: dict, *, split: str, models: dict | None = None,
                 options: dict | None = None, note: str | None = None, folder: Path = RESULTS,
                 key: dict | None = None, again: str | None = None) -> Path:
    """Append a measurement to the log and publish ``folder/NAME.json`` from it (see the module).
    ``key`` is what was measured (:func:`measurement_key`; by default the models, this commit, the
    runtime and threads a run here uses, and ``options["seeds"]``); ``again``, the reason a test key
    was measured again; ``split``, what it read (:data:`SPLITS`)."""
    if split not in SPLITS:
        raise ValueError(f"a record names its split, one of {', '.join(SPLITS)}; not {split!r}")
    require_clean_tree(folder)
    models = shipped_models() if models is None else models
    key = key or measurement_key(models, seeds=(options or {}).get("seeds"))
    entry = {"name": name, "command": command, "split": split, "date": time.strftime("%Y-%m-%d"),
             "commit": key.get("commit", commit()), "machine": machine(note), "models": models,
             "options": options or {}, "key": key, "figures": json.loads(json.dumps(figures))}
    if again:
        entry["again"] = again
    _append(entry, folder)
    record = published(name, read_log(folder))
    path = folder / f"{name}.json"
    if record != entry and split == "test":
        print(f"{path}: kept the first test measurement of these models ({record.get('date', '?')}); "
              f"this one is in {folder / LOG}; a model change makes a new one", file=sys.stderr)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    return path
