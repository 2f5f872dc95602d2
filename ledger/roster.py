"""The club's roster: one name per person and per table, compared without case, and names that can
be renamed, merged and retired with every deal kept.

A name is compared by its *fold* (NFKC, then case-folded): ``Ann``, ``ann`` and ``ＡＮＮ`` are one
player, shown as first written. A player or table written twice under two spellings before this
rule (or one person under two names) is merged into the other: their deals, payments and running
totals move over, so every total still sums to zero and no deal is lost. Retiring a player or a
table frees its place under the club's caps (:data:`.deal_records.MAX_PLAYERS`, :data:`.store.MAX_TABLES`)
and keeps its history; writing its name again brings it back. Every change is logged
(``name_changes``), oldest first, for :func:`changes`.

>>> from .store import Ledger
>>> club = Ledger(":memory:")
>>> _ = club.add_deal("Ann", 5, ["Ann", "Bo"]); _ = club.add_deal("annie", 3, ["annie", "Bo"])
>>> club.add_deal("ANN", 3, ["ann", "Bo"])["winner"]  # the player first written "Ann"
'Ann'
>>> manage(club, "player", "merge", "Annie", into="ann")
{'kind': 'player', 'action': 'merge', 'name': 'annie', 'into': 'Ann'}
>>> club.totals()
{'Ann': 11, 'Bo': -11}
"""

from __future__ import annotations

import json
import time
import unicodedata

from sisepai.engine.errors import SisepaiError

from .db import write
from .names import clean_name
from .sums import TABLE_ID, ledger_problems

DEFAULT_TABLE = "main"
"""The table deals go to when none is named; it is never renamed, merged away or retired."""

KINDS = ("player", "table")
ACTIONS = ("rename", "merge", "retire", "delete")


class UnknownName(SisepaiError):
    """A player or table the club does not have (answered 404)."""


class RosterConflict(SisepaiError):
    """A change the ledger's state forbids: a name taken, two names in one deal (answered 409)."""


