"""Run every benchmark (``make bench``), or the quick ones (``make bench-quick``, ``--quick``), or
those named; each prints its numbers and writes ``benchmarks/results/NAME.json`` with them, the
commit and the machine."""

import os
import platform
import runpy
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}")
QUICK = ["engine_bench", "gof_bench", "game_bench"]
EVERY = QUICK + ["dataset_bench", "vision_bench", "runtime_bench", "reader_bench", "scan_eval", "live_bench", "live_scale", "live_webcam", "busy_bench", "deck_bench", "service_bench", "club_bench"]
MODULES = {"scan_eval": "sisepai.models.evaluation.scan_eval"}
"""Measurements that live in the package (they are also commands of their own), by benchmark name."""
names = QUICK if sys.argv[1:] == ["--quick"] else sys.argv[1:] or EVERY
unknown = [n for n in names if n not in EVERY]
if unknown:
    sys.exit(f"unknown benchmark {unknown[0]!r}; the benchmarks are: {', '.join(EVERY)}")
from sisepai.models.evaluation.records import require_clean_tree  # noqa: E402 - after the machine line

require_clean_tree()  # before an hour of work, not after it
failed = []
for name in names:
    started = time.perf_counter()
    try:
        if name in MODULES:
            sys.argv = [name]
            runpy.run_module(MODULES[name], run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(str(HERE / f"{name}.py"), run_name="__main__")
    except SystemExit as stop:  # a benchmark that stops on bad setup does not stop the others
        if stop.code not in (None, 0):
            print(f"{name}: {stop.code}", file=sys.stderr)
            failed.append(name)
    print(f"({name}: {time.perf_counter() - started:.0f} s)", flush=True)
if failed:
    sys.exit(f"benchmarks that failed: {', '.join(failed)}")
