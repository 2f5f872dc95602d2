"""The ``sisepai`` command line. Each subcommand has ``--help`` with examples.

Commands that need the vision or service extras import them only when run, so the engine's
commands start fast and work on a lean install.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import entry_points
from typing import Callable, Sequence

from .batch import BatchScorer
from .cards import ALL_CARDS, format_cards, parse_card_id
from .claims import RELATIONS
from .errors import SisepaiError
from .rules import resolve_rules
from .scoring import prepare_hand, score, score_answer, to_ids

EPILOG = """\
card notation: a suit letter G W Y R (Green, White, Yellow, Red) then a rank letter
  K A E R H C P (General, Advisor, Elephant, Chariot, Horse, Cannon, Soldier), or J for a
  joker. Lower case and characters work too: gk, G將, R俥, w包.

examples:
  sisepai score GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK
  sisepai score --json - < hands.txt            # one hand a line, one JSON object a line
  sisepai advise "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC" --shown YK
  sisepai demo
"""


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and a one-line error, never a traceback."""

    def error(self, message: str) -> None:  # noqa: D401
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="seesek", metavar="PRESET|FILE.toml",
                   help="scoring preset: seesek (default) or tusac, or a TOML file that overrides points")
    p.add_argument("--four-card-points", type=int, choices=(2, 4), default=None,
                   help="points for four-card melds in seesek (2, or 4 in some households)")
    p.add_argument("--jokers", type=int, default=None, metavar="N", help="jokers in the deck (0 to 8, default 5)")
    p.add_argument("--packs", type=int, default=None, metavar="N", help="packs shuffled together (default 1)")


def _rules_from(args: argparse.Namespace):
    options = {}
    if args.four_card_points is not None:
        options["four_card_points"] = args.four_card_points
    if args.jokers is not None:
        options["jokers"] = args.jokers
    if args.packs is not None:
        options["packs"] = args.packs
    return resolve_rules(args.rules, **options)


def _cards_arg(values: Sequence[str]) -> str:
    """The cards given on the command line as one text; none at all (``score ""``) is an error."""
    text = " ".join(values).strip()
    if not text:
        raise SisepaiError("give the hand's cards, e.g. GK GA GE ... (codes or characters, J for a joker)")
    return text


# --- score -------------------------------------------------------------------------------------

def _cmd_score(args: argparse.Namespace) -> int:
    rules = _rules_from(args)
    if args.cards == ["-"]:
        if not args.json:
            raise SisepaiError("reading hands from standard input needs --json (one JSON object a line)")

        bad = BatchScorer(rules).run(sys.stdin, sys.stdout)
        if bad:
            print(f"sisepai score: {bad} bad line(s), reported as {{\"error\": ...}} objects", file=sys.stderr)
        return 1 if bad else 0
    if not args.cards:
        raise SisepaiError("give the hand's cards, e.g. sisepai score GK GA GE ..., or - to read lines")
    _cards_arg(args.cards)

    text = _cards_arg(args.cards)
    ids, exposed = prepare_hand(text, args.exposed, rules)
    result = score(ids, exposed, rules, winning_card=args.winning_card, self_drawn=not args.claimed)
    n = len(ids) + sum(len(m) for m in exposed)
    if args.json:
        print(json.dumps(score_answer(ids, exposed, result), ensure_ascii=False))
        return 0
    print(f"hand ({n} cards): {format_cards(ids, glyphs=True)}"
          + "".join(f" | {m.label()}" for m in exposed))
    if result is None:
        if n != rules.hand_size:
            print(f"not a win: a winning hand has {rules.hand_size} cards, this one has {n}")
        else:
            print("not a win: the concealed cards do not split into melds")
        if n <= rules.hand_size:
            from .advice import distance_to_win  # lazy: the advice tables, which scoring does not need

            print(f"distance to win: {distance_to_win(ids, exposed, rules)} card(s)")
        return 0
    check = "odd, checksum ok" if result.odd else "EVEN: check the cards, a winning total is odd"
    print(f"winning hand under {rules.name}: {result.total} points ({check})")
    print(result.table())
    return 0


# --- advise ------------------------------------------------------------------------------------

def _cmd_advise(args: argparse.Namespace) -> int:
    from .advice import advise  # lazy: the advice tables, which scoring does not need

    rules = _rules_from(args)

    ids, exposed = prepare_hand(_cards_arg(args.cards), args.exposed, rules)
    visible = to_ids(args.visible) if args.visible else []
    shown = to_ids([args.shown])[0] if args.shown else None
    advice = advise(ids, shown, exposed, visible, args.relation, rules)
    if args.json:
        print(json.dumps(advice.to_dict(), ensure_ascii=False))
        return 0
    print(f"hand ({len(ids)} concealed): {format_cards(ids, glyphs=True)}"
          + "".join(f" | {m.label()}" for m in exposed))
    dist = advice.distance
    print(f"distance to win: {dist}" + (" (a win)" if dist == 0 else " (ready)" if dist == 1 else ""))
    if advice.waits:
        print("waits: " + ", ".join(f"{ALL_CARDS[_id(w.card)].label} ({w.unseen} unseen)" for w in advice.waits))
    if shown is not None:
        card = ALL_CARDS[shown]
        if advice.claims:
            print(f"claims on {card.label} ({args.relation} card):")
            for c in advice.claims:
                print(f"  {c.priority}  {c.kind.value:<10} {c.meld.label()}")
        else:
            print(f"no claim on {card.label} ({args.relation} card)")
        best = advice.best
        if best and best.claim:
            line = f"best: {best.claim.kind.value} with {best.claim.meld.label()}"
            if best.wins:
                line += f", a win worth {best.points} points"
            elif best.discard:
                line += f", then discard {ALL_CARDS[_id(best.discard.card)].label} (distance {best.distance})"
            print(line)
        else:
            print(f"best: let {card.label} go (distance stays {dist})")
    elif advice.discard:
        d = advice.discard
        print(f"discard: {ALL_CARDS[_id(d.card)].label} (distance after: {d.distance}"
              + (f", {d.live_waits} live waits" if d.waits else "") + ")")
    return 0


