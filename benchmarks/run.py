"""Run every benchmark and print the numbers (the README's performance table comes from here)."""

import platform
import os
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}")
for name in sys.argv[1:] or ["engine_bench", "gof_bench", "game_bench", "dataset_bench", "vision_bench", "live_bench", "deck_bench", "service_bench", "club_bench"]:
    runpy.run_path(str(HERE / f"{name}.py"), run_name="__main__")
