"""Pictures of failure modes: the test scenes the recogniser does worst on, with its cards drawn
(suit colours) and the cards it missed or misread outlined in magenta; and ``small_crops.jpg``, the
reader's wrong readings of end crops from cards under 30 px wide (labelled "TRUE>READ").

    python -m sisepai.models.evaluation.failures data/test_holdout models/failures 4
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from sisepai.vision.recognition.annotate import CardAnnotator
from sisepai.vision.recognition.geometry import side_lengths
from sisepai.vision.recognition.matching import match_cards
from sisepai.vision.recognition.reader import Reader
from sisepai.vision.recognition.recognize import Recognizer

SMALL_CARD = 30
"""Cards narrower than this (pixels of the 1280x720 test pictures) are the small ones."""


def card_width(record: dict, card: int) -> float:
    """The short side of card ``card`` of a scene record, in pixels.

    >>> card_width({"cards": [{"corners": [[0, 0], [20, 0], [20, 120], [0, 120]]}]}, 0)
    20.0
    """
    return float(side_lengths(np.float32(record["cards"][card]["corners"])).min())


def small_card_misreads(dataset: Path, out: Path, n: int = 48, below: float = SMALL_CARD) -> str:
    """A grid of ``n`` held-out end crops (``dataset/crops/val``) of cards under ``below`` px wide
    that the shipped reader reads wrong, each labelled "TRUE>READ", written to
    ``out/small_crops.jpg``; returns a line of counts."""

    records: dict[int, dict] = {}
    picked, labels = [], []
    for path in sorted((dataset / "crops" / "val").glob("*/*.png")):
        scene, card, _ = (int(v) for v in path.stem.split("_"))
        if scene not in records:
            records[scene] = json.loads((dataset / "annotations" / "val" / f"{scene:06d}.json").read_text())
        if card_width(records[scene], card) < below:
            picked.append(path)
            labels.append(path.parent.name)
    reader = Reader.load()
    crops = [cv2.imread(str(p))[..., ::-1] for p in picked]
    reads = [reader.classes[i] for i in np.concatenate([reader.read(crops[i:i + 256]).argmax(axis=1)
                                                        for i in range(0, len(crops), 256)])] if crops else []
    wrong = [(c, t, r) for c, t, r in zip(crops, labels, reads) if t != r]
    tiles = []
    for crop, truth, read in wrong[:n]:
        tile = cv2.resize(np.ascontiguousarray(crop[..., ::-1]), (96, 96), interpolation=cv2.INTER_NEAREST)
        cv2.putText(tile, f"{truth}>{read}", (2, 92), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 0, 255), 1, cv2.LINE_AA)
        tiles.append(tile)
    if tiles:
        tiles += [np.zeros_like(tiles[0])] * (-len(tiles) % 8)
        grid = np.vstack([np.hstack(tiles[k:k + 8]) for k in range(0, len(tiles), 8)])
        out.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(out / "small_crops.jpg"), grid, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return f"small_crops.jpg: {len(wrong)} of {len(picked)} crops of cards under {below:g} px read wrong"


def main(dataset: Path, out: Path, n: int = 4, limit: int = 120) -> list[str]:
    rec = Recognizer.load()
    scored = []
    for ann in sorted((dataset / "annotations" / "val").glob("*.json"))[:limit]:
        record = json.loads(ann.read_text())
        img = cv2.imread(str(dataset / record["image"]))
        det = rec.recognize(img).detections
        truth = [c for c in record["cards"] if c["labelled"]]
        tp, fp, fn, bad = match_cards(det.codes, det.centers, det.confidence, truth)
        scored.append((fp + fn, record, img, det, bad))
    scored.sort(key=lambda s: -s[0])
    worst = []
    for layout in ("table", "fan", "hand"):  # the worst scenes of each layout
        worst += [s for s in scored if s[1]["layout"] == layout][: max(1, n // 3)]
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for errors, record, img, det, bad in worst:
        pic = CardAnnotator().annotate(img, det)
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
    if (dataset / "crops" / "val").is_dir():
        written.append(small_card_misreads(dataset, out))
    return written


if __name__ == "__main__":
    for line in main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 4):
        print(line)
