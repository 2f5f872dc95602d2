"""Writes racing each other, as a club's clients send them at one moment, on SQLite and PostgreSQL:
an undo against a merge, a table renamed while deals arrive, one new name posted in two forms at two
tables. Each ledger object stands for a service process (its own connections). After every race the
ledger is whole (``Ledger.check``), every acknowledged deal is visible under a table that exists, and
no folded name is held twice."""

from __future__ import annotations

import threading

import pytest

from sisepai.engine.errors import SisepaiError
from sisepai.ledger.roster import fold, manage
from sisepai.ledger.store import Ledger


def _together(*jobs) -> list:
    """Run ``jobs`` in threads released at one moment; each one's result or exception."""
    gate = threading.Barrier(len(jobs))
    out: list = [None] * len(jobs)

    def run(k, job):
        gate.wait()
        try:
            out[k] = job()
        except SisepaiError as exc:
            out[k] = exc

    threads = [threading.Thread(target=run, args=(k, j)) for k, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres_url")


def _visible_deals(ledger: Ledger) -> set[int]:
    return {d["id"] for t in ledger.tables() for d in ledger.deals(t["name"])}


def test_an_undo_racing_a_merge_leaves_no_total_without_its_deal(target):
    a, b = Ledger(target), Ledger(target)
    a.add_table("rc")
    try:
        for k in range(40):
            x, y = f"Mx{k}", f"My{k}"
            a.add_deal("Bo", 1, [y, "Bo"], y, table="rc")  # y is a player already
            deal = a.add_deal(x, 7, [x, "Cy"], "Cy", table="rc")
            _together(lambda: manage(a, "player", "merge", x, into=y), lambda: b.undo("rc", deal=deal["id"]))
            assert a.check() == [], k
            assert sum(a.totals("rc").values()) == 0
    finally:
        a.close(), b.close()


def test_a_table_renamed_while_deals_arrive_strands_no_deal(target):
    a, b = Ledger(target), Ledger(target)
    a.add_table("ra")
    acknowledged = []

    def post():
        for k in range(150):
            try:
                acknowledged.append(b.add_deal("Ann", 1, ["Ann", "Bo"], "Bo", table="ra")["id"])
            except SisepaiError:
                pass

    def rename():
        for k in range(150):
            manage(a, "table", "rename", "ra" if k % 2 == 0 else "RA", to="RA" if k % 2 == 0 else "ra")

    try:
        _together(post, rename)
        assert len(acknowledged) == 150, "a deal at a table being renamed is still taken: the name folds to it"
        assert set(acknowledged) <= _visible_deals(a)
        assert a.check() == []
        assert a.totals(a.tables()[-1]["name"]) == {"Ann": 150, "Bo": -150}
    finally:
        a.close(), b.close()


def test_one_new_name_posted_in_two_forms_at_once_is_one_player(target):
    a, b = Ledger(target), Ledger(target)
    a.add_table("t1"), a.add_table("t2")
    try:
        for k in range(25):
            _together(lambda: a.add_deal(f"zed{k}", 3, [f"zed{k}", "Bo"], "Bo", table="t1"),
                      lambda: b.add_deal(f"ZED{k}", 3, [f"ZED{k}", "Cy"], "Cy", table="t2"))
        folds = [fold(p) for p in a.players()]
        assert len(folds) == len(set(folds)) == 27
        assert a.check() == []
        assert a.totals()["Bo"] == a.totals()["Cy"] == -75
    finally:
        a.close(), b.close()


def test_a_conflict_the_server_rolled_back_is_retried_not_answered_503(monkeypatch):
    """A deadlock or serialisation failure (SQLSTATE 40) runs the write again; only one that outlasts
    every try reaches the caller."""
    from contextlib import contextmanager

    from sisepai.ledger import db as dbmod

    ledger = Ledger(":memory:")
    real = ledger.db.transaction
    failures = [2]

    @contextmanager
    def flaky(write=True):
        with real(write) as tx:
            if write and failures[0]:
                failures[0] -= 1
                raise dbmod.WriteConflict("deadlock detected")
            yield tx

    monkeypatch.setattr(ledger.db, "transaction", flaky)
    monkeypatch.setattr(dbmod.time, "sleep", lambda s: None)
    assert ledger.add_deal("Ann", 3, ["Ann", "Bo"], "Bo")["id"] == 1 and failures == [0]
    failures[0] = dbmod.WRITE_TRIES
    with pytest.raises(dbmod.WriteConflict):
        ledger.add_deal("Ann", 3, ["Ann", "Bo"], "Bo")
    assert len(ledger.deals()) == 1 and ledger.check() == []


def test_on_postgresql_a_deadlock_is_a_conflict_to_retry_not_an_outage(postgres_url):
    import psycopg

    from sisepai.ledger.db import WriteConflict

    ledger = Ledger(postgres_url)
    try:
        for error in (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            with pytest.raises(WriteConflict):
                with ledger.db.transaction() as tx:
                    tx.one("SELECT 1")
                    raise error("settled by the server")
        assert ledger.add_deal("Ann", 3, ["Ann", "Bo"], "Bo")["id"] == 1  # the connection is still good
    finally:
        ledger.close()
