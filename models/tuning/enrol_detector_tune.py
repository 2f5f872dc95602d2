"""Choose how ``sisepai deck add`` adapts the detector, on the real tuning deck's scenes.

The real tuning deck is enrolled once (its reader, as ``deck add`` adapts it); then each design of
the detector's fine-tune (:class:`~sisepai.models.enrolment.enrol_detector.DetectorOptions` fields)
adapts the shipped detector to the deck's faces, and the deck's tuning scenes (``choose``'s two
sets of it: tables, fans, finished hands and heaps; held fans and close heaps) are read with the
enrolled reader behind the shipped detector and behind each adapted one. Each set's F1 change has a
paired 95% interval over its scenes, as the shipping rule's.

``python -m sisepai.models.tuning.enrol_detector_tune WORK --choose out/choose27 --design a:freeze=10,lr=0.002``
(each design is adapted once and kept in WORK; the answer goes to ``WORK/results.json``).

>>> parse_design("b:freeze=22,lr=0.001,layouts=table+heap")
('b', {'freeze': 22, 'lr': 0.001, 'layouts': ('table', 'heap')})
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

SETS = ("real-tu-sac-scans-60", "held-real-tu-sac-scans-60")
"""``choose``'s scene sets of the real tuning deck (written by ``choose``; read here, never written)."""


def parse_design(text: str) -> tuple[str, dict]:
    """``NAME:field=value,...`` as a name and :class:`DetectorOptions` fields (``+`` joins layouts)."""
    name, _, fields = text.partition(":")
    out: dict = {}
    for item in filter(None, fields.split(",")):
        key, _, value = item.partition("=")
        if key == "layouts":
            out[key] = tuple(value.split("+"))
        else:
            out[key] = float(value) if "." in value or "e-" in value else int(value)
    return name, out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("work", type=Path)
    p.add_argument("--choose", type=Path, required=True, help="a choose work folder holding the real deck's tuning sets")
    p.add_argument("--design", action="append", default=[], metavar="NAME:FIELD=VALUE,...")
    p.add_argument("--reader-steps", type=int, default=240, help="the deck reader's fine-tune steps (default 240)")
    args = p.parse_args(argv)

    from sisepai.datasets.faces.splits import real_deck_folder
    from sisepai.faces.deck import DeckFaces
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DETECTOR
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READER
    from sisepai.vision.recognition.recognize import Recognizer

    from ..enrolment.enrol import EnrolOptions, adapt_reader
    from ..enrolment.enrol_detector import DetectorOptions, adapt_detector
    from .choose import measure, mean_difference, paired_difference

    folder = real_deck_folder("tu-sac-scans")
    if folder is None:
        p.error("the real tuning deck is not on this machine")
    sets = {name: args.choose / name for name in SETS}
    for name, path in sets.items():
        if not (path / "done").exists():
            p.error(f"{path} has no finished scenes: run choose first")
    args.work.mkdir(parents=True, exist_ok=True)
    deck = DeckFaces.load(folder)
    reader = args.work / f"reader-{args.reader_steps}.pt"
    if not reader.exists():
        adapt_reader(deck, READER, reader, EnrolOptions(steps=args.reader_steps))
    results_file = args.work / "results.json"
    results = json.loads(results_file.read_text()) if results_file.exists() else {}

    def measured(key: str, detector: Path | None) -> dict:
        if key not in results:
            rec = Recognizer.load(detector, reader_weights=reader)
            results[key] = {"sets": {name: measure(rec, path) for name, path in sets.items()}}
            results_file.write_text(json.dumps(results, indent=1))
        return results[key]

    shipped = measured("shipped", None)
    for text in args.design:
        name, fields = parse_design(text)
        weights = args.work / f"detector-{name}.pt"
        if not weights.exists():
            work = args.work / f"scratch-{name}"
            shutil.rmtree(work, ignore_errors=True)
            t0 = time.perf_counter()
            report = adapt_detector(deck, folder, DETECTOR, weights, work, DetectorOptions(**fields))
            report["wall_seconds"] = round(time.perf_counter() - t0, 1)
            shutil.rmtree(work, ignore_errors=True)
            (args.work / f"detector-{name}.json").write_text(json.dumps({"fields": text, **report}, indent=1))
        r = measured(name, weights)
        pairs = {s: (np.array(shipped["sets"][s]["rows"]), np.array(r["sets"][s]["rows"])) for s in sets}
        r["design"] = text
        r["adaptation"] = json.loads((args.work / f"detector-{name}.json").read_text())
        r["differences"] = {s: paired_difference(*pair) for s, pair in pairs.items()}
        r["mean_difference"] = mean_difference(pairs)
        results_file.write_text(json.dumps(results, indent=1))
        print(name, json.dumps({"mean": r["mean_difference"], "sets": r["differences"],
                                "layouts": {s: v["layouts"] for s, v in r["sets"].items()},
                                "failures": {s: v["failures"] for s, v in r["sets"].items()}}), flush=True)
    print("shipped", json.dumps({s: {"f1": v["f1"], "layouts": v["layouts"], "failures": v["failures"]}
                                 for s, v in shipped["sets"].items()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
