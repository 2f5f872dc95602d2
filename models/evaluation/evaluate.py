"""Measure the recogniser on a generated test set: card-level precision, recall and F1 per layout,
finished-hand exact match, and reader accuracy on crops.

A prediction matches a ground-truth card when their codes agree and the prediction's centre lies
inside that card's outline (each card matched once, most confident predictions first). The
ground truth is the labelled cards (the dataset's label rule: at least half a character visible).

``f1_ignoring_unlabelled`` also reports F1 with the right readings of cards under the label rule
(less than half a character visible) neither credited nor counted false, like PASCAL VOC's
"difficult" objects; ``f1`` counts them false. ``f1_outside_label_band`` treats every face-up
card within ``LABEL_BAND`` of the rule's 50% (40-60% of a character visible) that way, found or
not: the rule is a line through a smooth range, and a sliver on either side of it looks the same.
``by_card_width`` scores the scenes again grouped by how wide their cards are in the picture.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from sisepai.vision.recognition.geometry import inside, side_lengths
from sisepai.vision.recognition.matching import card_matching, f1_score, match_cards, optional_readings

LABEL_RULE = 0.5
"""The dataset's label rule: a face-up card is labelled when this share of a character shows."""
LABEL_BAND = 0.1
"""Cards within this of the label rule are neither needed nor false in ``f1_outside_label_band``."""
WIDTH_BUCKETS = (25, 30, 40)
"""Edges of ``by_card_width``: a scene's median labelled card width, in pixels of a 1280-px-wide frame."""


def width_bucket_names(edges: tuple[int, ...] = WIDTH_BUCKETS) -> list[str]:
    """The ``by_card_width`` groups, narrowest first.

    >>> width_bucket_names((25, 30))
    ['<25', '25-30', '>=30']
    """
    return [f"<{edges[0]}", *(f"{lo}-{hi}" for lo, hi in zip(edges, edges[1:])), f">={edges[-1]}"]






def miss_sources(pred_codes, pred_centers, pred_conf, truth) -> dict[str, int]:
    """Where the missed cards of one picture are lost: ``detector`` (no prediction left over lies
    on the card: nothing was found there) or ``reader`` (a prediction left over lies on it, with
    the wrong code).

    >>> sq = lambda x: [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]
    >>> truth = [{"card": "GP", "corners": sq(0)}, {"card": "RK", "corners": sq(20)}]
    >>> miss_sources(["GK"], [(5, 5)], [0.9], truth)
    {'detector': 1, 'reader': 1}
    """
    owner = card_matching(pred_codes, pred_centers, pred_conf, truth)
    spare = [i for i in range(len(pred_codes)) if i not in set(owner.values())]
    out = {"detector": 0, "reader": 0}
    for j, t in enumerate(truth):
        if j in owner:
            continue
        hit = next((i for i in spare if inside(pred_centers[i], t["corners"])), None)
        if hit is None:
            out["detector"] += 1
        else:
            spare.remove(hit)
            out["reader"] += 1
    return out


def suit_misreads(misreads: dict[str, int]) -> dict[str, int]:
    """Misreads that changed the suit, summed by suit pair (``"R->Y"``: a red card read yellow).

    >>> suit_misreads({"RH->YH": 3, "RA->YA": 1, "GE->GK": 2, "RP->WP": 1})
    {'R->W': 1, 'R->Y': 4}
    """
    pairs: dict[str, int] = {}
    for pair, n in misreads.items():
        truth, read = pair.split("->")
        if truth[0] != read[0]:
            key = f"{truth[0]}->{read[0]}"
            pairs[key] = pairs.get(key, 0) + n
    return dict(sorted(pairs.items()))


def explain_false_positives(pred_codes, pred_centers, matched: int, misreads: int, cards: list[dict],
                            duplicates: int = 0) -> dict:
    """Where the false positives of one image come from: ``misread`` (on a labelled card, wrong
    code), ``duplicate`` (a second reading of a card already found, :func:`duplicate_readings`),
    ``unlabelled_right`` (on a face-up card below the label rule, read right: the picture shows
    too little of its character for the ground truth to count it), and ``other`` (a wrong code on
    an unlabelled card, or nothing there)."""
    unlabelled = [c for c in cards if c["face_up"] and not c["labelled"]]
    right = sum(any(c["card"] == code and inside(centre, c["corners"]) for c in unlabelled)
                for code, centre in zip(pred_codes, pred_centers))
    fp = len(pred_codes) - matched
    duplicates = min(duplicates, fp - misreads)
    right = min(right, fp - misreads - duplicates)
    return {"misread": misreads, "duplicate": duplicates, "unlabelled_right": right,
            "other": fp - misreads - duplicates - right}


