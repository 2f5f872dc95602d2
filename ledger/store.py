"""The ledger: players, tables (rooms), deals, who paid whom, running totals per table and
club-wide, undo, CSV. It lives in an embedded SQLite file (the default, one table at home) or on a
PostgreSQL server that several service processes share (a club); :mod:`.db` speaks to both.

Every write is one transaction, so a crash mid-write leaves the ledger as it was, and a deal
acknowledged is committed. Writes run one at a time (SQLite's writer lock; on PostgreSQL one
advisory lock, :data:`.db.WRITER_LOCK`, says why), so "undo" removes the last deal of that table
and no other, and a rename or merge never interleaves with a deal. The schema is versioned; :data:`MIGRATIONS`, the same on
both databases, brings any older ledger up to date when it opens.

>>> store = Ledger(":memory:")
>>> store.add_deal(winner="Ann", points=11, players=["Ann", "Bo", "Cy", "Di"], discarder="Bo")["payments"]
[{'payer': 'Bo', 'payee': 'Ann', 'amount': 11}]
>>> store.totals()
{'Ann': 11, 'Bo': -11, 'Cy': 0, 'Di': 0}
>>> _ = store.add_table("patio"); _ = store.add_deal("Cy", 5, ["Cy", "Di"], table="patio")
>>> store.totals("patio"), store.totals()["Cy"]
({'Cy': 5, 'Di': -5}, 5)
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Iterator

from sisepai.engine.errors import SisepaiError
from sisepai.engine.rules import Rules

from .csv_safe import safe_writer
from .db import connect, migrate, write
from .deal_records import (
    add_to_balances,
    check_cards_score,
    check_points_total,
    check_space_for_players,
    checked_hand,
    deal_payments,
    payment_answers,
    record_deal,
    recorded_win,
)
from .names import clean_name
from .roster import (
    DEFAULT_TABLE,
    UnknownName,
    fill_folds,
    fold,
    hold_one_per_fold,
    insert_players,
    known_players,
    known_table,
    names_held_twice,
)
from .sums import TABLE_ID, ledger_problems, table_totals

MIGRATIONS = [
    # 1: players, deals, payments
    """
    CREATE TABLE players (id {id}, name TEXT UNIQUE NOT NULL, created {real} NOT NULL);
    CREATE TABLE deals (id {id}, created {real} NOT NULL, winner TEXT, points INTEGER NOT NULL,
                        rules TEXT NOT NULL DEFAULT 'seesek', source TEXT NOT NULL DEFAULT 'manual',
                        cards TEXT);
    CREATE TABLE payments (id {id}, deal_id INTEGER NOT NULL REFERENCES deals(id) ON DELETE CASCADE,
                           payer TEXT NOT NULL, payee TEXT NOT NULL, amount INTEGER NOT NULL);
    """,
    # 2: a note on each deal
    "ALTER TABLE deals ADD COLUMN note TEXT NOT NULL DEFAULT '';",
    # 3: tables (rooms) of a club; each deal belongs to one, and keeps who played it
    """
    CREATE TABLE rooms (id {id}, name TEXT UNIQUE NOT NULL, created {real} NOT NULL);
    INSERT INTO rooms (name, created) VALUES ('main', 0);
    ALTER TABLE deals ADD COLUMN room TEXT NOT NULL DEFAULT 'main';
    ALTER TABLE deals ADD COLUMN players TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX deals_by_room ON deals (room, id);
    CREATE INDEX payments_by_deal ON payments (deal_id);
    """,
    # 4: running totals per table and player, kept with each deal, so reading them is not a scan
    """
    CREATE TABLE balances (room TEXT NOT NULL, player TEXT NOT NULL, total INTEGER NOT NULL,
                           PRIMARY KEY (room, player));
    INSERT INTO balances (room, player, total)
        SELECT room, player, sum(delta) FROM (
            SELECT d.room AS room, p.payee AS player, p.amount AS delta FROM payments p JOIN deals d ON d.id = p.deal_id
            UNION ALL
            SELECT d.room, p.payer, -p.amount FROM payments p JOIN deals d ON d.id = p.deal_id) moves
        GROUP BY room, player;
    """,
    # 5: deal ids are never given twice: the last one given, whatever was undone since
    """
    CREATE TABLE deal_ids (last BIGINT NOT NULL);
    INSERT INTO deal_ids (last) SELECT coalesce(max(id), 0) FROM deals;
    """,
    # 6: names compared by their fold (roster.fold, filled in on opening), players and tables
    # retired, and a log of renames, merges and retirements
    """
    ALTER TABLE players ADD COLUMN fold TEXT;
    ALTER TABLE players ADD COLUMN retired {real};
    ALTER TABLE rooms ADD COLUMN fold TEXT;
    ALTER TABLE rooms ADD COLUMN retired {real};
    CREATE INDEX players_by_fold ON players (fold);
    CREATE INDEX rooms_by_fold ON rooms (fold);
    CREATE TABLE name_changes (id {id}, created {real} NOT NULL, kind TEXT NOT NULL, action TEXT NOT NULL,
                               name TEXT NOT NULL, other TEXT);
    """,
    # 7: one player and one table per folded name, held by the database (roster.hold_one_per_fold):
    # two spellings kept from before names were folded are told apart by `twin` until merged
    """
    ALTER TABLE players ADD COLUMN twin BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE rooms ADD COLUMN twin BIGINT NOT NULL DEFAULT 0;
    """,
    # 8: a deal names its table by the table's id (a rename cannot strand it); `room` keeps the name
    # the table had when the deal was recorded, and is no longer read
    """
    ALTER TABLE deals ADD COLUMN room_id BIGINT REFERENCES rooms(id);
    UPDATE deals SET room_id = (SELECT r.id FROM rooms r WHERE r.name = deals.room);
    CREATE INDEX deals_by_room_id ON deals (room_id, id);
    """,
    # 9: the Vietnamese preset's name (engine.rules.FORMER_NAMES): deals recorded as `korean` read
    # as the `tusac` deals they are
    "UPDATE deals SET rules = 'tusac' WHERE rules = 'korean';",
]

MAX_TABLES = 200
"""A club has at most this many open tables (retired ones do not count): bounds the work of listing them."""
CSV_PAGE = 1000
"""The CSV export reads this many deals at a time."""
PLAYERS_PAGE = 100
"""A page of players holds this many at most; the ledger view shows this many club-wide."""


def check_table_name(name: str) -> str:
    """``name`` normalised if it is a table's name (:func:`.names.clean_name`: letters of any
    script, digits, spaces and punctuation but slashes, 1 to 40 characters, nothing invisible),
    else a :class:`SisepaiError` in words.

    >>> check_table_name("table 2"), check_table_name("桌子1"), check_table_name("Grandma's table")
    ('table 2', '桌子1', "Grandma's table")
    """
    return clean_name(name, "a table's name", forbid="/\\")  # it names the table's CSV file too


UnknownTable = UnknownName
"""A table (room), or a player, the ledger does not have (answered 404)."""


class NotLastDeal(SisepaiError):
    """An undo that names a deal which is no longer its table's last (answered 409)."""


