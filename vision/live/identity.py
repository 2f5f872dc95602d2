"""The identity of each card on the table: which track is which card, across moves, covers,
misreadings and returns.

The tracker (:mod:`.tracker`) follows boxes. :class:`TableCards` keeps what is known of each
card (its zone, its seat, whether it belongs to the table as it was at the start);
:class:`LostCards` keeps the cards lost lately and decides when a new track is a card already
known: one that moved (to a meld row, say), one seen again where it was lost, or a second reading
of a card followed already.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sisepai.engine.cards import SEATS

from .events import CardRemoved, Event
from .groups import MELD_LINK
from .tracker import CardTracker, Track

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
START_SECONDS = 1.5
"""The cards first seen in this many seconds from the start of the source (or the page's
connection) are the table as it was: one ``table`` event, no announcements."""
LOST_SECONDS = 0.25
"""A card not seen for this long is lost where it lay: moved, taken away, or under a hand."""
NOW_SECONDS = 1.0
"""The state lists the cards seen in this many seconds: what is on the table now (a card under a
passing hand stays; a card gone, or a scene the camera left, does not)."""


@dataclass
class Removed:
    """A confirmed card the tracker lost at ``t``, in ``zone``: reported removed after MOVE_SECONDS."""

    track: Track
    t: float
    zone: str


def same_place(a: Track, b: Track) -> bool:
    """Whether two cards' centres lie within half of ``a``'s width."""
    return float(np.linalg.norm(a.center - b.center)) <= 0.5 * max(a.size, 8.0)


class TableCards:
    """What is known of each card on the table: its zone, its seat, and whether it belongs to the
    table as it was at the start. The one owner of these facts: the assistant asks and tells
    through its methods.

    >>> cards = TableCards(CardTracker(confirm_seconds=0.5))
    >>> cards.begin(10.0); cards.begin(12.0); cards.t0
    10.0
    """

    def __init__(self, tracker: CardTracker):
        self.tracker = tracker
        self.t0: float | None = None
        self._zone: dict[int, str] = {}
        self._seat: dict[int, str] = {}
        self._start: set[int] = set()  # later tracks that are cards of the starting table

    def begin(self, t: float) -> None:
        """The source's first frame is at ``t`` (later calls change nothing)."""
        if self.t0 is None:
            self.t0 = t

    def opening_seen(self, t: float, confirm_seconds: float) -> bool:
        """Whether the table as it was at the start has been seen, and confirmed, by ``t``."""
        return self.t0 is not None and t >= self.t0 + START_SECONDS + confirm_seconds

    def from_start(self, tr: Track) -> bool:
        """Whether ``tr`` is a card of the table as it was at the start: first seen in the first
        START_SECONDS, or a later track that took over such a card's history."""
        return tr.first_seen <= self.t0 + START_SECONDS or tr.id in self._start

    def count_as_start(self, tr: Track) -> None:
        """``tr`` is a card of the starting table, read again later."""
        self._start.add(tr.id)

    def place(self, tr: Track, zone: str) -> None:
        """``tr`` lies in ``zone`` now."""
        self._zone[tr.id] = zone

    def zone_of(self, tr: Track, default: str | None = None) -> str | None:
        """The zone ``tr`` was last placed in, or ``default``."""
        return self._zone.get(tr.id, default)

    def seat_of(self, tr: Track, default: str | None = None) -> str | None:
        """The seat ``tr``'s card belongs to, or ``default``."""
        return self._seat.get(tr.id, default)

    def give(self, tr: Track, seat: str) -> None:
        """``tr``'s card belongs to ``seat``."""
        self._seat[tr.id] = seat

    def adopt(self, tr: Track, same: Track, zone: str) -> None:
        """``tr`` is the card ``same`` was: it takes over its history."""
        tr.confirmed_at = same.confirmed_at
        if self.from_start(same):
            self._start.add(tr.id)
        self._seat[tr.id] = self._seat.get(same.id, zone)

    def on_table(self) -> list[Track]:
        """The confirmed cards seen in the last NOW_SECONDS."""
        now = self.tracker.now
        return [tr for tr in self.tracker.visible() if now - tr.last_seen <= NOW_SECONDS]

    def in_zone(self, zone: str) -> list[Track]:
        """The cards on the table (:meth:`on_table`) placed in ``zone``."""
        return [tr for tr in self.on_table() if self._zone.get(tr.id) == zone]