def fold(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded.

    >>> fold("Ann") == fold("ANN") == fold("ａｎｎ"), fold("Straße")
    (True, 'strasse')
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


NAMED = ("players", "rooms")
"""The SQL tables of names: the club's players, and its tables. In SQL, where "table" is taken, a
club's table is a room (the ``rooms`` table, the ``room`` and ``room_id`` columns); in the code and
in words it is a table, and "room" means nothing else."""


def fill_folds(tx) -> None:
    """Give every player and table written before names were folded its fold (once, on opening)."""
    for names in NAMED:
        for row_id, name in tx.rows(f"SELECT id, name FROM {names} WHERE fold IS NULL"):
            tx.run(f"UPDATE {names} SET fold = ? WHERE id = ?", (fold(name), row_id))


def hold_one_per_fold(tx) -> None:
    """Make the database hold one player and one table per folded name: a unique index on
    ``(fold, twin)``. Spellings written twice before names were folded keep their place as twins
    (``twin`` = their id) until merged; every name written since has ``twin`` 0, so two forms of
    one new name posted at once become one player however the writes interleave."""
    for names in NAMED:
        tx.run(f"UPDATE {names} SET twin = id WHERE twin = 0 AND id NOT IN (SELECT min(id) FROM {names} GROUP BY fold)")
        tx.run(f"CREATE UNIQUE INDEX IF NOT EXISTS {names}_one_per_fold ON {names} (fold, twin)")


def names_held_twice(tx) -> list[str]:
    """The folded names held by two players or two tables, as problems of :meth:`.store.Ledger.check`."""
    out = []
    for what, names in zip(("player", "table"), NAMED):
        for held in tx.rows(f"SELECT fold, count(*) FROM {names} GROUP BY fold HAVING count(*) > 1 ORDER BY fold"):
            spelt = [n for (n,) in tx.rows(f"SELECT name FROM {names} WHERE fold = ? ORDER BY id", (held[0],))]
            out.append(f"one {what} held under {len(spelt)} names: {', '.join(map(repr, spelt))} (merge them)")
    return out


def insert_players(tx, names: list[str], created: float) -> None:
    """Add the players of ``names`` the club does not have (by exact name), each with its fold; a
    retired one among them is active again."""
    if not names:
        return
    tx.run("INSERT INTO players (name, created, fold) VALUES " + ", ".join(["(?, ?, ?)"] * len(names))
           + " ON CONFLICT DO NOTHING", [v for p in names for v in (p, created, fold(p))])
    tx.run("UPDATE players SET retired = NULL WHERE retired IS NOT NULL AND name IN ("
           + ", ".join(["?"] * len(names)) + ")", names)


def known_players(tx, names: list[str]) -> dict[str, str]:
    """Each of ``names`` as the club first wrote it (the same fold), or as first given when it is new.

    >>> from .store import Ledger
    >>> club = Ledger(":memory:"); _ = club.add_player("Zoë")
    >>> with club.db.transaction() as tx:
    ...     known_players(tx, ["ZOË", "Bo"])
    {'ZOË': 'Zoë', 'Bo': 'Bo'}
    """
    folds = {n: fold(n) for n in names}
    found: dict[str, str] = {}
    if folds:
        for name, f in tx.rows("SELECT name, fold FROM players WHERE fold IN (" + ", ".join(["?"] * len(set(folds.values())))
                               + ") ORDER BY id DESC", list(set(folds.values()))):
            found[f] = name  # oldest last, so the first spelling wins
    for n, f in folds.items():  # a new name given in two forms is one player, as first given
        found.setdefault(f, n)
    return {n: found[f] for n, f in folds.items()}


def known_table(tx, name: str, active: bool = False) -> str:
    """The table ``name`` names (written exactly so, else the first of its fold); :class:`UnknownName`
    when there is none, or (``active``) when it is retired."""
    row = (tx.one("SELECT name, retired FROM rooms WHERE name = ?", (name,))
           or tx.one("SELECT name, retired FROM rooms WHERE fold = ? ORDER BY id LIMIT 1", (fold(name),)))
    if row is None:
        raise UnknownName(f"no table named {name!r} (open it first: POST /api/tables)", code="unknown_table", table=name)
    if active and row[1] is not None:
        raise RosterConflict(f"table {row[0]!r} is retired: open it again (POST /api/tables) to record there",
                             code="table_retired", table=row[0])
    return row[0]


def _known_player(tx, name: str) -> str:
    """The player ``name`` names: written exactly so, else the first of its fold (so each of two
    spellings kept from before folding can be named, to merge them)."""
    row = (tx.one("SELECT name FROM players WHERE name = ?", (name,))
           or tx.one("SELECT name FROM players WHERE fold = ? ORDER BY id LIMIT 1", (fold(name),)))
    if row is None:
        raise UnknownName(f"no player named {name!r}", code="unknown_player", name=name)
    return row[0]


def manage(ledger, kind: str, action: str, name: str, to: str | None = None, into: str | None = None,
           keep: str | None = None) -> dict:
    """Rename (``to``), merge (``into``, which stays), retire or delete (one with no deals) a player
    or a table of ``ledger``, in one transaction, logged. ``keep``: a table that may not be renamed, merged away or retired
    (the service's default table). Returns what was done, with the names as stored."""
    if kind not in KINDS or action not in ACTIONS:
        raise SisepaiError(f"unknown change {kind} {action} (kinds: {', '.join(KINDS)}; actions: {', '.join(ACTIONS)})")
    what = "a player's name" if kind == "player" else "a table's name"
    name = clean_name(name, what, forbid="" if kind == "player" else "/\\")
    other = {"rename": to, "merge": into}.get(action)
    if action in ("rename", "merge"):
        if other is None:
            raise SisepaiError(f"a {action} needs the {'new name' if action == 'rename' else 'name to merge into'}")
        other = clean_name(other, what, forbid="" if kind == "player" else "/\\")
    def work(tx) -> dict:
        if kind == "player":
            done = _player_change(tx, action, name, other)
        else:
            done = _table_change(tx, action, name, other, keep)
        broken = ledger_problems(tx)
        if broken:  # raised inside the transaction: nothing of this change is kept
            raise RosterConflict(f"{kind} {action} refused, it would break the ledger: {broken[0]}",
                                 code="ledger_invariant", problem=broken[0])
        tx.run("INSERT INTO name_changes (created, kind, action, name, other) VALUES (?, ?, ?, ?, ?)",
               (time.time(), kind, action, done["name"], done.get("to") or done.get("into")))
        return done
    return write(ledger.db, work)


def changes(ledger, last: int = 200) -> list[dict]:
    """The roster's last ``last`` changes, oldest first."""
    with ledger.db.transaction(write=False) as tx:
        rows = tx.rows("SELECT id, created, kind, action, name, other FROM name_changes ORDER BY id DESC LIMIT ?",
                       (int(last),))
    return [{"id": i, "created": c, "kind": k, "action": a, "name": n, "other": o} for i, c, k, a, n, o in rows[::-1]]


def _player_change(tx, action: str, name: str, other: str | None) -> dict:
    old = _known_player(tx, name)
    if action == "retire":
        tx.run("UPDATE players SET retired = ? WHERE name = ?", (time.time(), old))
        return {"kind": "player", "action": "retire", "name": old}
    if action == "delete":
        played = len(_deals_naming(tx, old)) or tx.one("SELECT count(*) FROM payments WHERE payer = ? OR payee = ?",
                                                       (old, old))[0]
        if played or tx.one("SELECT 1 FROM balances WHERE player = ? AND total <> 0", (old,)):
            raise RosterConflict(f"{old!r} has played: retire them instead (the history stays)", code="has_deals",
                                 name=old)
        tx.run("DELETE FROM balances WHERE player = ?", (old,))
        tx.run("DELETE FROM players WHERE name = ?", (old,))
        return {"kind": "player", "action": "delete", "name": old}
    if action == "rename":
        return _rename(tx, "player", old, other, _move_player)
    into = _known_player(tx, other)
    if into == old:
        raise RosterConflict(f"{name!r} and {other!r} are one player already", code="same_name", name=old)
    if tx.one("SELECT retired FROM players WHERE name = ?", (into,))[0] is not None:
        raise RosterConflict(f"{into!r} is retired: write their name in a deal to bring them back, then merge",
                             code="player_retired", name=into)
    for _, players in _deals_naming(tx, old):
        if into in players:
            raise RosterConflict(f"{old!r} and {into!r} played in one deal, so they are two people: nothing was merged",
                                 code="played_together", name=old, into=into)
    _move_player(tx, old, into)
    tx.run("DELETE FROM players WHERE name = ?", (old,))
    return {"kind": "player", "action": "merge", "name": old, "into": into}


def _rename(tx, kind: str, old: str, new: str, move) -> dict:
    """Rename a ``player`` or ``table`` (its rows named ``new``, ``move`` carrying what held the old
    name); refused when another of its kind holds a name folded alike."""
    rows = dict(zip(("player", "table"), NAMED))[kind]
    taken = tx.one(f"SELECT name FROM {rows} WHERE fold = ? AND name <> ?", (fold(new), old))
    if taken:
        them = "them" if kind == "player" else "it"
        raise RosterConflict(f"the club has a {kind} named {taken[0]!r}: merge {old!r} into {them} instead",
                             code="name_taken", name=taken[0])
    tx.run(f"UPDATE {rows} SET name = ?, fold = ? WHERE name = ?", (new, fold(new), old))
    move(tx, old, new)
    return {"kind": kind, "action": "rename", "name": old, "to": new}


def _deals_naming(tx, name: str) -> list[tuple[int, list[str]]]:
    """The deals ``name`` played, each ``(id, players)``: a LIKE on the stored JSON narrows them,
    the JSON read back decides."""
    needle = json.dumps(name)[1:-1].replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = tx.rows("SELECT id, players FROM deals WHERE players LIKE ? ESCAPE '\\'", (f'%"{needle}"%',))
    return [(deal_id, names) for deal_id, text in rows if name in (names := json.loads(text))]


def _move_player(tx, old: str, new: str) -> None:
    """Every deal, payment and running total of ``old`` becomes ``new``'s (totals added up); nothing
    when the two are one name (a total added to itself, then deleted, would be lost)."""
    if old == new:
        return
    tx.run("UPDATE deals SET winner = ? WHERE winner = ?", (new, old))
    tx.run("UPDATE payments SET payer = ? WHERE payer = ?", (new, old))
    tx.run("UPDATE payments SET payee = ? WHERE payee = ?", (new, old))
    for deal_id, names in _deals_naming(tx, old):
        tx.run("UPDATE deals SET players = ? WHERE id = ?", (json.dumps([new if p == old else p for p in names]), deal_id))
    for table, total in tx.rows("SELECT room, total FROM balances WHERE player = ?", (old,)):
        tx.run("INSERT INTO balances (room, player, total) VALUES (?, ?, ?) ON CONFLICT (room, player) "
               "DO UPDATE SET total = balances.total + excluded.total", (table, new, total))
    tx.run("DELETE FROM balances WHERE player = ?", (old,))


def _table_change(tx, action: str, name: str, other: str | None, keep: str | None) -> dict:
    old = known_table(tx, name)
    if fold(old) in {fold(DEFAULT_TABLE), fold(keep or DEFAULT_TABLE)}:
        done = {"rename": "renamed", "merge": "merged into another", "retire": "retired", "delete": "deleted"}[action]
        raise RosterConflict(f"table {old!r} is where deals go by default: it cannot be {done}",
                             code="table_kept", table=old)
    if action == "retire":
        tx.run("UPDATE rooms SET retired = ? WHERE name = ?", (time.time(), old))
        return {"kind": "table", "action": "retire", "name": old}
    if action == "delete":
        if tx.one(f"SELECT count(*) FROM deals WHERE room_id = {TABLE_ID}", (old,))[0]:
            raise RosterConflict(f"table {old!r} has deals: retire it instead (the history stays)", code="has_deals",
                                 name=old)
        tx.run("DELETE FROM balances WHERE room = ?", (old,))
        tx.run("DELETE FROM rooms WHERE name = ?", (old,))
        return {"kind": "table", "action": "delete", "name": old}
    if action == "rename":
        return _rename(tx, "table", old, other, _move_table)
    into = known_table(tx, other, active=True)  # never into a retired table
    if into == old:
        raise RosterConflict(f"{name!r} and {other!r} are one table already", code="same_name", name=old)
    _move_table(tx, old, into)
    tx.run("DELETE FROM rooms WHERE name = ?", (old,))
    return {"kind": "table", "action": "merge", "name": old, "into": into}


def _move_table(tx, old: str, new: str) -> None:
    """Every deal and running total of table ``old`` becomes table ``new``'s (totals added up);
    nothing when the two are one name."""
    if old == new:
        return
    tx.run(f"UPDATE deals SET room_id = {TABLE_ID} WHERE room_id = {TABLE_ID}", (new, old))  # a merge; a rename keeps the id
    for player, total in tx.rows("SELECT player, total FROM balances WHERE room = ?", (old,)):
        tx.run("INSERT INTO balances (room, player, total) VALUES (?, ?, ?) ON CONFLICT (room, player) "
               "DO UPDATE SET total = balances.total + excluded.total", (new, player, total))
    tx.run("DELETE FROM balances WHERE room = ?", (old,))