class Ledger:
    """The ledger in ``target``: a SQLite file (or ``:memory:``) or ``postgresql://user@host:port/db``."""

    def __init__(self, target: str | Path, pool: int = 4):
        self.target = str(target)
        self.db = connect(self.target, pool=pool)
        self.kind = self.db.kind
        migrate(self.db, MIGRATIONS)
        with self.db.transaction() as tx:
            fill_folds(tx)
            hold_one_per_fold(tx)

    @property
    def version(self) -> int:
        with self.db.transaction(write=False) as tx:
            return tx.one("SELECT version FROM schema_version")[0]

    def close(self) -> None:
        self.db.close()

    # --- writes ------------------------------------------------------------------------------

    def add_player(self, name: str) -> dict:
        """Add a player to the club (or bring a retired one back); a name the club has in another
        case is that player."""
        given = _clean(name)

        def work(tx) -> str:
            name = known_players(tx, [given])[given]
            check_space_for_players(tx, [name])
            insert_players(tx, [name], time.time())
            return name
        return {"name": write(self.db, work)}

    def add_table(self, name: str) -> dict:
        """Open a table (a room) of the club, or open a retired one again; opening one that is open
        is no change, and a name the club has in another case is that table."""
        given = check_table_name(name)

        def work(tx) -> str:
            name = given
            row = tx.one("SELECT name, retired FROM rooms WHERE fold = ? ORDER BY id LIMIT 1", (fold(name),))
            if row is None or row[1] is not None:
                if tx.one("SELECT count(*) FROM rooms WHERE retired IS NULL")[0] >= MAX_TABLES:
                    raise SisepaiError(f"the club has {MAX_TABLES} open tables, the most it may have (retire one "
                                       "to open another)", code="tables_full", max=MAX_TABLES)
            if row is None:
                tx.run("INSERT INTO rooms (name, created, fold) VALUES (?, ?, ?)", (name, time.time(), fold(name)))
            else:
                name = row[0]
                tx.run("UPDATE rooms SET retired = NULL WHERE name = ?", (name,))
            return name
        return {"name": write(self.db, work)}

    def add_deal(self, winner: str | None, points: int, players: list[str], discarder: str | None = None,
                 rules: str = "seesek", source: str = "manual", cards: str | None = None, note: str = "",
                 table: str = DEFAULT_TABLE) -> dict:
        """Record a deal at ``table``: the discarder pays the winner, or every other player pays on a
        drawn card. A win recorded with its ``cards`` is recorded once: when the table's last deal is
        the same in every part (winner, players, discarder, rules, points, cards), a second tap or a
        second sighting gives that deal, with ``"repeat": True``, and writes nothing. Any difference,
        or another deal in between, is a new deal. A deal keeps its rules: a win typed by hand
        claims a total some winning hand scores under ``rules``; a win with its ``cards`` (read as
        the engine reads them) claims the total they score.

        >>> store = Ledger(":memory:")
        >>> hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
        >>> first = store.add_deal("Ann", 11, ["Ann", "Bo"], cards=hand, source="auto")
        >>> again = store.add_deal("Ann", 11, ["Ann", "Bo"], cards=" ".join(reversed(hand.split())), source="auto")
        >>> again["id"] == first["id"], again["repeat"], len(store.view()["deals"])
        (True, True, 1)
        """
        players = [_clean(p) for p in players]
        table = check_table_name(table)
        if points < 0 or points > 1000:
            raise SisepaiError(f"points must be 0 to 1000, got {points}", code="points_range", min=0, max=1000)
        if isinstance(points, bool) or not isinstance(points, int):
            raise SisepaiError(f"points must be a whole number, not {points!r}", code="points_range", min=0, max=1000)
        if winner is None and (discarder is not None or points):
            raise SisepaiError("a drawn deal has no winner, so no discarder and no points: name the winner, "
                               "or record the draw with 0 points", code="draw_pays")
        preset = Rules.preset(rules)
        if cards is not None:  # an auto-scored win: the total its cards score
            cards = checked_hand(cards, preset)
            check_cards_score(cards, preset, winner, points)
        named_winner = None if winner is None else _clean(winner)
        named_discarder = None if discarder is None else _clean(discarder)
        named_table = table

        def work(tx) -> dict:
            # each name as the club first wrote it: "ann" at one table is "Ann" at another
            known = known_players(tx, players + [n for n in (named_winner, named_discarder) if n is not None])
            seated = [known[p] for p in players]
            winner, discarder = known.get(named_winner), known.get(named_discarder)
            payments = deal_payments(seated, winner, discarder, points)
            if winner is not None and cards is None:  # a win typed by hand: a total the rules allow
                check_points_total(preset, points)
            table = known_table(tx, named_table, active=True)
            deal = {"created": time.time(), "winner": winner, "points": points, "rules": rules, "source": source,
                    "cards": cards, "note": note}
            same = recorded_win(tx, table, deal, seated, payments)
            if same is not None:  # a second tap, or a second sighting of the same deal
                return {**same, "repeat": True}
            deal_id = record_deal(tx, table, deal, seated, payments)
            return {"id": deal_id, "table": table, "winner": winner, "points": points,
                    "payments": payment_answers(payments), "repeat": False}
        return write(self.db, work)

    def undo(self, table: str = DEFAULT_TABLE, deal: int | None = None) -> dict | None:
        """Remove the last deal of ``table`` (and its payments); ``None`` if that table has none.
        ``deal`` names the deal the user means to remove: when another deal has become the last
        since (another client recorded one), nothing is removed and :class:`NotLastDeal` says so.

        >>> store = Ledger(":memory:")
        >>> first = store.add_deal("Ann", 5, ["Ann", "Bo"])["id"]
        >>> second = store.add_deal("Bo", 7, ["Ann", "Bo"])["id"]
        >>> store.undo(deal=first)
        Traceback (most recent call last):
        ...
        sisepai.ledger.store.NotLastDeal: deal #1 is not the last deal of table 'main' (#2 is): nothing was undone
        >>> store.undo(deal=second)["id"], store.add_deal("Ann", 3, ["Ann", "Bo"])["id"]  # an id is never given twice
        (2, 3)
        """
        named = check_table_name(table)

        def work(tx) -> dict | None:
            table = known_table(tx, named, active=True)
            row = tx.one(f"SELECT id, winner, points FROM deals WHERE room_id = {TABLE_ID} "
                         "ORDER BY id DESC LIMIT 1", (table,))
            if row is None:
                return None
            if deal is not None and row[0] != deal:
                raise NotLastDeal(f"deal #{deal} is not the last deal of table {table!r} (#{row[0]} is): nothing was undone",
                                  code="not_last_deal", deal=deal, last=row[0], table=table)
            payments = tx.rows("SELECT payer, payee, amount FROM payments WHERE deal_id = ?", (row[0],))
            add_to_balances(tx, table, [], payments, -1)
            tx.run("DELETE FROM payments WHERE deal_id = ?", (row[0],))
            tx.run("DELETE FROM deals WHERE id = ?", (row[0],))
            return {"id": row[0], "table": table, "winner": row[1], "points": row[2]}
        return write(self.db, work)

    # --- reads --------------------------------------------------------------------------------

    def view(self, table: str = DEFAULT_TABLE, last: int = 200) -> dict:
        """What the page shows of ``table``, read at one moment: its players, its ``last`` deals, its
        totals and the club's."""
        with self.db.transaction(write=False) as tx:
            table = known_table(tx, table)
            totals = table_totals(tx, table)
            club = table_totals(tx, None, active=True)  # a retired player leaves the club's list and count
            deals = _deals(tx, table, last)
        # a page load lists at most PLAYERS_PAGE players of each, the largest totals first;
        # players_page gives the rest
        shown = _largest(totals)
        return {"table": table, "players": list(shown), "deals": deals,
                "totals": shown, "players_count": len(totals),
                "club_totals": _largest(club), "club_players_count": len(club)}

    def tables(self) -> list[dict]:
        """The club's open tables, oldest first, each with its number of deals."""
        with self.db.transaction(write=False) as tx:
            rows = tx.rows("SELECT r.name, r.created, (SELECT count(*) FROM deals d WHERE d.room_id = r.id) "
                           "FROM rooms r WHERE r.retired IS NULL ORDER BY r.id")
        return [{"name": n, "created": c, "deals": k} for n, c, k in rows]

    def has_table(self, table: str) -> bool:
        with self.db.transaction(write=False) as tx:
            return tx.one("SELECT 1 FROM rooms WHERE fold = ?", (fold(table),)) is not None

    def players(self) -> list[str]:
        """Every player of the club (a table's are the keys of its :meth:`totals`)."""
        with self.db.transaction(write=False) as tx:
            return [r[0] for r in tx.rows("SELECT name FROM players ORDER BY id")]

    def deals(self, table: str | None = None, last: int | None = None) -> list[dict]:
        """The deals of ``table`` (every table's if None), oldest first; only the ``last`` ones if given.
        :class:`UnknownTable` for a table never opened."""
        with self.db.transaction(write=False) as tx:
            if table is not None:
                table = known_table(tx, table)
            return _deals(tx, table, last)

    def totals(self, table: str | None = None) -> dict[str, int]:
        """Each player's running total at ``table``, or club-wide (None). They sum to zero."""
        with self.db.transaction(write=False) as tx:
            return table_totals(tx, table)

    def check(self) -> list[str]:
        """What is wrong with the ledger, if anything (:func:`.sums.ledger_problems`), and the
        players or tables held twice under one folded name (spellings from before names were
        folded, to merge)."""
        with self.db.transaction(write=False) as tx:
            return ledger_problems(tx) + names_held_twice(tx)

    def to_csv(self, table: str | None = None) -> str:
        """The ledger (or one table's) as CSV text; :meth:`iter_csv` gives it in pieces."""
        return "".join(self.iter_csv(table))

    def iter_csv(self, table: str | None = None, page: int = CSV_PAGE) -> Iterator[str]:
        """The ledger (or one table's) as CSV, ``page`` deals at a time, each page read in its own
        short transaction (a deal and its payments always together): memory stays flat however
        long the ledger. A cell that a spreadsheet would run as a formula is defused.

        :class:`UnknownTable` for a table never opened, before the first line."""
        if table is not None:
            with self.db.transaction(write=False) as tx:
                table = known_table(tx, table)
        buf = io.StringIO()
        w = safe_writer(buf)
        w.writerow(["deal", "time", "table", "winner", "points", "rules", "source", "payer", "payee", "amount"])
        after = 0
        while True:
            with self.db.transaction(write=False) as tx:
                deals = _deals_after(tx, table, after, page)
            for d in deals:
                stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(d["created"]))
                head = [d["id"], stamp, d["table"], d["winner"] or "", d["points"], d["rules"], d["source"]]
                if not d["payments"]:
                    w.writerow(head + ["", "", ""])
                for p in d["payments"]:
                    w.writerow(head + [p["payer"], p["payee"], p["amount"]])
            yield buf.getvalue()
            buf.seek(0)
            buf.truncate()
            if len(deals) < page:
                return
            after = deals[-1]["id"]

    def players_page(self, table: str | None = None, offset: int = 0, limit: int = PLAYERS_PAGE) -> dict:
        """One page of players with their totals, at ``table`` or club-wide (the active players), by
        name; and how many there are in all."""
        with self.db.transaction(write=False) as tx:
            if table is not None:
                table = known_table(tx, table)
                total = tx.one("SELECT count(*) FROM balances WHERE room = ?", (table,))[0]
                rows = tx.rows("SELECT player, total FROM balances WHERE room = ? ORDER BY player "
                               "LIMIT ? OFFSET ?", (table, int(limit), int(offset)))
            else:
                total = tx.one("SELECT count(*) FROM players WHERE retired IS NULL")[0]
                rows = tx.rows("SELECT p.name, (SELECT coalesce(sum(b.total), 0) FROM balances b WHERE b.player = p.name) "
                               "FROM players p WHERE p.retired IS NULL ORDER BY p.name LIMIT ? OFFSET ?",
                               (int(limit), int(offset)))
        return {"table": table, "players": [{"name": n, "total": int(t)} for n, t in rows], "count": int(total),
                "offset": offset, "limit": limit}


