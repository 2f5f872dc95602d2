"""The recogniser that reads an enrolled deck: the one place that builds it, for the CLI and the
service alike.

An enrolled deck has its own reader, and its own detector when it was enrolled with
``--adapt-detector`` (:mod:`.store`). Built from nothing (a command, the service's start), the deck's
networks are loaded with any other options; built from a loaded recogniser (the service's, per
request), that one's settings and shared networks are kept and only the deck's own are loaded,
through :meth:`~sisepai.vision.recognition.recognize.Recognizer.with_changes`.
"""

from __future__ import annotations

from pathlib import Path

from sisepai.engine.errors import SisepaiError
from sisepai.vision.decks.store import detector_weights, reader_weights
from sisepai.vision.recognition.detector import Detector
from sisepai.vision.recognition.reader import Reader
from sisepai.vision.recognition.recognize import Recognizer


def deck_recognizer(deck: str | None = None, base=None, detector: str | Path | None = None,
                    reader: str | Path | None = None, **options):
    """The recogniser for the enrolled ``deck`` (a name, never a path), or the general one when
    ``deck`` is ``None``.

    ``base``: a loaded recogniser to take settings and networks from; without it, one is loaded
    with ``detector`` and ``reader`` (weights; the deck's own win over ``reader``, and over the
    shipped detector unless ``detector`` is given) and ``options`` (the floors, for example).
    A :class:`~sisepai.engine.errors.SisepaiError` names an unknown deck; giving both a deck and a
    ``reader`` is refused.
    """

    if deck is None:
        return base if base is not None else Recognizer.load(detector, reader, **options)
    if reader is not None:
        raise SisepaiError("give a deck or a reader, not both")
    own_reader, own_detector = reader_weights(deck), detector_weights(deck)
    if base is None:
        return Recognizer.load(detector or own_detector, own_reader, **options)

    changes = {"reader": Reader.load(own_reader)}
    if own_detector is not None:
        changes["detector"] = Detector.load(own_detector)
    return base.with_changes(**changes)
