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
from sisepai.vision.recognition.detections import CardSeen, Detections
from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DET
from sisepai.vision.recognition.detector import Boxes, Detector
from sisepai.vision.recognition.end_pairs import pair_lone_ends, picture_card_length
from sisepai.vision.recognition.end_rows import EndRows
from sisepai.vision.recognition.geometry import card_ends, first_holder, order_upright, straighten
from sisepai.vision.recognition.images import ImageError, ImageTooLargeError, check_image, decode_image, load_image  # noqa: F401 - public here too
from sisepai.vision.recognition.palette import (
    STILL_SPLIT_RADIUS,
    SuitPalette,
    crop_paper_colour,
    one_colour_per_suit,
    paper_colour,
    rerank_by_deck_colours,
    uncovered_paper_colour,
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


@dataclass(frozen=True)
class RecognitionSummary:
    """What a picture's answer says (``sisepai recognize --json``, ``/api/recognize``'s
    :class:`~sisepai.service.schemas.RecognizeAnswer`), built once from a :class:`Recognition`."""

    width: int
    height: int
    cards: list[CardSeen]
    backs: int
    ms: float


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

    def summary(self) -> RecognitionSummary:
        """What the answer for this picture says: its size, its cards, how many backs, the time."""
        return RecognitionSummary(self.width, self.height, self.detections.cards(), len(self.backs), round(self.ms, 1))

    def to_json(self, image: str | None = None) -> dict:
        """``sisepai recognize --json``'s answer: ``/api/recognize``'s, with the picture's name."""
        return {**({} if image is None else {"image": image}), **asdict(self.summary())}


@dataclass
class Views:
    """What a picture gives the reader: the detected whole cards and ends (their boxes and
    confidences), the rows to read (:class:`.end_rows.EndRows`), each card's kept reading where a
    still card's is reused (else ``None``), and each card's look (:func:`card_signature`) when
    still readings are kept."""

    cards: Boxes
    ends: Boxes
    rows: EndRows
    reused: list
    looks: list


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
        return self.with_profile(replace(VIDEO_PROFILE, deck_colour_sigma=self.profile.deck_colour_sigma,
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
        boxes = self.detector.detect(images, iou=self.profile.nms_iou)
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
        for (_, offset, scale), zb in zip(canvases, self.detector.detect([c[0] for c in canvases], iou=self.profile.nms_iou)):
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

    def _cut_views(self, rgb: np.ndarray, boxes: Boxes, still: StillReadings | None) -> Views:
        """Every end to read, straightened: both ends of each whole card (a blank where a still
        card's last reading is reused), then each detected end outside every whole card."""
        cards, ends = boxes.select(0), boxes.select(1)
        card_polys = [order_upright(p) for p in cards.polygons]
        end_polys = [order_upright(p) for p in ends.polygons]
        # each detected end belongs to the first card whose outline holds its centre, or to none
        owner = first_holder(np.float32([ep.mean(0) for ep in end_polys]), card_polys).tolist()
        looks = [card_signature(rgb, p) for p in card_polys] if still is not None else [None] * len(card_polys)
        reused = still.lookup(card_polys, looks) if still is not None else [None] * len(card_polys)
        rows = EndRows(card_polys, end_polys, owner)
        for k, (poly, old) in enumerate(zip(card_polys, reused)):
            quads = card_ends(poly)
            rows.add_card(k, [straighten(rgb, q, self.crop) if old is None else None for q in quads], quads)
        for j in rows.lone_ends():  # an end outside every whole card (a card in a fan) is read on its own
            rows.add_end(j, straighten(rgb, end_polys[j], self.crop))
        return Views(cards, ends, rows, reused, looks)

    def _read(self, image_bgr: np.ndarray, boxes: Boxes, memory: VideoMemory | None = None,
              turns: float = 0.0) -> tuple[Detections, list[int]]:
        """The cards of one look at a picture, from the detector's ``boxes``: their ends read,
        each card's candidate and each lone end's, weighted by the deck's colours, through the
        floors; a video's still cards remembered."""
        rgb = image_bgr[..., ::-1]
        still = memory.still if memory is not None else None
        v = self._cut_views(rgb, boxes, still)
        rows = v.rows
        self._read_rows(rgb, rows, v.reused, turns)
        cand, colours = self._candidates(rgb, v)
        cand = self._rerank_by_palette(cand, colours, memory.palette if memory is not None else None)  # None: this picture's own
        if still is not None:
            still.remember(rows.card_polys, [rows.card_probs(k).copy() for k in range(rows.card_count)],
                           [0 if old is None else old.age + 1 for old in v.reused],
                           [rows.card_colours(k) if any(c is not None for c in rows.card_colours(k)) else None
                            for k in range(rows.card_count)],
                           [v.looks[k] if old is None else old.look for k, old in enumerate(v.reused)])
        return self._detections(cand)

    def _read_rows(self, rgb: np.ndarray, rows: EndRows, reused: list, turns: float) -> None:
        """Fill ``rows.probs``: each fresh crop read (doubtful ones again turned, when ``turns``),
        each still card's kept reading, and the detected ends inside a card its two ends leave
        unsure, read as rows of their own (more accuracy, more time: off for live video). A still
        card's paper colours, as measured when it was read, go to ``rows.colours``."""
        fresh = rows.fresh_rows()
        rows.probs = np.zeros((len(rows.crops), len(self.reader.classes)), np.float32)
        if fresh:
            rows.probs[fresh] = self.reader.read([rows.crops[r] for r in fresh])
        if turns > 0:
            self._turn_doubtful(rows, turns)
        for k, old in enumerate(reused):
            if old is not None:
                rows.card_probs(k)[:] = old.probs
        if self.profile.read_inner_ends:
            unsure = {k for k in range(rows.card_count)
                      if not sure_from_ends(rows.card_probs(k), self.profile.inner_ends_below)}
            inner = rows.ends_in(unsure)
            if inner:
                first = len(rows.crops)
                for j in inner:
                    rows.add_end(j, straighten(rgb, rows.end_polys[j], self.crop))
                rows.probs = np.concatenate([rows.probs, self.reader.read(rows.crops[first:], turns)])
        rows.colours = [None] * len(rows.crops)
        for k, old in enumerate(reused):  # as measured when read: the same reading, the same colour
            if old is not None and old.colours is not None:
                rows.set_card_colours(k, old.colours)

    def _row_colour(self, rgb: np.ndarray, rows: EndRows, row: int) -> np.ndarray:
        """The paper colour of one row's end, measured once: the middle of the crop read (the end
        without its margin), or of the end cut again where a still card's crop was not."""
        if rows.colours[row] is None:
            crop = rows.crops[row]
            uncovered = None
            if self.profile.uncovered_paper and row in rows.rows_after_cards() and rows.card_polys:
                # an end read on its own: a whole card may lie over part of it (a card in a fan)
                uncovered = uncovered_paper_colour(rgb, rows.quads[row], rows.card_polys)
            rows.colours[row] = uncovered if uncovered is not None else crop_paper_colour(crop, self.crop) \
                if crop is not None else paper_colour(straighten(rgb, rows.quads[row], 12, margin=-0.15))
        return rows.colours[row]

    def _candidates(self, rgb: np.ndarray, v: Views) -> tuple[list[Candidate], list[np.ndarray | None]]:
        """Each whole card's candidate, each pair of lone ends that is one card, and each other
        lone end the reader takes for a card end; with each one's paper colour when the palette
        is on."""
        rows = v.rows
        cand: list[Candidate] = []
        colours: list[np.ndarray | None] = []

        def add(candidate: Candidate, views: list[int]) -> None:
            cand.append(candidate)
            colours.append(np.median([self._row_colour(rgb, rows, r) for r in views], axis=0)
                           if self.profile.palette != "off" else None)

        covered = covered_ends(rows.card_polys, rows.quads, rows.probs, self.profile.covered_sure)
        for k, poly in enumerate(rows.card_polys):
            # evidence: the two geometric ends of the card, and the detected ends inside it
            views = rows.views_of(k)
            usable = [r for r in views if rows.probs[r][-1] < 0.5 and r not in covered] \
                or [min(views, key=lambda r: rows.probs[r][-1])]
            add(Candidate(poly, card_reading([rows.probs[r] for r in usable]), float(v.cards.confidence[k]), "card"), usable)
        # ends outside every whole card, that the reader takes for card ends
        lone = [j for j in rows.lone_ends() if np.argmax(rows.end_probs(j)) != NUM_CARDS]
        lone_kinds = [int(np.argmax(rows.end_probs(j)[:NUM_CARDS])) for j in lone]
        length = picture_card_length(rows.card_polys)
        plain = [k for k, kind in enumerate(lone_kinds) if CARD_CODES[kind] in self.profile.paired_kinds or length is not None]
        paired = set()
        for a, b, card in pair_lone_ends(rgb, [rows.end_polys[lone[k]] for k in plain], [lone_kinds[k] for k in plain],
                                         length):
            ja, jb = lone[plain[a]], lone[plain[b]]  # two ends of one card whose outline the detector missed
            paired.update((ja, jb))
            add(Candidate(card, card_reading([rows.end_probs(ja), rows.end_probs(jb)]),
                          float(v.ends.confidence[[ja, jb]].mean()), "card"), [rows.end_row[ja], rows.end_row[jb]])
        for j in lone:
            if j not in paired:
                add(Candidate(rows.end_polys[j], rows.end_probs(j), float(v.ends.confidence[j]), "end"), [rows.end_row[j]])
        return cand, colours

    def _detections(self, cand: list[Candidate]) -> tuple[Detections, list[int]]:
        """The candidates that pass this recogniser's floors (:func:`.candidates.passing`)."""
        return passing(cand, self.min_card_prob, self.min_confidence, self.min_end_confidence)

    def _turn_doubtful(self, rows: EndRows, below: float) -> None:
        """Read again, at the other quarter turns, each doubtful end (top class under ``below``)
        of a card its two ends leave doubtful, and each doubtful lone end; in ``rows.probs``."""
        cards = [k for k in range(rows.card_count)
                 if rows.crops[rows.card_rows(k)[0]] is not None and joint_belief(rows.card_probs(k)).max() < below]
        candidates = [r for k in cards for r in rows.card_rows(k)] + list(rows.rows_after_cards())
        doubtful = [r for r in candidates if rows.crops[r] is not None and rows.probs[r].max() < below]
        if doubtful:
            rows.probs[doubtful] = (rows.probs[doubtful] + 3 * self.reader.read_turned([rows.crops[r] for r in doubtful])) / 4

    def _rerank_by_palette(self, cand: list[Candidate], colours: list,
                           palette: SuitPalette | None = None) -> list[Candidate]:
        """Weight each reading's suit by the deck's own colours (see :mod:`.palette`): learned from
        this picture's sure readings, or from the video's so far."""
        if self.profile.palette == "off":
            return cand
        deck = getattr(self.reader, "deck_colours", None)
        if deck and self.profile.deck_colour_sigma > 0:
            # an enrolled deck: its suits' papers, as this picture's (or frame's) light shows them
            shared = rerank_by_deck_colours([c.probs for c in cand], colours, deck, self.profile.deck_colour_sigma)
            cand = [c.with_probs(p) for c, p in zip(cand, shared)]
        elif palette is None and self.profile.palette == "image" and self.profile.one_colour_per_suit:
            # one picture, one deck: its suits' papers can be shared out (not over a video's changing light)
            shared = one_colour_per_suit([c.probs for c in cand], colours)
            cand = [c.with_probs(p) for c, p in zip(cand, shared)]
        if palette is None:  # one picture: its sure readings teach a palette of its own
            probs = [c.probs for c in cand]
            palette = SuitPalette(split_frames=1)
            if self.profile.split_in_picture and not deck:
                palette.find_split(colours, probs, STILL_SPLIT_RADIUS, self.profile.split_in_picture)
                probs = palette.unsplit(probs, colours)
            palette.learn(colours, probs)
            reranked = palette.rerank_all(probs, colours)
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
