import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sisepai.engine import Rules, decompositions, is_winning, parse_card_ids, score
from sisepai.engine.cards import CARD_CODES, counts_of, shuffled_deck
from sisepai.engine.decompose import BestTable, can_split

from .helpers import brute_force_best, random_winning_hand

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_every_split_is_listed_in_a_fixed_order():
    counts = counts_of(parse_card_ids("GP WP YP RP GP WP YP RP"))
    splits = decompositions(counts)
    as_text = [[str(m) for m in s] for s in splits]
    assert ["GP WP YP RP", "GP WP YP RP"] in as_text
    assert ["GP GP", "WP WP", "YP YP", "RP RP"] in as_text
    assert len(as_text) == len({tuple(map(tuple, s)) for s in as_text})
    assert splits == decompositions(counts)  # deterministic


def test_unsplittable_hand_gives_empty_list_not_exception():
    assert decompositions(counts_of(parse_card_ids("GA WE YP"))) == []
    assert score("GA WE YP GK GK GK GK J J J J J GP GP GP WP WP WP YP YP YP") is None


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_generated_winning_hands_win(seed):
    hand = random_winning_hand(random.Random(seed))
    assert is_winning(hand)
    result = score(hand)
    assert result is not None
    assert sum(len(sm.meld) for sm in result.melds) == 21


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_removing_a_card_makes_it_lose(seed):
    rng = random.Random(seed)
    hand = random_winning_hand(rng)
    hand.pop(rng.randrange(len(hand)))
    assert not is_winning(hand)
    assert score(hand) is None


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_seesek_totals_are_odd(seed):
    hand = random_winning_hand(random.Random(seed))
    assert score(hand).total % 2 == 1
    assert score(hand, rules=Rules.preset("seesek", four_card_points=4)).total % 2 == 1
    assert score(hand, rules="tusac").total % 2 == 1


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_matches_brute_force_on_winning_and_perturbed_hands(seed):
    rng = random.Random(seed)
    hand = random_winning_hand(rng)
    if rng.random() < 0.5:
        hand[rng.randrange(21)] = rng.choice(CARD_CODES[:28])
    expected = brute_force_best(hand)
    table = BestTable.for_rules(Rules.preset("seesek"))
    counts = counts_of(parse_card_ids(hand))
    assert table.best_points(counts) == expected
    assert can_split(counts) == (expected is not None)
    tusac = BestTable.for_rules(Rules.preset("tusac")).best_points(counts)
    assert tusac == brute_force_best(hand, tusac=True)


def test_matches_brute_force_on_random_deals():
    rng = random.Random(7)
    for _ in range(100):
        deck = shuffled_deck(rng.random())
        hand = [c.code for c in deck[:21]]
        assert BestTable.for_rules(Rules.preset("seesek")).best_points(counts_of(parse_card_ids(hand))) \
            == brute_force_best(hand)


def test_every_decomposition_is_a_partition():
    rng = random.Random(3)
    for _ in range(50):
        hand = random_winning_hand(rng)
        counts = counts_of(parse_card_ids(hand))
        for split in decompositions(counts):
            assert counts_of([c for m in split for c in m.cards]) == counts
