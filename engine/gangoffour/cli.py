"""``sisepai gof``: Gang of Four from the shell."""

from __future__ import annotations

import argparse
import json
import sys

from ..arguments import number_in
from ..logs import event_lines, read_log
from .advice import advise_play
from .cards import parse_gof_hand
from .game import GofMatch
from .legal import legal_plays, may_pass
from .plays import beats, parse_play
from .scoring import deal_scores
from .simulate import simulate

EPILOG = """\
cards: g1..g10, y1..y10, r1..r10 (green, yellow, red), m1 (Student Leader), vp (Vice Premier),
pr (President). Poker cards work too: 7C (clubs = green), 7S (spades = yellow), 7H (hearts = red),
AD (Student Leader), KS (President), joker (Vice Premier). A play is its cards in one argument.

examples:
  sisepai gof beats "r5 g5" "y5 y5" --json
  sisepai gof score 0 3 8 16 --json
  sisepai gof legal "g2 y2 r7 vp m1 g3 g4 g5" --on "g6"
  sisepai gof advise "g2 y2 r7 vp" --on "r5"
  sisepai gof simulate --games 100 --seed 1
"""


def register(sub: argparse._SubParsersAction) -> None:
    gof = sub.add_parser("gof", help="Gang of Four: compare plays, score, legal moves, advice, simulation",
                         description="Gang of Four, the climbing game (RULES.md).", epilog=EPILOG,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    gsub = gof.add_subparsers(dest="gof_command", metavar="COMMAND", parser_class=sub._parser_class)
    gof.set_defaults(func=lambda args: (gof.print_help(), 2)[1])

    p = gsub.add_parser("beats", help="does PLAY beat PREVIOUS?")
    p.add_argument("play", metavar="PLAY")
    p.add_argument("previous", metavar="PREVIOUS")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_beats)

    p = gsub.add_parser("score", help="scores for the cards left in each hand")
    p.add_argument("left", nargs="+", type=_count, metavar="N", help="cards left in each hand (0 to 16)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_score)

    p = gsub.add_parser("legal", help="every legal play from a hand")
    p.add_argument("hand", metavar="HAND")
    p.add_argument("--on", metavar="PLAY", help="the play to beat (leading when absent)")
    p.add_argument("--first-lead", action="store_true", help="the match's first lead: must include m1")
    p.add_argument("--next-has-one", action="store_true", help="the next player holds one card")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_legal)

    p = gsub.add_parser("advise", help="suggest a play and say why")
    p.add_argument("hand", metavar="HAND")
    p.add_argument("--on", metavar="PLAY", help="the play to beat (leading when absent)")
    p.add_argument("--first-lead", action="store_true")
    p.add_argument("--next-has-one", action="store_true")
    p.add_argument("--opponent-cards", type=int, default=16, metavar="N",
                   help="the fewest cards any opponent holds (default 16)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_advise)

    p = gsub.add_parser("simulate", help="simulate matches to 100 between bots")
    p.add_argument("--games", type=int, default=100, metavar="N")
    p.add_argument("--bots", default="greedy,random,random,random", help="four of: greedy, random")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", metavar="DIR", help="write each match's JSON event log here")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_simulate)

    p = gsub.add_parser("replay", help="re-play and check a match's event log")
    p.add_argument("log", metavar="LOG")
    p.set_defaults(func=_replay)


_count = number_in(int, 0, 16, "{text!r} is not a number of cards", "{value}: a hand holds 0 to 16 cards")


def _given(ev: dict) -> str:
    return f"  P{ev['from']} gives {ev['card']} to P{ev['to']}"


MATCH_LINES = {
    "deal": lambda ev: f"-- deal {ev['deal']} (direction {'left' if ev['direction'] > 0 else 'right'})",
    "play": lambda ev: f"  P{ev['player']} plays {' '.join(ev['cards'])} ({ev['kind']})",
    "pass": lambda ev: f"  P{ev['player']} passes",
    "give": _given, "return": _given,
    "catch": lambda ev: f"  P{ev['by']} catches P{ev['target']} without a last-card announcement",
    "deal_end": lambda ev: f"  P{ev['winner']} goes out; scores {ev['scores']}, totals {ev['totals']}",
}
"""How ``gof replay`` tells each event of a match's log."""


def _beats(args) -> int:
    play, previous = parse_play(args.play), parse_play(args.previous)
    result = beats(play, previous)
    if args.json:
        print(json.dumps({"beats": result, "play": play.kind, "previous": previous.kind}))
    else:
        print(f"{play} ({play.kind}) {'beats' if result else 'does not beat'} {previous} ({previous.kind})")
    return 0


def _score(args) -> int:
    scores = deal_scores(args.left)
    if args.json:
        print(json.dumps({"scores": scores}))
    else:
        for i, (n, s) in enumerate(zip(args.left, scores)):
            print(f"player {i}: {n:>2} cards left -> {s:>3} points")
    return 0


def _hand(text: str) -> list[int]:
    return parse_gof_hand(text)


def _legal(args) -> int:
    hand = _hand(args.hand)
    current = parse_play(args.on) if args.on else None
    plays = legal_plays(hand, current, first_lead=args.first_lead, next_has_one_card=args.next_has_one)
    can_pass = may_pass(hand, current, next_has_one_card=args.next_has_one)
    if args.json:
        print(json.dumps({"plays": [p.to_dict() for p in plays], "can_pass": can_pass}))
    else:
        for p in plays:
            print(f"{p.kind:<15} {p}")
        print(f"{len(plays)} legal plays" + ("; passing is allowed" if can_pass else ""))
    return 0


def _advise(args) -> int:
    hand = _hand(args.hand)
    current = parse_play(args.on) if args.on else None
    a = advise_play(hand, current, first_lead=args.first_lead, next_has_one_card=args.next_has_one,
               opponents_min_cards=args.opponent_cards)
    if args.json:
        print(json.dumps(a.to_dict()))
    else:
        print(f"{'play ' + str(a.play) if a.play else 'pass'}: {a.reason}")
    return 0


def _simulate(args) -> int:
    bots = [b.strip() for b in args.bots.split(",")]
    stats = simulate(args.games, bots, args.seed, args.log, progress=not args.json)
    if args.json:
        print(json.dumps(stats))
        return 0
    print(f"{stats['games']} matches to 100, {stats['deals']} deals ({stats['deals_per_game']} a match), "
          f"{stats['plays_per_deal']} plays a deal")
    for seat, (bot, rate, avg) in enumerate(zip(stats["bots"], stats["win_rate"], stats["average_total"])):
        print(f"  seat {seat} {bot:<7} wins {rate:6.1%}   average total {avg:6.1f}")
    return 0


def _replay(args) -> int:
    events = read_log(args.log)
    match = GofMatch.replay(events)
    for line in event_lines(events, MATCH_LINES):
        print(line)
    print(f"replay checked: {len(events)} events, final totals {match.totals}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(2)
