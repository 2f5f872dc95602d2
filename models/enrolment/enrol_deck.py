"""Enrol a deck: its faces, its adapted reader and detector, its whole-scene check
and ``deck.json``, built aside and moved into place whole. ``sisepai deck add`` and the page's
My deck (through that command) call :func:`enrol`.

>>> import inspect; list(inspect.signature(enrol).parameters)
['name', 'deck', 'opts', 'progress', 'force', 'detector_opts']
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from sisepai.engine.environment import scratch_for_torch
from sisepai.vision.decks.folder import building, write_deck_json

from .scene_check import scene_check

if TYPE_CHECKING:
    from sisepai.faces.deck import DeckFaces

    from .enrol import EnrolOptions, Progress
    from .enrol_detector import DetectorOptions


READER_SHARE = 0.4
"""The share of an enrolment's progress that adapting the reader takes when the detector is adapted too."""
ENROL_SECONDS = 600
"""What ``sisepai deck add`` takes at most with its default options on a 2-core machine: the
detector's fine-tune ends early where it would pass :data:`CHECK_SECONDS` before this."""
CHECK_SECONDS = 90
"""Kept for the whole-scene check after the detector's fine-tune."""
MIN_DETECTOR_SECONDS = 120
"""The detector is not adapted when less than this is left before its deadline (one epoch would not fit)."""


def reader_deadline(start: float, seconds: float = ENROL_SECONDS) -> float:
    """The ``time.perf_counter()`` value by which an enrolment begun at ``start`` ends the reader's
    fine-tune, leaving the detector's shortest fine-tune and the whole-scene check their time.

    >>> reader_deadline(100.0)
    490.0
    """
    return start + seconds - CHECK_SECONDS - MIN_DETECTOR_SECONDS


def detector_deadline(start: float, seconds: float = ENROL_SECONDS) -> float:
    """The ``time.perf_counter()`` value by which an enrolment begun at ``start`` ends the detector's
    fine-tune, so that the whole takes at most ``seconds``.

    >>> detector_deadline(100.0)
    610.0
    """
    return start + seconds - CHECK_SECONDS


def within(progress: Progress, start: float, end: float, after: Callable[[float], float] | None = None) -> Progress:
    """``progress`` told of a part of the work that runs from ``start`` to ``end`` of the whole. A
    time left that the part says of itself (from its own measured step rate) becomes the whole's:
    ``after(seconds left in the part)`` gives the seconds the later parts are expected to take; without
    it they are taken to go at the part's pace, as their shares of the bar are their shares of the time.

    >>> heard = []; part = within(lambda f, m: heard.append((f, m)), 0.0, 0.5)
    >>> part(0.5, "reader: 60/120 steps"); part(0.75, "reader: 90/120 steps, about 2 min left")
    >>> heard
    [(0.25, 'reader: 60/120 steps'), (0.375, 'reader: 90/120 steps, about 10 min left')]
    >>> heard = []; part = within(lambda f, m: heard.append((f, m)), 0.0, 0.5, after=lambda left: 180.0)
    >>> part(0.75, "reader: 90/120 steps, about 2 min left"); heard
    [(0.375, 'reader: 90/120 steps, about 5 min left')]
    """
    from .enrol import SAID_LEFT, words_left  # lazy: NumPy, OpenCV

    def told(fraction: float, message: str) -> None:
        whole = start + (end - start) * fraction
        said = SAID_LEFT.search(message)
        if said and fraction < 1:
            seconds = int(said[1]) * (60 if said[2] == "min" else 1)
            total = seconds + after(seconds) if after is not None else \
                seconds * (1 - whole) / ((end - start) * (1 - fraction))
            message = message[:said.start()] + words_left(total) + message[said.end():]
        progress(round(whole, 4), message)

    return told


