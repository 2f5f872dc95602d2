import pytest

from sisepai.engine.errors import InvalidCardError, InvalidMoveError
from sisepai.engine.gangoffour import beats, gof_code, parse_gof_card, parse_gof_cards, parse_play
from sisepai.engine.gangoffour.cards import gof_deck


def P(text):
    return parse_play(text)


@pytest.mark.parametrize("text,kind", [
    ("r7", "single"), ("pr", "single"), ("g5 y5", "pair"), ("vp vp", "pair"), ("m1 g1", "pair"),
    ("g5 y5 r5", "triple"), ("g3 y4 r5 g6 g7", "straight"), ("g1 g3 g5 g7 g9", "flush"),
    ("g2 y2 r2 g9 y9", "full_house"), ("y4 y5 y6 y7 y8", "straight_flush"),
    ("g5 y5 r5 g5", "gang"), ("g5 y5 r5 g5 y5", "gang"), ("g5 y5 r5 g5 y5 r5", "gang"),
    ("g1 y1 r1 g1 y1 r1 m1", "gang"),
])
def test_every_play_kind(text, kind):
    assert P(text).kind == kind


@pytest.mark.parametrize("text,why", [
    ("vp pr", "Vice Premiers pair only"), ("g5 y6", "one number"), ("g2 g3 g4 g5", "one number"),
    ("g1 g2 g3 g4 y6", "five cards must be"), ("vp g1 g2 g3 g4", "Vice Premiers"),
    ("g9 g10 r1 g2 g3", "five cards must be"),  # no wrap-around straights
])
def test_not_plays(text, why):
    with pytest.raises(InvalidMoveError, match=why):
        P(text)


def test_single_order():
    order = ["g1", "y1", "r1", "m1", "g2", "y2", "r2", "g10", "y10", "r10", "vp", "pr"]
    values = [parse_gof_card(c) for c in order]
    assert values == sorted(values)
    assert beats(P("m1"), P("r1")) and not beats(P("r1"), P("m1")) and beats(P("g2"), P("m1"))
    assert not beats(P("vp"), P("vp"))  # the two Vice Premiers are equal
    assert beats(P("pr"), P("vp"))


def test_ties_like_poker():
    assert beats(P("r5 g5"), P("y5 y5"))  # colour of the highest card
    assert beats(P("g6 g6"), P("r5 r5"))  # number first
    assert not beats(P("r5 g5"), P("r5 g5"))
    assert beats(P("g3 y4 r5 g6 r7"), P("g3 y4 r5 g6 y7"))
    assert beats(P("g4 y5 r6 g7 g8"), P("r3 r4 y5 r6 r7"))
    assert beats(P("r3 r3 y3 g2 g2"), P("g2 g2 y2 r10 r10"))  # full house by its triple


def test_five_card_categories():
    straight, flush = P("g3 y4 r5 g6 g7"), P("g1 g3 g5 g7 g9")
    full, sflush = P("g2 y2 r2 g9 y9"), P("y4 y5 y6 y7 y8")
    assert beats(flush, straight) and beats(full, flush) and beats(sflush, full)
    assert not beats(straight, flush)


def test_size_and_kind_must_match():
    assert not beats(P("g9 g9"), P("g2"))
    assert not beats(P("g9 g9 y9"), P("g2 y2"))


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_gangs_of_every_size_beat_everything(size):
    gang = P(" ".join((["g1", "y1", "r1", "m1", "g1", "y1", "r1"])[:size]))
    assert gang.kind == "gang"
    for other in ("pr", "vp vp", "r10 r10 y10", "y4 y5 y6 y7 y8"):
        assert beats(gang, P(other))
        assert not beats(P(other), gang)


def test_gang_against_gang():
    assert beats(P("g2 y2 r2 g2 y2"), P("r10 r10 y10 g10"))  # more cards
    assert beats(P("g10 y10 r10 r10"), P("g2 y2 r2 g2"))  # same count, higher number
    assert not beats(P("g2 y2 r2 g2"), P("g3 y3 r3 g3"))


def test_student_leader_is_a_one_and_any_colour():
    assert P("m1 g2 y3 r4 g5").kind == "straight"
    assert P("m1 r2 r3 r4 r5").kind == "straight_flush"
    assert P("m1 y3 y5 y7 y9").kind == "flush"
    assert P("m1 r1 y1 g4 y4").kind == "full_house"
    assert P("m1 g1").kind == "pair"


def test_notation_and_poker_substitution():
    assert gof_code(parse_gof_card("AD")) == "m1"
    assert gof_code(parse_gof_card("KS")) == "pr"
    assert gof_code(parse_gof_card("joker")) == "vp"
    assert gof_code(parse_gof_card("10H")) == "r10"
    assert gof_code(parse_gof_card("AS")) == "y1"
    assert gof_code(parse_gof_card("2C")) == "g2"
    with pytest.raises(InvalidCardError, match="diamonds"):
        parse_gof_card("5D")
    with pytest.raises(InvalidCardError, match="'q5'"):
        parse_gof_card("q5")
    assert len(gof_deck()) == 64
    assert parse_gof_cards("g1, y1") == [0, 1]
