import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sisepai.engine import IllegalMoveError, is_winning, parse_card_ids
from sisepai.engine.bots import make_bots, play_out
from sisepai.engine.deal import deal_hands, is_misdeal
from sisepai.engine.game import Game
from sisepai.engine.moves import ClaimMove, Discard, Draw, MeldMove, Move, Pass
from sisepai.engine.rules import Rules

READY_WH = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J YK WR WC"  # waits on WH (field group)
FILLER = "GA GE GR GH GC WA WE WR WH WC YA YE YR YH YC RA RE RR RH RC"


def ids(text):
    return parse_card_ids(text)


def game(hands, pile_top_last, rules="seesek"):
    return Game([ids(h) for h in hands], ids(pile_top_last), Rules.preset(rules))


def test_new_game_deals_20_each_and_conserves_cards():
    g = Game.new(players=4, seed=5)
    assert [g.hand_size(p) for p in range(4)] == [20, 20, 20, 20]
    assert len(g.pile) == 117 - 80 and g.card_count() == 117


def test_tusac_deal_and_misdeal():
    g = Game.new(players=4, seed=5, rules="tusac")
    assert g.hand_size(0) + g.exposed_cards(0) == 21 and g.phase == "discard"
    for p in range(4):
        hand = g.hand_ids(p) + [k for k in g.locked[p] for _ in range(3)] + [c for e in g.exposed[p] for c in e.meld.cards]
        assert not is_misdeal(hand)
    assert is_misdeal(ids("GA GE GR GH GC WA WE WR WH WC YA YE YR YH YC RA RE RR RH RC"))
    assert not is_misdeal(ids("GK GE GR GH GC WA WE WR WH WC YA YE YR YH YC RA RE RR RH RC"))
    assert not is_misdeal(ids("GP WP YP RP GC WA WE WR WH WC YA YE YR YH YC RA RE RR RH RC"))
    hands = deal_hands(list(range(100)), 4, 2, Rules.preset("tusac"))
    assert [len(h) for h in hands] == [20, 20, 21, 20] and hands[2][:6] == list(range(6))


def test_hu_beats_pong_on_a_discard_and_the_discarder_pays():
    g = game(["GK " + FILLER.replace("GA ", "WH ", 1), FILLER, "WH WH " + FILLER[6:], READY_WH], "RK")
    g.push(Draw())
    g.push(MeldMove(0, tuple(ids("RK"))))  # the drawer must meld a drawn General
    for p in (1, 2, 3):
        assert p not in g.answers
    g.push(Pass(1))
    g.push(Pass(2))
    g.push(Pass(3))
    g.push(Discard(ids("WH")[0]))
    assert {m.__class__.__name__ for m in g.legal_moves(2)} >= {"ClaimMove", "Pass"}
    g.push(Pass(1))
    g.push(ClaimMove(2, tuple(ids("WH WH WH"))))
    g.push(ClaimMove(3, tuple(ids("WR WH WC"))))
    assert g.outcome.winner == 3 and g.outcome.reason == "hu"
    assert [(p.payer, p.payee) for p in g.outcome.payments] == [(0, 3)]
    assert g.outcome.points % 2 == 1


def test_two_hu_claims_go_to_the_first_in_turn_order():
    g = game(["GK " + FILLER.replace("GA ", "WH ", 1), FILLER, READY_WH, READY_WH.replace("RR RH RC", "GR GH GC")], "RK")
    g.push("draw")
    g.push("meld 0 RK")
    for p in (1, 2, 3):
        g.push(Pass(p))
    g.push("discard WH")
    g.push("pass 1")
    g.push("claim 3 WR WH WC")
    g.push("claim 2 WR WH WC")
    assert g.outcome.winner == 2


def test_win_on_another_players_draw_is_paid_by_everyone():
    g = game([FILLER, FILLER, FILLER, READY_WH], "WH")
    g.push("draw")
    g.push("pass 0")
    g.push("pass 1")
    g.push("pass 2")
    g.push("claim 3 WR WH WC")
    assert g.outcome.winner == 3
    assert sorted(p.payer for p in g.outcome.payments) == [0, 1, 2]


def test_zhimo_beats_hu():
    g = game([READY_WH, FILLER, FILLER, READY_WH.replace("RR RH RC", "GR GH GC")], "WH")
    g.push("draw")
    g.push("claim 3 WR WH WC")
    g.push("pass 1")
    g.push("pass 2")
    g.push("meld 0 WR WH WC")
    assert g.outcome.winner == 0 and g.outcome.reason == "zhimo"


def test_chi_only_from_the_previous_player():
    g = game(["GK " + FILLER.replace("GA ", "GP ", 1), "WR WC " + FILLER[6:], "WR WC " + FILLER[6:], FILLER], "RK")
    g.push("draw")
    g.push("meld 0 RK")
    for p in (1, 2, 3):
        g.push(Pass(p))
    g.push("discard WH")
    assert ClaimMove(1, tuple(sorted(ids("WR WH WC")))) in g.legal_moves(1)
    with pytest.raises(IllegalMoveError, match="chi only from the previous player"):
        g.push(ClaimMove(2, tuple(sorted(ids("WR WH WC")))))
    g.push(ClaimMove(1, tuple(sorted(ids("WR WH WC")))))
    g.push("pass 2")
    g.push("pass 3")
    assert g.turn == 1 and g.phase == "discard"