def duplicate_readings(pred_codes, pred_centers, pred_conf, truth) -> int:
    """Predictions left unmatched that lie on a card found already, with its code: one card read
    twice (two lone ends not paired, or an end and the whole card).

    >>> sq = lambda x: [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]
    >>> duplicate_readings(["GP", "GP", "RK"], [(5, 5), (5, 25), (5, 15)], [0.9, 0.8, 0.7], [{"card": "GP", "corners": sq(0)}])
    1
    """
    owner = card_matching(pred_codes, pred_centers, pred_conf, truth)
    used = set(owner.values())
    return sum(1 for i in range(len(pred_codes)) if i not in used
               and any(truth[j]["card"] == pred_codes[i] and inside(pred_centers[i], truth[j]["corners"]) for j in owner))


def outside_label_band(pred_codes, pred_centers, pred_conf, cards: list[dict], band: float = LABEL_BAND) -> tuple[int, int, int]:
    """(tp, fp, fn) of one picture with the face-up cards near the label rule left out: a card
    showing ``LABEL_RULE`` +- ``band`` of a character (``char_visible``) is neither needed nor false
    when read right; the others count as usual (labelled: needed; unlabelled: a reading is false).

    >>> sq = lambda x: [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]
    >>> cards = [{"card": "GP", "corners": sq(0), "face_up": True, "labelled": True, "char_visible": 1.0},
    ...          {"card": "RK", "corners": sq(20), "face_up": True, "labelled": False, "char_visible": 0.45},
    ...          {"card": "WA", "corners": sq(40), "face_up": True, "labelled": True, "char_visible": 0.55}]
    >>> outside_label_band(["GP", "RK"], [(5, 5), (25, 5)], [0.9, 0.4], cards)  # the RK sliver: not false
    (1, 0, 0)
    >>> outside_label_band(["WA"], [(5, 5)], [0.9], cards)  # a misread, and the GP missed
    (0, 1, 1)
    """
    near = [c for c in cards if c["face_up"] and abs(c.get("char_visible", -1.0) - LABEL_RULE) < band]
    needed = [c for c in cards if c["labelled"] and not any(c is n for n in near)]
    owner = card_matching(pred_codes, pred_centers, pred_conf, needed + near)
    tp = sum(1 for j in owner if j < len(needed))
    return tp, len(pred_codes) - len(owner), len(needed) - tp


def card_width_bucket(cards: list[dict], width: int, height: int, edges: tuple[int, ...] = WIDTH_BUCKETS) -> str | None:
    """Which ``by_card_width`` group a picture falls in: its labelled cards' median width (the
    short side), in pixels of a frame 1280 px on its long side; ``None`` with no labelled cards.

    >>> card = {"labelled": True, "corners": [[0, 0], [28, 0], [28, 168], [0, 168]]}
    >>> card_width_bucket([card], 1280, 720), card_width_bucket([card], 640, 360), card_width_bucket([], 1280, 720)
    ('25-30', '>=40', None)
    """
    widths = [side_lengths(np.float32(c["corners"])).min() for c in cards if c["labelled"]]
    if not widths:
        return None
    w = float(np.median(widths)) * 1280 / max(width, height)
    return width_bucket_names(edges)[int(np.searchsorted(edges, w, side="right"))]




def turned_to_portrait(image: np.ndarray, cards: list[dict]) -> tuple[np.ndarray, list[dict]]:
    """A landscape picture turned a quarter anticlockwise into a portrait one, with its cards'
    outlines turned alike (``corners`` only).

    >>> img = np.zeros((2, 6, 3), np.uint8)
    >>> portrait, cards = turned_to_portrait(img, [{"corners": [[0, 0], [6, 2]]}])
    >>> portrait.shape[:2], cards[0]["corners"]
    ((6, 2), [[0, 6], [2, 0]])
    """
    width = image.shape[1]
    turned = [dict(c, corners=[[y, width - x] for x, y in c["corners"]]) for c in cards]
    return np.ascontiguousarray(np.rot90(image)), turned


