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
        assert c.post("/api/ledger/deals", json={"players": [name, "Bo"], "winner": name, "points": 2}).status_code == 200
    view = c.get("/api/ledger").json()
    assert sorted(view["players"]) == ["Bo", "Zoë"]


def test_the_club_has_a_player_cap(tmp_path, monkeypatch):
    from sisepai.service import store

    monkeypatch.setattr(store, "MAX_PLAYERS", 5)
    ledger = store.Ledger(str(tmp_path / "l.sqlite"))
    for name in ("Ann", "Bo", "Cy", "Di"):
        ledger.add_player(name)
    ledger.add_deal("Ann", 3, ["Ann", "Eve"])  # the fifth player joins through a deal
    ledger.add_player("Ann")  # a known player is no new one
    with pytest.raises(store.SisepaiError, match="5 players, the most"):
        ledger.add_player("Fay")
    with pytest.raises(store.SisepaiError, match="5 players, the most"):
        ledger.add_deal("Bo", 2, ["Bo", "Gus"])
    assert len(ledger.players()) == 5
    ledger.close()
