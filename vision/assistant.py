"""The live table assistant: frames in, a steady ``TableState`` and events out.

Events (JSON-ready dicts, ``t`` in seconds from the start of the source):

- ``card_shown``: a card turned face up (``card``, ``seat``): exactly once per card. A card that
  vanishes and comes back, or moves to a meld row, is the same card and is not announced again.
- ``draw`` / ``discard``: derived from ``card_shown`` when the draw pile shrank (a draw) or not.
- ``meld``: cards of one seat lying together that form a meld.
- ``card_corrected``: a card seen moments ago was misread; ``card`` is what it is, ``was`` what
  it was announced as (no second ``card_shown``, and no ``card_removed`` for the misreading).
- ``card_removed``: a card gone for good.
- ``win_claimed``: a seat lays down a hand that splits into melds; it is scored (and checked
  against ``claimed`` when given).
- ``advice``: with the user's hand, the claims a shown card allows them and the discard to make.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from sisepai.engine.cards import CARD_CODES, SEATS, counts_of, parse_card_ids
from sisepai.engine.errors import SisepaiError
from sisepai.engine.melds import Meld, why_not_meld
from sisepai.engine.rules import Rules

from .detections import Detections
from .table import TableState, Zones
from .table_advice import claim_advice, win_claimed
from .tracker import CardTracker, Track

MOVE_SECONDS = 3.0
RETURN_SECONDS = 20.0
"""A card seen again where a card of its kind was lost, within this many seconds of its
``card_removed``, is that card coming back (read too weakly for a while, or uncovered), not a
new face-up card. Measured on seed 7's video: a plain joker in a meld, found at confidence
0.28-0.45, was announced twice more; with this rule it is not, and no video lost a card."""
WIN_MIN_CARDS = 15
MIN_CONFIDENCE = 0.4
"""Readings below this confidence are not tracked. Measured on 60 s game videos (generator 1.2),
with the GPU-trained models and card replacement: 0.3 -> 0.4 on seeds 7 / 11 / 13 / 17 / 19 /
23 / 29 kept every other video the same and took seed 7 from recall 0.917 and 10 false
card_shown events to 0.944 and 7 (a pink patch of cloth read as a Red Horse at 0.28-0.35);
0.5 was no better (seeds 7 / 11 / 17: 85 cards found either way, 22 vs 23 false events).
(With the first CPU-trained models, 0 -> 0.3 had cut false events from 11 to 4 and 9 to 8.)"""


@dataclass
class Removed:
    track: Track
    t: float
    zone: str


class TableAssistant:
    """Turns per-frame detections into a table state and events."""

    def __init__(self, zones: Zones | None = None, hand: str | None = None, user_seat: str = "S",
                 rules: Rules | None = None, claimed: int | None = None, confirm_seconds: float = 0.5,
                 min_confidence: float = MIN_CONFIDENCE):
        self.zones = zones or Zones()
        self.min_confidence = min_confidence
        self.tracker = CardTracker(confirm_seconds=confirm_seconds)
        self.rules = rules or Rules.preset("seesek")
        self.hand = counts_of(parse_card_ids(hand)) if hand else None
        if user_seat not in SEATS:
            raise SisepaiError(f"seat must be one of {', '.join(SEATS)}")
        self.user_seat = user_seat
        self.claimed = claimed
        self.zone_of_track: dict[int, str] = {}
        self.removed: list[Removed] = []
        self.gone: list[Removed] = []  # cards reported removed, for RETURN_SECONDS
        self.reported_melds: set[frozenset[int]] = set()
        self.won: set[str] = set()
        self.pile_history: deque = deque(maxlen=15)
        self.pile_at_last_show: int | None = None
        self.size = (1, 1)

    # --- the frame loop --------------------------------------------------------------------------

    def process(self, det: Detections, t: float, width: int, height: int, backs: int = 0) -> tuple[TableState, list[dict]]:
        self.size = (width, height)
        self.pile_history.append(backs)
        if len(det) and self.min_confidence > 0:
            det = det[det.confidence >= self.min_confidence]
        confirmed, removed = self.tracker.update(det, t)
        events: list[dict] = []
        for tr in removed:
            if tr.confirmed:
                self.removed.append(Removed(tr, t, self.zone_of_track.get(tr.id, "?")))
        for tr in confirmed:
            zone = self._zone(tr)
            self.zone_of_track[tr.id] = zone
            same = self._take_moved(tr.code, t) or self._take_returned(tr, t)
            if same is not None:
                # the same card, moved (to a meld row, say) or seen again where it was lost: not a
                # new face-up card, and seen since it was first seen
                tr.confirmed_at = same.confirmed_at
                continue
            if tr.corrects is not None and self._take_removed(tr.corrects):
                events.append({"t": round(t, 3), "type": "card_corrected", "card": tr.code, "was": tr.corrects.code,
                               "seat": zone, "id": tr.id, "first_seen": round(tr.first_seen, 3)})
                continue
            ev = {"t": round(t, 3), "type": "card_shown", "card": tr.code, "seat": zone, "id": tr.id,
                  "first_seen": round(tr.first_seen, 3)}
            events.append(ev)
            events.extend(self._derived(ev))
        for tr in self.tracker.visible():
            self.zone_of_track[tr.id] = self._zone(tr)
        keep = []
        for r in self.removed:
            if t - r.t > MOVE_SECONDS:
                events.append({"t": round(t, 3), "type": "card_removed", "card": r.track.code, "seat": r.zone,
                               "id": r.track.id})
                self.gone.append(r)
            else:
                keep.append(r)
        self.removed = keep
        state = self.state(t)
        events.extend(self._melds_and_wins(t))
        return state, events

    def _zone(self, tr: Track) -> str:
        return self.zones.zone_of(tr.center, *self.size)

    def _take_moved(self, code: str, t: float) -> Track | None:
        """The card this new track came from, if it moved: a lost card of the same code, or a
        confirmed card of the same code no longer seen where it was. A card covered by another
        (replaced) has not moved: it is still there, under the new one."""
        for i, r in enumerate(self.removed):
            if r.track.code == code and t - r.t <= MOVE_SECONDS and not r.track.replaced:
                return self.removed.pop(i).track
        for tr in list(self.tracker.tracks.values()):
            if tr.confirmed and tr.code == code and t - tr.last_seen > 0.25:
                del self.tracker.tracks[tr.id]
                return tr
        return None

    def _take_removed(self, track: Track) -> bool:
        """Forget a removed track before its ``card_removed`` is reported; whether it was there."""
        for i, r in enumerate(self.removed):
            if r.track is track:
                del self.removed[i]
                return True
        return False

    def _take_returned(self, tr: Track, t: float) -> Track | None:
        """The card reported removed that this new track is: same kind, same place (centres within
        half a card's width), removed at most RETURN_SECONDS ago."""
        self.gone = [r for r in self.gone if t - r.t <= MOVE_SECONDS + RETURN_SECONDS]
        for i, r in enumerate(self.gone):
            if r.track.code == tr.code and \
                    float(np.linalg.norm(r.track.center - tr.center)) <= 0.5 * max(r.track.size, 8.0):
                return self.gone.pop(i).track
        return None

    def _pile(self) -> int:
        return int(np.median(self.pile_history)) if self.pile_history else 0

    def _derived(self, shown: dict) -> list[dict]:
        out = []
        pile = self._pile()
        seat = shown["seat"]
        if seat in SEATS:
            drew = self.pile_at_last_show is not None and pile < self.pile_at_last_show
            out.append({**{k: shown[k] for k in ("t", "card", "seat")}, "type": "draw" if drew else "discard"})
        self.pile_at_last_show = pile
        if self.hand is not None and seat != self.user_seat:
            out.extend(self._advice(shown))
        return out

    def _advice(self, shown: dict) -> list[dict]:
        return claim_advice(self.hand, shown, self.user_seat, self.rules)

    # --- table state ---------------------------------------------------------------------------

    def _clusters(self, seat: str) -> list[list[Track]]:
        tracks = [tr for tr in self.tracker.visible() if self.zone_of_track.get(tr.id) == seat]
        clusters: list[list[Track]] = []
        for tr in sorted(tracks, key=lambda x: (x.center[0], x.center[1])):
            for cl in clusters:
                if any(np.linalg.norm(tr.center - o.center) < 1.8 * max(tr.size, o.size, 8) for o in cl):
                    cl.append(tr)
                    break
            else:
                clusters.append([tr])
        return clusters

    def state(self, t: float) -> TableState:
        w, h = self.size
        st = TableState(t, w, h, pile=self._pile())
        for tr in self.tracker.visible():
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

    def _melds_and_wins(self, t: float) -> list[dict]:
        events = []
        for seat in SEATS:
            seat_tracks = [tr for tr in self.tracker.visible() if self.zone_of_track.get(tr.id) == seat]
            if len(seat_tracks) >= WIN_MIN_CARDS and seat not in self.won:
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
                    events.append({"t": round(t, 3), "type": "meld", "seat": seat,
                                   "cards": Meld.of(ids, self.rules.allow_general_pair).codes})
        return events

    def _score_hand(self, seat: str, codes: list[str], t: float) -> dict | None:
        return win_claimed(seat, codes, t, self.rules, self.claimed)