def test_a_single_or_pair_from_another_players_card_is_refused():
    g = game(["GK " + FILLER, "WA " + FILLER, "RK " + FILLER, FILLER], "RK")
    g.push("draw")
    with pytest.raises(IllegalMoveError, match="no single or pair"):
        g.push("claim 2 RK")  # a General single from another's draw
    g.push("meld 0 RK")
    for p in (1, 2, 3):
        g.push(Pass(p))
    g.push("discard WA")
    with pytest.raises(IllegalMoveError, match="no single or pair"):
        g.push("claim 1 WA WA")


def test_pong_by_a_later_player_skips_the_players_between():
    g = game(["GK " + FILLER, FILLER, FILLER, "GC GC " + FILLER[6:]], "RK")
    g.push("draw")
    g.push("meld 0 RK")
    for p in (1, 2, 3):
        g.push(Pass(p))
    g.push("discard GC")
    g.push("pass 1")
    g.push("pass 2")
    g.push("claim 3 GC GC GC")
    assert g.turn == 3 and g.phase == "discard"  # players 1 and 2 lost their turn
    g.push("discard WE")
    for p in (0, 1, 2):
        g.push(Pass(p))
    assert g.turn == 0 and g.phase == "draw"


@pytest.mark.parametrize("card,why", [("GK", "is a General"), ("J", "is a joker"), ("RP", "holds no RP")])
def test_illegal_discards_say_why_and_change_nothing(card, why):
    g = game(["GK J " + FILLER[:-3], FILLER, FILLER, FILLER], "RK")
    g.push("draw")
    g.push("meld 0 RK")
    for p in (1, 2, 3):
        g.push(Pass(p))
    before = json.dumps(g.state())
    with pytest.raises(IllegalMoveError, match=why):
        g.push(Discard(ids(card)[0]))
    assert json.dumps(g.state()) == before


def test_a_drawn_general_must_be_melded_and_moves_in_the_wrong_phase_fail():
    g = game([FILLER, FILLER, FILLER, FILLER], "RK")
    with pytest.raises(IllegalMoveError, match="cannot discard now"):
        g.push("discard GA")
    g.push("draw")
    with pytest.raises(IllegalMoveError, match="must meld"):
        g.push("pass 0")
    with pytest.raises(IllegalMoveError, match="cannot draw now"):
        g.push("draw")


def test_locked_tusac_triple_cannot_be_discarded():
    hands = ["GA GA GA GK GE GR GH GC WA WE WR WH WC YA YE YR YH YC RA RE RR", FILLER, FILLER, FILLER]
    g = Game([ids(h) for h in hands], ids("RK WK"), Rules.preset("tusac"))
    assert g.locked[0] == ids("GA") and g.phase == "discard"
    with pytest.raises(IllegalMoveError, match="locked"):
        g.push("discard GA")


def test_undo_restores_the_state():
    g = Game.new(seed=3)
    states = [json.dumps(g.state())]
    bots = make_bots(["random"] * 4, 3)
    for _ in range(30):
        player = g.responders()[0] if g.phase == "claims" else g.turn
        g.push(bots[player].choose(g, player))
        states.append(json.dumps(g.state()))
    for expected in reversed(states[:-1]):
        g.pop()
        assert json.dumps(g.state()) == expected


def test_move_notation_round_trips():
    for text in ("draw", "discard WC", "pass 3", "meld 0 GK GA GE", "claim 2 WH WH WH"):
        assert str(Move.parse(text)) == text


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["seesek", "tusac"]), st.integers(2, 4))
def test_random_games_conserve_cards_win_correctly_and_replay(seed, rules, players):
    rng = random.Random(seed)
    names = [rng.choice(["random", "greedy"]) for _ in range(players)]
    g = Game.new(players=players, seed=seed, rules=rules)
    total = 112 + g.rules.jokers
    bots = make_bots(names, seed)
    while not g.is_over():
        assert g.card_count() == total
        player = g.responders()[0] if g.phase == "claims" else g.turn
        g.push(bots[player].choose(g, player))
    assert g.card_count() == total
    if g.outcome.winner is not None:
        concealed, exposed = g.winning_hand(g.outcome.winner)
        locked = g.locked[g.outcome.winner]
        if not locked:
            assert is_winning(concealed, exposed, g.rules)
        assert g.outcome.points % 2 == 1
    replayed = Game.replay(json.loads(json.dumps(g.events)))
    assert replayed.state() == g.state()


def test_greedy_beats_random():
    wins = [0] * 4
    for seed in range(60):
        g = Game.new(seed=seed)
        outcome = play_out(g, make_bots(["greedy", "random", "random", "random"], seed))
        if outcome.winner is not None:
            wins[outcome.winner] += 1
    assert wins[0] > 3 * max(wins[1:])


