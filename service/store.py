"""The game-night ledger in SQLite: players, deals, who paid whom, running totals, undo, CSV.

Every write is one transaction, so a crash mid-write leaves the ledger as it was. The schema is
versioned; :data:`MIGRATIONS` brings any older file up to date when it opens.

>>> store = Ledger(":memory:")
>>> store.add_deal(winner="Ann", points=11, players=["Ann", "Bo", "Cy", "Di"], discarder="Bo")["payments"]
[{'payer': 'Bo', 'payee': 'Ann', 'amount': 11}]
>>> store.totals()
{'Ann': 11, 'Bo': -11, 'Cy': 0, 'Di': 0}
"""

from __future__ import annotations

import csv
import io
import sqlite3
import threading
import time
from pathlib import Path

from sisepai.engine.errors import SisepaiError

MIGRATIONS = [
    # 1: players, deals, payments
    """
    CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, created REAL NOT NULL);
    CREATE TABLE deals (id INTEGER PRIMARY KEY, created REAL NOT NULL, winner TEXT, points INTEGER NOT NULL,
                        rules TEXT NOT NULL DEFAULT 'seesek', source TEXT NOT NULL DEFAULT 'manual',
                        cards TEXT);
    CREATE TABLE payments (id INTEGER PRIMARY KEY, deal_id INTEGER NOT NULL REFERENCES deals(id) ON DELETE CASCADE,
                           payer TEXT NOT NULL, payee TEXT NOT NULL, amount INTEGER NOT NULL);
    """,
    # 2: a note on each deal
    "ALTER TABLE deals ADD COLUMN note TEXT NOT NULL DEFAULT '';",
]


class Ledger:
    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            self.db.execute("PRAGMA journal_mode = WAL")
        self._migrate()

    def _migrate(self) -> None:
        with self.lock:
            self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = self.db.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if row is None:
                self.db.execute("INSERT INTO schema_version VALUES (0)")
            for i, sql in enumerate(MIGRATIONS[version:], start=version + 1):
                self.db.execute("BEGIN")
                try:
                    for stmt in [s for s in sql.split(";") if s.strip()]:
                        self.db.execute(stmt)
                    self.db.execute("UPDATE schema_version SET version = ?", (i,))
                    self.db.execute("COMMIT")
                except Exception:
                    self.db.execute("ROLLBACK")
                    raise

    @property
    def version(self) -> int:
        return self.db.execute("SELECT version FROM schema_version").fetchone()[0]

    def close(self) -> None:
        self.db.close()

    # --- writes ------------------------------------------------------------------------------

    def add_player(self, name: str) -> dict:
        name = _clean(name)
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO players (name, created) VALUES (?, ?)", (name, time.time()))
        return {"name": name}

    def add_deal(self, winner: str | None, points: int, players: list[str], discarder: str | None = None,
                 rules: str = "seesek", source: str = "manual", cards: str | None = None, note: str = "") -> dict:
        """Record a deal: the discarder pays the winner, or every other player pays on a drawn card."""
        players = [_clean(p) for p in players]
        if len(set(players)) != len(players) or not 2 <= len(players) <= 4:
            raise SisepaiError("a deal has 2 to 4 different players")
        if points < 0 or points > 1000:
            raise SisepaiError(f"points must be 0 to 1000, got {points}")
        payments: list[tuple[str, str, int]] = []
        if winner is not None:
            winner = _clean(winner)
            if winner not in players:
                raise SisepaiError(f"the winner {winner!r} is not one of the players")
            if discarder is not None:
                discarder = _clean(discarder)
                if discarder not in players or discarder == winner:
                    raise SisepaiError(f"the discarder {discarder!r} must be another player")
                payments = [(discarder, winner, points)]
            else:
                payments = [(p, winner, points) for p in players if p != winner]
        with self.lock:
            self.db.execute("BEGIN")
            try:
                for p in players:
                    self.db.execute("INSERT OR IGNORE INTO players (name, created) VALUES (?, ?)", (p, time.time()))
                cur = self.db.execute(
                    "INSERT INTO deals (created, winner, points, rules, source, cards, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (time.time(), winner, points, rules, source, cards, note))
                deal_id = cur.lastrowid
                for payer, payee, amount in payments:
                    self.db.execute("INSERT INTO payments (deal_id, payer, payee, amount) VALUES (?, ?, ?, ?)",
                                    (deal_id, payer, payee, amount))
                # players who played but neither paid nor won still appear in the totals
                self.db.execute("COMMIT")
            except Exception:
                self.db.execute("ROLLBACK")
                raise
        return {"id": deal_id, "winner": winner, "points": points,
                "payments": [{"payer": a, "payee": b, "amount": c} for a, b, c in payments]}

    def undo(self) -> dict | None:
        """Remove the last deal (and its payments); ``None`` if the ledger is empty."""
        with self.lock:
            self.db.execute("BEGIN")
            try:
                row = self.db.execute("SELECT id, winner, points FROM deals ORDER BY id DESC LIMIT 1").fetchone()
                if row is None:
                    self.db.execute("ROLLBACK")
                    return None
                self.db.execute("DELETE FROM payments WHERE deal_id = ?", (row[0],))
                self.db.execute("DELETE FROM deals WHERE id = ?", (row[0],))
                self.db.execute("COMMIT")
            except Exception:
                self.db.execute("ROLLBACK")
                raise
        return {"id": row[0], "winner": row[1], "points": row[2]}

    # --- reads --------------------------------------------------------------------------------

    def players(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM players ORDER BY id")]

    def deals(self) -> list[dict]:
        out = []
        for d in self.db.execute("SELECT id, created, winner, points, rules, source, note, cards FROM deals ORDER BY id"):
            pays = [{"payer": a, "payee": b, "amount": c} for a, b, c in
                    self.db.execute("SELECT payer, payee, amount FROM payments WHERE deal_id = ? ORDER BY id", (d[0],))]
            out.append({"id": d[0], "created": d[1], "winner": d[2], "points": d[3], "rules": d[4],
                        "source": d[5], "note": d[6], "cards": d[7], "payments": pays})
        return out

    def totals(self) -> dict[str, int]:
        totals = {p: 0 for p in self.players()}
        for payer, payee, amount in self.db.execute("SELECT payer, payee, amount FROM payments"):
            totals[payer] = totals.get(payer, 0) - amount
            totals[payee] = totals.get(payee, 0) + amount
        return totals

    def to_csv(self) -> str:
        """The ledger as CSV; a cell that a spreadsheet would run as a formula is defused."""
        buf = io.StringIO()
        w = _SafeWriter(csv.writer(buf))
        w.writerow(["deal", "time", "winner", "points", "rules", "source", "payer", "payee", "amount"])
        for d in self.deals():
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(d["created"]))
            if not d["payments"]:
                w.writerow([d["id"], stamp, d["winner"] or "", d["points"], d["rules"], d["source"], "", "", ""])
            for p in d["payments"]:
                w.writerow([d["id"], stamp, d["winner"], d["points"], d["rules"], d["source"], p["payer"],
                            p["payee"], p["amount"]])
        return buf.getvalue()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a string starting like a formula (``= + - @``, tab
    or carriage return) gets a leading apostrophe, as OWASP advises against CSV injection.

    >>> csv_cell("=SUM(A1:A9)"), csv_cell("Ann"), csv_cell(-3)
    ("'=SUM(A1:A9)", 'Ann', -3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, writer):
        self.writer = writer

    def writerow(self, row) -> None:
        self.writer.writerow([csv_cell(v) for v in row])


def _clean(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 40:
        raise SisepaiError("a player name has 1 to 40 characters")
    return name
