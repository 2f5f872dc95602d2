"""A club: tables, one ledger on PostgreSQL shared by several processes (the tests' own server,
``tests/postgres.py``; skipped with the reason where PostgreSQL cannot start), and the same schema
and API on SQLite."""

import json
import signal
import subprocess
import sys
import threading
import time

import pytest
from fastapi.testclient import TestClient

from sisepai.ledger.store import MIGRATIONS, Ledger
from sisepai.service.main import create_app
from sisepai.service.settings import Settings


@pytest.fixture(params=["sqlite", "postgresql"])
def ledger_target(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "ledger.sqlite")
    return request.getfixturevalue("postgres_url")


def _columns(ledger: Ledger) -> dict[str, list[str]]:
    out = {}
    with ledger.db.transaction(write=False) as tx:
        for name in ("players", "rooms", "deals", "payments", "schema_version"):
            tx.run(f"SELECT * FROM {name} LIMIT 0")
            out[name] = [d[0] for d in tx._cur.description]
    return out


def test_both_databases_get_the_same_schema_by_the_same_migrations(tmp_path, postgres_url):
    lite, pg = Ledger(tmp_path / "l.sqlite"), Ledger(postgres_url)
    assert lite.version == pg.version == len(MIGRATIONS)
    assert _columns(lite) == _columns(pg)
    assert _columns(pg)["deals"][-3:] == ["room", "players", "room_id"]
    lite.close(), pg.close()


def _first_version_ledger(path, rules: str, points: int) -> Ledger:
    """A ledger written by the first schema, one deal of Ann's in it, opened (and so migrated)."""
    import sqlite3

    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);"
                      + MIGRATIONS[0].format(id="INTEGER PRIMARY KEY", real="REAL")
                      + f"; INSERT INTO deals (created, winner, points, rules) VALUES (1.0, 'Ann', {points}, '{rules}');"
                        f"INSERT INTO payments (deal_id, payer, payee, amount) VALUES (1, 'Bo', 'Ann', {points});")
    con.close()
    return Ledger(path)


def test_an_old_sqlite_ledger_is_brought_up_to_date_with_its_deals_at_the_main_table(tmp_path):
    ledger = _first_version_ledger(tmp_path / "old.sqlite", "seesek", 7)
    assert ledger.version == len(MIGRATIONS)
    assert ledger.deals()[0]["table"] == "main" and ledger.totals("main") == {"Bo": -7, "Ann": 7}
    assert ledger.check() == []  # the running totals were built from the payments already there


def test_deals_recorded_under_the_presets_former_name_read_as_tusac(tmp_path):
    ledger = _first_version_ledger(tmp_path / "old.sqlite", "korean", 33)
    assert [d["rules"] for d in ledger.deals()] == ["tusac"] and ledger.check() == []


def test_tables_keep_their_own_deals_totals_and_undo(ledger_target):
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        assert c.get("/api/tables").json() == {"default": "main", "tables": [
            {"name": "main", "created": 0.0, "deals": 0}]}
        assert c.post("/api/tables", json={"name": "patio"}).status_code == 200
        assert c.post("/api/tables", json={"name": "../x"}).status_code == 422
        deal = {"players": ["Ann", "Bo", "Cy", "Di"], "winner": "Ann", "points": 11, "discarder": "Bo"}
        assert c.post("/api/ledger/deals", json=deal).json()["table"] == "main"
        assert c.post("/api/ledger/deals", json={**deal, "winner": "Cy", "points": 5, "discarder": None,
                                                 "table": "patio"}).json()["table"] == "patio"
        assert c.post("/api/ledger/deals", json={**deal, "table": "nowhere"}).status_code == 404
        main, patio = (c.get(f"/api/ledger?table={t}").json() for t in ("main", "patio"))
        assert main["totals"] == {"Ann": 11, "Bo": -11, "Cy": 0, "Di": 0}
        assert patio["totals"] == {"Ann": -5, "Bo": -5, "Cy": 15, "Di": -5}
        assert main["club_totals"] == {"Ann": 6, "Bo": -16, "Cy": 15, "Di": -5}
        assert [d["table"] for d in patio["deals"]] == ["patio"]
        # undo at the main table removes the main table's last deal, though patio's came later
        assert c.post("/api/ledger/undo?table=main").json()["removed"]["winner"] == "Ann"
        assert c.post("/api/ledger/undo?table=main").status_code == 404
        assert c.get("/api/ledger?table=patio").json()["totals"]["Cy"] == 15
        assert c.get("/api/ledger?table=nope").status_code == 404
        assert c.get("/api/ledger?table=patio&last=0").status_code == 422
        rows = c.get("/api/ledger/export.csv?table=patio").text.splitlines()
        assert rows[0].startswith("deal,time,table,") and all(",patio," in r for r in rows[1:]) and len(rows) == 4
        assert [t["deals"] for t in c.get("/api/tables").json()["tables"]] == [0, 1]