def _id(code: str) -> int:
    return parse_card_id(code)


# --- demo --------------------------------------------------------------------------------------

DEMO_HAND = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"


def _cmd_demo(args: argparse.Namespace) -> int:
    print("sisepai demo: the Four Color Cards engine\n")
    from .advice import advise  # lazy: the advice tables, which scoring does not need

    print(f"A 20-card hand: {format_cards(DEMO_HAND.split(), glyphs=True)}")
    advice = advise(DEMO_HAND)
    print(f"It is ready (distance {advice.distance}); it waits on: "
          + ", ".join(f"{ALL_CARDS[_id(w.card)].label}×{w.unseen}" for w in advice.waits))
    shown = advise(DEMO_HAND, shown="YK")
    print(f"\nYou draw Y帥: claims {', '.join(c.kind.value for c in shown.claims)}; "
          f"best: {shown.best.claim.kind.value if shown.best.claim else 'let it go'}")
    result = score(DEMO_HAND + " YK")
    assert result is not None
    print(f"\nThe winning hand scores {result.total} points under seesek:")
    print(result.table())
    print("\nTry: sisepai score --help, sisepai advise --help")
    return 0


# --- main --------------------------------------------------------------------------------------

Command = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sisepai",
        description="Four Color Cards (四色牌, See Sek, Tứ Sắc): score hands, get advice, and more.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    parser.commands = sub.choices  # every command's name, the plugins' too once they are loaded

    p = sub.add_parser("score", help="score a hand (or many, one a line, with --json -)",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Is the hand a win, and what does its best split score?",
                       epilog="""examples:
  sisepai score GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK
  sisepai score --rules tusac --json "GK GA GE ..."
  sisepai score --json - < hands.txt   # one hand a line; '|' separates exposed melds:
                                       # GK GA GE ... | GR GH GC
output of --json: {"cards": [...], "winning": true|false, "points": int|null, "melds": [[...]]|null}
  a bad line gives {"error": "..."} and the other lines are still scored (exit status 1).""")
    p.add_argument("cards", nargs="*", metavar="CARDS", help="the cards, or - to read one hand a line from stdin")
    p.add_argument("--exposed", action="append", default=[], metavar="MELD",
                   help="an exposed meld, e.g. --exposed 'GR GH GC' (repeatable); it stays fixed")
    p.add_argument("--winning-card", metavar="CARD", help="the card that completed the hand (tusac scoring)")
    p.add_argument("--claimed", action="store_true",
                   help="the winning card was claimed from another player (tusac: its meld counts as exposed)")
    p.add_argument("--json", action="store_true", help="machine output")
    _add_rules_args(p)
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("advise", help="waits, claims, best meld and best discard for a hand",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Advice for a hand: distance to win, waits, and what to do with a shown card.",
                       epilog="""examples:
  sisepai advise "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"
  sisepai advise "..." --shown WH --relation previous     # the player before you discarded WH
  sisepai advise "..." --exposed "GR GH GC" --visible "WP YP"  # cards seen elsewhere on the table""")
    p.add_argument("cards", nargs="+", metavar="CARDS", help="your concealed cards")
    p.add_argument("--shown", metavar="CARD", help="a card just drawn or discarded")
    p.add_argument("--relation", choices=RELATIONS, default="own",
                   help="whose card --shown is: your own draw (default), the previous player's, or another's")
    p.add_argument("--exposed", action="append", default=[], metavar="MELD", help="your exposed melds (repeatable)")
    p.add_argument("--visible", default="", metavar="CARDS", help="other cards face up on the table")
    p.add_argument("--json", action="store_true", help="machine output")
    _add_rules_args(p)
    p.set_defaults(func=_cmd_advise)

    p = sub.add_parser("demo", help="a short tour of the engine")
    p.set_defaults(func=_cmd_demo)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return parser


_EXTRA_COMMANDS: list[Callable] = []


COMMAND_GROUP = "sisepai.commands"
"""The entry-point group other packages register their subcommands in (``pyproject.toml``): the
engine names no higher layer; each plugin imports its heavy modules only when its command runs."""


def _register_extras() -> None:
    """Add every installed plugin's subcommands, in the order of their entry-point names."""

    if _EXTRA_COMMANDS:
        return
    for ep in sorted(entry_points(group=COMMAND_GROUP), key=lambda e: e.name):
        try:
            register = ep.load()
        except ModuleNotFoundError:  # a plugin whose package or extra is not installed: its commands are absent
            continue
        _EXTRA_COMMANDS.append(register)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``sisepai`` console script. The engine's own commands load no plugin: a
    scripted ``sisepai score`` starts in the time Python and the engine take, not the time every
    installed command's module takes."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or argv[0] not in parser.commands:
        _register_extras()
        parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except SisepaiError as exc:
        print(f"sisepai {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except (PermissionError, FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
        # a file or folder sisepai must read or write (its home, an output) that is not there or not its: one line
        where = f" {exc.filename}:" if exc.filename else ""
        print(f"sisepai {args.command}: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
