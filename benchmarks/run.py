"""Run every benchmark (``make bench``), or the quick ones (``make bench-quick``, ``--quick``), or
those named; each prints its numbers and writes ``benchmarks/results/NAME.json`` with them, the
commit and the machine."""

import platform
import os
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}")
QUICK = ["engine_bench", "gof_bench", "game_bench"]
EVERY = QUICK + ["dataset_bench", "vision_bench", "live_bench", "deck_bench", "service_bench", "club_bench"]
names = QUICK if sys.argv[1:] == ["--quick"] else sys.argv[1:] or EVERY
for name in names:
    runpy.run_path(str(HERE / f"{name}.py"), run_name="__main__")
