"""``sisepai ledger``: look at a ledger, and move one into another (a family's file into a club's server)."""

from __future__ import annotations

import argparse
import json

EPILOG = """\
a ledger is a SQLite file or a PostgreSQL URL, postgresql://user@host:port/dbname
examples:
  sisepai ledger show --db ~/.local/share/sisepai/ledger.sqlite
  sisepai ledger show --db postgresql://sisepai@db.local/club --table "table 2"
  sisepai ledger check --db postgresql://sisepai@db.local/club
  sisepai ledger migrate --from ~/.local/share/sisepai/ledger.sqlite \\
      --to postgresql://sisepai@db.local/club --table family
The source is read from a copy and never changed. The move is one transaction on the target,
checked before it commits: each table's totals there grow by exactly the source's.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ledger", help="show a ledger, or move one into a club's (migrate)",
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


def _migrate(args) -> int:
    from sisepai.engine.errors import SisepaiError

    from .db import redact
    from .ledger_move import move_ledger, open_source
    from .store import Ledger

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
    from .ledger_move import open_source

    with open_source(args.db) as ledger:
        if args.table is not None and not ledger.has_table(args.table):
            from sisepai.engine.errors import SisepaiError

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
    from .ledger_move import open_source

    with open_source(args.db) as ledger:
        problems = ledger.check()
    for line in problems:
        print(line)
    if not problems:
        print("ledger ok: every table's running totals agree with its payments and sum to zero")
    return 1 if problems else 0
