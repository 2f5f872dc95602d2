"""``recognize(image) -> Detections``: every visible face-up card, its code, outline and confidence.

Two stages, both trained here on generated scenes:

1. the OBB detector finds whole cards, card *ends* (the character regions) and card backs;
2. the reader CNN reads each straightened end: both ends of a whole card (their beliefs are
   multiplied), or the lone visible end of a card in a fan. Two lone ends that are one card
   (:mod:`.end_pairs`) are one reading.

Used as (the shipped weights load in a second or two; ``tests/vision/recognition`` runs this)::

    from sisepai.vision.recognition.recognize import Recognizer
    rec = Recognizer.load()
    result = rec.recognize(cv2.imread("table.jpg"))
    result.detections.codes
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple, Sequence

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DET
from sisepai.vision.recognition.detector import Boxes, Detector
from sisepai.vision.recognition.end_pairs import pair_lone_ends
from sisepai.vision.recognition.geometry import card_ends, first_holder, order_upright, side_lengths, straighten
from sisepai.vision.recognition.images import ImageError, ImageTooLargeError, check_image, decode_image, load_image  # noqa: F401 - public here too
from sisepai.vision.recognition.palette import (
    SuitPalette,
    crop_paper_colour,
    one_colour_per_suit,
    paper_colour,
    split_by_deck_colours,
)
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READ
from sisepai.vision.recognition.reader import NUM_CARDS, Reader, colour_rank_confidence
from sisepai.vision.recognition.still_readings import StillReadings, card_signature

PALETTE_MODES = ("image", "session", "off")
"""Where the deck's suit colours are learned: from each picture alone, over a video, or not at all."""
INNER_ENDS_BELOW = 0.99
"""The ends detected inside a whole card are read too only when its two ends agree on one kind
with less belief than this. Chosen on the tuning scenes (``models/tuning/recognition_tune.py``: 60
in the tuning fonts and the real tuning deck's, F1 at 0.8 / 0.9 / 0.95 / 0.99: 0.8768 / 0.8835 /
0.8853 / 0.8865); still pictures only, as live video reads no inner end. The margin over 0.95 is
small (0.0012)."""
TURNS_BELOW = 0.0
"""A still picture's end read less surely than this, on a card whose two ends leave it less sure
than this (or a lone end), is read again at the three other quarter turns and the four readings
are averaged (:meth:`Reader.read_turned`); 0 never does. Chosen on the tuning scenes
(``models/tuning/recognition_tune.py``): never turning reads them best (F1 0.917, against 0.911 at 0.8
and 0.9 and 0.906 at 0.95, ``docs/training-logs/recognizer-floors.md``). Live video never turns."""
MIN_CONFIDENCE = 0.25
"""A card is reported only when its confidence (the detector's times the reading's) is at least
this: the best of 0.15 to 0.4 on the tuning scenes (``docs/training-logs/recognizer-floors.md``).
The live assistant tracks only readings of 0.4 and more anyway."""
MIN_END_CONFIDENCE = 0.4
"""The floor for a card seen only by one lone end (a card in a fan, or one whose outline the
detector missed): one reading of half-hidden ink, where a whole card has two. Chosen on the
tuning scenes with the shipped models (``docs/training-logs/recognizer-floors.md``)."""
COVERED_SURE = 0.5
""":func:`covered_ends` takes an end for another card's only when both ends' readings are at least
this sure: a covered end shows half a character and reads less surely. Chosen on the tuning scenes
and videos (``models/tuning/recognition_tune.py``): 0.2, 0.3 and 0.5 announce the same events on the
videos, and 0.5 reads the scenes best by a hair (``docs/training-logs/recognizer-floors.md``)."""
ZOOM_OUT_MIN_CONFIDENCE = 0.4
"""A first look with no reading this confident is looked at again zoomed out."""
LARGE_CARD_WIDTH = 85 / 1280
"""A first look whose cards are wider than this, in median, as a share of the picture's long
side, is looked at again zoomed out. The detector learned cards at most 0.086 of the long side
wide (fans; tables at most 0.042), and it breaks larger, well-separated cards, as on a
flatbed scan of a sheet of cards, into pieces that are each read as a card."""
ZOOM_TARGET_WIDTH = 40 / 1280
"""The median card width (share of the long side) that the zoomed-out look of a picture of large
cards aims at: that of cards in a finished hand at table distance."""
CARD_PICTURE_ASPECT = (2.8, 7.5)
"""A picture this much longer than wide may be one card filling it (a scan or a close-up cut to
the card): it is also read as that one card."""
CARD_PICTURE_MIN_CONFIDENCE = 0.6
"""Reading a card-shaped picture as one card wins when it is this sure, and surer than every card
the detector's looks found."""
PAIR_EVERY_KIND = True
"""Two lone ends of any kind are one card when they make an outline of the picture's card length
(:func:`picture_card_length`); without a known length, only :data:`PAIRED_KINDS` are paired."""
PAIRED_KINDS = tuple(CARD_CODES)
"""The card kinds whose two lone ends may be paired into one card (:mod:`.end_pairs`) when the
picture's card length is not known: every kind. Chosen on the tuning scenes and videos
(``models/tuning/recognition_tune.py``): against plain jokers alone (``("J",)``), the tuning videos
read the same (106 of 116 cards, 15 false events) and the scenes a little better (F1 0.8858
against 0.8853; heaps 0.7364 against 0.7297, finished hands 0.9256 either way)."""
PAIR_MIN_CARDS = 3
"""Whole cards a picture needs before its card length is known (:func:`picture_card_length`)."""


