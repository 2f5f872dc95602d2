"""What a detector fails on in fans held across the table: one property of the generator's
``distant`` fans (:mod:`sisepai.datasets.scenes.held`) varied at a time, each measured.

Each variant draws the same scenes' fans with one range narrowed (card width, the share of each
end that shows, the palm over the pivot, the camera's blur, noise and JPEG) and reports the
detector's recall on their labelled cards and what the reader then got right. Where recall falls
with a property is where the generator must widen, and where training data must go.

``python -m sisepai.models.tuning.fan_properties --detector runs/det/detector/weights/last.pt``
appends to ``docs/training-logs/fan_properties_tune.json`` (tuning fonts and seeds only; no test data is read).

>>> sorted(VARIANTS)[:3]
['base', 'clean camera', 'no palm']
"""

from __future__ import annotations

import argparse
import json
import tempfile
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from sisepai.datasets.design.splits import FAN_PROPERTY_SEEDS
from sisepai.datasets.scenes import held, scene
from sisepai.datasets.scenes.camera import Camera
from sisepai.engine.progress import Progress
from sisepai.vision.recognition.recognize import Recognizer

from ..evaluation.deck_eval import write_scenes
from ..evaluation.evaluate import evaluate_recognizer

SEED = FAN_PROPERTY_SEEDS["tune"]

VARIANTS: dict[str, dict] = {
    "base": {},
    "width 28-40": {"DISTANT_WIDTH": (28.0, 40.0)},
    "width 40-52": {"DISTANT_WIDTH": (40.0, 52.0)},
    "width 52-64": {"DISTANT_WIDTH": (52.0, 64.0)},
    "width 70-100": {"DISTANT_WIDTH": (70.0, 100.0)},
    "share 0.2-0.3": {"DISTANT_SHARE": (0.2, 0.3)},
    "share 0.3-0.45": {"DISTANT_SHARE": (0.3, 0.45)},
    "share 0.45-0.6": {"DISTANT_SHARE": (0.45, 0.6)},
    "no palm": {"palm": False},
    "clean camera": {"clean": True},
}
"""Each variant: the module ranges it narrows (``DISTANT_*``), ``palm`` off, or a ``clean``
camera (no blur, motion or noise, JPEG at 95)."""


@contextmanager
def variant(settings: dict):
    """The generator with one variant's settings, for the duration of the block."""
    patches = [mock.patch.object(held, k, v) for k, v in settings.items() if k.startswith("DISTANT_")]
    if settings.get("palm") is False:
        plain_fan = held.distant_fan

        def without_palm(*args, **kwargs):
            fan = plain_fan(*args, **kwargs)
            fan.palm = False
            return fan
        patches.append(mock.patch.object(held, "distant_fan", without_palm))
    if settings.get("clean"):
        plain_random = Camera.random.__func__

        def clean(cls, *args, **kwargs):
            cam = plain_random(cls, *args, **kwargs)
            cam.blur, cam.motion, cam.noise, cam.jpeg = 0.0, 0, 0.0, 95
            return cam
        patches.append(mock.patch.object(Camera, "random", classmethod(clean)))
    for p in patches:
        p.start()
    try:
        yield scene
    finally:
        for p in reversed(patches):
            p.stop()


def measure_variants(detector: str | None, scenes: int, work: Path) -> dict[str, dict]:
    """Each variant's scenes written into ``work`` and read by the shipped reader and ``detector``."""
    recognizer = Recognizer.load(detector)
    out = {}
    bar = Progress(len(VARIANTS), "fan variants")
    for name, settings in VARIANTS.items():
        folder = work / name.replace(" ", "_")
        with variant(settings):
            write_scenes(None, folder, scenes, SEED, font_split="tune", layouts=("distant",))
        r = evaluate_recognizer(recognizer, folder)["layouts"]["distant"]
        cards = r["tp"] + r["fn"]
        out[name] = {"cards": cards, "detector_recall": round(1 - r["misses"]["detector"] / max(cards, 1), 4),
                     "recall": r["recall"], "f1": r["f1"]}
        bar.update()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--detector", help="detector weights (default: the shipped detector)")
    p.add_argument("--scenes", type=int, default=30, help="scenes of each variant (default 30)")
    p.add_argument("--out", type=Path, default=Path("docs/training-logs/fan_properties_tune.json"))
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        results = measure_variants(args.detector, args.scenes, Path(tmp))
    record = {"detector": args.detector or "shipped", "scenes": args.scenes, "seed": SEED, "variants": results}
    runs = json.loads(args.out.read_text()) if args.out.is_file() else []
    args.out.write_text(json.dumps(runs + [record], indent=1) + "\n")
    for name, r in results.items():
        print(f"{name:16s} cards {r['cards']:4d}  detector recall {r['detector_recall']:.3f}  F1 {r['f1']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
