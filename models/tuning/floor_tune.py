"""Choose the recogniser's confidence floors on tuning scenes, never the test ones.

:data:`sisepai.vision.recognition.candidates.MIN_CONFIDENCE` (a whole card) and
:data:`~sisepai.vision.recognition.candidates.MIN_END_CONFIDENCE` (a card seen by one lone end)
drop the readings under them, after everything else is decided. So the tuning scenes are read
once with no floor, and each pair of floors is applied to those readings afterwards: a sweep costs
one reading of the scenes. For each pair: F1 per layout and in all; the choice is the best F1 in
all, then the pair nearest today's.

``python -m sisepai.models.tuning.floor_tune DATASET...`` (generated datasets of tuning scenes: the
tuning fonts, the tuning stand-in decks; ``deck_eval --split tune`` writes both).
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from sisepai.vision.recognition.candidates import MIN_CONFIDENCE, MIN_END_CONFIDENCE
from sisepai.vision.recognition.matching import f1_score, match_cards
from sisepai.vision.recognition.recognize import Recognizer

GRID = {"min_confidence": (0.15, 0.2, 0.25, 0.3, 0.35, 0.4),
        "min_end_confidence": (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)}


def unfloored_readings(datasets: list[Path], cache: Path | None = None, recognizer=None) -> list[tuple[dict, object]]:
    """(ground-truth record, detections with no floor) for every val scene of ``datasets``; kept
    in ``cache`` when given, and read from it when it holds them. ``recognizer`` (its floors
    unused): the shipped one by default."""

    if cache is not None and cache.exists():
        return pickle.loads(cache.read_bytes())

    if recognizer is None:
        recognizer = Recognizer.load()
    recognizer = recognizer.with_changes(min_confidence=0.0, min_end_confidence=0.0)
    out = []
    for dataset in datasets:
        for ann in sorted((dataset / "annotations" / "val").glob("*.json")):
            rec = json.loads(ann.read_text())
            out.append((rec, recognizer.recognize(cv2.imread(str(dataset / rec["image"]))).detections))
    if cache is not None:
        cache.write_bytes(pickle.dumps(out))
    return out


def score(readings, min_confidence: float, min_end_confidence: float) -> dict:
    """F1 per layout and in all with these floors applied to unfloored readings."""

    tot = defaultdict(lambda: [0, 0, 0])
    for rec, det in readings:
        ends = det.kind == "end"
        keep = np.where(ends, det.confidence >= min_end_confidence, det.confidence >= min_confidence)
        codes = [c for c, k in zip(det.codes, keep) if k]
        tp, fp, fn, _ = match_cards(codes, det.centers[keep], det.confidence[keep], [c for c in rec["cards"] if c["labelled"]])
        for layout in (rec["layout"], "all"):
            for i, v in enumerate((tp, fp, fn)):
                tot[layout][i] += v
    return {layout: f1_score(*v) for layout, v in sorted(tot.items())}


def sweep(datasets: list[Path], cache: Path | None = None) -> dict:
    readings = unfloored_readings(datasets, cache)
    rows = [{**dict(zip(GRID, pair)), **score(readings, *pair)} for pair in itertools.product(*GRID.values())]
    today = {"min_confidence": MIN_CONFIDENCE, "min_end_confidence": MIN_END_CONFIDENCE}
    best = max(rows, key=lambda r: (r["all"], -sum(abs(r[k] - v) for k, v in today.items())))
    return {"datasets": [str(d) for d in datasets], "scenes": len(readings), "today": today,
            "today_scores": next(r for r in rows if all(r[k] == v for k, v in today.items())), "rows": rows, "choice": best}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.floor_tune", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("datasets", nargs="+", type=Path, metavar="DATASET")
    p.add_argument("--out", type=Path, help="write the whole table here (JSON)")
    p.add_argument("--cache", type=Path, help="keep the unfloored readings here, to sweep again without reading")
    args = p.parse_args(argv)
    out = sweep(args.datasets, args.cache)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({k: out[k] for k in ("scenes", "today", "today_scores", "choice")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