def picture_card_length(card_polys: Sequence[np.ndarray], min_cards: int = PAIR_MIN_CARDS) -> float | None:
    """The length of a picture's cards: the median long side of its whole cards, when it has at
    least ``min_cards`` of them; else None (two lone ends are then paired only when plain jokers).

    >>> box = np.float32([[0, 0], [30, 0], [30, 100], [0, 100]])
    >>> picture_card_length([box, box + 5, box + 9]), picture_card_length([box])
    (100.0, None)
    """
    if len(card_polys) < min_cards:
        return None
    return float(np.median([side_lengths(np.float32(p)).max() for p in card_polys]))


@dataclass
class Recognition:
    """What one image holds: face-up cards, face-down backs, and timing."""

    detections: Detections
    backs: np.ndarray  # (M, 4, 2)
    width: int
    height: int
    ms: float
    unsure: list[int] = field(default_factory=list)  # indices of cards read with low confidence
    detect_ms: float = 0.0  # of ``ms``, the detector's share; the rest is reading the cards

    def to_json(self, image: str | None = None) -> dict:
        out = {} if image is None else {"image": image}
        out.update({"width": self.width, "height": self.height, "cards": self.detections.to_cards(),
                    "backs": len(self.backs), "ms": round(self.ms, 1)})
        return out


def _joint_belief(readings: Sequence[np.ndarray]) -> np.ndarray:
    """Several readings of one card combined: their card-kind beliefs multiplied, then normalised."""
    joint = np.exp(np.sum([np.log(p[:NUM_CARDS] + 1e-6) for p in readings], axis=0))
    return joint / max(joint.sum(), 1e-12)


def card_reading(readings: Sequence[np.ndarray]) -> np.ndarray:
    """One whole card's reading (29 card kinds, then 'none') from the readings of its ends: those
    that look like a card end are combined (:func:`_joint_belief`). When none does (a face-down
    pile the detector took for a face-up card), the least doubtful one is kept with its doubt:
    its card-kind beliefs sum to 1 - doubt, so a deck palette cannot make a card of it.

    >>> end = np.zeros(30); end[[28, 29]] = [0.1, 0.9]  # "not a card end", a little like a joker
    >>> card_reading([end, end]).round(2)[[28, 29]].tolist()
    [0.1, 0.9]
    >>> joker = np.zeros(30); joker[[28, 29]] = [0.8, 0.2]
    >>> card_reading([end, joker]).round(2)[[28, 29]].tolist()  # one end reads: a joker
    [1.0, 0.0]
    """
    usable = [p for p in readings if p[-1] < 0.5]
    if usable:
        return np.append(_joint_belief(usable), 0.0)
    best = min(readings, key=lambda p: p[-1])
    doubt = float(best[-1])
    return np.append(_joint_belief([best]) * (1.0 - doubt), doubt)


def covered_ends(card_polys: Sequence[np.ndarray], quads: Sequence[np.ndarray], probs: np.ndarray,
                 sure: float = COVERED_SURE) -> set[int]:
    """The end readings of whole cards (rows ``2k`` and ``2k + 1`` of ``probs`` and ``quads`` for
    card ``k``) that show another card's character: a card's ends never show two kinds. When they
    surely disagree, and another card lies over one end (a quarter of it or more) but not the
    other, and reads as that end does, that end is the other card's (a meld laid across the blank
    ends of a row of discards). ``sure``: the least belief of each end's reading
    (:data:`COVERED_SURE`).

    >>> box = lambda x, y, w, h: np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    >>> cards = [box(0, 0, 60, 10), box(50, -20, 10, 60)]  # a card lying across another's right end
    >>> quads = [box(0, 0, 12, 10), box(48, 0, 12, 10), box(50, -20, 10, 12), box(50, 28, 10, 12)]
    >>> probs = np.zeros((4, 30)); probs[[0, 1, 2, 3], [3, 7, 7, 29]] = 0.9  # GR | WK, and WK | blank
    >>> covered_ends(cards, quads, probs)  # the first card's right end shows the WK lying over it
    {1}
    """

    def overlap(a: np.ndarray, b: np.ndarray) -> float:
        inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
        return float(inter) / max(float(cv2.contourArea(np.float32(a))), 1e-6)

    def kind(k: int) -> int:
        return int(np.argmax(card_reading([probs[2 * k], probs[2 * k + 1]])[:NUM_CARDS]))

    out: set[int] = set()
    for k, poly in enumerate(card_polys):
        ends = (2 * k, 2 * k + 1)
        read = [int(np.argmax(probs[r][:NUM_CARDS])) for r in ends]
        if read[0] == read[1] or min(float(probs[r][c]) for r, c in zip(ends, read)) < sure:
            continue
        for j, other in enumerate(card_polys):
            if j == k or overlap(poly, other) <= 0:
                continue
            over = [overlap(quads[r], other) for r in ends]
            for e in (0, 1):
                if over[e] >= 0.25 and over[1 - e] < 0.05 and kind(j) == read[e]:
                    out.add(ends[e])
    return out