def _largest(totals: dict[str, int], n: int = PLAYERS_PAGE) -> dict[str, int]:
    """The ``n`` players of ``totals`` with the largest totals either way, by name.

    >>> _largest({"Ann": 1, "Bo": -9, "Cy": 3}, 2)
    {'Bo': -9, 'Cy': 3}
    """
    if len(totals) <= n:
        return totals
    keep = sorted(totals, key=lambda p: (-abs(totals[p]), p))[:n]
    return {p: totals[p] for p in sorted(keep)}


TABLE_NAME = "(SELECT r.name FROM rooms r WHERE r.id = deals.room_id)"
"""A deal's table as it is named now (a deal keeps its table's id)."""


def _deals_after(tx, table: str | None, after: int, page: int) -> list[dict]:
    """Up to ``page`` deals with ids above ``after``, oldest first, with their payments."""
    where, params = ((f"WHERE room_id = {TABLE_ID} AND id > ?", (table, after))
                     if table is not None else ("WHERE id > ?", (after,)))
    rows = tx.rows(f"SELECT id, created, winner, points, rules, source, note, cards, {TABLE_NAME}, players "
                   f"FROM deals {where} ORDER BY id LIMIT {int(page)}", params)
    return _with_payments(tx, table, rows)


def _deals(tx, table: str | None, last: int | None) -> list[dict]:
    where, params = ((f"WHERE room_id = {TABLE_ID}", (table,)) if table is not None
                     else ("", ()))
    limit = f" LIMIT {int(last)}" if last is not None else ""
    rows = tx.rows(f"SELECT id, created, winner, points, rules, source, note, cards, {TABLE_NAME}, players "
                   f"FROM deals {where} ORDER BY id DESC{limit}", params)[::-1]
    return _with_payments(tx, table, rows)


