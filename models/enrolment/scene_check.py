"""An enrolled deck measured as its player will use it: whole scenes, found and read.

Enrolment's crop figure counts card ends the reader reads when it is handed each end; a player
points a camera at a table, and a card the detector never finds is lost whatever the reader
knows. This check lays the deck's faces *as given* (before enrolment cut anything) in whole
scenes the fine-tune never saw (their own seed, :data:`CHECK_SEED_OFFSET` past the enrolment's),
one set per layout (:data:`CHECK_LAYOUTS`), passes each through the camera's JPEG, and reads it
with the recogniser before enrolment (the shipped networks) and after (the deck's own). Each
layout gets its F1, the layouts together one more, and the weakest layout is named. Where the
machine has the second camera (a generator written apart from the project's), the same faces are
also read in its tables, fans and finished hands, side by side (``camera2``): a deck read well
only in the pictures of the generator it was enrolled on is read worse at a real table.

>>> CHECK_LAYOUTS
('table', 'hand', 'fan', 'held')
>>> weakest({"table": {"f1": 0.98}, "hand": {"f1": 0.95}, "fan": {"f1": 0.81}, "all": {"f1": 0.9}})
'fan'
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from sisepai.engine.words import say

if TYPE_CHECKING:
    import numpy as np

    from sisepai.faces.deck import DeckFaces

CHECK_LAYOUTS = ("table", "hand", "fan", "held")
"""Tables, finished hands, fans laid on the table and fans held in a hand."""
LAYOUT_WORDS = {layout: say("en", f"layout.{layout}") for layout in CHECK_LAYOUTS}
"""Each layout's name as the page says it in English (the catalogues' ``layout.*``)."""
CHECK_SEED_OFFSET = 2
"""The check's scenes use the enrolment's seed plus this: the deck's training scenes use the seed
itself and the replay scenes the seed plus one (:func:`~.enrol.make_crops`), so none is trained on."""


def check_scenes(deck: DeckFaces, seed: int, per_layout: int) -> Iterator[tuple[str, np.ndarray, list[dict]]]:
    """``(layout, BGR picture as the camera's JPEG gives it, labelled cards)`` for ``per_layout``
    scenes of each of :data:`CHECK_LAYOUTS`, laid with ``deck``'s faces."""
    import cv2  # lazy: the deck commands load only the standard library until one runs

    from sisepai.datasets.scenes.scene import make_scene  # lazy: NumPy, OpenCV, Pillow

    for k, layout in enumerate(CHECK_LAYOUTS):
        for i in range(per_layout):
            scene = make_scene(seed + CHECK_SEED_OFFSET, k * 100_000 + i, layout=layout, deck=deck)
            ok, buf = cv2.imencode(".jpg", scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, scene.camera.jpeg])
            if not ok:
                raise RuntimeError("cannot encode a check scene as JPEG")
            yield layout, cv2.imdecode(buf, cv2.IMREAD_COLOR), scene.labelled()


def read_scenes(recognizer, scenes: list[tuple]) -> dict:
    """F1 per layout and over all of ``scenes`` read by ``recognizer``:
    ``{layout: {"f1", "cards", "tp", "fp", "fn"}, "all": {...}}``. A scene is ``(layout, picture,
    labelled cards)``, or with a fourth part, cards that may be read without penalty (the second
    camera's cards it does not require)."""
    from sisepai.vision.recognition.matching import (  # lazy: NumPy
        f1_score,
        match_cards,
        optional_readings,  # lazy: NumPy
    )

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for layout, image, truth, *optional in scenes:
        det = recognizer.recognize(image).detections
        tp, fp, fn, _ = match_cards(det.codes, det.centers, det.confidence, truth)
        if optional:
            fp -= optional_readings(det.codes, det.centers, det.confidence, truth, optional[0])
        for key in (layout, "all"):
            counts[key] = [a + b for a, b in zip(counts[key], (tp, fp, fn))]
    return {key: {"f1": f1_score(tp, fp, fn), "cards": tp + fn, "tp": tp, "fp": fp, "fn": fn}
            for key, (tp, fp, fn) in counts.items()}


def weakest(after: dict) -> str:
    """The layout of lowest F1 in a :func:`read_scenes` result (``all`` left out)."""
    return min((k for k in after if k != "all"), key=lambda k: after[k]["f1"])


