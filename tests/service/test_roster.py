"""Players and tables managed: one name per person without case, rename, merge and retire with every
deal kept, caps that count active names only, on both databases, from the API and the CLI."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from sisepai.ledger import deal_records, store
from sisepai.ledger.roster import changes, manage
from sisepai.ledger.store import MIGRATIONS, Ledger
from sisepai.service.main import create_app
from sisepai.service.settings import Settings


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger_target(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "ledger.sqlite")
    return request.getfixturevalue("postgres_url")


def _deal(c: TestClient, winner: str, players: list[str], points: int = 5, table: str = "main"):
    return c.post("/api/ledger/deals", json={"players": players, "winner": winner, "points": points, "table": table})


def test_a_name_in_another_case_or_width_is_the_same_player(ledger_target):
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        assert _deal(c, "Ann", ["Ann", "Bo"]).status_code == 200
        second = _deal(c, "ANN", ["ａｎｎ", "bo"]).json()  # upper case, full-width letters
        assert second["winner"] == "Ann" and second["payments"] == [{"payer": "Bo", "payee": "Ann", "amount": 5}]
        assert c.get("/api/ledger").json()["totals"] == {"Ann": 10, "Bo": -10}
        assert c.post("/api/ledger/players", json={"name": "aNN"}).json() == {"name": "Ann"}
        r = _deal(c, "Ann", ["Ann", "ann"])  # one person twice in a deal
        assert r.status_code == 422 and r.json()["code"] == "deal_players"
        assert c.post("/api/tables", json={"name": "Patio"}).json() == {"name": "Patio"}
        assert c.post("/api/tables", json={"name": "PATIO"}).json() == {"name": "Patio"}
        assert _deal(c, "Ann", ["Ann", "Bo"], table="patio").json()["table"] == "Patio"
        assert [t["name"] for t in c.get("/api/tables").json()["tables"]] == ["main", "Patio"]


def test_a_merge_keeps_every_deal_and_adds_the_totals(ledger_target):
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        _deal(c, "Ann", ["Ann", "Bo", "Cy"], 11)
        _deal(c, "Annie", ["Annie", "Bo"], 7)
        _deal(c, "Bo", ["Annie", "Bo"], 3)
        c.post("/api/tables", json={"name": "patio"})
        _deal(c, "Annie", ["Annie", "Cy"], 3, table="patio")
        before = c.get("/api/ledger").json()["club_totals"]
        r = c.post("/api/ledger/players/merge", json={"name": "annie", "into": "ann"})
        assert r.status_code == 200 and r.json() == {"kind": "player", "action": "merge", "name": "Annie",
                                                      "to": None, "into": "Ann"}
        club = c.get("/api/ledger").json()["club_totals"]
        assert club == {"Ann": before["Ann"] + before["Annie"], "Bo": before["Bo"], "Cy": before["Cy"]}
        assert sum(club.values()) == 0
        deals = c.get("/api/ledger").json()["deals"] + c.get("/api/ledger?table=patio").json()["deals"]
        assert len(deals) == 4 and all("Annie" not in d["players"] for d in deals)
        assert [d["winner"] for d in deals] == ["Ann", "Ann", "Bo", "Ann"]
        assert "Annie" not in c.get("/api/ledger/export.csv").text
        assert c.get("/api/ledger?table=patio").json()["totals"] == {"Ann": 3, "Cy": -3}
    ledger = Ledger(ledger_target)
    assert ledger.check() == []  # the running totals still agree with the payments
    assert [(r["action"], r["name"], r["other"]) for r in changes(ledger)] == [("merge", "Annie", "Ann")]
    ledger.close()


def test_two_people_who_played_one_deal_are_not_merged_and_a_rename_does_not_take_a_name(ledger_target):
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        _deal(c, "Ann", ["Ann", "Bo"])
        r = c.post("/api/ledger/players/merge", json={"name": "Bo", "into": "Ann"})
        assert r.status_code == 409 and r.json()["code"] == "played_together"
        r = c.post("/api/ledger/players/rename", json={"name": "Bo", "to": "ANN"})
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        r = c.post("/api/ledger/players/rename", json={"name": "Cy", "to": "Di"})
        assert r.status_code == 404 and r.json()["code"] == "unknown_player"
        assert c.get("/api/ledger").json()["totals"] == {"Ann": 5, "Bo": -5}  # nothing changed
        assert c.post("/api/ledger/players/rename", json={"name": "bo", "to": "Bob"}).json()["name"] == "Bo"
        assert c.post("/api/ledger/players/rename", json={"name": "ann", "to": "ANN"}).status_code == 200  # case only
        assert c.get("/api/ledger").json()["totals"] == {"ANN": 5, "Bob": -5}
        assert c.get("/api/ledger").json()["deals"][0]["players"] == ["ANN", "Bob"]


def test_retired_names_free_the_caps_and_keep_their_history(ledger_target, monkeypatch):
    monkeypatch.setattr(deal_records, "MAX_PLAYERS", 3)
    monkeypatch.setattr(store, "MAX_TABLES", 2)
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        _deal(c, "Ann", ["Ann", "Bo", "Cy"])
        assert _deal(c, "Ann", ["Ann", "Di"]).json()["code"] == "players_full"
        assert c.post("/api/ledger/players/retire", json={"name": "cy"}).json()["name"] == "Cy"
        assert _deal(c, "Ann", ["Ann", "Di"]).status_code == 200  # Cy's place is free
        assert c.get("/api/ledger").json()["totals"]["Cy"] == -5  # and Cy's total is kept
        assert c.post("/api/ledger/players", json={"name": "Cy"}).json()["code"] == "players_full"  # back, if room
        assert c.post("/api/tables", json={"name": "t2"}).status_code == 200
        assert c.post("/api/tables", json={"name": "t3"}).json()["code"] == "tables_full"
        _deal(c, "Ann", ["Ann", "Bo"], 9, table="t2")
        assert c.post("/api/tables/retire", json={"name": "T2"}).status_code == 200
        r = _deal(c, "Ann", ["Ann", "Bo"], table="t2")
        assert r.status_code == 409 and r.json()["code"] == "table_retired"
        assert r.status_code == 409 and c.post("/api/ledger/undo?table=t2").json()["code"] == "table_retired"
        assert [t["name"] for t in c.get("/api/tables").json()["tables"]] == ["main"]
        assert c.get("/api/ledger?table=t2").json()["totals"] == {"Ann": 9, "Bo": -9}  # its history is there
        assert c.post("/api/tables", json={"name": "t3"}).status_code == 200  # its place is free
        assert c.post("/api/tables", json={"name": "t2"}).json()["code"] == "tables_full"
        for name in ("main", "MAIN"):
            r = c.post("/api/tables/retire", json={"name": name})
            assert r.status_code == 409 and r.json()["code"] == "table_kept"


def test_a_table_merge_moves_its_deals_and_totals(ledger_target):
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        c.post("/api/tables", json={"name": "patio"})
        c.post("/api/tables", json={"name": "garden"})
        _deal(c, "Ann", ["Ann", "Bo"], 5, table="patio")
        _deal(c, "Bo", ["Ann", "Bo"], 3, table="garden")
        ids = [d["id"] for t in ("patio", "garden") for d in c.get(f"/api/ledger?table={t}").json()["deals"]]
        assert c.post("/api/tables/merge", json={"name": "patio", "into": "Garden"}).json()["into"] == "garden"
        garden = c.get("/api/ledger?table=garden").json()
        assert sorted(d["id"] for d in garden["deals"]) == sorted(ids) and garden["totals"] == {"Ann": 2, "Bo": -2}
        assert c.get("/api/ledger?table=patio").status_code == 404
        assert c.post("/api/tables/rename", json={"name": "garden", "to": "Garten"}).json()["to"] == "Garten"
        assert c.get("/api/ledger?table=garten").json()["totals"] == {"Ann": 2, "Bo": -2}
        assert c.post("/api/ledger/undo?table=Garten").json()["removed"]["id"] == max(ids)


def test_a_ledger_from_before_folding_gets_folds_and_its_duplicates_can_be_merged(tmp_path):
    path = tmp_path / "old.sqlite"
    old = Ledger(path)
    old.close()
    con = sqlite3.connect(path)  # back to version 5: players written "Ann" and "ann" as two
    for stmt in ("DROP INDEX deals_by_room_id", "ALTER TABLE deals DROP COLUMN room_id",
                 "DROP INDEX players_one_per_fold", "DROP INDEX rooms_one_per_fold",
                 "ALTER TABLE players DROP COLUMN twin", "ALTER TABLE rooms DROP COLUMN twin",
                 "DROP INDEX players_by_fold", "DROP INDEX rooms_by_fold", "DROP TABLE name_changes",
                 "ALTER TABLE players DROP COLUMN fold", "ALTER TABLE players DROP COLUMN retired",
                 "ALTER TABLE rooms DROP COLUMN fold", "ALTER TABLE rooms DROP COLUMN retired",
                 "UPDATE schema_version SET version = 5"):
        con.execute(stmt)
    con.commit()
    con.close()
    with sqlite3.connect(path) as con:
        con.execute("INSERT INTO players (name, created) VALUES ('Ann', 1), ('ann', 2), ('Bo', 3)")
    ledger = Ledger(path)
    assert ledger.version == len(MIGRATIONS)
    assert ledger.add_deal("ANN", 5, ["ANN", "Bo"])["winner"] == "Ann"  # the first written
    assert ledger.check() == ["one player held under 2 names: 'Ann', 'ann' (merge them)"]
    manage(ledger, "player", "merge", "ann", into="Ann")  # the two spellings are one name for the merge...
    assert ledger.players() == ["Ann", "Bo"] and ledger.check() == []
    ledger.close()


def test_the_cli_renames_merges_retires_and_lists_the_changes(tmp_path):
    path = tmp_path / "club.sqlite"
    ledger = Ledger(path)
    ledger.add_deal("Ann", 5, ["Ann", "Bo"])
    ledger.add_deal("Annie", 3, ["Annie", "Cy"])
    ledger.close()

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "sisepai.engine.cli", "ledger", *args],
                               capture_output=True, text=True, timeout=120)

    done = cli("player", "merge", "--db", str(path), "annie", "ann")
    assert done.returncode == 0 and done.stdout.strip() == "player 'Annie' merged into 'Ann'"
    refused = cli("table", "retire", "--db", str(path), "main")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert cli("player", "rename", "--db", str(path), "Ann").returncode == 2  # the new name missing
    assert cli("player", "retire", "--db", str(tmp_path / "typo.sqlite"), "Ann").returncode == 2
    assert not (tmp_path / "typo.sqlite").exists()  # no new ledger from a typo
    listed = cli("changes", "--db", str(path))
    assert listed.returncode == 0 and "player merge  'Annie' -> 'Ann'" in listed.stdout
    ledger = Ledger(path)
    assert ledger.totals() == {"Ann": 8, "Bo": -5, "Cy": -3}
    ledger.close()


def test_a_seen_win_is_recorded_once_however_often_it_is_sent(ledger_target):
    """A second tap on Record, or a second sighting of the same hand (its cards in another order),
    gives the deal already there and writes nothing; another winner, another table or a deal
    without cards is a deal of its own."""
    from sisepai.engine.scoring import score

    hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
    points = score(hand).total
    body = {"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "points": points, "cards": hand, "discarder": "Bo"}
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        first = c.post("/api/ledger/deals", json=body).json()
        assert first["repeat"] is False
        shuffled = " ".join(reversed(hand.split()))
        for again in (body, {**body, "cards": shuffled}):
            answer = c.post("/api/ledger/deals", json=again).json()
            assert answer["repeat"] is True and answer["id"] == first["id"] and answer["payments"] == first["payments"]
        assert len(c.get("/api/ledger").json()["deals"]) == 1
        assert c.get("/api/ledger").json()["totals"] == {"Ann": points, "Bo": -points, "Cy": 0}
        assert c.post("/api/ledger/deals", json={**body, "winner": "Cy", "discarder": None}).json()["repeat"] is False
        assert c.post("/api/tables", json={"name": "patio"}).status_code == 200
        assert c.post("/api/ledger/deals", json={**body, "table": "patio"}).json()["repeat"] is False
        for _ in range(2):  # a deal typed by hand, with no cards, is never taken for another
            assert _deal(c, "Ann", ["Ann", "Bo"]).json()["repeat"] is False
        assert len(c.get("/api/ledger").json()["deals"]) == 4
        c.post("/api/ledger/undo")
        c.post("/api/ledger/undo")
        c.post("/api/ledger/undo")
        c.post("/api/ledger/undo")  # undone, the win may be recorded again
        assert c.post("/api/ledger/deals", json=body).json()["repeat"] is False


def test_three_different_wins_with_one_hand_are_three_deals(ledger_target):
    """The same 21 cards won again by the same player are a new deal when anything differs: drawn
    by the winner, other players, other rules and points, or another deal in between."""
    from sisepai.engine.scoring import score

    hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
    points = score(hand).total
    body = {"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "points": points, "cards": hand, "discarder": "Bo"}
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        first = c.post("/api/ledger/deals", json=body).json()
        others = [{**body, "discarder": None}, {**body, "players": ["Ann", "Di", "Ed"], "discarder": "Di"}]
        for other in others:
            answer = c.post("/api/ledger/deals", json=other).json()
            assert answer["repeat"] is False and answer["id"] != first["id"], answer
        assert c.post("/api/ledger/deals", json=body).json()["repeat"] is False  # two deals since the first
        assert c.post("/api/ledger/deals", json=body).json()["repeat"] is True  # now a second tap
        assert len(c.get("/api/ledger").json()["deals"]) == 4
    ledger = Ledger(ledger_target)
    assert ledger.check() == []
    ledger.close()


def test_a_rename_to_the_same_name_keeps_every_total(ledger_target):
    """A name renamed to itself, or to a form that folds to it (full width), is the same name: its
    totals are kept (they were once added to themselves and then deleted)."""
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        c.post("/api/tables", json={"name": "t1"})
        _deal(c, "Xa", ["Xa", "Xb"], 9, table="t1")
        assert c.post("/api/ledger/players/rename", json={"name": "Xb", "to": "Ｘｂ"}).status_code == 200
        assert c.post("/api/ledger/players/rename", json={"name": "Xa", "to": "Xa"}).status_code == 200
        assert c.get("/api/ledger?table=t1").json()["totals"] == {"Xa": 9, "Xb": -9}
        assert c.post("/api/tables/rename", json={"name": "t1", "to": "t1"}).status_code == 200
        assert c.post("/api/tables/rename", json={"name": "t1", "to": "Ｔ1"}).status_code == 200
        view = c.get("/api/ledger?table=t1").json()
        assert view["totals"] == {"Xa": 9, "Xb": -9} and len(view["deals"]) == 1
    ledger = Ledger(ledger_target)
    assert ledger.check() == []
    ledger.close()


def test_a_change_that_would_break_the_sums_is_refused_and_rolled_back(tmp_path, monkeypatch):
    from sisepai.ledger import roster

    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.add_deal("Ann", 5, ["Ann", "Bo"])
    monkeypatch.setattr(roster, "_move_player", lambda tx, old, new: tx.run("DELETE FROM balances WHERE player = ?",
                                                                             (old,)))
    with pytest.raises(roster.RosterConflict, match="break the ledger"):
        manage(ledger, "player", "rename", "Bo", to="Bob")
    assert ledger.totals() == {"Ann": 5, "Bo": -5} and ledger.players() == ["Ann", "Bo"] and changes(ledger) == []
    ledger.close()


@pytest.mark.parametrize("points", [1000, 999, 12, 0, 33])
def test_a_win_typed_by_hand_claims_only_a_total_the_rules_allow(tmp_path, points):
    with TestClient(create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False))) as c:
        r = _deal(c, "Ann", ["Ann", "Bo"], points)
        assert r.status_code == 422 and r.json()["code"] in ("points_not_a_total", "points_range"), r.text
        assert "points" in r.json()["detail"].lower()
        assert _deal(c, "Ann", ["Ann", "Bo"], 31).status_code == 200
        r = c.post("/api/ledger/deals", json={"players": ["Ann", "Bo"], "winner": "Ann", "points": 33, "rules": "tusac"})
        assert r.status_code == 200  # a total Vietnamese (tusac preset) rules allow
        assert len(c.get("/api/ledger").json()["deals"]) == 2


def test_no_merge_into_the_retired_and_the_unplayed_can_be_deleted(ledger_target):
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        _deal(c, "Ann", ["Ann", "Bo"])
        _deal(c, "Cy", ["Cy", "Di"])
        assert c.post("/api/ledger/players/retire", json={"name": "Di"}).status_code == 200
        r = c.post("/api/ledger/players/merge", json={"name": "Bo", "into": "Di"})
        assert r.status_code == 409 and r.json()["code"] == "player_retired"
        view = c.get("/api/ledger").json()
        assert "Di" not in view["club_totals"] and view["club_players_count"] == 3  # retired: out of the club's list
        assert c.get("/api/ledger/players").json()["count"] == 3
        assert c.get("/api/ledger").json()["totals"]["Di"] == -5  # the table keeps its history
        for t in ("t1", "t2"):
            c.post("/api/tables", json={"name": t})
        _deal(c, "Ann", ["Ann", "Bo"], table="t1")
        assert c.post("/api/tables/retire", json={"name": "t2"}).status_code == 200
        r = c.post("/api/tables/merge", json={"name": "t1", "into": "t2"})
        assert r.status_code == 409 and r.json()["code"] == "table_retired"
        assert c.post("/api/ledger/players", json={"name": "Typo"}).status_code == 200
        assert c.post("/api/ledger/players/delete", json={"name": "typo"}).json()["action"] == "delete"
        r = c.post("/api/ledger/players/delete", json={"name": "Ann"})
        assert r.status_code == 409 and r.json()["code"] == "has_deals"
        c.post("/api/tables", json={"name": "empty"})
        assert c.post("/api/tables/delete", json={"name": "empty"}).status_code == 200
        assert c.post("/api/tables/delete", json={"name": "t1"}).json()["code"] == "has_deals"
        assert "empty" not in [t["name"] for t in c.get("/api/tables").json()["tables"]]
    ledger = Ledger(ledger_target)
    assert ledger.check() == [] and "Typo" not in ledger.players()
    assert [(r["action"], r["name"]) for r in changes(ledger)][-2:] == [("delete", "Typo"), ("delete", "empty")]
    ledger.close()
