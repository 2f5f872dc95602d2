"""The live table's parts, each on its own: seats from geometry, turns, the draw pile, a seat's
groups, and the identity of cards across moves and returns."""

import re

import numpy as np

from sisepai.vision.live.groups import groups
from sisepai.vision.live.identity import MOVE_SECONDS, RETURN_SECONDS, LostCards, TableCards
from sisepai.vision.live.pile import DrawPile
from sisepai.vision.live.seats import SeatGeometry
from sisepai.vision.live.table import Zones
from sisepai.vision.live.tracker import CardTracker, Track
from sisepai.vision.live.turns import TurnOrder


def _card(x, y, w=30, h=120, code_id=0, t=0.0, track_id=1):
    poly = np.float32([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]])
    tr = Track(track_id, poly, t, t)
    tr.votes.append((code_id, 0.9))
    return tr


def test_a_card_belongs_to_its_zone_and_near_the_middle_to_the_turn():
    seats = SeatGeometry(Zones())
    seats.size = (1280, 720)
    south = _card(640, 650)
    middle_upright, middle_across = _card(640, 300), _card(900, 360, w=120, h=30)
    assert seats.zone(south) == "S" and seats.seat(south, "S", turn="E") == "S"
    assert seats.zone(middle_upright) == "center"
    assert seats.seat(middle_upright, "center", turn="N") == "N"  # the turn tells
    # the turn and the card's lie disagree: the first seat after the turn along whose line it lies
    assert seats.seat(middle_upright, "center", turn="W") == "S"
    assert seats.seat(middle_across, "center", turn="S") == "E"
    assert seats.seat(middle_upright, "center", turn=None) == "N"  # no turn: the card points north
    assert seats.seat(middle_across, "center", turn=None) == "E"  # lying across, right of the middle


def test_turns_follow_the_engines_order_and_a_claim():
    turns = TurnOrder()
    for seat, after in (("S", "E"), ("E", "N"), ("N", "W"), ("W", "S")):
        turns.shown(seat, track=1)
        assert turns.turn == after
    turns.shown("center", track=5)  # a card of no seat: the turn stays, and it is the last shown
    assert turns.turn == "S" and turns.last_shown == 5
    turns.followed(5, 6)
    turns.melded("N", {2, 3})  # a meld without the shown card is no claim
    assert turns.turn == "S"
    turns.melded("N", {6, 7, 8})
    assert turns.turn == "N"


def test_the_pile_tells_a_draw_from_a_discard_by_its_median():
    pile = DrawPile()
    for backs in (20,) * 15:
        pile.see(backs)
    assert pile.action("S") == "discard"  # the first card shown
    for backs in (19, 19, 0, 19, 19, 19, 19, 19, 19, 19, 19, 19):  # a hand over the pile hides it for a frame
        pile.see(backs)
    assert pile.size() == 19 and pile.action("E") == "draw"
    assert pile.action("N") == "discard"


def test_groups_join_cards_side_by_side_and_keep_melds_apart():
    row = [_card(100 + 33 * k, 600) for k in range(3)] + [_card(400, 600), _card(433, 600)]
    found = groups(row[::-1])
    assert [len(g) for g in found] == [3, 2]
    assert groups([]) == []


def test_a_card_lost_and_seen_again_in_its_place_is_the_same_card():
    cards = LostCards(TableCards(CardTracker(confirm_seconds=0.5)))
    cards.cards.begin(0.0)
    old = _card(640, 600, code_id=3, t=5.0, track_id=1)
    old.confirmed = True
    cards.cards.place(old, "S")
    cards.lost([old], t=6.0)
    assert cards.expire_removed(6.0 + MOVE_SECONDS / 2) == []  # not yet: it may have moved
    removed = cards.expire_removed(6.0 + MOVE_SECONDS + 0.1)
    assert [(e.card, e.seat) for e in removed] == [(old.code, "S")]
    back = _card(645, 602, code_id=3, t=12.0, track_id=2)
    elsewhere = _card(900, 300, code_id=3, t=12.0, track_id=3)
    assert cards.take_returned(elsewhere, 12.0) is None  # same kind, another place: a new card
    assert cards.take_returned(back, 12.0) is old
    assert cards.take_returned(back, 12.0) is None  # taken once
    assert not cards.cards.from_start(back) and cards.cards.from_start(_card(0, 0, t=1.0))
    late = LostCards(TableCards(CardTracker(confirm_seconds=0.5)))
    late.cards.begin(0.0)
    late.lost([old], t=6.0)
    late.expire_removed(6.0 + MOVE_SECONDS + 0.1)
    assert late.take_returned(back, 6.0 + MOVE_SECONDS + RETURN_SECONDS + 1) is None  # too long ago


def test_a_fresh_show_is_a_lone_card_where_the_turn_is():
    cards = LostCards(TableCards(CardTracker(confirm_seconds=0.5)))
    lone = _card(640, 360)
    assert cards.fresh_show(lone, "center", turn="E")
    assert not cards.fresh_show(lone, "center", turn=None)
    assert not cards.fresh_show(lone, "S", turn="E")  # another seat's zone


def test_the_tables_facts_have_one_owner_that_others_ask_through_methods():
    """What is known of each card (zones, seats, the starting table, the lost cards) is private to
    TableCards and LostCards: no other module reads or writes their books."""
    from pathlib import Path

    cards = TableCards(CardTracker(confirm_seconds=0.5))
    lost = LostCards(cards)
    assert {k for k in vars(cards) if not k.startswith("_")} == {"tracker", "t0"}
    assert {k for k in vars(lost) if not k.startswith("_")} == {"cards", "tracker"}
    books = [k for k in list(vars(cards)) + list(vars(lost)) if k.startswith("_")]
    live = Path(__file__).resolve().parents[3] / "vision" / "live"
    for path in live.glob("*.py"):
        if path.name != "identity.py":
            assert not [b for b in books if re.search(rf"\.{b}\b", path.read_text())], path.name
