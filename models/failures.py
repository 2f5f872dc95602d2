"""Pictures of failure modes: the test scenes the recogniser does worst on, with its cards drawn
(suit colours) and the cards it missed or misread outlined in magenta.

    python -m sisepai.models.failures data/test_holdout models/failures 4
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from sisepai.models.evaluate import _match
from sisepai.vision.annotate import CardAnnotator
from sisepai.vision.recognize import Recognizer


def main(dataset: Path, out: Path, n: int = 4, limit: int = 120) -> list[str]:
    rec = Recognizer.load()
    scored = []
    for ann in sorted((dataset / "annotations" / "val").glob("*.json"))[:limit]:
        record = json.loads(ann.read_text())
        img = cv2.imread(str(dataset / record["image"]))
        det = rec.recognize(img).detections
        truth = [c for c in record["cards"] if c["labelled"]]
        tp, fp, fn, bad = _match(det.codes, det.centers, det.confidence, truth)
        scored.append((fp + fn, record, img, det, bad))
    scored.sort(key=lambda s: -s[0])
    worst = []
    for layout in ("table", "fan", "hand"):  # the worst scenes of each layout
        worst += [s for s in scored if s[1]["layout"] == layout][: max(1, n // 3)]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for errors, record, img, det, bad in worst:
        pic = CardAnnotator().annotate(img, det)
        found = set()
        for card in record["cards"]:
            if not card["labelled"]:
                continue
            poly = np.float32(card["corners"]).reshape(-1, 1, 2)
            hit = any(c == card["card"] and cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0
                      for c, (x, y) in zip(det.codes, det.centers))
            if not hit:
                cv2.polylines(pic, [np.int32(card["corners"])], True, (255, 0, 255), 2)
        name = out / f"{record['layout']}_{record['index']:06d}.jpg"
        cv2.imwrite(str(name), cv2.resize(pic, (960, 540)), [cv2.IMWRITE_JPEG_QUALITY, 80])
        written.append(f"{name.name}: {errors} errors; misreads {bad[:6]}")
    return written


if __name__ == "__main__":
    for line in main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 4):
        print(line)