def evaluate_recognizer(recognizer, dataset: Path, split: str = "val", limit: int | None = None,
                        portrait: bool = False) -> dict:
    """Run the recogniser over a dataset split and score it against the JSON ground truth;
    ``portrait``: every picture turned a quarter first (:func:`turned_to_portrait`)."""
    records = [json.loads(p.read_text()) for p in sorted((dataset / "annotations" / split).glob("*.json"))]
    if limit:
        records = records[:limit]
    per_layout = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "scenes": 0})
    misses = defaultdict(lambda: {"detector": 0, "reader": 0})  # layout -> where its missed cards were lost
    banded = defaultdict(lambda: [0, 0, 0])  # layout -> tp, fp, fn outside the label band
    by_width = defaultdict(lambda: {"tp": 0, "fp": 0, "fn": 0, "scenes": 0})  # (layout, bucket)
    fp_kinds = defaultdict(lambda: {"misread": 0, "duplicate": 0, "unlabelled_right": 0, "other": 0})
    exact = {"hands": 0, "exact": 0}
    misreads: dict[str, int] = {}
    cards_by_suit: dict[str, int] = defaultdict(int)  # labelled cards of each suit (J: jokers)
    times = []
    per_scene = []  # (layout, tp, fp, fn) of each picture, for intervals over scenes
    for rec in records:
        img = cv2.imread(str(dataset / rec["image"]))
        if portrait:
            img, rec["cards"] = turned_to_portrait(img, rec["cards"])
        t = time.perf_counter()
        result = recognizer.recognize(img)
        times.append((time.perf_counter() - t) * 1000)
        det = result.detections
        truth = [c for c in rec["cards"] if c["labelled"]]
        tp, fp, fn, bad = match_cards(det.codes, det.centers, det.confidence, truth)
        fp -= optional_readings(det.codes, det.centers, det.confidence, truth, rec["cards"])
        s = per_layout[rec["layout"]]
        s["tp"] += tp
        s["fp"] += fp
        s["fn"] += fn
        s["scenes"] += 1
        per_scene.append((rec["layout"], tp, fp, fn))
        for k, v in enumerate(outside_label_band(det.codes, det.centers, det.confidence, rec["cards"])):
            banded[rec["layout"]][k] += v
        bucket = card_width_bucket(rec["cards"], img.shape[1], img.shape[0])
        if bucket:
            for key in ((rec["layout"], bucket), ("all", bucket)):
                for k, v in (("tp", tp), ("fp", fp), ("fn", fn), ("scenes", 1)):
                    by_width[key][k] += v
        for k, v in miss_sources(det.codes, det.centers, det.confidence, truth).items():
            misses[rec["layout"]][k] += v
        twice = duplicate_readings(det.codes, det.centers, det.confidence, truth)
        for k, v in explain_false_positives(det.codes, det.centers, tp, len(bad), rec["cards"], twice).items():
            fp_kinds[rec["layout"]][k] += v
        for m in bad:
            misreads[m] = misreads.get(m, 0) + 1
        for c in truth:
            cards_by_suit[c["card"][0]] += 1
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
        out["layouts"][layout] = {**s, "precision": round(p, 4), "recall": round(r, 4), "f1": f1_score(s["tp"], s["fp"], s["fn"]),
                                  "fp_kinds": dict(fp_kinds[layout]), "misses": dict(misses[layout]),
                                  "f1_ignoring_unlabelled": f1_score(s["tp"], s["fp"] - fp_kinds[layout]["unlabelled_right"], s["fn"]),
                                  "f1_outside_label_band": f1_score(*banded[layout])}
        for k in totals:
            totals[k] += s[k]
    p = totals["tp"] / max(totals["tp"] + totals["fp"], 1)
    r = totals["tp"] / max(totals["tp"] + totals["fn"], 1)
    ignored = sum(k["unlabelled_right"] for k in fp_kinds.values())
    out["overall"] = {**totals, "precision": round(p, 4), "recall": round(r, 4), "f1": f1_score(totals["tp"], totals["fp"], totals["fn"]),
                      "f1_ignoring_unlabelled": f1_score(totals["tp"], totals["fp"] - ignored, totals["fn"]),
                      "f1_outside_label_band": f1_score(*np.sum(list(banded.values()), axis=0).tolist())}
    out["by_card_width"] = {layout: {b: {**g, "f1": f1_score(g["tp"], g["fp"], g["fn"])}
                                     for b in width_bucket_names() if (g := by_width.get((layout, b)))}
                            for layout in [*sorted(per_layout), "all"]}
    out["finished_hand_exact_match"] = round(exact["exact"] / max(exact["hands"], 1), 4)
    out["finished_hands"] = exact["hands"]
    out["top_misreads"] = dict(sorted(misreads.items(), key=lambda kv: -kv[1])[:15])
    out["suit_misreads"] = suit_misreads(misreads)
    out["cards_by_suit"] = dict(sorted(cards_by_suit.items()))
    out["ms_median"] = round(float(np.median(times)), 1) if times else None
    out["per_scene"] = per_scene
    return out
