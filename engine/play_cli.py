"""``sisepai simulate`` and ``sisepai replay``: Four Color Cards games between bots, and their logs."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from .bots import make_bots, play_out
from .errors import SisepaiError
from .game import Game
from .logs import event_lines, read_log
from .match import Match
from .progress import Progress
from .rules import resolve_rules


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many games between bots and report the results",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Simulate Four Color Cards games between bots.",
                       epilog="""examples:
  sisepai simulate --players 4 --games 1000 --bots greedy,random,random,random --seed 1
  sisepai simulate --games 200 --rules tusac --json
  sisepai simulate --games 10 --log logs/      # keep each game's JSON event log""")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    p.add_argument("--games", type=int, default=100, metavar="N")
    p.add_argument("--bots", default=None, help="one per seat: greedy or random (default greedy, then random)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", default="seesek", help="seesek (default), tusac, or a TOML file")
    p.add_argument("--stop-at", type=int, default=0, metavar="N", help="end as a draw game when N cards remain")
    p.add_argument("--log", type=Path, metavar="DIR", help="write each game's JSON event log here")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_simulate)

    p = sub.add_parser("replay", help="show a game log turn by turn, checking every move")
    p.add_argument("log", type=Path, metavar="LOG")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.set_defaults(func=_replay)


def simulate(players: int, games: int, bots: list[str], seed: int, rules, log: Path | None = None,
             progress: bool = False) -> dict:
    """Play ``games`` deals of one match (dealer rotation, running totals); returns win rates,
    average points, draw-game rate, turns per game and the match totals."""

    if len(bots) != players:
        raise SisepaiError(f"--bots names {len(bots)} bots for {players} players")
    if games < 1:
        raise SisepaiError("--games must be at least 1")
    wins = [0] * players
    points = [0] * players
    draws = 0
    turns = 0
    bar = Progress(games, "games") if progress else None
    t0 = time.perf_counter()

    match = Match(players, rules, seed)
    for g in range(games):
        game = match.new_deal()
        outcome = play_out(game, make_bots(bots, seed * 1_000_003 + g))
        match.record(game)
        turns += sum(1 for m in game.moves if type(m).__name__ in ("Draw", "Discard"))
        if outcome.winner is None:
            draws += 1
        else:
            wins[outcome.winner] += 1
            points[outcome.winner] += outcome.points
        if log:
            log.mkdir(parents=True, exist_ok=True)
            (log / f"game-{g:05d}.json").write_text(json.dumps(game.events))
        if bar:
            bar.update()
    if bar:
        bar.close()
    seconds = time.perf_counter() - t0
    return {
        "games": games, "players": players, "bots": bots, "seed": seed, "rules": rules.name,
        "win_rate": [round(w / games, 4) for w in wins],
        "average_points": [round(p / w, 2) if w else None for p, w in zip(points, wins)],
        "draw_rate": round(draws / games, 4), "turns_per_game": round(turns / games, 1),
        "games_per_second": round(games / seconds, 1), "totals": match.totals,
    }


def _simulate(args) -> int:
    rules = resolve_rules(args.rules, stop_at=args.stop_at) if args.stop_at else resolve_rules(args.rules)
    bots = [b.strip() for b in args.bots.split(",")] if args.bots else ["greedy"] + ["random"] * (args.players - 1)
    stats = simulate(args.players, args.games, bots, args.seed, rules, args.log, progress=not args.json)
    if args.json:
        print(json.dumps(stats))
        return 0
    print(f"{stats['games']} games, {stats['players']} players, {rules.name} rules: "
          f"{stats['draw_rate']:.1%} draw games, {stats['turns_per_game']} turns a game, "
          f"{stats['games_per_second']} games/s")
    for seat, (bot, rate, avg) in enumerate(zip(bots, stats["win_rate"], stats["average_points"])):
        print(f"  seat {seat} {bot:<7} wins {rate:6.1%}   average points when winning "
              f"{avg if avg is not None else '-':<6}   match total {stats['totals'][seat]:+d}")
    return 0


def _move_line(ev: dict) -> str | None:
    verb, *rest = ev["move"].split()
    if verb == "draw":
        return f"  draws {ev.get('card', '?')}"
    if verb == "discard":
        return f"  discards {rest[0]}"
    if verb in ("meld", "claim"):
        return f"  P{rest[0]} {verb}s {' '.join(rest[1:])}"
    return f"  P{rest[0]} declares the dealt hand a win" if verb == "win" else None


def _end_line(ev: dict) -> str:
    if ev["winner"] is None:
        return f"end: {ev['reason']}"
    pays = ", ".join(f"P{p['payer']} pays {p['amount']}" for p in ev["payments"])
    return f"end: P{ev['winner']} wins ({ev['reason']}) with {ev['points']} points; {pays}"


GAME_LINES = {"move": _move_line, "end": _end_line,
              "resolved": lambda ev: f"  -> P{ev['player']} takes it ({ev['claim']}): {' '.join(ev['cards'])}"}
"""How ``play replay`` tells each event of a game's log."""


def _replay(args) -> int:
    events = read_log(args.log)
    if events[0].get("type") == "match":
        raise SisepaiError(f"{args.log} is a Gang of Four log: use sisepai gof replay")
    game = Game.replay(events)
    if args.json:
        print(json.dumps(game.state(), ensure_ascii=False))
        return 0
    d = events[0]
    print(f"deal: {d['players']} players, {d['rules']} rules, dealer P{d['dealer']}")
    for line in event_lines(events[1:], GAME_LINES):
        print(line)
    print(f"replay checked: {len(events)} events")
    return 0
