"""``Ledger.check`` sees everything a race or a hand-edited file could leave: deals at a table that
does not exist, totals with no deal behind them, one name held twice."""

from sisepai.ledger.roster import manage
from sisepai.ledger.store import Ledger


def test_a_deal_keeps_its_table_by_id_through_renames():
    ledger = Ledger(":memory:")
    ledger.add_table("ra")
    deal = ledger.add_deal("Ann", 3, ["Ann", "Bo"], "Bo", table="ra")
    manage(ledger, "table", "rename", "ra", to="RA")
    manage(ledger, "table", "rename", "RA", to="patio")
    assert [d["id"] for d in ledger.deals("patio")] == [deal["id"]] and ledger.deals("patio")[0]["table"] == "patio"
    with ledger.db.transaction(write=False) as tx:
        assert tx.one("SELECT room_id FROM deals")[0] == tx.one("SELECT id FROM rooms WHERE name = 'patio'")[0]
    assert ledger.check() == []


def test_check_finds_a_stranded_deal_and_a_total_with_no_deal():
    ledger = Ledger(":memory:")
    ledger.add_deal("Ann", 3, ["Ann", "Bo"], "Bo")
    with ledger.db.transaction() as tx:  # what a race used to leave: a deal and totals at no table
        tx.run("UPDATE deals SET room_id = NULL")
        tx.run("INSERT INTO balances (room, player, total) VALUES ('gone', 'Mx6', -7), ('gone', 'My6', 7)")
    problems = ledger.check()
    assert "1 deals are at a table that does not exist" in problems
    assert "a total with no deal behind it: 'Mx6' -7 at table 'gone', which does not exist" in problems
    assert any("running totals differ from its payments" in p for p in problems)
