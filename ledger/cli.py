"""``sisepai ledger``: look at a ledger, and move one into another (a family's file into a club's server)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sisepai.engine.errors import SisepaiError

from .db import is_postgres, redact
from .move import move_ledger, open_source
from .roster import changes, manage
from .store import Ledger

EPILOG = """\
a ledger is a SQLite file or a PostgreSQL URL, postgresql://user@host:port/dbname
examples:
  sisepai ledger show --db ~/.local/share/sisepai/ledger.sqlite
  sisepai ledger show --db postgresql://sisepai@db.local/club --table "table 2"
  sisepai ledger check --db postgresql://sisepai@db.local/club
  sisepai ledger player rename --db club.sqlite ann Ann
  sisepai ledger player merge --db club.sqlite Annie Ann     # Annie's deals and totals become Ann's
  sisepai ledger table retire --db club.sqlite "table 2"
  sisepai ledger player delete --db club.sqlite Typo       # only a name with no deals
  sisepai ledger changes --db club.sqlite
  sisepai ledger migrate --from ~/.local/share/sisepai/ledger.sqlite \\
      --to postgresql://sisepai@db.local/club --table family
The source is read from a copy and never changed. The move is one transaction on the target,
checked before it commits: each table's totals there grow by exactly the source's.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ledger", help="show and check a ledger, rename, merge, retire or delete its players and tables, list the changes, move one into a club's",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
                       description="The game-night ledger outside the service.")
    lsub = p.add_subparsers(dest="ledger_command", metavar="COMMAND", parser_class=sub._parser_class)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])

    m = lsub.add_parser("migrate", help="move every deal of one ledger into another, and check the totals",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    m.add_argument("--from", dest="source", required=True, metavar="FILE|URL", help="the ledger to move (not changed)")
    m.add_argument("--to", dest="target", required=True, metavar="URL|FILE", help="the ledger to move into")
    m.add_argument("--table", default=None, metavar="NAME",
                   help="put every deal at this table of the target (default: each at its own table's name)")
    m.add_argument("--append", action="store_true", help="add to target tables that have deals already")
    m.add_argument("--json", action="store_true", help="print what moved as JSON")
    m.set_defaults(func=_migrate)

    s = lsub.add_parser("show", help="a ledger's tables and totals", epilog=EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--db", required=True, metavar="FILE|URL")
    s.add_argument("--table", default=None, metavar="NAME", help="one table's totals (default: the club's)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_show)

    c = lsub.add_parser("check", help="check a ledger: running totals against payments, totals summing to zero",
                        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--db", required=True, metavar="FILE|URL")
    c.set_defaults(func=_check)

    for kind in ("player", "table"):
        k = lsub.add_parser(kind, help=f"rename, merge, retire or delete a {kind} (every deal kept)", epilog=EPILOG,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        k.add_argument("action", choices=("rename", "merge", "retire", "delete"),
                       help="rename NAME OTHER; merge NAME into OTHER (NAME's deals and totals move there; not into "
                            "a retired one); retire NAME (its history stays; writing the name again brings it back); "
                            "delete NAME (only one with no deals)")
        k.add_argument("name", metavar="NAME")
        k.add_argument("other", metavar="OTHER", nargs="?", help="the new name (rename), or the name that stays (merge)")
        k.add_argument("--db", required=True, metavar="FILE|URL", help="the ledger to change (in place)")
        k.set_defaults(func=_manage, kind=kind)

    h = lsub.add_parser("changes", help="the renames, merges, retirements and deletions, oldest first", epilog=EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    h.add_argument("--db", required=True, metavar="FILE|URL")
    h.add_argument("--json", action="store_true")
    h.set_defaults(func=_changes)


def _migrate(args) -> int:
    if args.source == args.target:
        raise SisepaiError("--from and --to name the same ledger")
    with open_source(args.source) as source:
        target = Ledger(args.target, pool=1)
        try:
            report = move_ledger(source, target, table=args.table, append=args.append)
        finally:
            target.close()
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"moved {report['deals']} deals into {redact(args.target)}; totals checked, equal to the source's:")
    for name, t in report["tables"].items():
        line = ", ".join(f"{p} {v:+d}" for p, v in t["totals"].items()) or "no payments"
        print(f"  table {name!r}: {t['deals']} deals; {line}")
    return 0


def _show(args) -> int:
    with open_source(args.db) as ledger:
        if args.table is not None and not ledger.has_table(args.table):
            raise SisepaiError(f"no table named {args.table!r}; the tables: "
                               + ", ".join(t["name"] for t in ledger.tables()))
        tables, totals = ledger.tables(), ledger.totals(args.table)
    if args.json:
        print(json.dumps({"tables": tables, "totals": totals}))
        return 0
    print("tables: " + ", ".join(f"{t['name']} ({t['deals']} deals)" for t in tables))
    print(f"totals {'at ' + repr(args.table) if args.table else 'club-wide'}:")
    for p, v in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {p:20} {v:+d}")
    return 0


def _check(args) -> int:
    """Exit 0 when the ledger is sound, 1 with one line a problem when it is not."""

    with open_source(args.db) as ledger:
        problems = ledger.check()
    for line in problems:
        print(line)
    if not problems:
        print("ledger ok: every table's running totals agree with its payments and sum to zero")
    return 1 if problems else 0


def _open_in_place(target: str):
    """The ledger at ``target`` to change: a SQLite file must exist (no new ledger by a typo)."""

    if not is_postgres(target) and not Path(target).expanduser().is_file():
        raise SisepaiError(f"{target}: no such ledger file")
    return Ledger(target, pool=1)


def _manage(args) -> int:
    if args.action in ("rename", "merge") and not args.other:
        raise SisepaiError(f"{args.kind} {args.action} needs two names: NAME and "
                           + ("the new name" if args.action == "rename" else "the name to merge into"))
    ledger = _open_in_place(args.db)
    try:
        done = manage(ledger, args.kind, args.action, args.name, to=args.other if args.action == "rename" else None,
                      into=args.other if args.action == "merge" else None)
    finally:
        ledger.close()
    said = {"rename": f"renamed to {done.get('to')!r}", "merge": f"merged into {done.get('into')!r}",
            "retire": "retired (its history stays)", "delete": "deleted (it had no deals)"}[args.action]
    print(f"{args.kind} {done['name']!r} {said}")
    return 0


def _changes(args) -> int:

    ledger = _open_in_place(args.db)
    try:
        rows = changes(ledger)
    finally:
        ledger.close()
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(r["created"]))
        print(f"{stamp}  {r['kind']:6} {r['action']:6} {r['name']!r}" + (f" -> {r['other']!r}" if r["other"] else ""))
    if not rows:
        print("no renames, merges, retirements or deletions")
    return 0
