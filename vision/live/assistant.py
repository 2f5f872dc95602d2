"""The live table assistant: frames' detections in, a steady ``TableState`` and typed events out
(:mod:`.events`; ``t`` in seconds from the start of the source).

- What lies on the table when the source starts is the table, not news: the cards first seen in
  the first :data:`START_SECONDS` are reported once, as one ``table`` event, and never announced.
- Each card turned face up later is one ``card_shown``, with ``action`` (``draw`` when the draw
  pile shrank before it, else ``discard``). A card that vanishes and comes back, or moves to a
  meld row, is the same card and is not announced again.
- Its seat is the zone it lies in; a card shown near the middle belongs to the seat whose turn
  it is (the next player is to the right: S, E, N, W), after the last card shown, or after a
  claim, the claimer. Only with no turn known yet does the card's own lie tell (a card lies
  along the line from its player to the middle), and ``center`` is left for no clue at all.
- ``meld``, ``card_corrected``, ``card_removed``, ``win_claimed`` and ``advice`` as in
  :mod:`.events`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from sisepai.engine.cards import CARD_CODES, SEATS, counts_of, parse_card_ids
from sisepai.engine.errors import SisepaiError
from sisepai.engine.melds import Meld, why_not_meld
from sisepai.engine.rules import Rules

from sisepai.vision.recognition.detections import Detections
from sisepai.vision.live.events import (Advice, CardCorrected, CardRemoved, CardShown, Event, MeldSeen, TableSeen,
                     WinClaimed)
from sisepai.vision.live.table import TableState, Zones
from sisepai.vision.live.table_advice import claim_advice, win_claimed
from sisepai.vision.live.tracker import CardTracker, Track

MOVE_SECONDS = 3.0
RETURN_SECONDS = 20.0
"""A card seen again where a card of its kind was lost, within this many seconds of its
``card_removed``, is that card coming back (read too weakly for a while, or uncovered), not a
new face-up card. Measured on seed 7's video: a plain joker in a meld, found at confidence
0.28-0.45, was announced twice more; with this rule it is not, and no video lost a card."""
FRESH_RETURN_SECONDS = 5.0
"""A fresh show (a lone card where the player whose turn it is shows cards) is a card coming back
only within this many seconds: the same spot gets the next card of that kind a turn later. On
the tuning videos, a Soldier shown where another had lain 10 s before was taken for it."""
WIN_MIN_CARDS = 15
WIN_NEW_CARDS = 8
"""A seat's cards are checked as a laid-down winning hand only when at least this many of them
were laid during the session: a winner lays down a concealed hand of at least 8 cards, while
exposed meld rows already on the table at the start are not a win."""
START_SECONDS = 1.5
"""The cards first seen in this many seconds from the start of the source (or the page's
connection) are the table as it was: one ``table`` event, no announcements."""
NOW_SECONDS = 1.0
"""The state lists the cards seen in this many seconds: what is on the table now (a card under a
passing hand stays; a card gone, or a scene the camera left, does not)."""
MELD_LINK = 1.4
"""Cards of one seat lie in one group when their centres are within this many card widths: the
cards of a meld lie side by side (about 1.1 widths apart), and melds lie apart."""
MIN_CONFIDENCE = 0.4
"""Readings below this confidence are not tracked: a patch of cloth read as a card at 0.3 stays
out of the table (how it was chosen: ``docs/training-logs/live-thresholds.md``)."""


@dataclass
class Removed:
    track: Track
    t: float
    zone: str


class TableAssistant:
    """Turns per-frame detections into a table state and events.

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
        self.zones = zones or Zones()
        self.min_confidence = min_confidence
        self.confirm_seconds = confirm_seconds
        self.tracker = CardTracker(confirm_seconds=confirm_seconds)
        self.rules = rules or Rules.preset("seesek")
        self.claimed = claimed
        self.set_hand(hand, user_seat)
        self.zone_of_track: dict[int, str] = {}
        self.seat_of_track: dict[int, str] = {}
        self.removed: list[Removed] = []
        self.gone: list[Removed] = []  # cards reported removed, for RETURN_SECONDS
        self.reported_melds: set[frozenset[int]] = set()
        self.won: set[str] = set()
        self.pile_history: deque = deque(maxlen=15)
        self.pile_at_last_show: int | None = None
        self.size = (1, 1)
        self.t0: float | None = None
        self.start_ids: set[int] = set()  # later tracks that are cards of the starting table
        self.table_sent = False
        self.turn: str | None = None  # the seat expected to show the next card, once known
        self.last_shown: int | None = None  # the track of the last card shown, to spot its claim

    def set_hand(self, hand: str | None, user_seat: str = "S") -> None:
        """The user's concealed hand (``"GK GA ..."``, or None) and seat, for advice."""
        if user_seat not in SEATS:
            raise SisepaiError(f"seat must be one of {', '.join(SEATS)}")
        ids = parse_card_ids(hand) if hand else []
        if len(ids) > self.rules.hand_size:
            raise SisepaiError(f"a hand holds at most {self.rules.hand_size} cards under these rules, "
                               f"not {len(ids)}")
        self.hand = counts_of(ids) if hand else None
        self.user_seat = user_seat

    # --- the frame loop --------------------------------------------------------------------------

    def process(self, det: Detections, t: float, width: int, height: int, backs: int = 0) -> tuple[TableState, list[Event]]:
        self.size = (width, height)
        if self.t0 is None:
            self.t0 = t
        self.pile_history.append(backs)
        if len(det) and self.min_confidence > 0:
            det = det[det.confidence >= self.min_confidence]
        confirmed, removed = self.tracker.update(det, t)
        events: list[Event] = []
        for tr in removed:
            if tr.confirmed:
                self.removed.append(Removed(tr, t, self.zone_of_track.get(tr.id, "?")))
        for tr in confirmed:
            events.extend(self._confirmed(tr, t))
        for tr in self.tracker.visible():
            self.zone_of_track[tr.id] = self._zone(tr)
        keep = []
        for r in self.removed:
            if t - r.t > MOVE_SECONDS:
                events.append(CardRemoved(t, r.track.code, r.zone, r.track.id))
                self.gone.append(r)
            else:
                keep.append(r)
        self.removed = keep
        state = self.state(t)
        if not self.table_sent and t >= self.t0 + START_SECONDS + self.confirm_seconds:
            self.table_sent = True
            events.insert(0, TableSeen(t, state.to_json()))
        events.extend(self._melds_and_wins(t))
        return state, events

    def _confirmed(self, tr: Track, t: float) -> list[Event]:
        """The events for a track just confirmed: none for a card of the starting table or one
        that moved or came back, a correction, or a card shown."""
        zone = self._zone(tr)
        self.zone_of_track[tr.id] = zone
        twin = self._followed_here(tr, t)
        if twin is not None:  # a second reading of a card followed already: one card, one place
            self._adopt(tr, twin, zone)
            return []
        fresh = self._fresh_show(tr, zone)
        same = self._take_moved(tr, fresh, t)
        if same is None:
            same = self._take_returned(tr, t, FRESH_RETURN_SECONDS if fresh else RETURN_SECONDS)
            if same is None and not fresh:
                same = self._take_same_place(tr, t)
                if same is not None and same.code != tr.code and not self._from_start(same):
                    # the card lost here moments ago, back under another reading: that one was a misreading
                    self._adopt(tr, same, zone)
                    return [CardCorrected(t, tr.code, same.code, self.seat_of_track[tr.id], tr.id, tr.first_seen)]
        if same is not None:
            # the same card, moved (to a meld row, say) or seen again where it was lost: not a
            # new face-up card, and seen since it was first seen
            self._adopt(tr, same, zone)
            return []
        if tr.corrects is not None and self._take_removed(tr.corrects):
            if self._from_start(tr.corrects):  # a starting card read better: still the table
                self.start_ids.add(tr.id)
                return []
            seat = self.seat_of_track.get(tr.corrects.id, zone)
            self.seat_of_track[tr.id] = seat
            return [CardCorrected(t, tr.code, tr.corrects.code, seat, tr.id, tr.first_seen)]
        if self._from_start(tr):
            return []
        seat = self._seat(tr, zone)
        self.seat_of_track[tr.id] = seat
        shown = CardShown(t, tr.code, seat, tr.id, tr.first_seen, self._action(seat))
        if seat in SEATS:
            self.turn = SEATS[(SEATS.index(seat) + 1) % len(SEATS)]
        self.last_shown = tr.id
        out: list[Event] = [shown]
        if self.hand is not None and seat != self.user_seat and seat in SEATS:
            out.extend(self._advice(shown))
        return out

    def _adopt(self, tr: Track, same: Track, zone: str) -> None:
        """``tr`` is the card ``same`` was: it takes over its history."""
        tr.confirmed_at = same.confirmed_at
        if self._from_start(same):
            self.start_ids.add(tr.id)
        if same.id == self.last_shown:
            self.last_shown = tr.id
        self.seat_of_track[tr.id] = self.seat_of_track.get(same.id, zone)

    def _from_start(self, tr: Track) -> bool:
        """Whether ``tr`` is a card of the table as it was at the start: first seen in the first
        START_SECONDS, or a later track that took over such a card's history."""
        return tr.first_seen <= self.t0 + START_SECONDS or tr.id in self.start_ids

    def _zone(self, tr: Track) -> str:
        return self.zones.zone_of(tr.center, *self.size)

    def _seat(self, tr: Track, zone: str) -> str:
        """Whose card this is: the zone's seat; near the middle, the seat whose turn it is, or
        with no turn known yet, the seat the card points at. A card in a seat's zone that lies
        across that seat's line to the middle, and along the line of the seat whose turn it is, on
        that seat's side of the frame, is that seat's: laid at the corner between them (unless
        ``--seats`` drew the zones)."""
        if zone in SEATS:
            if (self.turn is not None and self.turn != zone and not self.zones.polygons
                    and not self._lies_along(tr, zone) and self._lies_along(tr, self.turn)
                    and self._on_side(tr, self.turn)):
                return self.turn
            return zone
        if self.turn is not None:
            return self.turn
        return self._pointed_seat(tr)

    @staticmethod
    def _long_side(tr: Track) -> np.ndarray:
        p = tr.polygon
        return max((p[1] - p[0], p[2] - p[1]), key=lambda v: float(np.hypot(*v)))

    def _on_side(self, tr: Track, seat: str) -> bool:
        """Whether a card lies in ``seat``'s half of the frame."""
        x, y = float(tr.center[0]), float(tr.center[1])
        w, h = self.size
        return {"S": y > h / 2, "N": y < h / 2, "E": x > w / 2, "W": x < w / 2}[seat]

    def _lies_along(self, tr: Track, seat: str) -> bool:
        """Whether a card's long side runs along ``seat``'s line to the middle, as a card laid by
        that seat does: up and down the frame for South and North, across it for East and West."""
        dx, dy = (abs(float(v)) for v in self._long_side(tr))
        return dy >= dx if seat in ("S", "N") else dx > dy

    def _pointed_seat(self, tr: Track) -> str:
        """The seat a card near the middle points at: a card is laid along the line from its player
        to the middle, so its long side and the side of the middle it lies on name the seat
        (``center`` when it lies at the very middle)."""
        long_side = self._long_side(tr)
        w, h = self.size
        dx, dy = float(tr.center[0] - w / 2), float(tr.center[1] - h / 2)
        if abs(long_side[1]) >= abs(long_side[0]):  # lies up and down the frame: South or North
            return "center" if abs(dy) < 2 else ("S" if dy > 0 else "N")
        return "center" if abs(dx) < 2 else ("E" if dx > 0 else "W")

    def _take_moved(self, tr: Track, fresh: bool, t: float) -> Track | None:
        """The card this new track came from, if it moved: a lost card (:meth:`_take_lost`) of the
        same code. Not another seat's card when this one is a ``fresh`` show (:meth:`_fresh_show`):
        a card of the same kind shown by the player whose turn it is is the likelier story."""
        return self._take_lost(tr, t, lambda lost: lost.code == tr.code and
                               not (fresh and self.seat_of_track.get(lost.id) != self.turn))

    def _take_lost(self, tr: Track, t: float, fits) -> Track | None:
        """The first lost card that ``fits``, taken off the books: one removed from the tracker,
        last seen at most MOVE_SECONDS ago and not covered by another (a covered card is still
        there, under the new one), or one still followed but no longer seen where it was."""
        for i, r in enumerate(self.removed):
            if not r.track.replaced and t - r.track.last_seen <= MOVE_SECONDS and fits(r.track):
                return self.removed.pop(i).track
        for old in self.tracker.all():
            if old is not tr and old.confirmed and t - old.last_seen > 0.25 and fits(old):
                self.tracker.forget(old)
                return old
        return None

    @staticmethod
    def _same_place(a: Track, b: Track) -> bool:
        """Whether two cards' centres lie within half of ``a``'s width."""
        return float(np.linalg.norm(a.center - b.center)) <= 0.5 * max(a.size, 8.0)

    def _fresh_show(self, tr: Track, zone: str) -> bool:
        """Whether ``tr`` lies alone where the player whose turn it is shows a card: in their zone,
        or near the middle. A card moved into a meld lands beside others (the cards that claim it
        are laid down with it), and a meld-row card read again has neighbours."""
        if self.turn is None or (zone in SEATS and zone != self.turn):
            return False
        width = max(tr.size, 8.0)
        # neighbours: cards beside it (seen lately or under a passing hand), not one lost where it lies
        return not any(o is not tr and 0.5 * width < float(np.linalg.norm(o.center - tr.center)) <= 2 * MELD_LINK * width
                       for o in self.tracker.all())

    def _take_removed(self, track: Track) -> bool:
        """Forget a removed track before its ``card_removed`` is reported; whether it was there."""
        for i, r in enumerate(self.removed):
            if r.track is track:
                del self.removed[i]
                return True
        return False

    def _take_returned(self, tr: Track, t: float, within: float = RETURN_SECONDS) -> Track | None:
        """The card reported removed that this new track is: same kind, same place (centres within
        half a card's width), removed at most ``within`` seconds ago."""
        self.gone = [r for r in self.gone if t - r.t <= MOVE_SECONDS + RETURN_SECONDS]
        for i, r in enumerate(self.gone):
            if r.track.code == tr.code and t - r.t <= MOVE_SECONDS + within and self._same_place(r.track, tr):
                return self.gone.pop(i).track
        return None

    def _followed_here(self, tr: Track, t: float) -> Track | None:
        """A confirmed card (or one of the starting table, however weakly read), seen this moment,
        lying where ``tr`` lies (centres within half a card's width)."""
        for o in self.tracker.all():
            if o is not tr and (o.confirmed or self._from_start(o)) and t - o.last_seen <= 0.3 and \
                    self._same_place(o, tr):
                return o
        return None

    def _take_same_place(self, tr: Track, t: float) -> Track | None:
        """A card lost moments ago (within MOVE_SECONDS, not covered by another) where this new
        track lies, whatever it was read as: a hand passed over it and it came back read otherwise."""
        return self._take_lost(tr, t, lambda lost: self._same_place(lost, tr))

    def _pile(self) -> int:
        return int(np.median(self.pile_history)) if self.pile_history else 0

    def _action(self, seat: str) -> str | None:
        """``draw`` when the face-down pile shrank since the last card shown, else ``discard``;
        None for a card of no known seat."""
        pile = self._pile()
        drew = self.pile_at_last_show is not None and pile < self.pile_at_last_show
        self.pile_at_last_show = pile
        return ("draw" if drew else "discard") if seat in SEATS else None

    def _advice(self, shown: CardShown) -> list[Advice]:
        return claim_advice(self.hand, shown, self.user_seat, self.rules)

    # --- table state ---------------------------------------------------------------------------

    def _on_table(self) -> list[Track]:
        """The confirmed cards seen in the last NOW_SECONDS."""
        now = self.tracker.now
        return [tr for tr in self.tracker.visible() if now - tr.last_seen <= NOW_SECONDS]

    def _clusters(self, seat: str) -> list[list[Track]]:
        """The seat's cards in groups: left to right, a card joins the first group holding a card
        within MELD_LINK card widths of it. Centres, sizes and their distances are computed once,
        as arrays: this runs for every seat twice a frame, over every card on the table."""
        tracks = sorted((tr for tr in self._on_table() if self.zone_of_track.get(tr.id) == seat),
                        key=lambda x: (x.center[0], x.center[1]))
        if not tracks:
            return []
        centers = np.stack([tr.center for tr in tracks])
        sizes = np.maximum(np.array([tr.size for tr in tracks]), 8)
        apart = np.linalg.norm(centers[:, None, :] - centers[None, :, :], axis=-1)
        near = apart < MELD_LINK * np.maximum(sizes[:, None], sizes[None, :])
        groups: list[list[int]] = []
        for i in range(len(tracks)):
            for group in groups:
                if near[i, group].any():
                    group.append(i)
                    break
            else:
                groups.append([i])
        return [[tracks[i] for i in group] for group in groups]

    def state(self, t: float) -> TableState:
        w, h = self.size
        st = TableState(t, w, h, pile=self._pile())
        for tr in self._on_table():
            zone = self.zone_of_track.get(tr.id, self._zone(tr))
            st.cards.append({"id": tr.id, "card": tr.code, "zone": zone, "confidence": round(tr.confidence, 3),
                             "polygon": np.round(tr.polygon, 1).tolist()})
            if zone == "center":
                st.shown.append(tr.code)
        for seat in SEATS:
            for cl in self._clusters(seat):
                codes = [tr.code for tr in cl]
                ids = [CARD_CODES.index(c) for c in codes]
                if 2 <= len(cl) <= 4 and why_not_meld(ids, self.rules.allow_general_pair) is None:
                    st.melds[seat].append(sorted(codes))
                else:
                    st.discards[seat].extend(codes)
        return st

    def _melds_and_wins(self, t: float) -> list[Event]:
        events: list[Event] = []
        for seat in SEATS:
            seat_tracks = [tr for tr in self._on_table() if self.zone_of_track.get(tr.id) == seat]
            new = sum(not self._from_start(tr) for tr in seat_tracks)
            if len(seat_tracks) >= WIN_MIN_CARDS and new >= WIN_NEW_CARDS and seat not in self.won:
                win = self._score_hand(seat, [tr.code for tr in seat_tracks], t)
                if win:
                    self.won.add(seat)
                    events.append(win)
            for cl in self._clusters(seat):
                key = frozenset(tr.id for tr in cl)
                if not 2 <= len(cl) <= 4 or key in self.reported_melds:
                    continue
                ids = [CARD_CODES.index(tr.code) for tr in cl]
                if why_not_meld(ids, self.rules.allow_general_pair) is None:
                    self.reported_melds.add(key)
                    if all(self._from_start(tr) for tr in cl):  # a meld of the starting table: in its state already
                        continue
                    events.append(MeldSeen(t, seat, Meld.of(ids, self.rules.allow_general_pair).codes))
                    if self.last_shown in key:  # the card shown last, claimed: the claimer plays next
                        self.turn = seat
        return events

    def _score_hand(self, seat: str, codes: list[str], t: float) -> WinClaimed | None:
        return win_claimed(seat, codes, t, self.rules, self.claimed)