class LostCards:
    """The cards lost lately, which a new track may turn out to be, and the lookups that tell.

    >>> lost = LostCards(TableCards(CardTracker(confirm_seconds=0.5)))
    >>> lost.cards.begin(0.0)
    >>> lost.expire_removed(1.0)
    []
    """

    def __init__(self, cards: TableCards):
        self.cards = cards
        self.tracker = cards.tracker
        self._removed: list[Removed] = []
        self._gone: list[Removed] = []  # cards reported removed, for RETURN_SECONDS

    def lost(self, tracks: list[Track], t: float) -> None:
        """The tracker lost ``tracks`` at ``t``: the confirmed ones wait MOVE_SECONDS before they are removed."""
        for tr in tracks:
            if tr.confirmed:
                self._removed.append(Removed(tr, t, self.cards.zone_of(tr, "?")))

    def expire_removed(self, t: float) -> list[Event]:
        """A ``card_removed`` for each card lost more than MOVE_SECONDS ago and not found again."""
        events: list[Event] = []
        keep = []
        for r in self._removed:
            if t - r.t > MOVE_SECONDS:
                events.append(CardRemoved(t, r.track.code, r.zone, r.track.id))
                self._gone.append(r)
            else:
                keep.append(r)
        self._removed = keep
        return events

    def take_moved(self, tr: Track, fresh: bool, t: float, turn: str | None) -> Track | None:
        """The card this new track came from, if it moved: a lost card (:meth:`take_lost`) of the
        same code. Not another seat's card when this one is a ``fresh`` show (:meth:`fresh_show`):
        a card of the same kind shown by the player whose turn it is is the likelier story."""
        return self.take_lost(tr, t, lambda lost: lost.code == tr.code and
                              not (fresh and self.cards.seat_of(lost) != turn))

    def take_lost(self, tr: Track, t: float, fits) -> Track | None:
        """The first lost card that ``fits``, taken off the books: one removed from the tracker,
        last seen at most MOVE_SECONDS ago and not covered by another (a covered card is still
        there, under the new one), or one still followed but no longer seen where it was."""
        for i, r in enumerate(self._removed):
            if not r.track.replaced and t - r.track.last_seen <= MOVE_SECONDS and fits(r.track):
                return self._removed.pop(i).track
        for old in self.tracker.all():
            if old is not tr and old.confirmed and t - old.last_seen > LOST_SECONDS and fits(old):
                self.tracker.forget(old)
                return old
        return None

    def fresh_show(self, tr: Track, zone: str, turn: str | None, last_shown: int | None = None) -> bool:
        """Whether ``tr`` lies alone where the player whose turn it is shows a card: in their zone,
        or near the middle. A card moved into a meld lands beside others (the cards that claim it
        are laid down with it), and a meld-row card read again has neighbours. The card shown
        last (track ``last_shown``), once it is no longer seen, is no neighbour: it was taken away,
        and the next card is often laid where it lay."""
        if turn is None or (zone in SEATS and zone != turn):
            return False
        width = max(tr.size, 8.0)
        now = self.tracker.now

        def neighbour(o: Track) -> bool:  # beside it (seen lately or under a passing hand), not lost where it lies
            if o is tr or (o.id == last_shown and now - o.last_seen > LOST_SECONDS):
                return False
            return 0.5 * width < float(np.linalg.norm(o.center - tr.center)) <= 2 * MELD_LINK * width

        return not any(neighbour(o) for o in self.tracker.all())

    def take_removed(self, track: Track) -> bool:
        """Forget a removed track before its ``card_removed`` is reported; whether it was there."""
        for i, r in enumerate(self._removed):
            if r.track is track:
                del self._removed[i]
                return True
        return False

    def take_returned(self, tr: Track, t: float, within: float = RETURN_SECONDS) -> Track | None:
        """The card reported removed that this new track is: same kind, same place (centres within
        half a card's width), removed at most ``within`` seconds ago."""
        self._gone = [r for r in self._gone if t - r.t <= MOVE_SECONDS + RETURN_SECONDS]
        for i, r in enumerate(self._gone):
            if r.track.code == tr.code and t - r.t <= MOVE_SECONDS + within and same_place(r.track, tr):
                return self._gone.pop(i).track
        return None

    def followed_here(self, tr: Track, t: float) -> Track | None:
        """A confirmed card (or one of the starting table, however weakly read), seen this moment,
        lying where ``tr`` lies (centres within half a card's width)."""
        for o in self.tracker.all():
            if o is not tr and (o.confirmed or self.cards.from_start(o)) and t - o.last_seen <= 0.3 and \
                    same_place(o, tr):
                return o
        return None

    def take_same_place(self, tr: Track, t: float) -> Track | None:
        """A card lost moments ago (within MOVE_SECONDS, not covered by another) where this new
        track lies, whatever it was read as: a hand passed over it and it came back read otherwise."""
        return self.take_lost(tr, t, lambda lost: same_place(lost, tr))
