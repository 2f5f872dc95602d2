"""Turn a generated dataset's ground truth into the two training sets of the recogniser.

1. **Detector** (ultralytics OBB, 3 classes): ``card`` (a face-up card, at least
   :data:`CARD_MIN_VISIBLE` visible), ``end`` (a character region at least
   :data:`END_MIN_VISIBLE` visible) and ``back`` (a face-down card, mostly visible). Folder ``DIR/detector/`` with its own data.yaml;
   its images are hard links to the dataset's.
2. **Reader** crops: the dataset's ``crops/`` (made with ``--crops``) plus ``none`` crops cut
   from places with no card end, and from the ends of face-down cards, so the reader can reject
   a false end (a draw pile's top card is not a plain joker).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import cv2
import numpy as np

from sisepai.vision.recognition.geometry import card_ends, straighten

DETECTOR_NAMES = ("card", "end", "back")
CARD_MIN_VISIBLE = 0.7
END_MIN_VISIBLE = 0.3
"""An end is labelled when this share of it shows. In a fan held tight each card shows a strip of
its end beside the next, 20 to 60% of its width: a player names the card from a third of its
character, and a detector taught that only half an end or more is an end learns to pass those
strips by (the shipped detector found 5% of the second camera's fanned cards). The end is
labelled whole, as the reader crops it."""
BACK_MIN_VISIBLE = 0.5


def detector_lines(record: dict) -> list[str]:
    w, h = record["width"], record["height"]
    lines = []

    def add(cls: int, corners) -> None:
        pts = np.clip(np.float64(corners) / [w, h], 0, 1).reshape(-1)
        lines.append(f"{cls} " + " ".join(f"{v:.6f}" for v in pts))

    for card in record["cards"]:
        if not card["face_up"]:
            if card["visible"] >= BACK_MIN_VISIBLE:
                add(2, card["corners"])
            continue
        if card["visible"] >= CARD_MIN_VISIBLE:
            add(0, card["corners"])
        for end in card["ends"]:
            if end["visible"] >= END_MIN_VISIBLE:
                add(1, end["corners"])
    return lines


def _write_data_yaml(path: Path, train: str, val: str) -> Path:
    """An ultralytics data.yaml for the detector's classes, with these image folders."""
    path.write_text(f"train: {train}\nval: {val}\nnc: {len(DETECTOR_NAMES)}\nnames:\n"
                    + "".join(f"  {i}: {n}\n" for i, n in enumerate(DETECTOR_NAMES)))
    return path


def prepare_detector(dataset: Path) -> Path:
    """Write ``dataset/detector`` (labels + links to the images) and return its data.yaml."""
    out = dataset / "detector"
    for split in ("train", "val"):
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        for img in sorted((dataset / "images" / split).glob("*.jpg")):
            target = out / "images" / split / img.name
            if not target.exists():
                try:
                    os.link(img, target)  # a hard link: ultralytics resolves symlinks to the wrong labels
                except OSError:
                    shutil.copyfile(img, target)
        for ann in sorted((dataset / "annotations" / split).glob("*.json")):
            record = json.loads(ann.read_text())
            (out / "labels" / split / f"{ann.stem}.txt").write_text("\n".join(detector_lines(record)) + "\n")
    return _write_data_yaml(out / "data.yaml", "images/train", "images/val")


def combine_detector_sets(datasets: list[Path], out: Path) -> Path:
    """Prepare every dataset's detector labels and write one data.yaml at ``out`` that trains
    on all of them (ultralytics takes lists of image folders); returns ``out``.

    A single dataset gives its own data.yaml back unchanged.
    """
    yamls = [prepare_detector(d) for d in datasets]
    if len(yamls) == 1:
        return yamls[0]

    def folders(split: str) -> str:
        return "[" + ", ".join(f"'{(y.parent / 'images' / split).resolve()}'" for y in yamls) + "]"

    out.parent.mkdir(parents=True, exist_ok=True)
    return _write_data_yaml(out, folders("train"), folders("val"))


def _inside_any(pt: np.ndarray, polys: list[np.ndarray]) -> bool:
    return any(cv2.pointPolygonTest(p, (float(pt[0]), float(pt[1])), False) >= 0 for p in polys)


def _none_records(dataset: Path):
    """Every ground-truth record of ``dataset``, with the ``crops/{split}/none`` folder (made when
    missing) its crops go to and its annotation's stem: ``(folder, stem, record)``."""
    for split in ("train", "val"):
        folder = dataset / "crops" / split / "none"
        folder.mkdir(parents=True, exist_ok=True)
        for ann in sorted((dataset / "annotations" / split).glob("*.json")):
            yield folder, ann.stem, json.loads(ann.read_text())


def _backs(record: dict) -> list[dict]:
    """The record's mostly visible face-down cards."""
    return [c for c in record["cards"] if not c["face_up"] and c["visible"] >= BACK_MIN_VISIBLE]


def back_end_quads(cards: list[dict]) -> list[tuple[int, int, np.ndarray]]:
    """Both ends of each mostly visible face-down card among ground-truth ``cards``, leaving out
    ends under a face-up card: ``(card k among the backs, end e, quad)``."""

    faces = [np.float32(c["corners"]) for c in cards if c["face_up"]]
    backs = [c for c in cards if not c["face_up"] and c["visible"] >= BACK_MIN_VISIBLE]
    return [(k, e, end) for k, card in enumerate(backs) for e, end in enumerate(card_ends(np.float32(card["corners"])))
            if not _inside_any(end.mean(0), faces)]


def none_quads(cards: list[dict], width: int, height: int, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Up to ``n`` squares (4x2 corners) at random places of a ``width`` x ``height`` picture whose
    centres lie in no face-up card's end, about a card's width across, at random turns; none where
    a card is wider than half the picture (a close-up has no room for one).

    >>> wide = [{"corners": [[0, 0], [400, 0], [400, 1600], [0, 1600]], "face_up": True, "ends": []}]
    >>> none_quads(wide, 640, 360, np.random.default_rng(0), 3)
    []
    """
    ends = [np.float32(e["corners"]) for c in cards if c["face_up"] for e in c["ends"]]
    widths = [np.linalg.norm(np.float32(c["corners"][1]) - np.float32(c["corners"][0])) for c in cards] or [40.0]
    side = float(np.median(widths))
    out = []
    for _ in range(n * 4):
        if len(out) >= n:
            break
        s = side * rng.uniform(0.8, 1.4)
        if 2 * s >= min(width, height):
            continue
        cx, cy = rng.uniform(s, width - s), rng.uniform(s, height - s)
        if _inside_any(np.float32([cx, cy]), ends):
            continue
        ang = rng.uniform(0, 2 * np.pi)
        d = np.float32([[np.cos(ang), np.sin(ang)], [-np.sin(ang), np.cos(ang)]]) * s / 2
        out.append(np.float32([[cx, cy]]) + np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) @ d)
    return out


def _cut_back_ends(img: np.ndarray, record: dict, folder: Path, stem: str, size: int) -> int:
    """Write both ends of each of the record's mostly visible face-down cards (not those under a
    face-up card) as ``back_*.png`` crops; how many."""

    quads = back_end_quads(record["cards"])
    for k, e, end in quads:
        cv2.imwrite(str(folder / f"back_{stem}_{k}_{e}.png"), straighten(img, end, size))
    return len(quads)


def none_crops(dataset: Path, per_image: int = 6, seed: int = 0, size: int = 64) -> int:
    """Cut crops with no card end in them into ``crops/{split}/none``, ``per_image`` at random
    places and the ends of face-down cards (as :func:`back_end_crops`); returns how many."""
    rng = np.random.default_rng(seed)
    n = 0
    for folder, stem, record in _none_records(dataset):
        img = cv2.imread(str(dataset / record["image"]))
        if img is None:
            continue
        h, w = img.shape[:2]
        for made, q in enumerate(none_quads(record["cards"], w, h, rng, per_image)):
            M = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [size, 0], [size, size], [0, size]]))
            crop = cv2.warpPerspective(img, M, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
            cv2.imwrite(str(folder / f"{stem}_{made}.png"), crop)
            n += 1
        n += _cut_back_ends(img, record, folder, stem, size)
    return n


def back_end_crops(dataset: Path, size: int = 64) -> int:
    """Cut both ends of every mostly visible face-down card into ``crops/{split}/none`` (files
    ``back_*.png``); returns how many. An end under a face-up card is skipped. Without these the
    reader took a draw pile's plain back for a plain joker (a false ``J`` on one game video).
    :func:`none_crops` cuts them too; this adds them to a set whose ``none`` crops were cut before."""
    n = 0
    for folder, stem, record in _none_records(dataset):
        if not _backs(record):
            continue
        img = cv2.imread(str(dataset / record["image"]))
        if img is not None:
            n += _cut_back_ends(img, record, folder, stem, size)
    return n
