import pytest

from sisepai.engine import (
    CARD_CODES,
    Card,
    InvalidCardError,
    TooManyCopiesError,
    build_deck,
    parse_card_ids,
    parse_cards,
)
from sisepai.engine.cards import GLYPH_VARIANTS, check_copies, split_tokens


def test_class_order_is_fixed_and_has_29_kinds():
    assert len(CARD_CODES) == 29
    assert CARD_CODES[:7] == ("GK", "GA", "GE", "GR", "GH", "GC", "GP")
    assert CARD_CODES[-1] == "J"
    assert len(set(CARD_CODES)) == 29


@pytest.mark.parametrize("token,code", [
    ("GK", "GK"), ("gk", "GK"), ("rh", "RH"), ("Rh", "RH"), ("G將", "GK"), ("R俥", "RR"),
    ("y帥", "YK"), ("W包", "WC"), ("G炮", "GC"), ("Y卒", "YP"), ("G兵", "GP"), ("R将", "RK"),
    ("G车", "GR"), ("W马", "WH"), ("R傌", "RH"), ("J", "J"), ("j", "J"), ("公", "J"),
])
def test_parse_tokens(token, code):
    assert Card.parse(token).code == code


def test_every_glyph_variant_parses_for_every_suit():
    for rank, glyphs in GLYPH_VARIANTS.items():
        for glyph in glyphs:
            for suit in "GWYR":
                assert Card.parse(suit + glyph).code == suit + rank


@pytest.mark.parametrize("bad", ["XK", "G9", "GKK", "", "黑"])
def test_unknown_tokens_name_the_token(bad):
    with pytest.raises(InvalidCardError) as err:
        Card.parse(bad)
    assert repr(bad) in str(err.value)


def test_parse_whole_hands_in_many_spellings():
    assert [c.code for c in parse_cards("GK GA GE J")] == ["GK", "GA", "GE", "J"]
    assert parse_card_ids("gk,ga;ge") == parse_card_ids("GKGAGE") == [0, 1, 2]
    assert split_tokens("G將 G士") == ["G將", "G士"]
    with pytest.raises(InvalidCardError, match="'ZZ'"):
        parse_cards("GK ZZ GA")


def test_names_and_glyphs():
    assert Card.parse("RR").name == "Red Chariot"
    assert Card.parse("GK").glyph == "將" and Card.parse("YK").glyph == "帥"
    assert Card.parse("GK") is Card.from_id(0)
    assert eval(repr(Card.parse("WH"))) is Card.parse("WH")


@pytest.mark.parametrize("jokers,packs,size", [(0, 1, 112), (5, 1, 117), (8, 1, 120), (5, 2, 229)])
def test_deck_builder(jokers, packs, size):
    deck = build_deck(jokers=jokers, packs=packs)
    assert len(deck) == size
    assert sum(1 for c in deck if c.code == "GK") == 4 * packs


def test_deck_builder_rejects_bad_counts():
    with pytest.raises(ValueError):
        build_deck(jokers=9)
    with pytest.raises(ValueError):
        build_deck(packs=0)


def test_copy_limits():
    check_copies(parse_card_ids("GK GK GK GK J J J J J"))
    with pytest.raises(TooManyCopiesError, match="5 copies of GK"):
        check_copies(parse_card_ids("GK GK GK GK GK"))
    with pytest.raises(TooManyCopiesError, match="6 jokers"):
        check_copies(parse_card_ids("J J J J J J"))
    check_copies(parse_card_ids("GK " * 8), packs=2)