def _with_payments(tx, table: str | None, rows: list[tuple]) -> list[dict]:
    """Deal rows (oldest first) as dicts, each with its payments."""
    pays: dict[int, list] = {d[0]: [] for d in rows}
    if rows:
        span = (rows[0][0], rows[-1][0])
        sql = ("SELECT p.deal_id, p.payer, p.payee, p.amount FROM payments p JOIN deals d ON d.id = p.deal_id "
               f"WHERE d.room_id = {TABLE_ID} AND p.deal_id >= ? AND p.deal_id <= ? ORDER BY p.id" if table is not None else
               "SELECT deal_id, payer, payee, amount FROM payments WHERE deal_id >= ? AND deal_id <= ? ORDER BY id")
        for deal_id, a, b, c in tx.rows(sql, (table, *span) if table is not None else span):
            if deal_id in pays:
                pays[deal_id].append({"payer": a, "payee": b, "amount": c})
    return [{"id": d[0], "created": d[1], "winner": d[2], "points": d[3], "rules": d[4], "source": d[5],
             "note": d[6], "cards": d[7], "table": d[8], "players": json.loads(d[9] or "[]"),
             "payments": pays[d[0]]} for d in rows]


def _clean(name: str) -> str:
    return clean_name(name or "", "a player's name")
