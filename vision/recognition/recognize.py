"""``recognize(image) -> Detections``: every visible face-up card, its code, outline and confidence.

Two stages, both trained here on generated scenes:

1. the OBB detector finds whole cards, card *ends* (the character regions) and card backs;
2. the reader CNN reads each straightened end: both ends of a whole card (their beliefs are
   multiplied), or the lone visible end of a card in a fan. Two lone ends that are one card
   (:mod:`.end_pairs`) are one reading.

The steps live apart: how to read (:mod:`.profile`: still or video, and a video's memory), a card's
reading from its ends (:mod:`.beliefs`), pairing lone ends (:mod:`.end_pairs`), the candidates and
their floors (:mod:`.candidates`), a second look at a picture read poorly (:mod:`.second_look`).

Used as (the shipped weights load in a second or two; ``tests/vision/recognition`` runs this)::

    from sisepai.vision.recognition.recognize import Recognizer
    rec = Recognizer.load()
    result = rec.recognize(cv2.imread("table.jpg"))
    result.detections.codes
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Sequence

import numpy as np

from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.beliefs import card_reading, covered_ends, joint_belief, sure_from_ends
from sisepai.vision.recognition.candidates import MIN_CONFIDENCE, MIN_END_CONFIDENCE, Candidate, passing
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DET
from sisepai.vision.recognition.detector import Boxes, Detector
from sisepai.vision.recognition.end_pairs import pair_lone_ends, picture_card_length
from sisepai.vision.recognition.geometry import card_ends, first_holder, order_upright, straighten
from sisepai.vision.recognition.images import ImageError, ImageTooLargeError, check_image, decode_image, load_image  # noqa: F401 - public here too
from sisepai.vision.recognition.palette import (
    SuitPalette,
    crop_paper_colour,
    one_colour_per_suit,
    paper_colour,
    split_by_deck_colours,
)
from sisepai.vision.recognition.profile import STILL_PROFILE, VIDEO_PROFILE, ReadingProfile, VideoMemory
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READ
from sisepai.vision.recognition.reader import NUM_CARDS, Reader
from sisepai.vision.recognition.second_look import (
    CARD_PICTURE_MIN_CONFIDENCE,
    LARGE_CARD_WIDTH,
    ZOOM_OUT_MIN_CONFIDENCE,
    ZOOM_TARGET_WIDTH,
    card_on_plain_ground,
    mean_square,
    median_card_width,
    picture_as_card,
    zoomed_out,
)
from sisepai.vision.recognition.still_readings import StillReadings, card_signature


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
        """``sisepai recognize --json``'s answer: ``/api/recognize``'s, with the picture's name."""
        out = {} if image is None else {"image": image}
        out.update({"width": self.width, "height": self.height, "cards": [asdict(c) for c in self.detections.cards()],
                    "backs": len(self.backs), "ms": round(self.ms, 1)})
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
                if len(zdet) and mean_square(zdet.confidence) > mean_square(det.confidence) + 0.05:
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
                            if not sure_from_ends(probs[2 * k:2 * k + 2], self.profile.inner_ends_below)}
            inner = [j for j, o in enumerate(owner) if o in unsure_cards]
            if inner:
                first = len(crops)
                for j in inner:
                    end_row[j] = len(crops)
                    crops.append(straighten(rgb, end_polys[j], self.crop))
                    quads.append(end_polys[j])
                probs = np.concatenate([probs, self.reader.read(crops[first:], turns)])
        view_colour: list[np.ndarray | None] = [None] * len(crops)  # each reading's paper colour, when needed
        for k, colours_of_card in reused_colours.items():  # as measured when read: the same reading, the same colour
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
        length = picture_card_length(card_polys)
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
                                [view_colour[2 * k:2 * k + 2] if any(c is not None for c in view_colour[2 * k:2 * k + 2]) else None
                                 for k in range(len(card_polys))],
                                [v.looks[k] if old is None else old.look for k, old in enumerate(reused)])
        return self._detections(cand)

    def _detections(self, cand: list[Candidate]) -> tuple[Detections, list[int]]:
        """The candidates that pass this recogniser's floors (:func:`.candidates.passing`)."""
        return passing(cand, self.min_card_prob, self.min_confidence, self.min_end_confidence)

    def _turn_doubtful(self, probs: np.ndarray, crops: list, card_rows: int, below: float) -> None:
        """Read again, at the other quarter turns, each doubtful end (top class under ``below``)
        of a card its two ends leave doubtful, and each doubtful lone end; in place."""
        rows = [k for k in range(0, card_rows, 2) if crops[k] is not None
                and joint_belief(probs[k:k + 2]).max() < below]
        rows = [k for c in rows for k in (c, c + 1)] + list(range(card_rows, len(crops)))
        rows = [k for k in rows if crops[k] is not None and probs[k].max() < below]
        if rows:
            probs[rows] = (probs[rows] + 3 * self.reader.read_turned([crops[k] for k in rows])) / 4

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