@dataclass
class Views:
    """What a picture gives the reader: the detected whole cards and ends, which card each end
    lies in (``owner``, -1 for none), and the straightened ends to read (``crops``, ``None`` where
    a still card's reading is reused) with the outline each comes from (``quads``); ``end_row``
    is each detected end's row among the crops, or -1 when it is not read on its own."""

    cards: Boxes
    ends: Boxes
    card_polys: list[np.ndarray]
    end_polys: list[np.ndarray]
    owner: list[int]
    crops: list[np.ndarray | None]
    quads: list[np.ndarray]
    end_row: list[int]
    reused: list
    looks: list  # each whole card's look (:func:`card_signature`) when still readings are kept


class Candidate(NamedTuple):
    """One possible card in a picture, before the floors and duplicates are applied: its outline,
    its reading (29 card kinds, then "not a card"), the detector's confidence in the outline, and
    whether the outline is a whole ``card`` or a lone ``end``."""

    polygon: np.ndarray
    probs: np.ndarray
    det_conf: float
    kind: str

    def with_probs(self, probs: np.ndarray) -> "Candidate":
        return self._replace(probs=probs)


def drop_duplicates(cand: list, overlap: float = 0.6) -> list:
    """:class:`Candidate` readings without the second sighting of one card: the same
    card kind, overlapping by more than ``overlap`` of the smaller outline (a card found twice, or a
    card and its own end); the more confident one stays.

    >>> sq = lambda x: np.float32([[x, 0], [x + 10, 0], [x + 10, 10], [x, 10]])
    >>> p = np.eye(30)[3]
    >>> found = [Candidate(sq(0), p, 0.5, "card"), Candidate(sq(2), p, 0.9, "end"), Candidate(sq(30), p, 0.4, "card")]
    >>> [c.det_conf for c in drop_duplicates(found)]
    [0.9, 0.4]
    """

    def score(c):
        return c[2] * float(np.max(c[1][:NUM_CARDS]))  # det_conf times the reading's belief

    kept: list = []
    for c in sorted(cand, key=score, reverse=True):
        polygon, probs = c[0], c[1]
        code = int(np.argmax(probs[:NUM_CARDS]))
        a = np.float32(polygon)
        dup = False
        for k in kept:
            if int(np.argmax(k[1][:NUM_CARDS])) != code:
                continue
            b = np.float32(k[0])
            inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
            if inter > overlap * min(cv2.contourArea(a), cv2.contourArea(b)):
                dup = True
                break
        if not dup:
            kept.append(c)
    return kept


def zoomed_out(image: np.ndarray, factor: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The picture centred on a canvas ``factor`` times its size, filled with its border colour,
    then scaled back to the picture's size: ``(canvas, offset, scale)``, where a canvas point is
    ``picture point * scale + offset``.

    >>> img = np.zeros((100, 200, 3), np.uint8)
    >>> canvas, offset, scale = zoomed_out(img, 4.0)
    >>> canvas.shape, offset.tolist(), scale
    ((100, 200, 3), [75.0, 37.0], 0.25)
    """

    h, w = image.shape[:2]
    scale = 1.0 / factor
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    canvas = np.empty_like(image)
    canvas[:] = np.median(border, axis=0).astype(np.uint8)
    y, x = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    canvas[y:y + small.shape[0], x:x + small.shape[1]] = small
    return canvas, np.float32([x, y]), small.shape[1] / w


def median_card_width(det: Detections, shape: tuple[int, ...]) -> float:
    """The median short side of the reported outlines, as a share of the picture's long side
    (0 for none).

    >>> card = np.float32([[0, 0], [20, 0], [20, 120], [0, 120]])
    >>> median_card_width(Detections(np.stack([card]), np.ones(1), np.zeros(1)), (400, 1000, 3))
    0.02
    """
    if not len(det):
        return 0.0
    return float(np.median(side_lengths(det.polygons).min(axis=1))) / max(shape[:2])


def _card_box(outline: np.ndarray) -> Boxes | None:
    """``outline`` as a one-card :class:`Boxes`, when it has a card's shape."""
    sides = side_lengths(outline)
    if sides.min() < 8 or not CARD_PICTURE_ASPECT[0] <= sides.max() / sides.min() <= CARD_PICTURE_ASPECT[1]:
        return None
    return Boxes(np.float32(outline)[None], np.ones(1, np.float32), np.zeros(1, np.int64))


def picture_as_card(image: np.ndarray) -> Boxes | None:
    """The whole picture as one card's outline (a scan cut to the card), when it has a card's
    shape (:data:`CARD_PICTURE_ASPECT`); otherwise None.

    >>> picture_as_card(np.zeros((600, 120, 3), np.uint8)).polygons[0].tolist()
    [[0.0, 0.0], [119.0, 0.0], [119.0, 599.0], [0.0, 599.0]]
    >>> picture_as_card(np.zeros((720, 1280, 3), np.uint8)) is None
    True
    """
    h, w = image.shape[:2]
    return _card_box(np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))


