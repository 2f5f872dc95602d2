"""Follow cards across frames: each card keeps an id, its code is a vote over recent frames, and it
is *seen* only once it has been stable for about half a second. A card hidden for a moment (a
hand passing over it) keeps its track. A seen card whose place is taken by another card (a new
meld laid over old ones, the next draw put where the last one lay) is replaced: once the last
half second of frames all read one other card of another rank, at least 0.9 times as surely as
the old card was read, the old track ends and a new one starts; but not by a card the spot was
read as before (one card read two ways, back and forth, is not two new cards).

>>> import numpy as np
>>> from sisepai.vision.recognition.detections import Detections
>>> box = np.float32([[[10, 10], [30, 10], [30, 120], [10, 120]]])
>>> t = CardTracker(confirm_seconds=0.5)
>>> for k in range(8):
...     _ = t.update(Detections(box, np.array([0.9]), np.array([5])), k * 0.1)
>>> [(tr.code, tr.confirmed) for tr in t.tracks.values()]
[('GC', True)]
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

import numpy as np

from sisepai.engine.cards import CARD_CODES, Card
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.geometry import inside


@dataclass
class Track:
    id: int
    polygon: np.ndarray
    first_seen: float
    last_seen: float
    kind: str = "card"
    votes: deque = field(default_factory=lambda: deque(maxlen=15))
    hits: int = 0
    confirmed: bool = False
    confirmed_at: float | None = None
    confirmed_code: str | None = None
    other_since: float | None = None  # since when every frame has read one card other than the confirmed one
    replaces: "Track | None" = None  # the seen card this one replaced (CardTracker._replace)
    replaced: bool = False  # another card now lies where this one was (it is covered, not moved)
    origin: np.ndarray | None = None  # where the card was first seen on its way in (see CardTracker._path_start)
    read_as: frozenset = frozenset()  # the codes this spot was seen as before, by the tracks this one replaced

    _shape: tuple = field(default=(None, None, 0.0), repr=False, compare=False)  # (polygon, centre, size), cached
    _tally: tuple = field(default=((), -1, 0.0), repr=False, compare=False)  # (votes, card id, share), cached

    def _geometry(self) -> tuple:
        # the polygon is replaced when the card moves, never changed in place: its identity keys the cache
        if self._shape[0] is not self.polygon:
            p = self.polygon
            self._shape = (p, p.mean(0), float(min(np.hypot(*(p[1] - p[0])), np.hypot(*(p[2] - p[1])))))
        return self._shape

    @property
    def center(self) -> np.ndarray:
        return self._geometry()[1]

    @property
    def size(self) -> float:
        return self._geometry()[2]

    def _vote(self) -> tuple:
        """(card id, its share of the confidence) over the readings, worked out once per change."""
        key = tuple(self.votes)
        if self._tally[0] != key:
            tally: Counter = Counter()
            for cid, conf in key:
                tally[cid] += conf
            total = sum(tally.values())
            best = tally.most_common(1)[0] if tally else (-1, 0.0)
            self._tally = (key, int(best[0]), float(best[1] / total) if total else 0.0)
        return self._tally[1:]

    @property
    def card_id(self) -> int:
        """The card the readings vote for, as a class id (-1 before any reading)."""
        return self._vote()[0]

    @property
    def corrects(self) -> "Track | None":
        """The seen card this one replaced within CORRECT_SECONDS of its being seen: a misreading."""
        old = self.replaces
        if old is not None and old.confirmed_at is not None and self.first_seen - old.confirmed_at <= CORRECT_SECONDS:
            return old
        return None

    @property
    def code(self) -> str:
        """:attr:`card_id` as a code, for events and JSON (``?`` before any reading)."""
        card_id = self.card_id
        return CARD_CODES[card_id] if card_id >= 0 else "?"

    @property
    def mean_confidence(self) -> float:
        """The mean confidence of the readings that agree with the voted code."""
        code = self.code
        confs = [conf for cid, conf in self.votes if CARD_CODES[cid] == code]
        return float(sum(confs) / len(confs)) if confs else 0.0

    @property
    def confidence(self) -> float:
        """The voted card's share of all the readings' confidence."""
        return self._vote()[1]


MIN_MEAN_CONFIDENCE = 0.5
"""A card is seen only once the readings that agree on its code average this confidence (how it
was chosen: ``docs/training-logs/live-thresholds.md``)."""
CORRECT_SECONDS = 3.0
"""A card replaced within this many seconds of being seen was, far more likely, misread at first
than covered by a new card (cards are laid turns apart): the new track ``corrects`` the old."""
LEFT_SECONDS = 0.3
"""A card unseen for longer than this (taken away, or under a hand) is not matched to a card of
another kind found where it lay: that is a new card (a card shown where the last one was), or
the same card read otherwise, which the assistant tells apart."""
SAME_SPOT = 0.25
"""A card unseen for longer than LEFT_SECONDS is found again only on its very spot: its centre
within this many card widths of where it lay, lying the same way. A card covered by a hand and
uncovered has not moved; a card of the same kind laid where one was taken away lands a little
apart, or turned: that is a new card."""
SAME_SPOT_DEGREES = 15.0
"""... and its long side within this many degrees of the way the card lay."""
REPLACE_CONFIDENCE_RATIO = 0.9
"""A replacing card's readings must average this share of the replaced card's, so a misread
card's later, less sure reading does not replace it (``docs/training-logs/live-thresholds.md``)."""


