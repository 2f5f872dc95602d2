import pytest

from sisepai.engine import InvalidMeldError, Meld, MeldKind, parse_card_ids, why_not_meld
from sisepai.engine.cards import counts_of
from sisepai.engine.decompose import meld_points
from sisepai.engine.melds import all_melds, melds_with
from sisepai.engine.rules import Rules


@pytest.mark.parametrize("cards,kind", [
    ("GK", MeldKind.SINGLE), ("J", MeldKind.SINGLE), ("WH WH", MeldKind.PAIR),
    ("GK GA GE", MeldKind.COMMAND), ("YR YH YC", MeldKind.FIELD), ("RA RA RA", MeldKind.TRIPLE),
    ("GK GK GK", MeldKind.TRIPLE), ("GP WP RP", MeldKind.THREE_SOLDIERS), ("WE WE WE WE", MeldKind.QUAD),
    ("GK GK GK GK", MeldKind.QUAD), ("GP WP YP RP", MeldKind.FOUR_SOLDIERS),
])
def test_all_eight_kinds(cards, kind):
    assert Meld.parse(cards).kind == kind


@pytest.mark.parametrize("cards,reason", [
    ("GA", "a single must be a General or a joker"),
    ("GK GK", "Generals do not form pairs"),
    ("J J", "a joker is never wild"),
    ("GK J", "a joker is never wild"),
    ("GA WA", "two identical cards"),
    ("GK GA WE", "command group needs General, Advisor and Elephant of one suit"),
    ("GR GH GH", "field group needs Chariot, Horse and Cannon of one suit"),
    ("GP GP WP", "three different suits"),
    ("GP WP YP YP", "one Soldier of each suit"),
    ("GA GA GA GE", "four identical cards"),
    ("GK GA GE GK GA", "at most 4 cards"),
    ("GA GR GP", "three cards form a meld only as"),
])
def test_validation_says_why(cards, reason):
    assert reason in why_not_meld(parse_card_ids(cards))
    with pytest.raises(InvalidMeldError, match="is not a meld"):
        Meld.parse(cards)


def test_general_pair_is_an_option():
    assert Meld.parse("GK GK", allow_general_pair=True).kind == MeldKind.PAIR


def test_all_melds_count():
    # 29 singles/pairs..: 4 K singles + 1 joker, 24 pairs, 28 triples, 28 quads,
    # 8 command/field groups, 4 three-soldier groups and 1 four-soldier group.
    assert len(all_melds()) == 5 + 24 + 28 + 28 + 8 + 4 + 1


def test_seed_example_1_white_horse():
    """Seed 000, Example 1: a drawn WH melds as pair, triple, quad or field group."""
    hand = counts_of(parse_card_ids("WH WH WH WR WC GK"))
    options = {str(m): meld_points(m, Rules.preset("seesek")) for m in melds_with(parse_card_ids("WH")[0], hand)}
    assert options == {"WH WH": 0, "WH WH WH": 1, "WH WH WH WH": 2, "WR WH WC": 1}


def test_seed_example_2_general():
    """Seed 000, Example 2: a drawn General melds alone or as a command group, never as a pair."""
    hand = counts_of(parse_card_ids("GK GA GE"))
    options = {str(m): meld_points(m, Rules.preset("seesek")) for m in melds_with(0, hand)}
    assert options == {"GK": 1, "GK GA GE": 1}