def scene_check(deck: DeckFaces, reader_after: Path, seed: int = 0, per_layout: int = 5,
                detector_after: Path | None = None, before=None,
                progress: Callable[[str], None] = lambda message: None) -> dict:
    """Read whole scenes of ``deck`` (its faces as given when it has them) before and after
    enrolment; ``before`` is the shipped recogniser (loaded when not given), ``reader_after`` and
    ``detector_after`` (default: the shipped detector) the deck's own networks.

    The answer: ``{"before": read_scenes(...), "after": ..., "weakest": layout, "scenes_per_layout",
    "seed", "faces", "never_trained_on"}``.
    """
    from sisepai.vision.recognition.detector import Detector  # lazy: the networks
    from sisepai.vision.recognition.reader import Reader  # lazy: the networks
    from sisepai.vision.recognition.recognize import Recognizer  # lazy: the networks

    given = getattr(deck, "as_given", None)
    progress("laying the check scenes")
    scenes = list(check_scenes(given or deck, seed, per_layout))
    base = before or Recognizer.load()
    progress("reading the check scenes before")
    was = read_scenes(base, scenes)
    progress("reading the check scenes after")
    changes = {"reader": Reader.load(reader_after)} | ({"detector": Detector.load(detector_after)} if detector_after else {})
    after = base.with_changes(**changes)  # as the service reads a deck: the base's settings, the deck's networks
    now = read_scenes(after, scenes)
    out = {"before": was, "after": now, "weakest": weakest(now), "scenes_per_layout": per_layout,
           "seed": seed + CHECK_SEED_OFFSET, "faces": "as given" if given is not None else "as enrolled",
           "never_trained_on": True}
    second = second_camera_scenes(given or deck, seed, per_layout, progress)
    if second:
        progress("reading the second camera's scenes before and after")
        out["camera2"] = {"before": read_scenes(base, second), "after": read_scenes(after, second),
                          "scenes_per_layout": per_layout}
    return out


def second_camera_scenes(deck: DeckFaces, seed: int, per_layout: int,
                         progress: Callable[[str], None] = lambda message: None) -> list[tuple]:
    """``per_layout`` tables, fans and finished hands of ``deck``'s faces drawn by the second camera
    (:mod:`sisepai.datasets.second_camera`, a generator written apart from the project's), as
    :func:`read_scenes` takes them; none where this machine lacks it."""

    import cv2  # lazy: the deck commands load only the standard library until one runs

    from sisepai.datasets.second_camera import stranger_folder, write_stranger_scenes  # lazy

    if stranger_folder() is None:
        return []
    progress("laying the second camera's scenes")
    with tempfile.TemporaryDirectory(prefix="sisepai-camera2-") as tmp:
        faces = Path(tmp) / "faces"
        deck.save(faces)  # CODE.png, as the second camera reads a deck's scans
        out = write_stranger_scenes(Path(tmp) / "scenes", 3 * per_layout, seed + CHECK_SEED_OFFSET + 50, faces=faces)
        scenes = []
        for ann in sorted((out / "annotations" / "val").glob("*.json")):
            rec = json.loads(ann.read_text())
            image = cv2.imread(str(out / rec["image"]))
            scenes.append((rec["layout"], image, [c for c in rec["cards"] if c["labelled"]], rec["cards"]))
    return scenes


def check_line(check: dict) -> str:
    """One line for a player: the whole-scene F1 before and after, each layout after, the weakest.

    >>> part = lambda f: {"f1": f, "cards": 40}
    >>> check_line({"before": {"all": part(0.8)}, "after": {"all": part(0.9), "table": part(0.97),
    ...             "fan": part(0.71)}, "weakest": "fan", "scenes_per_layout": 5})
    'whole scenes kept aside (5 of each layout): F1 0.800 -> 0.900 (tables 0.970, fans 0.710); weakest: fans'
    """
    after = check["after"]
    parts = ", ".join(f"{LAYOUT_WORDS.get(k, k)} {after[k]['f1']:.3f}" for k in CHECK_LAYOUTS if k in after)
    line = (f"whole scenes kept aside ({check['scenes_per_layout']} of each layout): F1 "
            f"{check['before']['all']['f1']:.3f} -> {after['all']['f1']:.3f} ({parts}); "
            f"weakest: {LAYOUT_WORDS.get(check['weakest'], check['weakest'])}")
    second = check.get("camera2")
    if second:
        fans = second["after"].get("fan")
        line += (f"; through a second camera: F1 {second['before']['all']['f1']:.3f} -> "
                 f"{second['after']['all']['f1']:.3f}" + (f" (fans {fans['f1']:.3f})" if fans else ""))
    return line