def later_parts(detector_deadline: float | None, clock: Callable[[], float] = time.perf_counter) -> Callable[[float], float]:
    """The seconds an enrolment's parts after the reader's adaptation are expected to take, given
    the seconds the reader has left: the detector's fine-tune runs to its deadline (none when too
    little would be left for it), then the whole-scene check takes its :data:`CHECK_SECONDS`. So the
    time left stays steady as the parts change, instead of jumping where their paces differ.

    >>> after = later_parts(1000.0, clock=lambda: 500.0)
    >>> after(100.0), later_parts(None)(100.0), after(450.0)
    (490.0, 90.0, 90.0)
    """
    def after(reader_left: float) -> float:
        if detector_deadline is None:
            return float(CHECK_SECONDS)
        detector = detector_deadline - (clock() + reader_left)
        return (detector if detector >= MIN_DETECTOR_SECONDS else 0.0) + CHECK_SECONDS

    return after


def enrol(name: str, deck: DeckFaces, opts: EnrolOptions | None = None, progress: Progress | None = None,
          force: bool = False, detector_opts: DetectorOptions | None = None) -> dict:
    """Enrol ``deck`` (:class:`DeckFaces`) as ``name``: faces, adapted reader and ``deck.json``
    (and an adapted detector, with ``detector_opts``), built by :func:`~sisepai.vision.decks.folder.building`
    and moved into place whole; returns the enrolment's whole report (``deck.json`` keeps a part)."""
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS  # lazy: NumPy, OpenCV

    from .enrol import EnrolOptions, adapt_reader, peak_memory_mb  # lazy: NumPy, OpenCV, Pillow

    opts = opts or EnrolOptions()
    t0 = time.perf_counter()
    with building(name, force) as tmp:
        scratch = tmp / "scratch"  # every temporary file of the enrolment, its workers' and torch's included
        scratch.mkdir()
        with scratch_for_torch(scratch):
            deck.save(tmp / "faces")
            progress = progress or (lambda f, m: None)
            checked_from = 0.97 if detector_opts is not None else 0.99  # the whole-scene check's share: the rest
            reader_end = READER_SHARE if detector_opts is not None else checked_from
            deadline = detector_opts.deadline if detector_opts is not None else None
            report = adapt_reader(deck, DEFAULT_WEIGHTS, tmp / "reader.pt", opts,
                                  within(progress, 0.0, reader_end, later_parts(deadline)))
            detector_report = None
            if detector_opts is not None and detector_opts.deadline is not None \
                    and detector_opts.deadline - time.perf_counter() < MIN_DETECTOR_SECONDS:
                detector_report = {"skipped": "the reader's adaptation left too little of the enrolment's time"}
            elif detector_opts is not None:
                from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DETECTOR  # lazy: NumPy, OpenCV

                from .enrol_detector import adapt_detector  # lazy: NumPy, OpenCV, Pillow

                detector_report = adapt_detector(deck, tmp / "faces", DETECTOR, tmp / "detector.pt",
                                                 scratch / "detector", detector_opts,
                                                 within(progress, reader_end, checked_from,
                                                        lambda left: float(CHECK_SECONDS)))
            progress(checked_from, "checking on whole scenes")
            check = scene_check(deck, tmp / "reader.pt", opts.seed, opts.check_scenes,
                                tmp / "detector.pt" if (tmp / "detector.pt").is_file() else None)
            info = {"name": name, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "faces": deck.codes,
                    "aspect": round(deck.aspect, 2), "has_joker": deck.has_joker,
                    "enrol_seconds": round(time.perf_counter() - t0, 1), "peak_memory_mb": peak_memory_mb(),
                    "reading_before": report["held_aside_before"], "reading_after": report["held_aside_after"],
                    "held_aside": report["held_aside"], "scene_check": check,
                    "adaptation": {k: report[k] for k in ("steps", "wanted_steps", "seconds_per_step", "train_seconds", "deck_crops",
                                                          "replay_crops", "crop_seconds", "options")}}
            if detector_report:
                info["detector_adaptation"] = detector_report
            write_deck_json(tmp, info)
    progress(1.0, "saved")  # moved into place whole: the bar ends full
    return info