def card_on_plain_ground(image: np.ndarray, tolerance: int = 40) -> Boxes | None:
    """The outline of one card lying alone on a plain ground (a scanner bed, a sheet of paper):
    the smallest rotated rectangle around the region that differs from the picture's border
    colour, when the border is plain, that region is at least 80% of all such regions, it fills
    a good part of the picture, and it has a card's shape; otherwise None.

    >>> bed = np.full((300, 200, 3), 245, np.uint8); bed[40:260, 80:124] = (40, 40, 200)
    >>> box = card_on_plain_ground(bed)
    >>> np.round(np.sort(box.polygons[0], axis=0)[[0, -1]]).tolist()  # its corners span the card
    [[80.0, 40.0], [123.0, 259.0]]
    """

    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).astype(np.int16)
    ground = np.median(border, axis=0)
    if np.mean(np.abs(border - ground).max(axis=1) > tolerance) > 0.05:
        return None  # not a plain ground
    scale = min(1.0, 400 / max(image.shape[:2]))  # the outline needs no more detail than this
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    differs = cv2.absdiff(image, np.full_like(image, ground.astype(np.uint8))).max(axis=2) > tolerance
    mask = cv2.morphologyEx(differs.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    areas = [cv2.contourArea(c) for c in contours]
    largest = contours[int(np.argmax(areas))]
    if max(areas) < 0.8 * sum(areas):
        return None  # more than one thing lies there
    rect = cv2.minAreaRect(largest)
    if rect[1][0] * rect[1][1] < 0.05 * image.shape[0] * image.shape[1]:
        return None
    return _card_box(cv2.boxPoints(rect) / scale)


def _mean_square(confidence: np.ndarray) -> float:
    return float((confidence ** 2).mean()) if len(confidence) else 0.0


@dataclass(frozen=True)
class ReadingProfile:
    """How pictures are read: still pictures (:data:`STILL_PROFILE`) or a video's frames
    (:data:`VIDEO_PROFILE`). A profile holds no state; a video's state is a :class:`VideoMemory`.

    >>> VIDEO_PROFILE.zoom_out, VIDEO_PROFILE.palette, STILL_PROFILE.palette
    ((), 'session', 'image')
    """

    zoom_out: tuple[float, ...] = (2.5, 5.0)
    """Zoom-out factors of the second look at a picture that showed little (a close-up, a scan)."""
    zoom_out_below: int = 2
    """A first look with fewer cards than this is looked at again zoomed out."""
    read_inner_ends: bool = True
    """Read the ends detected inside a card whose two ends leave it unsure (:data:`INNER_ENDS_BELOW`)."""
    inner_ends_below: float = INNER_ENDS_BELOW
    """How sure a card's two ends must agree for its inner ends to be left unread."""
    paired_kinds: tuple[str, ...] = PAIRED_KINDS
    """The kinds whose two lone ends are paired into one card without a known card length."""
    palette: str = "image"
    """Where the deck's suit colours are learned (:data:`PALETTE_MODES`)."""
    turns_below: float = TURNS_BELOW
    """Doubtful ends are read again at the other quarter turns (0: never)."""
    covered_sure: float = COVERED_SURE
    """How sure two disagreeing ends must be for :func:`covered_ends` to look for a card over one."""
    one_colour_per_suit: bool = True
    """Still pictures: the picture's colour groups shared out among the suits (one picture, one deck)."""
    split_by_deck_colours: bool = True
    """An enrolled deck's reader: its papers told apart in each picture."""

    def __post_init__(self):
        if self.palette not in PALETTE_MODES:
            raise ValueError(f"palette must be one of {', '.join(PALETTE_MODES)}, not {self.palette!r}")


STILL_PROFILE = ReadingProfile()
VIDEO_PROFILE = ReadingProfile(zoom_out=(), read_inner_ends=False, palette="session", turns_below=0.0)
"""How a video is read (:meth:`Recognizer.for_video`): a camera over a table sees cards at table
distance, so there is no second, zoomed-out look at sparse frames; no extra readings of the ends
inside a card; doubtful ends are not read again turned (every frame counts, and a video votes
over frames: on seven game videos turning lost one card); the deck's suit colours are learned
over the whole video; and still cards keep their readings (a :class:`VideoMemory`)."""


@dataclass
class VideoMemory:
    """What one video's frames leave for the next: still cards' readings (:class:`StillReadings`)
    and the deck's suit colours learned so far (:class:`SuitPalette`). One per camera or
    connection, held by its :class:`~sisepai.vision.live.session.VideoSession`.

    >>> memory = VideoMemory()
    >>> memory.still is not None, len(memory.palette.centres())
    (True, 0)
    """

    still: StillReadings | None = field(default_factory=StillReadings)
    palette: SuitPalette | None = field(default_factory=SuitPalette)


class Recognizer:
    """Detector + reader, and how to read (a :class:`ReadingProfile`). Load once
    (``Recognizer.load()``) and call many times; it keeps no state between pictures, so one
    recogniser serves any number of videos, each with its own :class:`VideoMemory`."""

    def __init__(self, detector: Detector, reader: Reader, min_card_prob: float = 0.35,
                 min_confidence: float = MIN_CONFIDENCE, crop: int = 48,
                 min_end_confidence: float = MIN_END_CONFIDENCE, profile: ReadingProfile = STILL_PROFILE):
        self.detector = detector
        self.reader = reader
        self.profile = profile
        self.min_card_prob = min_card_prob
        self.min_confidence = min_confidence
        self.min_end_confidence = min_end_confidence
        self.crop = crop
        self.pair_every_kind = PAIR_EVERY_KIND

    @classmethod
    def load(cls, detector_weights: str | Path | None = None, reader_weights: str | Path | None = None,
             **kwargs) -> "Recognizer":
        return cls(Detector.load(detector_weights or DET), Reader.load(reader_weights or READ), **kwargs)

    def with_changes(self, **changes) -> "Recognizer":
        """A recogniser that shares this one's networks and settings but for ``changes``: any of
        ``detector``, ``reader``, ``min_card_prob``, ``min_confidence``, ``crop``,
        ``min_end_confidence`` and ``profile``.

        For example ``rec.with_changes(min_confidence=0.0, min_end_confidence=0.0)`` reads with no
        floors, and ``rec.with_changes(reader=Reader.load(path))`` with another reader.
        """
        parts = {"detector": self.detector, "reader": self.reader, "min_card_prob": self.min_card_prob,
                 "min_confidence": self.min_confidence, "crop": self.crop,
                 "min_end_confidence": self.min_end_confidence, "profile": self.profile}
        unknown = sorted(set(changes) - set(parts))
        if unknown:
            raise TypeError(f"a Recognizer has no part {unknown[0]!r}; its parts are: {', '.join(parts)}")
        return Recognizer(**(parts | changes))

    def with_profile(self, profile: ReadingProfile) -> "Recognizer":
        """This recogniser's networks and floors, reading as ``profile`` says."""
        return self.with_changes(profile=profile)

    def for_video(self) -> "Recognizer":
        """This recogniser reading a video (:data:`VIDEO_PROFILE`); pass each video's own
        :class:`VideoMemory` to :meth:`recognize`."""
        return self.with_profile(replace(VIDEO_PROFILE, split_by_deck_colours=self.profile.split_by_deck_colours,
                                         covered_sure=self.profile.covered_sure))

    def recognize(self, image: np.ndarray, zoom_out: bool = True, memory: VideoMemory | None = None) -> Recognition:
        return self.recognize_batch([image], zoom_out, memory)[0]

    def recognize_batch(self, images: Sequence[np.ndarray], zoom_out: bool = True,
                        memory: VideoMemory | None = None) -> list[Recognition]:
        """Recognise BGR images (any size); one :class:`Recognition` each.

        The detector learned cards at table distance (a card about a fifth of the frame long). When
        a first look finds fewer than ``zoom_out_below`` cards, or none with confidence
        :data:`ZOOM_OUT_MIN_CONFIDENCE`, the picture may be a close-up or a scan of one or two
        cards: it is looked at again zoomed out (placed small on a canvas of its own border
        colour), and the reading with the most confidence in total wins. Cards far wider than at
        table distance (:data:`LARGE_CARD_WIDTH`, a scanned sheet of cards) are looked at again
        zoomed out too, and a picture that is one card (:func:`picture_as_card`,
        :func:`card_on_plain_ground`) is also read as that card. Crops are always cut
        from the full-resolution picture. Live video passes ``zoom_out=False``: a
        camera over a table sees cards at table distance, and every frame counts (so doubtful
        ends are not read again turned either: a video votes over frames anyway). ``memory``: what
        one video's earlier frames left (its still cards' readings and deck palette), to use and
        add to; without it, each picture is read on its own.
        """
        images = [check_image(im, f"image {i}") for i, im in enumerate(images)]
        turns = self.profile.turns_below if zoom_out else 0.0
        t0 = time.perf_counter()
        boxes = self.detector.detect(images)
        out = []
        for img, b in zip(images, boxes):
            t1 = time.perf_counter()
            det, unsure = self._read(img, b, memory, turns)
            if zoom_out and self.profile.zoom_out:
                det, unsure, b = self._look_again(img, det, unsure, b, memory, turns)
            detect_ms = (t1 - t0) * 1000 / len(images)
            ms = detect_ms + (time.perf_counter() - t1) * 1000
            out.append(Recognition(det, b.select(2).polygons, img.shape[1], img.shape[0], ms, unsure, detect_ms))
        return out

    def _zoomed_looks(self, img: np.ndarray, factors: Sequence[float], memory: VideoMemory | None,
                      turns: float):
        """``(detections, unsure, boxes)`` of the picture looked at zoomed out by each factor, the
        boxes back in the picture's pixels (the crops are cut from the full picture)."""
        canvases = [zoomed_out(img, k) for k in factors]
        for (_, offset, scale), zb in zip(canvases, self.detector.detect([c[0] for c in canvases])):
            zb.polygons = (zb.polygons - offset) / scale
            yield (*self._read(img, zb, memory, turns), zb)

    def _look_again(self, img: np.ndarray, det: Detections, unsure: list[int], boxes: Boxes,
                    memory: VideoMemory | None, turns: float) -> tuple[Detections, list[int], Boxes]:
        """The first look ``(det, unsure, boxes)``, or a second look that reads the picture better:
        zoomed out when the first look found little or cards far larger than at table distance,
        and the picture read as one card when it is one."""
        weak = len(det) < self.profile.zoom_out_below or float(det.confidence.max(initial=0.0)) < ZOOM_OUT_MIN_CONFIDENCE
        width = median_card_width(det, img.shape)
        if not weak and width > LARGE_CARD_WIDTH:
            # large cards: one look from where they have a learned size, kept when its cards are
            # surer on average (a broken-up card's pieces are each read less surely)
            factor = min(max(width / ZOOM_TARGET_WIDTH, 1.5), 5.0)
            for zdet, zunsure, zb in self._zoomed_looks(img, (factor,), memory, turns):
                if len(zdet) and _mean_square(zdet.confidence) > _mean_square(det.confidence) + 0.05:
                    det, unsure, boxes = zdet, zunsure, zb
        elif weak:
            for zdet, zunsure, zb in self._zoomed_looks(img, self.profile.zoom_out, memory, turns):
                # a few confident cards beat many doubtful ones
                if float((zdet.confidence ** 2).sum()) > float((det.confidence ** 2).sum()):
                    det, unsure, boxes = zdet, zunsure, zb
        # a picture of one card: cut to it (when what was found reads as at most two kinds, as
        # the pieces of one card do), or alone on a plain ground
        cut = picture_as_card(img) if len(set(det.codes)) <= 2 else None
        for whole in filter(None, (cut, card_on_plain_ground(img))):
            cdet, cunsure = self._read(img, whole, memory, turns)
            if (len(cdet) == 1 and cdet.confidence[0] >= CARD_PICTURE_MIN_CONFIDENCE
                    and cdet.confidence[0] > det.confidence.max(initial=0.0)):
                det, unsure, boxes = cdet, cunsure, whole
        return det, unsure, boxes

    def _cut_views(self, rgb: np.ndarray, boxes: Boxes, still: StillReadings | None) -> "Views":
        """Every end to read, straightened: both ends of each whole card (a blank where a still
        card's last reading is reused), then each detected end outside every whole card."""
        cards, ends = boxes.select(0), boxes.select(1)
        card_polys = [order_upright(p) for p in cards.polygons]
        end_polys = [order_upright(p) for p in ends.polygons]
        # each detected end belongs to the first card whose outline holds its centre, or to none
        owner = first_holder(np.float32([ep.mean(0) for ep in end_polys]), card_polys).tolist()
        looks = [card_signature(rgb, p) for p in card_polys] if still is not None else [None] * len(card_polys)
        v = Views(cards, ends, card_polys, end_polys, owner, [], [], [-1] * len(end_polys),
                  still.lookup(card_polys, looks) if still is not None else [None] * len(card_polys),
                  looks)
        for poly, old in zip(card_polys, v.reused):
            for end in card_ends(poly):
                v.crops.append(straighten(rgb, end, self.crop) if old is None else None)
                v.quads.append(end)
        for j, (ep, o) in enumerate(zip(end_polys, owner)):
            if o < 0:  # an end outside every whole card (a card in a fan) is read on its own
                v.end_row[j] = len(v.crops)
                v.crops.append(straighten(rgb, ep, self.crop))
                v.quads.append(ep)
        return v

    def _read(self, image_bgr: np.ndarray, boxes: Boxes, memory: VideoMemory | None = None,
              turns: float = 0.0) -> tuple[Detections, list[int]]:
        rgb = image_bgr[..., ::-1]
        still = memory.still if memory is not None else None
        v = self._cut_views(rgb, boxes, still)
        cards, ends, card_polys, end_polys, owner = v.cards, v.ends, v.card_polys, v.end_polys, v.owner
        crops, quads, end_row, reused = v.crops, v.quads, v.end_row, v.reused
        fresh = [k for k, c in enumerate(crops) if c is not None]
        probs = np.zeros((len(crops), len(self.reader.classes)), np.float32)
        if fresh:
            probs[fresh] = self.reader.read([crops[k] for k in fresh])
        if turns > 0:
            self._turn_doubtful(probs, crops, 2 * len(card_polys), turns)
        ages = []
        reused_colours = {}
        for k, old in enumerate(reused):
            if old is not None:
                probs[2 * k:2 * k + 2] = old.probs
                if old.colours is not None:
                    reused_colours[k] = old.colours
            ages.append(0 if old is None else old.age + 1)
        # detected ends inside a card add a reading where its two ends leave it unsure (more
        # accuracy, more time: off for live video)
        if self.profile.read_inner_ends:
            unsure_cards = {k for k in range(len(card_polys))
                            if not self._sure_from_ends(probs[2 * k:2 * k + 2], self.profile.inner_ends_below)}
            inner = [j for j, o in enumerate(owner) if o in unsure_cards]
            if inner:
                first = len(crops)
                for j in inner:
                    end_row[j] = len(crops)
                    crops.append(straighten(rgb, end_polys[j], self.crop))
                    quads.append(end_polys[j])
                probs = np.concatenate([probs, self.reader.read(crops[first:], turns)])
        view_colour: list[np.ndarray | None] = [None] * len(crops)  # each reading's paper colour, when needed
        for k, colours_of_card in reused_colours.items():
            view_colour[2 * k:2 * k + 2] = colours_of_card

        def colour_at(v: int) -> np.ndarray:
            if view_colour[v] is None:
                if crops[v] is not None:  # the middle of the crop read: the end without the margin
                    view_colour[v] = crop_paper_colour(crops[v], self.crop)
                else:
                    view_colour[v] = paper_colour(straighten(rgb, quads[v], 12, margin=-0.15))
            return view_colour[v]

        cand: list[Candidate] = []
        colours: list[np.ndarray | None] = []  # each candidate's paper colour, when the palette is on
        colour_of = (lambda views: np.median([colour_at(v) for v in views], axis=0)) \
            if self.profile.palette != "off" else None
        covered = covered_ends(card_polys, quads, probs, self.profile.covered_sure)
        for k, poly in enumerate(card_polys):
            # evidence: the two geometric ends of the card, and the detected ends inside it
            views = [2 * k, 2 * k + 1] + [end_row[j] for j, o in enumerate(owner) if o == k and end_row[j] >= 0]
            usable = [v for v in views if probs[v][-1] < 0.5 and v not in covered] \
                or [min(views, key=lambda v: probs[v][-1])]
            cand.append(Candidate(poly, card_reading([probs[v] for v in usable]), float(cards.confidence[k]), "card"))
            colours.append(colour_of(usable) if colour_of else None)
        # ends outside every whole card, that the reader takes for card ends
        lone = [j for j in range(len(end_polys)) if owner[j] < 0 and np.argmax(probs[end_row[j]]) != NUM_CARDS]
        lone_kinds = [int(np.argmax(probs[end_row[j]][:NUM_CARDS])) for j in lone]
        length = picture_card_length(card_polys) if self.pair_every_kind else None
        plain = [k for k, kind in enumerate(lone_kinds) if CARD_CODES[kind] in self.profile.paired_kinds or length is not None]
        paired = set()
        for a, b, card in pair_lone_ends(rgb, [end_polys[lone[k]] for k in plain], [lone_kinds[k] for k in plain],
                                         length):
            ja, jb = lone[plain[a]], lone[plain[b]]  # two ends of one card whose outline the detector missed
            paired.update((ja, jb))
            cand.append(Candidate(card, card_reading([probs[end_row[ja]], probs[end_row[jb]]]),
                                  float(ends.confidence[[ja, jb]].mean()), "card"))
            colours.append(colour_of([end_row[ja], end_row[jb]]) if colour_of else None)
        for j in lone:
            if j not in paired:
                cand.append(Candidate(end_polys[j], probs[end_row[j]], float(ends.confidence[j]), "end"))
                colours.append(colour_of([end_row[j]]) if colour_of else None)
        cand = self._rerank_by_palette(cand, colours, memory.palette if memory is not None else None)  # None: this picture's own
        if still is not None:
            still.remember(card_polys, [probs[2 * k:2 * k + 2].copy() for k in range(len(card_polys))], ages,
                                [view_colour[2 * k:2 * k + 2] if all(c is not None for c in view_colour[2 * k:2 * k + 2]) else None
                                 for k in range(len(card_polys))],
                                [v.looks[k] if old is None else old.look for k, old in enumerate(reused)])
        return self._detections(cand)

    def _detections(self, cand: list[Candidate]) -> tuple[Detections, list[int]]:
        """The candidates that pass: sure enough to compete, not a second sighting of a surer one,
        and over the confidence floor (a lone end's floor is its own); with the indices of the
        doubtful ones (confidence under 0.5), which a zoomed-out look may read again."""
        # too doubtful readings go first, so that they cannot hide a same-code reading as its duplicate
        sure = [c for c in cand if float(np.max(c.probs[:NUM_CARDS])) >= self.min_card_prob]
        kept: list[tuple[Candidate, int, float]] = []
        for c in drop_duplicates(sure):
            cid = int(np.argmax(c.probs[:NUM_CARDS]))
            confidence = c.det_conf * float(c.probs[cid])
            if confidence >= (self.min_end_confidence if c.kind == "end" else self.min_confidence):
                kept.append((c, cid, confidence))
        if not kept:
            return Detections.empty(), []
        colour, rank = zip(*(colour_rank_confidence(c.probs, cid) for c, cid, _ in kept))
        det = Detections(np.stack([c.polygon for c, _, _ in kept]), np.array([conf for _, _, conf in kept]),
                         np.array([cid for _, cid, _ in kept]), np.array(colour), np.array(rank),
                         np.array([c.kind for c, _, _ in kept], dtype=object),
                         np.stack([c.probs[:NUM_CARDS] for c, _, _ in kept]),
                         np.array([c.det_conf for c, _, _ in kept]))
        unsure = [i for i in range(len(det)) if det.confidence[i] < 0.5]
        return det, unsure

    def _turn_doubtful(self, probs: np.ndarray, crops: list, card_rows: int, below: float) -> None:
        """Read again, at the other quarter turns, each doubtful end (top class under ``below``)
        of a card its two ends leave doubtful, and each doubtful lone end; in place."""
        rows = [k for k in range(0, card_rows, 2) if crops[k] is not None
                and _joint_belief(probs[k:k + 2]).max() < below]
        rows = [k for c in rows for k in (c, c + 1)] + list(range(card_rows, len(crops)))
        rows = [k for k in rows if crops[k] is not None and probs[k].max() < below]
        if rows:
            probs[rows] = (probs[rows] + 3 * self.reader.read_turned([crops[k] for k in rows])) / 4

    @staticmethod
    def _sure_from_ends(end_probs: np.ndarray, sure: float = INNER_ENDS_BELOW) -> bool:
        """Whether a card's two end readings already agree on one kind with at least ``sure``."""
        usable = [p for p in end_probs if p[-1] < 0.5]
        return bool(usable) and float(_joint_belief(usable).max()) >= sure

    def _rerank_by_palette(self, cand: list[Candidate], colours: list,
                           palette: SuitPalette | None = None) -> list[Candidate]:
        """Weight each reading's suit by the deck's own colours (see :mod:`.palette`): learned from
        this picture's sure readings, or from the video's so far."""
        if self.profile.palette == "off":
            return cand
        deck = getattr(self.reader, "deck_colours", None)
        if deck and self.profile.split_by_deck_colours:
            # an enrolled deck: its suits' papers, told apart within the picture (or frame)
            shared = split_by_deck_colours([c.probs for c in cand], colours, deck)
            cand = [c.with_probs(p) for c, p in zip(cand, shared)]
        elif palette is None and self.profile.palette == "image" and self.profile.one_colour_per_suit:
            # one picture, one deck: its suits' papers can be shared out (not over a video's changing light)
            shared = one_colour_per_suit([c.probs for c in cand], colours)
            cand = [c.with_probs(p) for c, p in zip(cand, shared)]
        if palette is None:  # one picture: its sure readings teach a palette of its own
            palette = SuitPalette()
            palette.learn(colours, [c.probs for c in cand])
            reranked = palette.rerank_all([c.probs for c in cand], colours)
        else:  # a video's: learned over its frames, a suit read on two papers split (palette.SuitPalette.observe)
            reranked = palette.observe(colours, [c.probs for c in cand])
        return [c.with_probs(p) for c, p in zip(cand, reranked)]


def recognize(image: np.ndarray) -> Detections:
    """Recognise one BGR image with the shipped model (loaded once per process)."""
    return _default().recognize(image).detections


_DEFAULT: Recognizer | None = None


def _default() -> Recognizer:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Recognizer.load()
    return _DEFAULT


__all__ = ["Detections", "ImageError", "ImageTooLargeError", "Recognition", "Recognizer", "check_image", "decode_image", "load_image",
           "recognize", "CARD_CODES"]
