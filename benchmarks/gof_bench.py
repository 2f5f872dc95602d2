"""Gang of Four benchmark: simulated 4-player deals a second (greedy vs three random bots)."""

import time

from sisepai.engine.gangoffour import simulate
from sisepai.models.evaluation.records import write_record

MATCHES = 200
t = time.perf_counter()
stats = simulate(MATCHES, seed=1)
dt = time.perf_counter() - t
print(f"gof     simulated 4-player deals              {stats['deals'] / dt:>12,.0f} deals/s "
      f"({stats['deals']} deals of {MATCHES} matches in {dt:.1f} s; greedy wins {stats['win_rate'][0]:.1%})")
write_record("gof_bench", "python benchmarks/gof_bench.py", {
    "matches": MATCHES, "deals": stats["deals"], "seconds": round(dt, 2), "deals_per_second": round(stats["deals"] / dt),
    "greedy_win_rate": round(stats["win_rate"][0], 4)}, split="none", models={})
