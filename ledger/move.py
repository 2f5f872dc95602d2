"""Moving a ledger into another: a family's SQLite history into a club's PostgreSQL ledger.

The source is read from a copy (the family's file is never changed, not even migrated). Every deal
comes across with its time, rules, note, players and payments as they were paid, in one
transaction on the target that checks, before it commits, that each table's totals there grew by
exactly the source's. Either all of it lands, or nothing does.

>>> family = Ledger(":memory:"); _ = family.add_deal("Ann", 11, ["Ann", "Bo"], "Bo")
>>> club = Ledger(":memory:")
>>> move_ledger(family, club, table="family")
{'deals': 1, 'tables': {'family': {'deals': 1, 'totals': {'Ann': 11, 'Bo': -11}}}}
>>> club.totals("family")
{'Ann': 11, 'Bo': -11}
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sisepai.engine.errors import SisepaiError

from .db import is_postgres
from .deal_records import record_deal
from .roster import fold, insert_players
from .store import Ledger, check_table_name
from .sums import TABLE_ID, net_totals, table_totals, totals_from_payments


@contextmanager
def open_source(target: str) -> Iterator[Ledger]:
    """The ledger at ``target`` to read from: a SQLite file is opened from a temporary copy, so
    opening it (which migrates an older schema) leaves the original as it was."""
    if is_postgres(target):
        ledger = Ledger(target, pool=1)
        try:
            yield ledger
        finally:
            ledger.close()
        return
    path = Path(target).expanduser()
    if not path.is_file():
        raise SisepaiError(f"{target}: no such ledger file")
    with tempfile.TemporaryDirectory(prefix="sisepai-ledger-") as tmp:
        copy = Path(tmp) / "ledger.sqlite"
        shutil.copyfile(path, copy)
        for suffix in ("-wal",):  # a WAL file holds committed deals not yet in the main file
            if Path(str(path) + suffix).is_file():
                shutil.copyfile(str(path) + suffix, str(copy) + suffix)
        ledger = Ledger(copy, pool=1)
        try:
            yield ledger
        finally:
            ledger.close()


def _players_of(deal: dict) -> list[str]:
    if deal["players"]:
        return deal["players"]
    seen = [deal["winner"]] if deal["winner"] else []  # a deal recorded before deals kept their players
    for p in deal["payments"]:
        seen += [n for n in (p["payer"], p["payee"]) if n not in seen]
    return seen


def _paid(deal: dict) -> list[tuple[str, str, int]]:
    return [(p["payer"], p["payee"], p["amount"]) for p in deal["payments"]]


def move_ledger(source: Ledger, target: Ledger, table: str | None = None, append: bool = False) -> dict:
    """Copy every deal of ``source`` into ``target``, at ``table`` (or each at its own table's
    name). A target table that already has deals is refused unless ``append``. Returns what moved,
    and each target table's totals from the moved deals."""
    deals = source.deals()
    if table is not None:
        check_table_name(table)
    placed = [(table or d["table"], d) for d in deals]
    names = list(dict.fromkeys([t for t, _ in placed] + ([table] if table else [])))
    expected: dict[str, dict[str, int]] = {}
    for t, d in placed:
        net_totals(_paid(d), totals=expected.setdefault(t, {}))
    with target.db.transaction() as tx:
        # a table the target has in another case is that table (roster.fold)
        found = {t: tx.one("SELECT name FROM rooms WHERE fold = ? ORDER BY id LIMIT 1", (fold(t),)) for t in names}
        names = list(dict.fromkeys(row[0] if row else t for t, row in found.items()))
        placed = [(found[t][0] if found[t] else t, d) for t, d in placed]
        expected = {(found[t][0] if found[t] else t): v for t, v in expected.items()}
        before = {}
        for t in names:
            if tx.one("SELECT 1 FROM rooms WHERE name = ?", (t,)) is None:
                tx.run("INSERT INTO rooms (name, created, fold) VALUES (?, ?, ?)",
                       (t, min([d["created"] for u, d in placed if u == t], default=0.0), fold(t)))
            elif not append and tx.one(f"SELECT count(*) FROM deals WHERE room_id = {TABLE_ID}", (t,))[0]:
                raise SisepaiError(f"the target's table {t!r} has deals already: move into a new table "
                                   f"(--table NAME), or add to it with --append")
            before[t] = table_totals(tx, t)
        insert_players(tx, source.players(), 0.0)
        for t, d in placed:
            record_deal(tx, t, d, _players_of(d), _paid(d))
        report = {}
        for t in names:
            after = table_totals(tx, t)
            gained = {p: after.get(p, 0) - before[t].get(p, 0) for p in after}
            want = expected.get(t, {})
            summed = {p: v for p, v in after.items() if v}
            if (any(gained.get(p, 0) != want.get(p, 0) for p in set(gained) | set(want)) or sum(after.values()) != 0
                    or summed != totals_from_payments(tx, t)):
                raise SisepaiError(f"table {t!r}: the totals after the move do not match the source's; nothing moved")
            report[t] = {"deals": sum(1 for u, _ in placed if u == t),
                         "totals": {p: v for p, v in gained.items() if p in want or v}}
    return {"deals": len(deals), "tables": report}