def test_a_live_stream_belongs_to_a_table_that_exists(tmp_path):
    from tests.service.test_api import CountingRecognizer

    app = create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False), recognizer=CountingRecognizer())
    with TestClient(app) as c:
        with c.websocket_connect("/api/live?table=nowhere") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and "no table named 'nowhere'" in msg["detail"]
        from tests.service.test_api import jpeg

        c.post("/api/tables", json={"name": "patio"})
        with c.websocket_connect("/api/live?table=patio") as ws:
            ws.send_bytes(jpeg())
            assert ws.receive_json()["table"] == "patio"


WRITER = """
import json, random, sys
from sisepai.ledger.store import Ledger
ledger, me, n = Ledger(sys.argv[1], pool=2), sys.argv[2], int(sys.argv[3])
rng = random.Random(int(me))
players = ["Ann", "Bo", "Cy", "Di"]
for i in range(n):
    table = rng.choice(["shared", "own" + me])
    if rng.random() < 0.2:
        removed = ledger.undo(table)
        print(json.dumps({"undo": table, "removed": removed and removed["table"]}), flush=True)
    else:
        w, d = rng.sample(players, 2)
        deal = ledger.add_deal(w, rng.randrange(1, 31, 2), players, d if rng.random() < 0.7 else None, table=table)
        print(json.dumps({"add": table, "id": deal["id"]}), flush=True)
"""


def test_four_processes_writing_at_once_lose_nothing_and_keep_the_invariants(postgres_url):
    club = Ledger(postgres_url)
    for t in ["shared"] + [f"own{k}" for k in range(4)]:
        club.add_table(t)
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, postgres_url, str(k), "60"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for k in range(4)]
    added, removed = {}, {}
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err[-500:]
        for line in out.splitlines():
            op = json.loads(line)
            if "add" in op:
                added[op["add"]] = added.get(op["add"], 0) + 1
            elif op["removed"] is not None:
                assert op["removed"] == op["undo"]  # an undo takes its own table's deal, no other
                removed[op["undo"]] = removed.get(op["undo"], 0) + 1
    assert sum(added.values()) > 150
    for table in added:
        assert len(club.deals(table)) == added[table] - removed.get(table, 0), table
        assert sum(club.totals(table).values()) == 0
    assert sum(club.totals().values()) == 0
    assert club.check() == []  # the running totals agree with the payments, table by table
    with club.db.transaction(write=False) as tx:  # every deal with a winner has its payments
        assert tx.one("SELECT count(*) FROM deals d WHERE winner IS NOT NULL AND NOT EXISTS "
                      "(SELECT 1 FROM payments p WHERE p.deal_id = d.id)")[0] == 0
        assert tx.one("SELECT count(*) FROM payments p WHERE NOT EXISTS "
                      "(SELECT 1 FROM deals d WHERE d.id = p.deal_id)")[0] == 0


