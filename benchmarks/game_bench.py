"""Four Color Cards game benchmark: full 4-player games a second, greedy bots and greedy vs random."""

import time

from sisepai.engine.bots import make_bots, play_out
from sisepai.engine.game import Game
from sisepai.models.evaluation.records import write_record

figures = {}
for names in (["greedy"] * 4, ["greedy", "random", "random", "random"]):
    n = 300
    t = time.perf_counter()
    wins = [0] * 4
    draws = 0
    for g in range(n):
        outcome = play_out(Game.new(4, seed=g), make_bots(names, g))
        if outcome.winner is None:
            draws += 1
        else:
            wins[outcome.winner] += 1
    dt = time.perf_counter() - t
    print(f"game    4-player games, {'+'.join(names):<28} {n / dt:>8,.0f} games/s "
          f"(wins {wins}, draw games {draws / n:.0%})")
    figures["+".join(names)] = {"games": n, "games_per_second": round(n / dt), "wins": wins, "draw_share": round(draws / n, 4)}
write_record("game_bench", "python benchmarks/game_bench.py", figures, split="none", models={})
