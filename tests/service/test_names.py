"""Names of players and tables: any script welcome, hidden characters refused in words."""

import pytest
from fastapi.testclient import TestClient

from sisepai.service.main import create_app
from sisepai.service.settings import Settings
from tests.service.test_api import CountingRecognizer


@pytest.fixture
def c(tmp_path):
    settings = Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False)
    with TestClient(create_app(settings, recognizer=CountingRecognizer())) as client:
        yield client


@pytest.mark.parametrize("name", ["桌子1", "Grandma's table", "Bàn của bà", "table 2"])
def test_a_table_may_be_named_in_any_script(c, name):
    r = c.post("/api/tables", json={"name": name})
    assert r.status_code == 200, r.text
    assert name in [t["name"] if isinstance(t, dict) else t for t in c.get("/api/tables").json()["tables"]]
    deal = c.post("/api/ledger/deals", json={"players": ["Zoë", "李"], "winner": "Zoë", "points": 3, "table": name})
    assert deal.status_code == 200, deal.text


@pytest.mark.parametrize("bad, words", [("Ann\u200b", "zero-width space"), ("\u202eevil", "right-to-left override"),
                                        ("A\x00B", "NUL"), ("Ann\nBo", "new line"), ("   ", "empty"),
                                        ("a  b", "two spaces")])
def test_hidden_characters_are_refused_in_words(c, bad, words):
    for r in (c.post("/api/ledger/players", json={"name": bad}), c.post("/api/tables", json={"name": bad}),
              c.post("/api/ledger/deals", json={"players": [bad, "Bo"], "winner": "Bo", "points": 1})):
        assert r.status_code == 422, r.text
        assert words in r.text and "Traceback" not in r.text


def test_one_name_typed_two_ways_is_one_player(c):
    assert c.post("/api/ledger/players", json={"name": "Zoe\u0308"}).json()["name"] == "Zoë"
    for name in ("Zoe\u0308", "Zoë"):
        assert c.post("/api/ledger/deals", json={"players": [name, "Bo"], "winner": name, "points": 3}).status_code == 200
    view = c.get("/api/ledger").json()
    assert sorted(view["players"]) == ["Bo", "Zoë"]


def test_look_alike_letters_make_no_second_ann(c):
    assert c.post("/api/ledger/players", json={"name": "Ann"}).status_code == 200
    full_width = c.post("/api/ledger/deals", json={"players": ["\uff21\uff4e\uff4e", "Bo"], "winner": "Bo", "points": 1})
    assert full_width.status_code == 200, full_width.text
    cyrillic = c.post("/api/ledger/players", json={"name": "\u0410nn"})
    assert cyrillic.status_code == 422 and "Cyrillic and Latin" in cyrillic.text
    assert sorted(c.get("/api/ledger").json()["players"]) == ["Ann", "Bo"]
    assert c.post("/api/ledger/players", json={"name": "Анна"}).json()["name"] == "Анна"  # one alphabet is welcome


def test_the_club_has_a_player_cap(tmp_path, monkeypatch):
    from sisepai.ledger import deal_records, store

    monkeypatch.setattr(deal_records, "MAX_PLAYERS", 5)
    ledger = store.Ledger(str(tmp_path / "l.sqlite"))
    for name in ("Ann", "Bo", "Cy", "Di"):
        ledger.add_player(name)
    ledger.add_deal("Ann", 3, ["Ann", "Eve"])  # the fifth player joins through a deal
    ledger.add_player("Ann")  # a known player is no new one
    with pytest.raises(store.SisepaiError, match="5 active players, the most"):
        ledger.add_player("Fay")
    with pytest.raises(store.SisepaiError, match="5 active players, the most"):
        ledger.add_deal("Bo", 3, ["Bo", "Gus"])
    assert len(ledger.players()) == 5
    ledger.close()


def test_a_deals_cards_are_checked_by_the_engine_and_kept_as_codes(c):
    ok = c.post("/api/ledger/deals", json={"players": ["Ann", "Bo"], "winner": "Ann", "points": 11,
                                           "cards": "g將 GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"})
    assert ok.status_code == 200, ok.text
    assert c.get("/api/ledger").json()["deals"][0]["cards"].startswith("GK GA GE WK")
    for bad, words in (("GK " * 21, "cop"), ("ZZ", "ZZ"), ("GK GA " * 12, "at most 21"), (" ", "empty")):
        r = c.post("/api/ledger/deals", json={"players": ["Ann", "Bo"], "winner": "Ann", "points": 1, "cards": bad})
        assert r.status_code == 422 and words in r.text and "Traceback" not in r.text, (bad, r.text)
    assert len(c.get("/api/ledger").json()["deals"]) == 1
