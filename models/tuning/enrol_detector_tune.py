"""Choose how ``sisepai deck add`` adapts the detector, on tuning decks' scenes.

Each tuning deck (the real one, ``tu-sac-scans``, and the stand-in tuning decks ``tune-K``) is
enrolled once (its reader, as ``deck add`` adapts it); then each design of the detector's
fine-tune (:class:`~sisepai.models.enrolment.enrol_detector.DetectorOptions` fields) adapts the
shipped detector to the deck's faces, and the deck's tuning scenes (``choose``'s sets of it: for
the real deck tables, fans, finished hands and heaps, and held fans with close heaps) are read with
the enrolled reader behind the shipped detector and behind each adapted one. Each set's F1 change
has a paired 95% interval over its scenes, as the shipping rule's, and so has their mean.

``python -m sisepai.models.tuning.enrol_detector_tune WORK --choose out/choose27 --deck tu-sac-scans --design a:freeze=10,lr=0.002``
(each deck's reader and each design's detector are made once and kept in WORK; the answer goes to
``WORK/results.json``).

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

from sisepai.datasets.design.splits import STANDIN_DECKS, real_deck_folder
from sisepai.faces.deck import DeckFaces
from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DETECTOR
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READER
from sisepai.vision.recognition.recognize import Recognizer

from ..enrolment.enrol import DEFAULT_STEPS, EnrolOptions, adapt_reader
from ..enrolment.enrol_detector import DetectorOptions, adapt_detector
from .choose import mean_difference, measure, paired_difference

REAL_SETS = ("real-tu-sac-scans-60", "held-real-tu-sac-scans-60")
"""``choose``'s scene sets of the real tuning deck (written by ``choose``; read here, never written)."""


def deck_sets(deck: str, choose: Path) -> tuple[Path | None, tuple[str, ...]]:
    """A tuning deck's faces folder (``None`` where this machine lacks it) and its ``choose`` sets.

    >>> deck_sets("tune-1", Path("c"))
    (PosixPath('c/faces/tune-1'), ('standin-1-60',))
    """
    if deck.startswith("tune-"):
        return choose / "faces" / deck, (f"standin-{deck.removeprefix('tune-')}-60",)
    return real_deck_folder(deck), tuple(s.replace("tu-sac-scans", deck) for s in REAL_SETS)


def _prefix(deck: str) -> str:
    """What the files and results of ``deck`` are named with (none for the real deck, measured first).

    >>> _prefix("tu-sac-scans"), _prefix("tune-0")
    ('', 'tune-0-')
    """
    return "" if deck == "tu-sac-scans" else f"{deck}-"


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
    p.add_argument("--choose", type=Path, required=True, help="a choose work folder holding the decks' tuning sets")
    p.add_argument("--deck", action="append", default=[], metavar="NAME",
                   help="a tuning deck: tu-sac-scans (the real one) or tune-K (a stand-in); default the real one and every stand-in tuning deck")
    p.add_argument("--design", action="append", default=[], metavar="NAME:FIELD=VALUE,...")
    p.add_argument("--reader-steps", type=int, default=DEFAULT_STEPS, help=f"the deck reader's fine-tune steps (default {DEFAULT_STEPS}, as deck add)")
    args = p.parse_args(argv)
    fields = set(DetectorOptions.__dataclass_fields__)
    for text in args.design:
        try:
            name, given = parse_design(text)
        except ValueError:
            p.error(f"--design {text!r}: each field is FIELD=NUMBER, or layouts=A+B")
        if not name or set(given) - fields:
            p.error(f"--design {text!r}: NAME:FIELD=VALUE,... with fields among {', '.join(sorted(fields))}")
    decks = {}
    for name in args.deck or ["tu-sac-scans"] + [f"tune-{k}" for k in range(STANDIN_DECKS["tune"])]:
        folder, names = deck_sets(name, args.choose)
        if folder is None or not folder.is_dir():
            p.error(f"deck {name} is not on this machine")
        for s in names:
            if not (args.choose / s / "done").exists():
                p.error(f"{args.choose / s} has no finished scenes: run choose first")
        decks[name] = (folder, names)
    args.work.mkdir(parents=True, exist_ok=True)
    results_file = args.work / "results.json"
    results = json.loads(results_file.read_text()) if results_file.exists() else {}

    for deck_name, (folder, names) in decks.items():
        deck = DeckFaces.load(folder)
        prefix = _prefix(deck_name)
        reader = args.work / f"{prefix}reader-{args.reader_steps}.pt"
        if not reader.exists():
            adapt_reader(deck, READER, reader, EnrolOptions(steps=args.reader_steps))

        def measured(key: str, detector: Path | None) -> dict:
            if key not in results:
                rec = Recognizer.load(detector, reader_weights=reader)
                results[key] = {"sets": {s: measure(rec, args.choose / s) for s in names}}
                results_file.write_text(json.dumps(results, indent=1))
            return results[key]

        shipped = measured(f"{prefix}shipped", None)
        for text in args.design:
            name, fields = parse_design(text)
            weights = args.work / f"{prefix}detector-{name}.pt"
            report_file = weights.with_suffix(".json")
            if not weights.exists():
                work = args.work / f"scratch-{prefix}{name}"
                shutil.rmtree(work, ignore_errors=True)
                t0 = time.perf_counter()
                report = adapt_detector(deck, folder, DETECTOR, weights, work, DetectorOptions(**fields))
                report["wall_seconds"] = round(time.perf_counter() - t0, 1)
                shutil.rmtree(work, ignore_errors=True)
                report_file.write_text(json.dumps({"fields": text, **report}, indent=1))
            r = measured(f"{prefix}{name}", weights)
            pairs = {s: (np.array(shipped["sets"][s]["rows"]), np.array(r["sets"][s]["rows"])) for s in names}
            r["design"] = text
            r["adaptation"] = json.loads(report_file.read_text())
            r["differences"] = {s: paired_difference(*pair) for s, pair in pairs.items()}
            r["mean_difference"] = mean_difference(pairs)
            results_file.write_text(json.dumps(results, indent=1))
            print(f"{prefix}{name}", json.dumps({"mean": r["mean_difference"], "sets": r["differences"],
                                                 "layouts": {s: v["layouts"] for s, v in r["sets"].items()},
                                                 "failures": {s: v["failures"] for s, v in r["sets"].items()}}), flush=True)
        print(f"{prefix}shipped", json.dumps({s: {"f1": v["f1"], "layouts": v["layouts"], "failures": v["failures"]}
                                               for s, v in shipped["sets"].items()}), flush=True)
    for text in args.design:  # every deck's sets together
        name = parse_design(text)[0]
        pairs = {}
        for deck_name, (_, names) in decks.items():
            for s in names:
                pairs[s] = (np.array(results[f"{_prefix(deck_name)}shipped"]["sets"][s]["rows"]),
                            np.array(results[f"{_prefix(deck_name)}{name}"]["sets"][s]["rows"]))
        results.setdefault("pooled", {})[name] = {"decks": list(decks), "mean_difference": mean_difference(pairs)}
        results_file.write_text(json.dumps(results, indent=1))
        print("pooled", name, results["pooled"][name], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
