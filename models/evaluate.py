"""Measure the recogniser on a generated test set: card-level precision, recall and F1 per layout,
finished-hand exact match, and reader accuracy on crops.

A prediction matches a ground-truth card when their codes agree and the prediction's centre lies
inside that card's outline (each card matched once, most confident predictions first). The
ground truth is the labelled cards (the dataset's label rule: at least half a character visible).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np


def _match(pred_codes, pred_centers, pred_conf, truth) -> tuple[int, int, int, list[str]]:
    used = [False] * len(truth)
    polys = [np.float32(t["corners"]).reshape(-1, 1, 2) for t in truth]
    tp = 0
    misreads = []
    for i in np.argsort(-np.asarray(pred_conf)):
        hit = None
        for j, t in enumerate(truth):
            if used[j]:
                continue
            if cv2.pointPolygonTest(polys[j], (float(pred_centers[i][0]), float(pred_centers[i][1])), False) >= 0:
                if t["card"] == pred_codes[i]:
                    hit = j
                    break
                if hit is None:
                    hit = -(j + 1)
        if hit is not None and hit >= 0:
            used[hit] = True
            tp += 1
        elif hit is not None:
            misreads.append(f"{truth[-hit - 1]['card']}->{pred_codes[i]}")
    fp = len(pred_codes) - tp
    fn = len(truth) - tp
    return tp, fp, fn, misreads


def evaluate_recognizer(recognizer, dataset: Path, split: str = "val", limit: int | None = None) -> dict:
    """Run the recogniser over a dataset split and score it against the JSON ground truth."""
    records = [json.loads(p.read_text()) for p in sorted((dataset / "annotations" / split).glob("*.json"))]
    if limit:
        records = records[:limit]
    per_layout = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "scenes": 0})
    exact = {"hands": 0, "exact": 0}
    misreads: dict[str, int] = {}
    times = []
    for rec in records:
        img = cv2.imread(str(dataset / rec["image"]))
        t = time.perf_counter()
        result = recognizer.recognize(img)
        times.append((time.perf_counter() - t) * 1000)
        det = result.detections
        truth = [c for c in rec["cards"] if c["labelled"]]
        tp, fp, fn, bad = _match(det.codes, det.centers, det.confidence, truth)
        s = per_layout[rec["layout"]]
        s["tp"] += tp
        s["fp"] += fp
        s["fn"] += fn
        s["scenes"] += 1
        for m in bad:
            misreads[m] = misreads.get(m, 0) + 1
        if rec["layout"] == "hand":
            exact["hands"] += 1
            all_truth = sorted(c["card"] for c in rec["cards"] if c["face_up"] and c["zone"] == "hand")
            if sorted(det.codes) == all_truth:
                exact["exact"] += 1
    out = {"scenes": len(records), "layouts": {}}
    totals = {"tp": 0, "fp": 0, "fn": 0}
    for layout, s in sorted(per_layout.items()):
        p = s["tp"] / max(s["tp"] + s["fp"], 1)
        r = s["tp"] / max(s["tp"] + s["fn"], 1)
        f1 = 2 * p * r / max(p + r, 1e-9)
        out["layouts"][layout] = {**s, "precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4)}
        for k in totals:
            totals[k] += s[k]
    p = totals["tp"] / max(totals["tp"] + totals["fp"], 1)
    r = totals["tp"] / max(totals["tp"] + totals["fn"], 1)
    out["overall"] = {**totals, "precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / max(p + r, 1e-9), 4)}
    out["finished_hand_exact_match"] = round(exact["exact"] / max(exact["hands"], 1), 4)
    out["finished_hands"] = exact["hands"]
    out["top_misreads"] = dict(sorted(misreads.items(), key=lambda kv: -kv[1])[:15])
    out["ms_median"] = round(float(np.median(times)), 1) if times else None
    return out
