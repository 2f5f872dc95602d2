"""Engine benchmarks: in-process scoring, the CLI batch (process start included), waits.

Run: .venv/bin/python benchmarks/engine_bench.py   (or `make bench` for every benchmark)
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sisepai.engine import Rules, waits
from sisepai.engine.cards import counts_of, parse_card_ids, shuffled_deck
from sisepai.engine.decompose import BestTable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.engine.helpers import brute_force_best, random_winning_hand  # noqa: E402


def _hands(n: int, seed: int, winning_share: float) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        if rng.random() < winning_share:
            out.append(random_winning_hand(rng))
        else:
            out.append([c.code for c in shuffled_deck(rng.random())[:21]])
    return out


def bench_in_process(n: int = 20000) -> dict:
    table = BestTable.for_rules(Rules.preset("seesek"))
    results = {}
    for label, share in (("random deals", 0.0), ("winning hands", 1.0)):
        counts = [counts_of(parse_card_ids(h)) for h in _hands(n, 1, share)]
        for c in counts[:200]:
            table.best(c)  # warm the tables, as a long-running process would be
        t = time.perf_counter()
        for c in counts:
            table.best(c)
        dt = time.perf_counter() - t
        results[label] = n / dt
    # the straightforward recursive search, for comparison
    hands = _hands(400, 2, 0.5)
    t = time.perf_counter()
    for h in hands:
        brute_force_best(h)
    results["naive recursive search"] = len(hands) / (time.perf_counter() - t)
    return results


def bench_cli_batch(n: int = 20000) -> dict:
    hands = _hands(n, 3, 0.5)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(" ".join(h) for h in hands) + "\n")
        path = fh.name
    exe = Path(sys.executable).with_name("sisepai")
    best = None
    for _ in range(3):
        t = time.perf_counter()
        with open(path) as stdin:
            proc = subprocess.run([str(exe), "score", "--json", "-"], stdin=stdin, capture_output=True, text=True)
        dt = time.perf_counter() - t
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.count("\n") == n
        best = dt if best is None else min(best, dt)
    Path(path).unlink()
    return {"hands": n, "seconds": best, "hands_per_second": n / best}


def bench_waits(n: int = 300) -> dict:
    rng = random.Random(5)
    hands = []
    for _ in range(n):
        h = random_winning_hand(rng)
        h.pop(rng.randrange(21))
        hands.append(h)
    t = time.perf_counter()
    for h in hands:
        waits(h)
    return {"microseconds_per_hand": (time.perf_counter() - t) / n * 1e6}


def main() -> None:
    from sisepai.models.evaluation.records import write_record

    ip = bench_in_process()
    for label, rate in ip.items():
        print(f"engine  best score, {label:<24} {rate:>12,.0f} hands/s")
    cli = bench_cli_batch()
    naive = ip.get("naive recursive search")
    print(f"engine  CLI batch {cli['hands']} hands, start included {cli['seconds']:.2f} s = "
          f"{cli['hands_per_second']:,.0f} hands/s" + (f" ({cli['hands_per_second'] / naive:,.0f}x the naive search measured above)" if naive else ""))
    w = bench_waits()
    print(f"engine  waits of a 20-card hand          {w['microseconds_per_hand']:>12,.0f} µs")
    write_record("engine_bench", "python benchmarks/engine_bench.py", {
        "in_process_hands_per_second": {k: round(v) for k, v in ip.items()},
        "cli_batch": {"hands": cli["hands"], "seconds": round(cli["seconds"], 3), "hands_per_second": round(cli["hands_per_second"])},
        "waits_microseconds_per_hand": round(w["microseconds_per_hand"], 1)}, split="none", models={})


if __name__ == "__main__":
    main()
