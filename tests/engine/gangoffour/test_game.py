import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sisepai.engine.errors import IllegalMoveError, SisepaiError
from sisepai.engine.gangoffour import (
    GofMatch,
    deal_score,
    deal_scores,
    legal_plays,
    match_over,
    match_winners,
    may_pass,
    parse_gof_cards,
    parse_play,
    play_match,
)
from sisepai.engine.gangoffour.advice import BOTS, advise_play
from sisepai.engine.gangoffour.cards import gof_deck


@pytest.mark.parametrize("left,score", [
    (0, 0), (1, 1), (7, 7), (8, 16), (10, 20), (11, 33), (13, 39), (14, 56), (15, 60), (16, 80),
])
def test_scoring_table_at_every_boundary(left, score):
    assert deal_score(left) == score


def test_bad_counts():
    with pytest.raises(SisepaiError):
        deal_score(17)


def test_match_end_at_100():
    assert not match_over([99, 0, 50, 20])
    assert match_over([100, 0, 50, 20])
    assert match_winners([100, 3, 50, 3]) == [1, 3]


def test_next_player_with_one_card_forces_highest_single():
    hand = parse_gof_cards("g3 y7 r9")
    legal = legal_plays(hand, parse_play("g2"), next_has_one_card=True)
    assert [str(p) for p in legal] == ["r9"]
    assert not may_pass(hand, parse_play("g2"), next_has_one_card=True)
    assert may_pass(hand, parse_play("vp"), next_has_one_card=True)  # cannot beat: pass


def test_leader_before_one_card_player_leads_single_only_if_nothing_else():
    with_pair = parse_gof_cards("g3 g3 r9")
    assert all(p.kind != "single" for p in legal_plays(with_pair, None, next_has_one_card=True))
    singles = parse_gof_cards("g3 y7 r9")
    assert [str(p) for p in legal_plays(singles, None, next_has_one_card=True)] == ["r9"]


def test_first_lead_needs_student_leader():
    hand = parse_gof_cards("m1 g1 g5 y9")
    legal = legal_plays(hand, None, first_lead=True)
    assert {str(p) for p in legal} == {"m1", "g1 m1"}


def _match_with_hands(hands):
    m = GofMatch(seed=0, deal=False)
    m.start_deal([parse_gof_cards(h) for h in hands])
    return m


HANDS = [
    "m1 g2 g3 g4 g5 g6 g7 g8 g9 g10 y2 y3 y4 y5 y6 y7",
    "g1 y1 r1 g1 y1 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 vp",
    "y8 y9 y10 r2 r3 r4 r5 r6 r7 r8 r9 r10 vp pr g2 g3",
    "g4 g5 g6 g7 g8 g9 g10 y2 y3 y4 y5 y6 y7 y8 y9 y10",
]


def test_illegal_moves_change_nothing():
    m = _match_with_hands(HANDS)
    assert m.turn == 0 and m.first_lead
    before = (json.dumps(m.events), [list(h) for h in m.hands], m.turn)
    with pytest.raises(IllegalMoveError, match="Student Leader"):
        m.play("g2")
    with pytest.raises(IllegalMoveError, match="does not hold"):
        m.play("pr")
    with pytest.raises(IllegalMoveError, match="leader must play"):
        m.pass_turn()
    assert (json.dumps(m.events), [list(h) for h in m.hands], m.turn) == before


def test_three_passes_give_control_and_direction():
    m = _match_with_hands(HANDS)
    m.play("m1")
    assert m.turn == 1  # first deal goes to the left: +1
    m.pass_turn()
    m.pass_turn()
    m.pass_turn()
    assert m.turn == 0 and m.current is None


def test_last_card_announcement_and_catch():
    m = _match_with_hands(["m1 g2", "g3 g4", "y3 y4", "r3 r4"] + [])
    m.play("m1", announce=False)
    m.catch(1, 0)
    assert m.barred[0]
    with pytest.raises(IllegalMoveError):
        m.catch(1, 2)


def test_deal_end_scoring_and_exchange():
    m = _match_with_hands(["m1", "g3 g4 g5", "y3 y4 y5 y6 y7 y8 y9 y10", "r3"])
    result = m.play("m1")
    assert result.winner == 0 and result.scores == deal_scores([0, 3, 8, 1]) == [0, 3, 16, 1]
    assert m.totals == [0, 3, 16, 1]
    m.start_deal()
    assert m.direction == -1
    give = next(e for e in reversed(m.events) if e["type"] == "give")
    assert give["from"] == 2 and give["to"] == 0  # biggest scorer deals and gives their highest
    assert m.turn == 0
    with pytest.raises(IllegalMoveError, match="give a card back"):
        m.pass_turn()
    m.give_back(m.hands[0][0])
    assert len(m.hands[0]) == 16 and len(m.hands[2]) == 16


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_simulated_matches_conserve_cards_and_replay(seed):
    bots = random.Random(seed).choice([["greedy", "random", "random", "random"], ["random"] * 4, ["greedy"] * 4])
    match = play_match(seed, bots)
    assert match.finished and max(match.totals) >= 100
    replayed = GofMatch.replay(json.loads(json.dumps(match.events)))
    assert replayed.totals == match.totals
    # conservation: each deal's hands are the whole deck, and every card played was held
    for ev in match.events:
        if ev["type"] == "deal":
            assert sorted(c for h in ev["hands"] for c in parse_gof_cards(h)) == gof_deck()