def test_a_killed_service_process_loses_no_acknowledged_deal(postgres_url):
    # clients keep posting deals to two service processes; one is killed (-9) mid-stream, again
    # and again; every deal a client got an answer for is in the ledger, and nothing half-written
    import httpx

    from tests.service_process import free_port, serve_process, wait_until_up

    ports = [free_port(), free_port()]
    procs = [serve_process(postgres_url, p) for p in ports]
    acknowledged: list[int] = []
    stop = threading.Event()

    def client(port_index: int) -> None:
        with httpx.Client(timeout=5) as http:
            while not stop.is_set():
                try:
                    r = http.post(f"http://127.0.0.1:{ports[port_index]}/api/ledger/deals",
                                  json={"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "points": 3})
                except httpx.HTTPError:
                    time.sleep(0.05)  # that process is down: try again once it is back
                    continue
                if r.status_code == 200:
                    acknowledged.append(r.json()["id"])

    try:
        for i, p in enumerate(procs):
            wait_until_up(ports[i], p)
        threads = [threading.Thread(target=client, args=(k % 2,)) for k in range(4)]
        for t in threads:
            t.start()
        for _ in range(3):
            time.sleep(1.5)
            procs[0].send_signal(signal.SIGKILL)
            procs[0].wait(timeout=10)
            procs[0] = serve_process(postgres_url, ports[0])
            wait_until_up(ports[0], procs[0])
        time.sleep(1.0)
        stop.set()
        for t in threads:
            t.join(timeout=30)
    finally:
        stop.set()
        for p in procs:
            p.kill()
            p.wait(timeout=10)
    ledger = Ledger(postgres_url)
    stored = {d["id"] for d in ledger.deals("main")}
    assert len(acknowledged) > 50
    assert set(acknowledged) <= stored
    assert ledger.totals("main")["Ann"] == 6 * len(stored)  # each stored deal whole: both payments
    assert sum(ledger.totals().values()) == 0 and ledger.check() == []


def test_ledger_migrate_moves_a_family_file_into_the_club_and_checks_the_totals(tmp_path, postgres_url):
    family_path = tmp_path / "family.sqlite"
    family = Ledger(family_path)
    family.add_deal("Ann", 11, ["Ann", "Bo", "Cy", "Di"], "Bo", note="=cmd|' /C calc'!A0")
    family.add_deal("Cy", 5, ["Ann", "Bo", "Cy", "Di"])
    family.close()
    before = family_path.read_bytes()
    club = Ledger(postgres_url)
    club.add_deal("Zed", 3, ["Zed", "Ann"], "Ann")  # the club's own main table already has a deal

    def migrate(*extra):
        return subprocess.run([sys.executable, "-m", "sisepai.engine.cli", "ledger", "migrate", "--from",
                               str(family_path), "--to", postgres_url, *extra], capture_output=True, text=True,
                              timeout=120)

    refused = migrate()
    assert refused.returncode == 2 and "has deals already" in refused.stderr and "Traceback" not in refused.stderr
    assert len(club.deals()) == 1  # nothing moved
    moved = migrate("--table", "family", "--json")
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert report["deals"] == 2 and report["tables"]["family"]["totals"] == {"Ann": 6, "Bo": -16, "Cy": 15, "Di": -5}
    assert club.totals("family") == {"Ann": 6, "Bo": -16, "Cy": 15, "Di": -5}
    assert club.totals()["Ann"] == 6 - 3 and sum(club.totals().values()) == 0
    assert [d["note"] for d in club.deals("family")][0] == "=cmd|' /C calc'!A0"
    assert family_path.read_bytes() == before  # the family's file is read, never changed
    assert club.check() == []
    again = migrate("--table", "family")
    assert again.returncode == 2 and "--append" in again.stderr


def test_a_database_that_goes_away_answers_503_and_the_next_request_reconnects(postgres_url):
    import psycopg

    with TestClient(create_app(Settings(db=postgres_url, load_model=False))) as c:
        assert c.get("/api/ledger").status_code == 200
        with psycopg.connect(postgres_url, autocommit=True) as admin:  # the server drops our connections
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = 'sisepai' AND pid <> pg_backend_pid()")
        r = c.get("/api/ledger")
        assert r.status_code == 503 and r.headers["retry-after"] == "2" and "Traceback" not in r.text
        assert c.get("/api/ledger").status_code == 200


def test_serve_with_an_unreachable_database_fails_in_one_line():
    proc = subprocess.run([sys.executable, "-m", "sisepai.engine.cli", "serve", "--no-model", "--db",
                           "postgresql://club:secret@127.0.0.1:1/club"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot reach the ledger database postgresql://club:***@127.0.0.1:1/club" in proc.stderr
    assert "secret" not in proc.stderr


def test_check_finds_running_totals_that_disagree_with_the_payments(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.add_deal("Ann", 11, ["Ann", "Bo"], "Bo")
    assert ledger.check() == []
    with ledger.db.transaction() as tx:  # a hand-edit of the database behind the ledger's back
        tx.run("UPDATE payments SET amount = 12")
    assert ledger.check() == ["table 'main': its running totals differ from its payments"]
    proc = subprocess.run([sys.executable, "-m", "sisepai.engine.cli", "ledger", "check", "--db",
                           str(tmp_path / "l.sqlite")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "differ from its payments" in proc.stdout


def test_check_accepts_a_player_who_won_back_what_they_paid(tmp_path):
    """Bo pays Ann 5, then wins 5 from her: Bo's payments net to 0, as his running total does."""
    ledger = Ledger(str(tmp_path / "l.sqlite"))
    ledger.add_deal("Ann", 5, ["Ann", "Bo"], "Bo")
    ledger.add_deal("Bo", 5, ["Ann", "Bo"], "Ann")
    assert ledger.totals()["Bo"] == 0
    assert ledger.check() == []


def test_undo_names_its_deal_and_ids_are_never_given_twice(ledger_target):
    """Two clients: one looks at deal A as the last, the other records deal B; the first one's undo
    of A is refused (409) and B stays. After B is undone, the next deal takes a new id."""
    deal = {"players": ["Ann", "Bo"], "winner": "Ann", "points": 5}
    with TestClient(create_app(Settings(db=ledger_target, load_model=False))) as c:
        a = c.post("/api/ledger/deals", json=deal).json()["id"]
        b = c.post("/api/ledger/deals", json={**deal, "winner": "Bo", "points": 7}).json()["id"]
        r = c.post(f"/api/ledger/undo?table=main&deal={a}")
        assert r.status_code == 409 and r.json()["code"] == "not_last_deal"
        assert r.json()["params"] == {"deal": a, "last": b, "table": "main"}
        assert sorted(d["id"] for d in c.get("/api/ledger").json()["deals"]) == [a, b]  # nothing removed
        assert c.post(f"/api/ledger/undo?table=main&deal={b}").json()["removed"]["id"] == b
        again = c.post("/api/ledger/deals", json={**deal, "points": 3}).json()["id"]
        assert again > b  # B's id is not given to another deal: a CSV made before stays true
        assert c.post("/api/ledger/undo?table=main").json()["removed"]["id"] == again  # no id: the last, as before


def test_only_scores_the_rules_can_give_are_recorded(tmp_path):
    deal = {"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "points": 11}
    hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"  # 11 points under seesek
    with TestClient(create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False))) as c:
        refused = [
            ({**deal, "points": True}, None),  # a truth value is not a number of points
            ({**deal, "points": "11"}, None),
            ({**deal, "winner": None, "discarder": "Bo", "points": 7}, "draw_pays"),  # a draw pays nothing
            ({**deal, "winner": None, "points": 7}, "draw_pays"),
            ({**deal, "cards": "GK GA", "points": 900}, None),  # not a whole hand, let alone a win
            ({**deal, "cards": hand, "points": 900}, "cards_score"),
            ({**deal, "winner": None, "points": 0, "cards": hand}, "cards_need_winner"),
        ]
        for body, code in refused:
            r = c.post("/api/ledger/deals", json=body)
            assert r.status_code == 422, (body, r.json())
            if code:
                assert r.json()["code"] == code, (body, r.json())
        assert c.get("/api/ledger").json()["deals"] == []  # nothing of it was recorded
        assert c.post("/api/ledger/deals", json={**deal, "cards": hand}).status_code == 200
        assert c.post("/api/ledger/deals", json={**deal, "winner": None, "points": 0}).status_code == 200  # a draw