def test_match_rotates_the_dealer_and_keeps_running_totals():
    from sisepai.engine.match import Match

    m = Match(players=4, seed=11)
    for _ in range(12):
        dealer = m.dealer
        rec = m.play_deal(make_bots(["greedy", "random", "random", "random"], len(m.deals)))
        if rec.outcome.winner == dealer:
            assert m.dealer == dealer  # the winning dealer deals again
        else:
            assert m.dealer == (dealer + 1) % 4  # otherwise the deal passes to the right
        assert sum(m.totals) == 0
    assert list(m.deals[-1].totals) == m.totals
    paid = [0] * 4
    for d in m.deals:
        for p in d.outcome.payments:
            paid[p.payer] -= p.amount
            paid[p.payee] += p.amount
    assert paid == m.totals


def test_tusac_dealer_wins_on_the_deal_as_on_their_own_draw():
    # RULES.md (seed 002): "The deal counts as the dealer's own draw ..., so a dealt 21-card hand
    # that wins is a win on the dealer's own draw (zimo); otherwise the dealer opens by discarding."
    dealer = READY_WH + " WH"
    g = game([dealer, FILLER, FILLER, FILLER], "RK", rules="tusac")
    moves = g.legal_moves()
    assert Move.parse("win 0") in moves and any(isinstance(m, Discard) for m in moves)
    g.push("win 0")
    assert g.outcome.winner == 0 and g.outcome.reason == "zhimo" and g.outcome.points == 11
    assert sorted(p.payer for p in g.outcome.payments) == [1, 2, 3]  # a drawn card: everyone pays


def test_the_dealt_win_is_only_the_dealers_opening():
    g = game([READY_WH + " WH", FILLER, FILLER, FILLER], "RK", rules="tusac")
    g.push("discard WH")
    with pytest.raises(IllegalMoveError, match="dealt hand"):
        g.push("win 0")
    not_winning = game([READY_WH + " GC", FILLER, FILLER, FILLER], "RK", rules="tusac")
    assert not any(str(m).startswith("win") for m in not_winning.legal_moves())
    seesek = game([READY_WH, FILLER, FILLER, FILLER], "RK")
    with pytest.raises(IllegalMoveError):
        seesek.push("win 0")


def _finished_log(seed=4, rules="seesek"):
    g = Game.new(seed=seed, rules=rules)
    play_out(g, make_bots(["greedy"] * 4, seed))
    return json.loads(json.dumps(g.events))


def _replay_error(events):
    from sisepai.engine.errors import SisepaiError

    with pytest.raises(SisepaiError) as err:
        Game.replay(events)
    message = str(err.value)
    assert message and "\n" not in message
    return message


def test_replay_rejects_a_deal_no_deck_could_give():
    events = _finished_log()
    deal = events[0]
    five = dict(deal, hands=list(deal["hands"]))
    first = deal["hands"][0].split()
    swap = next(c for c in first if c != "GK")
    five["hands"][0] = " ".join(["GK" if c == swap else c for c in first])  # one more GK, one fewer other
    assert "holds 5 GK" in _replay_error([five] + events[1:])
    big = dict(deal, hands=list(deal["hands"]))  # a non-dealer takes a 21st card off the pile
    pile = deal["pile"].split()
    big["hands"][1] = deal["hands"][1] + " " + pile[0]
    big["pile"] = " ".join(pile[1:])
    assert "21 cards" in _replay_error([big] + events[1:])


def test_replay_rejects_a_tusac_misdeal():
    g = game([READY_WH + " WH", FILLER, FILLER, FILLER], "RK", rules="tusac")
    deal = g.events[0]
    # complete the deck into the pile so only the misdeal is wrong: FILLER has no General, triple,
    # quad or four-soldier group
    from sisepai.engine.cards import CARD_CODES, counts_of

    have = counts_of(ids(" ".join(deal["hands"])))
    rest = [CARD_CODES[k] for k in range(29) for _ in range((5 if k == 28 else 4) - have[k])]
    log = [dict(deal, pile=" ".join(rest))]
    assert "misdeal" in _replay_error(log)


def test_replay_rejects_unfinished_and_tampered_logs():
    rng = random.Random(11)
    rejected = 0
    for seed in range(6):
        events = _finished_log(seed)
        assert Game.replay(events).outcome is not None
        assert "'end'" in _replay_error(events[:-1])  # no end event
        cut = rng.randrange(2, len(events) - 2)
        assert "stops" in _replay_error(events[:cut])  # truncated mid-game
        assert "goes on" in _replay_error(events + [{"type": "move", "move": "draw"}])
        end = dict(events[-1], points=events[-1]["points"] + 2)
        _replay_error(events[:-1] + [end])
        draws = [i for i, e in enumerate(events) if e.get("move") == "draw"]
        i = rng.choice(draws)
        other = "GP" if events[i]["card"] != "GP" else "GA"
        _replay_error(events[:i] + [dict(events[i], card=other)] + events[i + 1:])
        rejected += 5
    assert rejected == 30