PATH_SECONDS = 1.0
"""A card on its way in is followed back over at most this many seconds of single-frame tracks."""
PATH_GAP_SECONDS = 0.25
"""... each seen at most this long before the next."""


def _long_side_angle(polygon: np.ndarray) -> float:
    """The direction of a quadrilateral's long side, in degrees, 0 to 180."""
    a, b = polygon[1] - polygon[0], polygon[2] - polygon[1]
    v = a if np.hypot(*a) >= np.hypot(*b) else b
    return float(np.degrees(np.arctan2(v[1], v[0])) % 180.0)


def _on_its_spot(track: Track, polygon: np.ndarray, distance: float) -> bool:
    """Whether ``polygon`` lies where ``track`` lay: centre within SAME_SPOT widths, turned at most
    SAME_SPOT_DEGREES (see :data:`SAME_SPOT`).

    >>> card = np.float32([[0, 0], [40, 0], [40, 150], [0, 150]])
    >>> tr = Track(1, card, 0.0, 0.0)
    >>> _on_its_spot(tr, card + 3, 4.2), _on_its_spot(tr, card + 14, 19.8), _on_its_spot(tr, card[[1, 2, 3, 0]], 0.0)
    (True, False, True)
    """
    if distance > SAME_SPOT * max(track.size, 8.0):
        return False
    turn = abs(_long_side_angle(track.polygon) - _long_side_angle(polygon))
    return min(turn, 180.0 - turn) <= SAME_SPOT_DEGREES


