"""The ledger against a model of it (a Hypothesis state machine), on SQLite and PostgreSQL.

The model keeps its own players, tables, deals and running totals, by folded name, and predicts
each write's outcome before it is made: which value it returns, or which refusal (its ``code``).
A refusal the model did not predict, or a success it predicted as a refusal, fails the test; so
does any difference in the totals, the deals of each table, the players, or a problem
``Ledger.check`` finds after any write. The rules really merge, rename (to folded-equal names
too), retire, delete and undo: :func:`test_every_change_really_runs` counts them.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from sisepai.engine.errors import SisepaiError
from sisepai.ledger.names import clean_name
from sisepai.ledger.roster import fold, manage
from sisepai.ledger.store import Ledger

NAMES = ["Ann", "ann", "ＡＮＮ", "Bo", "BO", "Cy", "Di", "Zoë", "ZOË", "Ed", "Flo", "Gus"]
TABLES = ["main", "t1", "T1", "ｔ1", "t2", "T2"]
RAN: Counter = Counter()
"""Each write that ran, by what it was and whether it succeeded (``merge player ok``)."""


class Model:
    """What the ledger should hold, keyed by folded names."""

    def __init__(self):
        self.players: dict[str, dict] = {}  # fold -> {"name", "retired"}
        self.tables: dict[str, dict] = {"main": {"name": "main", "retired": False}}
        self.deals: list[dict] = []  # {"id", "table", "players", "payments"} by fold, oldest first
        self.last_id = 0

    def totals(self, table: str) -> dict[str, int]:
        out: Counter = Counter()
        for d in self.deals:
            if d["table"] == table:
                for payer, payee, amount in d["payments"]:
                    out[payer] -= amount
                    out[payee] += amount
        return {self.players[p]["name"]: t for p, t in out.items() if t}

    def rekey_player(self, old: str, new: str) -> None:
        for d in self.deals:
            d["players"] = [new if p == old else p for p in d["players"]]
            d["payments"] = [(new if a == old else a, new if b == old else b, c) for a, b, c in d["payments"]]

    def rekey_table(self, old: str, new: str) -> None:
        for d in self.deals:
            if d["table"] == old:
                d["table"] = new


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.ledger = Ledger(type(self).new_target())
        self.model = Model()

    @classmethod
    def new_target(cls) -> str:
        return ":memory:"

    def teardown(self):
        self.ledger.close()

    # --- helpers --------------------------------------------------------------------------------

    def expect(self, what: str, refusal: str | None, call):
        """Run ``call``; it must refuse with ``refusal`` (a code) or succeed when that is None."""
        try:
            out = call()
        except SisepaiError as exc:
            assert refusal is not None, f"{what}: refused ({exc.code}: {exc}), the model expected success"
            assert exc.code == refusal, f"{what}: refused {exc.code!r} ({exc}), the model expected {refusal!r}"
            RAN[what + " refused"] += 1
            RAN[f"{what} refused {exc.code}"] += 1
            return None
        assert refusal is None, f"{what}: succeeded ({out}), the model expected the refusal {refusal!r}"
        RAN[what + " ok"] += 1
        return out

    def table_refusal(self, name: str, active: bool) -> str | None:
        t = self.model.tables.get(fold(name))
        if t is None:
            return "unknown_table"
        return "table_retired" if active and t["retired"] else None

    # --- rules ----------------------------------------------------------------------------------

    @rule(name=st.sampled_from(TABLES))
    def open_table(self, name):
        f = fold(name)
        out = self.expect("open table", None, lambda: self.ledger.add_table(name))
        if f in self.model.tables:
            assert out["name"] == self.model.tables[f]["name"]
            self.model.tables[f]["retired"] = False
        else:
            assert out["name"] == clean_name(name)
            self.model.tables[f] = {"name": clean_name(name), "retired": False}

    @rule(name=st.sampled_from(NAMES))
    def add_player(self, name):
        out = self.expect("add player", None, lambda: self.ledger.add_player(name))
        entry = self.model.players.setdefault(fold(name), {"name": clean_name(name), "retired": False})
        entry["retired"] = False
        assert out["name"] == entry["name"]

    @rule(table=st.sampled_from(TABLES), players=st.one_of(
        st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique_by=fold),
        st.lists(st.sampled_from(NAMES), min_size=2, max_size=4)),
          w=st.integers(0, 3), points=st.sampled_from([1, 3, 5, 9]), drawn=st.booleans())
    def deal(self, table, players, w, points, drawn):
        winner = players[w % len(players)]
        discarder = None if drawn else players[(w + 1) % len(players)]
        folds = [fold(p) for p in players]
        refusal = "deal_players" if len(set(folds)) != len(folds) else self.table_refusal(table, active=True)
        out = self.expect("deal", refusal, lambda: self.ledger.add_deal(winner, points, players, discarder, table=table))
        if out is None:
            return
        for p, f in zip(players, folds):
            self.model.players.setdefault(f, {"name": clean_name(p), "retired": False})["retired"] = False
        wf = fold(winner)
        payments = ([(fold(discarder), wf, points)] if discarder is not None
                    else [(f, wf, points) for f in folds if f != wf])
        self.model.last_id += 1
        assert out["id"] == self.model.last_id and out["table"] == self.model.tables[fold(table)]["name"]
        assert out["winner"] == self.model.players[wf]["name"]
        self.model.deals.append({"id": out["id"], "table": fold(table), "players": folds, "payments": payments})

    @rule(table=st.sampled_from(TABLES), name_it=st.booleans(), wrong=st.booleans())
    def undo(self, table, name_it, wrong):
        refusal = self.table_refusal(table, active=True)
        mine = [d for d in self.model.deals if d["table"] == fold(table)]
        deal = None
        if refusal is None and mine and name_it:
            deal = mine[-1]["id"] + (1000 if wrong else 0)
            refusal = "not_last_deal" if wrong else None
        out = self.expect("undo", refusal, lambda: self.ledger.undo(table, deal=deal))
        if refusal is not None:
            return
        if not mine:
            assert out is None
            return
        assert out["id"] == mine[-1]["id"]
        self.model.deals.remove(mine[-1])

    def some_name(self, data, pool: list[str], known: list[str]) -> str:
        """A name of ``pool``, or most often (when there are some) one the model holds, in any case."""
        if known and data.draw(st.integers(0, 9), label="known") < 7:
            name = data.draw(st.sampled_from(sorted(known)), label="held")
            return data.draw(st.sampled_from([name, name.upper(), name.lower()]), label="written")
        return data.draw(st.sampled_from(pool), label="name")

    @rule(action=st.sampled_from(["rename", "merge", "retire", "delete"]), data=st.data())
    def change_player(self, action, data):
        a = self.some_name(data, NAMES, [p["name"] for p in self.model.players.values()])
        b = self.some_name(data, NAMES, [p["name"] for p in self.model.players.values()])
        m, fa, fb = self.model, fold(a), fold(b)
        refusal = None
        if fa not in m.players:
            refusal = "unknown_player"
        elif action == "rename":
            refusal = "name_taken" if fb in m.players and fb != fa else None
        elif action == "merge":
            if fb not in m.players:
                refusal = "unknown_player"
            elif fb == fa:
                refusal = "same_name"
            elif m.players[fb]["retired"]:
                refusal = "player_retired"
            elif any(fa in d["players"] and fb in d["players"] for d in m.deals):
                refusal = "played_together"
        elif action == "delete":
            refusal = "has_deals" if any(fa in d["players"] for d in m.deals) else None
        out = self.expect(f"{action} player", refusal,
                          lambda: manage(self.ledger, "player", action, a, to=b if action == "rename" else None,
                                         into=b if action == "merge" else None))
        if out is None:
            return
        if action == "retire":
            m.players[fa]["retired"] = True
        elif action == "delete":
            del m.players[fa]
        elif action == "rename":
            RAN["rename player to a folded-equal name ok"] += fa == fb
            entry = m.players.pop(fa)
            m.players[fb] = {**entry, "name": clean_name(b)}
            m.rekey_player(fa, fb)
        else:
            assert out["into"] == m.players[fb]["name"]
            del m.players[fa]
            m.rekey_player(fa, fb)

    @rule(action=st.sampled_from(["rename", "merge", "retire", "delete"]), data=st.data())
    def change_table(self, action, data):
        a = self.some_name(data, TABLES, [t["name"] for f, t in self.model.tables.items() if f != "main"])
        b = self.some_name(data, TABLES, [t["name"] for t in self.model.tables.values()])
        m, fa, fb = self.model, fold(a), fold(b)
        refusal = self.table_refusal(a, active=False)
        if refusal is None and fa == "main":
            refusal = "table_kept"
        elif refusal is None and action == "rename":
            refusal = "name_taken" if fb in m.tables and fb != fa else None
        elif refusal is None and action == "merge":
            refusal = self.table_refusal(b, active=True) or ("same_name" if fb == fa else None)
        elif refusal is None and action == "delete":
            refusal = "has_deals" if any(d["table"] == fa for d in m.deals) else None
        out = self.expect(f"{action} table", refusal,
                          lambda: manage(self.ledger, "table", action, a, to=b if action == "rename" else None,
                                         into=b if action == "merge" else None))
        if out is None:
            return
        if action == "retire":
            m.tables[fa]["retired"] = True
        elif action == "delete":
            del m.tables[fa]
        elif action == "rename":
            RAN["rename table to a folded-equal name ok"] += fa == fb
            entry = m.tables.pop(fa)
            m.tables[fb] = {**entry, "name": clean_name(b)}
            m.rekey_table(fa, fb)
        else:
            del m.tables[fa]
            m.rekey_table(fa, fb)

    # --- after every rule -----------------------------------------------------------------------

    @invariant()
    def the_ledger_is_its_model(self):
        m = self.model
        assert self.ledger.check() == []
        assert sorted(self.ledger.players()) == sorted(p["name"] for p in m.players.values())
        shown = {t["name"] for t in self.ledger.tables()}
        assert shown == {t["name"] for t in m.tables.values() if not t["retired"]}
        for f, t in m.tables.items():
            assert {p: v for p, v in self.ledger.totals(t["name"]).items() if v} == m.totals(f), t["name"]
            assert [d["id"] for d in self.ledger.deals(t["name"])] == [d["id"] for d in m.deals if d["table"] == f]
        assert len(self.ledger.deals()) == len(m.deals), "no deal lost, none made up"


def test_the_ledger_keeps_to_its_model_on_sqlite():
    run_state_machine_as_test(LedgerMachine, settings=settings(max_examples=150, stateful_step_count=30,
                                                                deadline=None))


def test_the_ledger_keeps_to_its_model_on_postgresql(postgres_server):
    databases = iter(range(10**6))

    class OnPostgres(LedgerMachine):
        @classmethod
        def new_target(cls):
            return postgres_server.fresh_database(f"model_{next(databases)}")

    run_state_machine_as_test(OnPostgres, settings=settings(max_examples=25, stateful_step_count=25, deadline=None,
                                                             suppress_health_check=[HealthCheck.too_slow]))


def test_every_change_really_runs():
    """The machine's rules succeed at every kind of change, not only refuse: merges, renames to a
    folded-equal name and to another, retirements, deletions and undos all ran."""
    RAN.clear()
    run_state_machine_as_test(LedgerMachine, settings=settings(max_examples=150, stateful_step_count=30,
                                                                deadline=None, database=None, derandomize=True))
    print(dict(sorted(RAN.items())))
    for what in ("deal", "undo", "open table", "add player", "rename player", "merge player", "retire player", "delete player",
                 "rename table", "merge table", "retire table", "delete table",
                 "rename player to a folded-equal name", "rename table to a folded-equal name"):
        assert RAN[what + " ok"] >= 3, (what, dict(RAN))
    for refusal in ("deal", "merge player", "rename table"):
        assert RAN[refusal + " refused"] >= 3, (refusal, dict(RAN))


@pytest.mark.parametrize("name", ["Bo", "Ｂｏ", "bo"])
def test_renaming_a_player_to_a_form_of_its_own_name_keeps_the_totals(name):
    ledger = Ledger(":memory:")
    ledger.add_deal("Ann", 5, ["Ann", "Bo"], "Bo")
    manage(ledger, "player", "rename", "Bo", to=name)
    assert sorted(ledger.totals().values()) == [-5, 5] and ledger.check() == []
