"""The live table assistant: frames' detections in, a steady ``TableState`` and typed events out
(:mod:`.events`; ``t`` in seconds from the start of the source).

- What lies on the table when the source starts is the table, not news: the cards first seen in
  the first :data:`START_SECONDS` are reported once, as one ``table`` event, and never announced.
- Each card turned face up later is one ``card_shown``, with ``action`` (``draw`` when the draw
  pile shrank before it, else ``discard``). A card that vanishes and comes back, or moves to a
  meld row, is the same card and is not announced again.
- Its seat is the zone it lies in; a card shown near the middle and seen on its way in is the
  seat whose edge it came from (:meth:`.seats.SeatGeometry.came_from`); otherwise it belongs to
  the seat whose turn it is (the next player is to the right: S, E, N, W), after the last card
  shown, or after a claim, the claimer. Only with no turn known yet does the card's own lie tell
  (a card lies along the line from its player to the middle), and ``center`` is left for no clue
  at all. When the seat is not the one the turn order expected, the event says so (``turn_said``).
- ``meld``, ``card_corrected``, ``card_removed``, ``win_claimed`` and ``advice`` as in
  :mod:`.events`.

The assistant puts together parts with one job each: :mod:`.identity` (which track is which
card), :mod:`.seats` (zones and seats from the table's geometry), :mod:`.turns` (whose turn it
is), :mod:`.pile` (the draw pile), :mod:`.groups` (a seat's melds as they lie) and
:mod:`.table` (the state that is sent out).
"""

from __future__ import annotations

from sisepai.engine.cards import SEATS, counts_of
from sisepai.engine.errors import SisepaiError
from sisepai.engine.melds import Meld, why_not_meld
from sisepai.engine.rules import Rules
from sisepai.engine.scoring import check_hand
from sisepai.vision.recognition.detections import Detections

from .events import CardCorrected, CardShown, Event, MeldSeen, TableSeen
from .groups import groups
from .identity import FRESH_RETURN_SECONDS, RETURN_SECONDS, LostCards, TableCards
from .pile import DrawPile
from .seats import SeatGeometry
from .table import CardOnTable, TableState, Zones
from .table_advice import claim_advice, win_claimed
from .tracker import CardTracker, Track
from .turns import TurnOrder

WIN_MIN_CARDS = 15
WIN_NEW_CARDS = 8
"""A seat's cards are checked as a laid-down winning hand only when at least this many of them
were laid during the session: a winner lays down a concealed hand of at least 8 cards, while
exposed meld rows already on the table at the start are not a win."""
MIN_CONFIDENCE = 0.4
"""Readings below this confidence are not tracked: a patch of cloth read as a card at 0.3 stays
out of the table (how it was chosen: ``docs/training-logs/live-thresholds.md``)."""


