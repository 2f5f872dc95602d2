"""Measure finished-hand scoring from photos: exact hands, right points, taps, and time.

For each generated finished hand (layout ``hand``: 21 cards laid in meld rows or cascades) that
shows every card (at least half of each character: a hand laid down to be scored), the recogniser
reads the picture once; then

- **read alone** (the recogniser's own readings, scored when they are exactly 21 cards and a win):
  what ``score-image`` gave before hands were read as a whole;
- **read as a hand** (:func:`sisepai.vision.hand.reading.decode_hand`): the likeliest legal win.

A hand is *exact* when its cards are the true 21; its *points are right* when it scores what the
true hand scores. *Taps*: the fewest card changes (change, remove or add one card) that turn the
reading into the true hand; a user with the confirm step makes at most that many.

``python -m sisepai.models.evaluation.hand_eval DATASET [--reader W]`` prints the summary.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from sisepai.engine.rules import Rules
from sisepai.engine.scoring import score
from sisepai.vision.hand.reading import decode_hand
from sisepai.vision.hand.scoring import score_detections
from sisepai.vision.recognition.recognize import Recognizer


def taps_needed(read: list[str], truth: list[str]) -> int:
    """The fewest changes (one card changed, removed or added each) from ``read`` to ``truth``.

    >>> taps_needed(["GK", "GA", "J"], ["GK", "GA", "GE"])
    1
    >>> taps_needed(["GK"], ["GK", "GA", "GE"])
    2
    """
    a, b = Counter(read), Counter(truth)
    return max(sum((a - b).values()), sum((b - a).values()))


def detections_of(recognizer, dataset: Path, cache: Path | None = None) -> list[tuple[dict, object, tuple[int, int]]]:
    """(ground-truth record, Detections, (width, height)) for every hand scene of ``dataset``,
    read once and kept in ``cache`` when given."""
    if cache is not None and cache.exists():
        return pickle.loads(cache.read_bytes())
    out = []
    for ann in sorted((dataset / "annotations" / "val").glob("*.json")):
        rec = json.loads(ann.read_text())
        hand = [c for c in rec["cards"] if c["face_up"] and c["zone"] == "hand"]
        if rec["layout"] != "hand" or not all(c["labelled"] for c in hand):
            continue  # a hand photographed to be scored shows every card (at least half a character)
        img = cv2.imread(str(dataset / rec["image"]))
        result = recognizer.recognize(img)
        out.append((rec, result.detections, (img.shape[1], img.shape[0])))
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps(out))
    return out


def evaluate_hands(readings, rules=None, **decoder) -> dict:
    """Exact hands, right points and taps, read alone and read as a hand; the decoder's time."""

    rules = rules or Rules.preset("seesek")
    alone = {"exact": 0, "points": 0}
    whole = {"exact": 0, "points": 0}
    taps = Counter()
    times = []
    true_totals = Counter()
    for rec, det, size in readings:
        truth = sorted(c["card"] for c in rec["cards"] if c["face_up"] and c["zone"] == "hand")
        true_points = score(truth, rules=rules).total
        true_totals[true_points] += 1
        old = score_detections(det, rules, decode=False)
        alone["exact"] += sorted(old.cards) == truth
        alone["points"] += old.points == true_points
        result = decode_hand(det, rules, size=size, **decoder)
        times.append(result.seconds * 1000)
        cards = result.best.cards if result.best else det.codes
        whole["exact"] += sorted(cards) == truth
        whole["points"] += (result.best.points if result.best else None) == true_points
        taps[min(taps_needed(cards, truth), 4)] += 1
    n = max(len(readings), 1)
    within = {k: round(sum(v for t, v in taps.items() if t <= k) / n, 4) for k in range(4)}
    return {"hands": len(readings),
            "read_alone": {"exact": round(alone["exact"] / n, 4), "points_right": round(alone["points"] / n, 4)},
            "read_as_hand": {"exact": round(whole["exact"] / n, 4), "points_right": round(whole["points"] / n, 4)},
            "right_within_taps": within,
            # a baseline for points_right: always saying the commonest total of these hands
            "points_baseline": {"always": true_totals.most_common(1)[0][0] if true_totals else None,
                                "right": round(true_totals.most_common(1)[0][1] / n, 4) if true_totals else 0.0},
            "decode_ms": {"median": round(float(np.median(times)), 2) if times else None,
                          "p95": round(float(np.percentile(times, 95)), 2) if times else None,
                          "max": round(float(np.max(times)), 2) if times else None}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.evaluation.hand_eval", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dataset", type=Path)
    p.add_argument("--reader", type=Path, default=None, help="reader weights (default: the shipped reader)")
    p.add_argument("--cache", type=Path, default=None, help="keep the readings here, to try decoder settings fast")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a decoder setting: miss_cost, top_k, max_missed")
    args = p.parse_args(argv)

    readings = detections_of(Recognizer.load(reader_weights=args.reader) if not (args.cache and args.cache.exists())
                             else None, args.dataset, args.cache)
    decoder = {}
    for item in args.set:
        key, _, value = item.partition("=")
        decoder[key] = float(value) if key == "miss_cost" else int(value)
    print(json.dumps(evaluate_hands(readings, **decoder), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