def test_every_bot_play_is_legal():
    rng = random.Random(4)
    for name in BOTS:
        bots = [BOTS[name](random.Random(i)) for i in range(4)]
        m = GofMatch(seed=9)
        steps = 0
        while not m.finished and steps < 3000:
            steps += 1
            if m.pending_exchange:
                m.give_back(bots[m.pending_exchange[1]].give_back(m.hands[m.pending_exchange[1]]))
                continue
            start = max(i for i, e in enumerate(m.events) if e["type"] == "deal")
            played = sum(len(e["cards"]) for e in m.events[start:] if e["type"] == "play")
            assert sum(len(h) for h in m.hands) + played == 64  # conservation within a deal
            choice = bots[m.turn].choose(m)
            if choice is None:
                assert m.can_pass()
                m.pass_turn()
            else:
                assert choice.cards in {p.cards for p in m.legal()}
                if m.play(choice) and not m.finished:
                    m.start_deal()
    assert rng


def test_replay_detects_tampering():
    match = play_match(3, ["greedy", "random", "random", "random"])
    events = json.loads(json.dumps(match.events))
    i = next(i for i, e in enumerate(events) if e["type"] == "play" and i > 5)
    events[i]["player"] = (events[i]["player"] + 1) % 4
    with pytest.raises(SisepaiError, match="turn"):
        GofMatch.replay(events)


def test_greedy_beats_random():
    from sisepai.engine.gangoffour import simulate
    stats = simulate(20, seed=5)
    assert stats["win_rate"][0] > 0.5


def test_advice_keeps_gangs_and_goes_out():
    hand = parse_gof_cards("g2 y2 r2 g2 g9")
    a = advise_play(hand, parse_play("g5"))
    assert str(a.play) == "g9"
    a = advise_play(parse_gof_cards("g2 y2 r2 g2"), parse_play("r10 r10"))
    assert a.play is not None and a.play.kind == "gang" and "go out" in a.reason
    a = advise_play(parse_gof_cards("g2 y2 r2 g2 g3 g4 g5 y6 y7 y8"), parse_play("r10 r10"))
    assert a.play is None and "gang" in a.reason


def test_a_caught_last_card_can_only_pass():
    m = _match_with_hands(["m1 r9", "g3 g4", "y3 y4", "g2 y2"])
    m.play("m1", announce=False)
    m.catch(1, 0)
    m.play("g3")
    m.pass_turn()
    m.pass_turn()
    assert m.turn == 0 and m.legal() == [] and m.can_pass()  # r9 would win, but it is barred
    m.pass_turn()
    assert m.turn == 1


def test_ties_between_plays_follow_poker_rules():
    # RULES.md (seed 003): "compare the highest number, then the next highest, and so on (a full
    # house compares its triple, then its pair); only when every number is equal does the colour
    # of the highest card decide"
    from sisepai.engine.gangoffour.plays import beats

    def b(a, c):
        return beats(parse_gof_cards(a), parse_gof_cards(c))

    assert b("g10 g8 g3 g2 g1", "r10 r7 r6 r5 r3") and not b("r10 r7 r6 r5 r3", "g10 g8 g3 g2 g1")
    assert b("r10 r8 r6 r4 r2", "y10 y8 y6 y4 y2")  # every number equal: the red 10 decides
    assert b("g9 g9 g9 y2 y2", "r8 r8 r8 r10 r10")  # the triple first
    assert b("g9 g9 y9 y3 g3", "r9 r9 y9 y2 r2")  # then the pair
    assert b("g4 y5 g6 g7 g8", "r3 y4 r5 r6 r7")  # straights: the highest number
    assert b("y6 g6", "g6 g6") and not b("g6 g6", "y6 g6")
    assert b("vp vp", "r10 r10")


def test_the_biggest_scorer_tie_compares_the_cards_left_one_by_one():
    m = _match_with_hands(["m1", "g10 g9 g3", "g10 g8 g7", "r1 r2 r3"])
    m.play("m1")
    m.start_deal()
    give = next(e for e in reversed(m.events) if e["type"] == "give")
    # players 1, 2 and 3 score 3 each; 1 and 2 both hold a green 10, then 9 beats 8
    assert give["from"] == 1


def _finished_match(seed=3):
    match = play_match(seed, ["greedy", "random", "random", "random"])
    return json.loads(json.dumps(match.events))


def _rejected(events):
    with pytest.raises(SisepaiError) as err:
        GofMatch.replay(events)
    assert "\n" not in str(err.value)
    return str(err.value)


def test_replay_rejects_a_wrong_exchange_or_direction_and_an_unfinished_log():
    events = _finished_match()
    GofMatch.replay(events)
    i = next(k for k, e in enumerate(events) if e["type"] == "give")
    wrong_from = dict(events[i], **{"from": (events[i]["from"] + 1) % 4})
    assert "exchange" in _rejected(events[:i] + [wrong_from] + events[i + 1:])
    j = next(k for k, e in enumerate(events) if e["type"] == "deal")
    flipped = dict(events[j], direction=-events[j]["direction"])
    assert "direction" in _rejected(events[:j] + [flipped] + events[j + 1:])
    assert "match_end" in _rejected(events[:-1])
    assert "match_end" in _rejected(events[: len(events) // 2])
    hands = list(events[j]["hands"])
    hands[0] = hands[0].replace("g2", "g3", 1) if "g2" in hands[0] else "g2 " + hands[0].split(" ", 1)[1]
    assert "deal" in _rejected(events[:j] + [dict(events[j], hands=hands)] + events[j + 1:])


def test_a_silent_last_card_cannot_go_out():
    # RULES.md: "a player with one card left must announce it"; the table sees every card count, so
    # an unannounced last card counts as caught and may not be played to win
    m = _match_with_hands(["m1 r9", "g3 g4", "y3 y4", "g2 y2"])
    m.play("m1", announce=False)
    m.play("g3")
    m.pass_turn()
    m.pass_turn()
    assert m.turn == 0 and m.legal() == []
    with pytest.raises(IllegalMoveError, match="not announced"):
        m.play("r9")
