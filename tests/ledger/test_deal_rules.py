"""A deal's rules are the ledger's: every caller (the API, the CLI's moves, a script) gets the same checks."""

import pytest

from sisepai.engine.errors import SisepaiError
from sisepai.ledger.store import Ledger

HAND = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"  # 11 points under seesek


@pytest.mark.parametrize(("kwargs", "code"), [
    ({"points": 12}, "points_not_a_total"),  # no winning hand scores an even total under seesek
    ({"points": 12, "cards": HAND}, "cards_score"),
    ({"points": 11, "cards": "GK GA"}, "cards_not_winning"),
    ({"points": 11, "cards": "GK GK GK GK GK"}, None),  # five of a kind: not a hand the deck can hold
])
def test_a_deal_that_breaks_its_rules_is_refused_by_the_ledger_and_writes_nothing(kwargs, code):
    ledger = Ledger(":memory:")
    with pytest.raises(SisepaiError) as refused:
        ledger.add_deal("Ann", players=["Ann", "Bo"], discarder="Bo", **kwargs)
    if code:
        assert refused.value.code == code
    assert ledger.deals() == [] and ledger.check() == []


def test_a_deal_with_its_cards_is_kept_in_the_engines_notation():
    ledger = Ledger(":memory:")
    deal = ledger.add_deal("Ann", 11, ["Ann", "Bo"], "Bo", cards=HAND.replace("GK", "g將").replace(" ", ","))
    assert ledger.deals()[0]["cards"] == HAND and deal["points"] == 11