class CardTracker:
    """Greedy nearest-centre matching of detections to tracks."""

    def __init__(self, confirm_seconds: float = 0.5, min_hits: int = 3, keep_seconds: float = 2.0,
                 match_factor: float = 0.9, min_vote_share: float = 0.6, replace_frames: int = 5,
                 min_mean_confidence: float = MIN_MEAN_CONFIDENCE):
        self.confirm_seconds = confirm_seconds
        self.min_hits = min_hits
        self.keep_seconds = keep_seconds
        self.match_factor = match_factor
        self.min_vote_share = min_vote_share
        self.replace_frames = replace_frames
        self.min_mean_confidence = min_mean_confidence
        self.tracks: dict[int, Track] = {}
        self._next_id = 1
        self.now = 0.0  # the time of the last frame fed

    def update(self, det: Detections, t: float) -> tuple[list[Track], list[Track]]:
        """Feed one frame's detections at time ``t`` (seconds). Returns (newly confirmed, removed):
        removed holds the tracks lost for ``keep_seconds`` and those replaced by another card."""
        self.now = t
        centers = det.centers if len(det) else np.zeros((0, 2))
        free = set(range(len(det)))
        pairs = []
        tids = list(self.tracks)
        if tids and len(det):  # every track against every detection at once (this loop is hot)
            track_centres = np.array([self.tracks[k].center for k in tids])
            reach = self.match_factor * np.array([max(self.tracks[k].size, 8.0) for k in tids])
            dist = np.sqrt(((centers[None, :, :] - track_centres[:, None, :]) ** 2).sum(axis=2))
            track_codes = [self.tracks[k].code for k in tids]
            det_codes = [CARD_CODES[int(c)] for c in det.class_id]
            unseen = np.array([t - self.tracks[k].last_seen > LEFT_SECONDS for k in tids])
            for a, i in zip(*np.nonzero(dist < reach[:, None])):
                if unseen[a] and (det_codes[i] != track_codes[a] or
                                  not _on_its_spot(self.tracks[tids[a]], det.polygons[i], float(dist[a, i]))):
                    continue  # another card where one lay a while ago: a new card, not a new reading
                d = float(dist[a, i])
                pairs.append((d * (0.5 if det_codes[i] == track_codes[a] else 1.0), tids[a], int(i)))
        pairs.sort()
        matched_tracks = set()
        for _, tid, i in pairs:
            if tid in matched_tracks or i not in free:
                continue
            tr = self.tracks[tid]
            tr.polygon = 0.5 * tr.polygon + 0.5 * det.polygons[i]
            tr.last_seen = t
            tr.hits += 1
            tr.votes.append((int(det.class_id[i]), float(det.confidence[i])))
            if det.kind[i] == "card":
                tr.kind = "card"
            matched_tracks.add(tid)
            free.discard(i)
            self._note_other_card(tr, t)
        replaced = [tr for tr in self.tracks.values() if self._is_replaced(tr)]
        for old in replaced:
            self._replace(old, t)
        for i in sorted(free):
            host = self._whole_of(det, i)
            if host is not None:  # an end of a card already followed (or that card, whole): the same card
                host.last_seen = t
                if det.kind[i] == "card":  # found whole at last: follow the whole card from now on
                    host.polygon, host.kind = det.polygons[i].copy(), "card"
                continue
            tr = Track(self._next_id, det.polygons[i].copy(), t, t, str(det.kind[i]))
            tr.origin = self._path_start(det, i, t)
            tr.votes.append((int(det.class_id[i]), float(det.confidence[i])))
            tr.hits = 1
            self.tracks[tr.id] = tr
            self._next_id += 1
        confirmed = []
        for tr in self.tracks.values():
            if not tr.confirmed and tr.hits >= self.min_hits and t - tr.first_seen >= self.confirm_seconds \
                    and tr.confidence >= self.min_vote_share and t - tr.last_seen < 0.3 \
                    and tr.mean_confidence >= self.min_mean_confidence:
                tr.confirmed = True
                tr.confirmed_at = t
                tr.confirmed_code = tr.code
                confirmed.append(tr)
        removed = [tr for tr in self.tracks.values() if t - tr.last_seen > self.keep_seconds]
        for tr in removed:
            del self.tracks[tr.id]
        return confirmed, replaced + removed

    def _path_start(self, det: Detections, i: int, t: float) -> np.ndarray:
        """Where the card of detection ``i`` came from: a card slid in fast leaves a track a frame,
        each read as this card, each seen moments ago for the first time and not this frame. The
        last of them hands on the first one's place (and is dropped); with none, the card came
        from where it is."""
        code = CARD_CODES[int(det.class_id[i])]
        here = det.polygons[i].mean(0)
        trail = [o for o in self.tracks.values()
                 if not o.confirmed and o.code == code and o.last_seen < t and t - o.last_seen <= PATH_GAP_SECONDS
                 and t - o.first_seen <= PATH_SECONDS]
        if not trail:
            return here.copy()
        last = min(trail, key=lambda o: (t - o.last_seen, float(np.linalg.norm(o.center - here))))
        del self.tracks[last.id]
        return last.origin if last.origin is not None else last.center.copy()

    def _whole_of(self, det: Detections, i: int) -> Track | None:
        """The followed card that detection ``i`` is a part of: same code, and the detection is an
        end lying inside a whole card's track, or a whole card holding an end's track. (A plain
        card in a meld is often found as its two ends in some frames and whole in others; without
        this, one card became up to three tracks.)"""
        code = CARD_CODES[int(det.class_id[i])]
        poly, kind = det.polygons[i], str(det.kind[i])
        for tr in self.tracks.values():
            if tr.code != code or tr.kind == kind:
                continue
            if (kind == "end" and inside(poly.mean(0), tr.polygon)) or (kind == "card" and inside(tr.center, poly)):
                return tr
        return None

    def _replace(self, old: Track, t: float) -> None:
        """End ``old`` (keeping only its own readings, so it leaves under its own name) and start a
        track for the card now in its place, from the frames that read it."""
        del self.tracks[old.id]
        old.replaced = True
        new = Track(self._next_id, old.polygon.copy(), old.other_since, t, old.kind)
        new.votes.extend(list(old.votes)[-self.replace_frames:])
        new.hits = self.replace_frames
        new.read_as = old.read_as | {old.confirmed_code}
        new.replaces, old.replaces = old, None  # what old replaced mattered when it was seen: no chain kept
        old.votes = deque((v for v in old.votes if CARD_CODES[v[0]] == old.confirmed_code), maxlen=15)
        self.tracks[new.id] = new
        self._next_id += 1

    def _note_other_card(self, tr: Track, t: float) -> None:
        """Remember since when a seen card's frames have all read one other card."""
        if not tr.confirmed:
            return
        last = CARD_CODES[tr.votes[-1][0]]
        before = CARD_CODES[tr.votes[-2][0]] if len(tr.votes) > 1 else None
        if last == tr.confirmed_code:
            tr.other_since = None
        elif tr.other_since is None or last != before:
            tr.other_since = t

    def _is_replaced(self, tr: Track) -> bool:
        """A seen card whose last ``replace_frames`` frames all read one other card, for at least
        ``confirm_seconds``: another card now lies where it was."""
        if not tr.confirmed or tr.other_since is None or len(tr.votes) < self.replace_frames:
            return False
        recent = list(tr.votes)[-self.replace_frames:]
        codes = {cid for cid, _ in recent}
        if len(codes) != 1 or tr.last_seen - tr.other_since < self.confirm_seconds * 0.8:
            return False
        # the same rank in another suit is far more often a faded colour read two ways than a new card
        code = codes.pop()
        if Card.from_id(code).rank == Card.parse(tr.confirmed_code).rank:
            return False
        # a spot read again as it was read before it was replaced: one card read two ways, back and forth
        if CARD_CODES[code] in tr.read_as:
            return False
        # a new card reads about as surely as the old one did; a misread card's second reading less so
        new = [conf for _, conf in recent]
        old = [conf for cid, conf in tr.votes if CARD_CODES[cid] == tr.confirmed_code]
        return not old or sum(new) / len(new) >= REPLACE_CONFIDENCE_RATIO * sum(old) / len(old)

    def visible(self) -> list[Track]:
        """The confirmed tracks."""
        return [tr for tr in self.tracks.values() if tr.confirmed]

    def all(self) -> list[Track]:
        """Every track followed now, confirmed or not."""
        return list(self.tracks.values())

    def forget(self, track: Track) -> None:
        """Stop following ``track`` (the assistant found it elsewhere: a card moved)."""
        self.tracks.pop(track.id, None)