class TableAssistant:
    """Turns per-frame detections into a table state and events.

    >>> import numpy as np
    >>> from sisepai.engine.cards import CARD_CODES
    >>> a = TableAssistant()
    >>> box = np.float32([[[620, 560], [650, 560], [650, 680], [620, 680]]])  # one card at South's edge
    >>> det = Detections(box, np.array([0.9]), np.array([CARD_CODES.index("RH")]))
    >>> kinds = [e.type for k in range(30) for e in a.process(det, k * 0.1, 1280, 720)[1]]
    >>> kinds  # there from the start: the table, not a card shown
    ['table']
    """

    def __init__(self, zones: Zones | None = None, hand: str | None = None, user_seat: str = "S",
                 rules: Rules | None = None, claimed: int | None = None, confirm_seconds: float = 0.5,
                 min_confidence: float = MIN_CONFIDENCE):
        self.seats = SeatGeometry(zones or Zones())
        self.min_confidence = min_confidence
        self.confirm_seconds = confirm_seconds
        self.cards = TableCards(CardTracker(confirm_seconds=confirm_seconds))
        self.lost = LostCards(self.cards)
        self.turns = TurnOrder()
        self.pile = DrawPile()
        self.rules = rules or Rules.preset("seesek")
        self.claimed = claimed
        self.set_hand(hand, user_seat)
        self.reported_melds: set[frozenset[int]] = set()
        self.won: set[str] = set()
        self.table_sent = False
        self._groups: tuple[int, dict[str, list[list[Track]]]] | None = None  # this frame's, once
        self._frame = 0

    @property
    def tracker(self) -> CardTracker:
        return self.cards.tracker

    @property
    def zones(self) -> Zones:
        return self.seats.zones

    def set_hand(self, hand: str | None, user_seat: str = "S") -> None:
        """The user's concealed hand (``"GK GA ..."``, or None) and seat, for advice."""
        if user_seat not in SEATS:
            raise SisepaiError(f"seat must be one of {', '.join(SEATS)}")
        self.hand = counts_of(check_hand(hand, self.rules)) if hand else None
        self.user_seat = user_seat

    # --- the frame loop --------------------------------------------------------------------------

    def process(self, det: Detections, t: float, width: int, height: int, backs: int = 0) -> tuple[TableState, list[Event]]:
        """One frame's detections at ``t`` (seconds): the table's state and the events it brings."""
        self._frame += 1
        self.seats.size = (width, height)
        cards, lost = self.cards, self.lost
        cards.begin(t)
        self.pile.see(backs)
        if len(det) and self.min_confidence > 0:
            det = det[det.confidence >= self.min_confidence]
        confirmed, removed = cards.tracker.update(det, t)
        lost.lost(removed, t)
        events: list[Event] = []
        for tr in confirmed:
            events.extend(self._confirmed(tr, t))
        for tr in cards.tracker.visible():
            cards.place(tr, self.seats.zone(tr))
        events.extend(lost.expire_removed(t))
        state = self.state(t)
        if not self.table_sent and cards.opening_seen(t, self.confirm_seconds):
            self.table_sent = True
            events.insert(0, TableSeen(t, state.to_json()))
        events.extend(self._melds_and_wins(t))
        return state, events

    def _confirmed(self, tr: Track, t: float) -> list[Event]:
        """The events for a track just confirmed: none for a card of the starting table or one
        that moved or came back, a correction, or a card shown."""
        cards, lost, turns = self.cards, self.lost, self.turns
        zone = self.seats.zone(tr)
        cards.place(tr, zone)
        twin = lost.followed_here(tr, t)
        if twin is not None:  # a second reading of a card followed already: one card, one place
            self._adopt(tr, twin, zone)
            return []
        fresh = lost.fresh_show(tr, zone, turns.turn, turns.last_shown)
        same = lost.take_moved(tr, fresh, t, turns.turn)
        if same is None:
            same = lost.take_returned(tr, t, FRESH_RETURN_SECONDS if fresh else RETURN_SECONDS)
            if same is None and not fresh:
                same = lost.take_same_place(tr, t)
                if same is not None and same.code != tr.code and not cards.from_start(same):
                    # the card lost here moments ago, back under another reading: that one was a misreading
                    self._adopt(tr, same, zone)
                    return [CardCorrected(t, tr.code, same.code, cards.seat_of(tr), tr.id, tr.first_seen)]
        if same is not None:
            # the same card, moved (to a meld row, say) or seen again where it was lost: not a
            # new face-up card, and seen since it was first seen
            self._adopt(tr, same, zone)
            return []
        if tr.replaces is not None and cards.from_start(tr.replaces):
            # a card of the starting table read otherwise, however long after: still the table
            # (new cards are laid beside the exposed melds, not on them)
            lost.take_removed(tr.replaces)
            cards.count_as_start(tr)
            return []
        if tr.corrects is not None and lost.take_removed(tr.corrects):
            seat = cards.seat_of(tr.corrects, zone)
            cards.give(tr, seat)
            return [CardCorrected(t, tr.code, tr.corrects.code, seat, tr.id, tr.first_seen)]
        if cards.from_start(tr):
            return []
        seat = self.seats.seat(tr, zone, turns.turn)
        cards.give(tr, seat)
        doubt = turns.turn if turns.turn is not None and seat in SEATS and seat != turns.turn else None
        shown = CardShown(t, tr.code, seat, tr.id, tr.first_seen, self.pile.action(seat), doubt)
        turns.shown(seat, tr.id)
        out: list[Event] = [shown]
        if self.hand is not None and seat != self.user_seat and seat in SEATS:
            out.extend(claim_advice(self.hand, shown, self.user_seat, self.rules, tr.card_id))
        return out

    def _adopt(self, tr: Track, same: Track, zone: str) -> None:
        """``tr`` is the card ``same`` was: it takes over its history, and its place in the turns."""
        self.cards.adopt(tr, same, zone)
        self.turns.followed(same.id, tr.id)

    # --- table state ---------------------------------------------------------------------------

    def _seat_groups(self) -> dict[str, list[list[Track]]]:
        """Each seat's cards on the table in groups (:func:`.groups.groups`), worked out once a frame."""
        if self._groups is None or self._groups[0] != self._frame:
            self._groups = (self._frame, {seat: groups(self.cards.in_zone(seat)) for seat in SEATS})
        return self._groups[1]

    def state(self, t: float) -> TableState:
        """The table now: every card seen lately, with its zone, and each seat's melds and discards."""
        w, h = self.seats.size
        st = TableState(t, w, h, pile=self.pile.size())
        for tr in self.cards.on_table():
            zone = self.cards.zone_of(tr, self.seats.zone(tr))
            st.cards.append(CardOnTable(tr.id, tr.card_id, zone, tr.confidence, tr.polygon.copy()))
            if zone == "center":
                st.shown.append(tr.code)
        for seat, seat_groups in self._seat_groups().items():
            for cl in seat_groups:
                ids = [tr.card_id for tr in cl]
                if 2 <= len(cl) <= 4 and why_not_meld(ids, self.rules.allow_general_pair) is None:
                    st.melds[seat].append(sorted(tr.code for tr in cl))
                else:
                    st.discards[seat].extend(tr.code for tr in cl)
        return st

    def _melds_and_wins(self, t: float) -> list[Event]:
        """A ``meld`` for each group of a seat that newly makes a meld, and a ``win_claimed`` for a
        seat whose laid-down cards make a winning hand."""
        events: list[Event] = []
        for seat, seat_groups in self._seat_groups().items():
            seat_tracks = self.cards.in_zone(seat)
            new = sum(not self.cards.from_start(tr) for tr in seat_tracks)
            if len(seat_tracks) >= WIN_MIN_CARDS and new >= WIN_NEW_CARDS and seat not in self.won:
                win = win_claimed(seat, [tr.code for tr in seat_tracks], t, self.rules, self.claimed)
                if win:
                    self.won.add(seat)
                    events.append(win)
            for cl in seat_groups:
                key = frozenset(tr.id for tr in cl)
                if not 2 <= len(cl) <= 4 or key in self.reported_melds:
                    continue
                ids = [tr.card_id for tr in cl]
                if why_not_meld(ids, self.rules.allow_general_pair) is None:
                    self.reported_melds.add(key)
                    if all(self.cards.from_start(tr) for tr in cl):  # a meld of the starting table: in its state already
                        continue
                    events.append(MeldSeen(t, seat, Meld.of(ids, self.rules.allow_general_pair).codes))
                    self.turns.melded(seat, key)
        return events
