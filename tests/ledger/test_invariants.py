"""The ledger's invariants after every write, on random sequences of deals, renames, merges,
retires and undos: each table's totals sum to zero and equal a recomputation from its payments,
and no deal is lost (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sisepai.engine.errors import SisepaiError
from sisepai.ledger.roster import manage
from sisepai.ledger.store import Ledger

NAMES = ["Ann", "ann", "ＡＮＮ", "Bo", "Cy", "Di", "Zoë"]
TABLES = ["main", "t1", "T1", "ｔ1", "t2"]

deal = st.tuples(st.just("deal"), st.sampled_from(TABLES), st.lists(st.sampled_from(NAMES), min_size=2, max_size=4),
                 st.integers(0, 3), st.sampled_from([1, 3, 5, 9]), st.booleans())
change = st.tuples(st.just("change"), st.sampled_from(["player", "table"]), st.sampled_from(["rename", "merge", "retire", "delete"]),
                   st.integers(0, 6), st.integers(0, 6))
undo = st.tuples(st.just("undo"), st.sampled_from(TABLES))
steps = st.lists(st.one_of(deal, change, undo), min_size=1, max_size=14)


def _apply(ledger: Ledger, step: tuple) -> None:
    kind = step[0]
    if kind == "deal":
        _, table, players, w, points, self_drawn = step
        ledger.add_table(table)
        winner = players[w % len(players)]
        discarder = None if self_drawn else players[(w + 1) % len(players)]
        ledger.add_deal(winner, points, players, discarder, table=table)
    elif kind == "change":
        _, what, action, a, b = step
        pool = NAMES if what == "player" else TABLES
        manage(ledger, what, action, pool[a % len(pool)], to=pool[b % len(pool)] if action == "rename" else None,
               into=pool[b % len(pool)] if action == "merge" else None)
    else:
        ledger.undo(step[1])


def _check_after_each(ledger: Ledger, sequence: list[tuple]) -> None:
    for step in sequence:
        deals_before = len(ledger.deals())
        try:
            _apply(ledger, step)
        except SisepaiError:
            assert len(ledger.deals()) == deals_before  # a refused write changes nothing
        assert ledger.check() == [], step
        for table in ledger.tables():
            assert sum(ledger.totals(table["name"]).values()) == 0, step
        assert sum(ledger.totals().values()) == 0


@settings(max_examples=60, deadline=None)
@given(steps)
def test_the_sums_hold_after_every_write_on_sqlite(sequence):
    ledger = Ledger(":memory:")
    try:
        _check_after_each(ledger, sequence)
    finally:
        ledger.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sequence=steps)
def test_the_sums_hold_after_every_write_on_postgresql(postgres_url, sequence):
    ledger = Ledger(postgres_url)  # the database lives on across examples: the sums must hold throughout
    try:
        _check_after_each(ledger, sequence)
    finally:
        ledger.close()


@pytest.mark.parametrize("name", ["Bo", "Ｂｏ", "bo"])
def test_renaming_a_player_to_a_form_of_its_own_name_keeps_the_totals(name):
    ledger = Ledger(":memory:")
    ledger.add_deal("Ann", 5, ["Ann", "Bo"], "Bo")
    manage(ledger, "player", "rename", "Bo", to=name)
    assert sorted(ledger.totals().values()) == [-5, 5] and ledger.check() == []
