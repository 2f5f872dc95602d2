"""Big reads stay small: the CSV export streams page by page, and players come in pages."""

import csv
import io

from fastapi.testclient import TestClient

from sisepai.ledger import store
from sisepai.ledger.store import Ledger
from sisepai.service.main import create_app
from sisepai.service.settings import Settings


def _ledger(tmp_path, deals=0, table="main"):
    ledger = Ledger(str(tmp_path / "l.sqlite"))
    if table != "main":
        ledger.add_table(table)
    for k in range(deals):
        ledger.add_deal("Ann" if k % 2 else "Bo", 3, ["Ann", "Bo", "Cy", "Di"], discarder="Cy", table=table)
    return ledger


def test_the_csv_is_read_a_page_at_a_time(tmp_path, monkeypatch):
    ledger = _ledger(tmp_path, deals=25)
    monkeypatch.setattr(store, "CSV_PAGE", 10)
    pieces = list(ledger.iter_csv(page=10))
    assert len(pieces) == 3  # 10 + 10 + 5 deals: three reads, never the whole ledger at once
    rows = list(csv.reader(io.StringIO("".join(pieces))))
    assert rows[0][0] == "deal" and [int(r[0]) for r in rows[1:]] == list(range(1, 26))
    assert "".join(pieces) == ledger.to_csv()
    ledger.close()


def test_the_csv_download_streams_and_is_named_after_its_table(tmp_path):
    settings = Settings(db=str(tmp_path / "l.sqlite"), load_model=False)
    with TestClient(create_app(settings)) as c:
        assert c.post("/api/tables", json={"name": "桌子1"}).status_code == 200
        c.post("/api/ledger/deals", json={"players": ["Ann", "Bo"], "winner": "Ann", "points": 5, "discarder": "Bo",
                                          "table": "桌子1"})
        r = c.get("/api/ledger/export.csv", params={"table": "桌子1"})
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
        assert "filename*=UTF-8''sisepai-ledger-%E6%A1%8C%E5%AD%901.csv" in r.headers["content-disposition"]
        assert "桌子1" in r.text and "Ann" in r.text
        assert c.get("/api/ledger/export.csv", params={"table": "nowhere"}).status_code == 404


def test_players_come_in_pages_and_a_page_load_lists_a_bounded_few(tmp_path):
    ledger = _ledger(tmp_path)
    for k in range(store.PLAYERS_PAGE + 30):
        ledger.add_player(f"P{k:03d}")
    ledger.add_deal("P007", 9, ["P007", "P008"], discarder="P008")
    page = ledger.players_page(offset=0, limit=50)
    assert page["count"] == store.PLAYERS_PAGE + 30 and len(page["players"]) == 50
    assert page["players"][0] == {"name": "P000", "total": 0}
    rest = ledger.players_page(offset=store.PLAYERS_PAGE, limit=50)
    assert [p["name"] for p in rest["players"]][:2] == [f"P{store.PLAYERS_PAGE:03d}", f"P{store.PLAYERS_PAGE + 1:03d}"]
    view = ledger.view()
    assert view["club_players_count"] == store.PLAYERS_PAGE + 30 and len(view["club_totals"]) == store.PLAYERS_PAGE
    assert view["club_totals"]["P007"] == 9 and view["club_totals"]["P008"] == -9  # the largest totals kept
    at_table = ledger.players_page("main")
    assert {p["name"]: p["total"] for p in at_table["players"]} == {"P007": 9, "P008": -9}
    ledger.close()


def test_the_players_endpoint_bounds_its_page(tmp_path):
    settings = Settings(db=str(tmp_path / "l.sqlite"), load_model=False)
    with TestClient(create_app(settings)) as c:
        c.post("/api/ledger/players", json={"name": "Zoë"})
        assert c.get("/api/ledger/players").json()["players"] == [{"name": "Zoë", "total": 0}]
        assert c.get("/api/ledger/players", params={"limit": 10_000}).status_code == 422
        assert c.get("/api/ledger/players", params={"table": "nowhere"}).status_code == 404
