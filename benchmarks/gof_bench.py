"""Gang of Four benchmark: simulated 4-player deals a second (greedy vs three random bots)."""

import time

from sisepai.engine.gangoffour import simulate

t = time.perf_counter()
stats = simulate(40, seed=1)
dt = time.perf_counter() - t
print(f"gof     simulated 4-player deals              {stats['deals'] / dt:>12,.0f} deals/s "
      f"({stats['deals']} deals in {dt:.1f} s; greedy wins {stats['win_rate'][0]:.0%})")
