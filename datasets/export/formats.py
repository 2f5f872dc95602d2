"""Dataset-wide files built from the per-scene ground truth: COCO, a Hugging Face ``imagefolder``
layout, the dataset card, and the merging of shards.

Every file here is a pure function of ``dataset.json`` and the scenes' ``annotations/*/*.json``,
written in scene order. So a dataset made in shards on several machines and merged
(``sisepai dataset merge``) is byte-identical to one made on one machine.

- ``annotations/instances_{train,val}.json`` (COCO): one image per scene, ``id`` = scene index + 1;
  one annotation per labelled card with an axis-aligned ``bbox``, its 4-point ``segmentation``
  polygon, ``category_id`` = the card's class id + 1 (COCO ids start at 1), and sisepai's own
  fields under ``sisepai`` (visible fraction, zone, layout, font family).
- ``images/{train,val}/metadata.jsonl`` (Hugging Face): ``datasets.load_dataset("imagefolder",
  data_dir=DIR / "images")`` loads each image with its cards.

>>> coco_category_ids()[:3]
[{'id': 1, 'name': 'GK', 'supercategory': 'G'}, {'id': 2, 'name': 'GA', 'supercategory': 'G'}, {'id': 3, 'name': 'GE', 'supercategory': 'G'}]
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Iterable

from sisepai.engine.cards import CARD_CODES
from sisepai.engine.errors import SisepaiError

FORMATS = ("yolo-obb", "coco", "hf")
SPLITS = ("train", "val")
META = "dataset.json"


def coco_category_ids() -> list[dict]:
    """COCO categories: the 29 card codes, ids 1 to 29 in the engine's class order."""
    return [{"id": i + 1, "name": code, "supercategory": "J" if code == "J" else code[0]}
            for i, code in enumerate(CARD_CODES)]


def scene_records(folder: Path, split: str) -> list[dict]:
    """The ground truth of every scene of ``split``, in scene order."""
    paths = sorted((folder / "annotations" / split).glob("[0-9]*.json"))
    return [json.loads(p.read_text()) for p in paths]


def _bbox(corners: list[list[float]], width: int, height: int) -> list[float]:
    xs = [min(max(x, 0.0), width) for x, _ in corners]
    ys = [min(max(y, 0.0), height) for _, y in corners]
    return [round(min(xs), 2), round(min(ys), 2), round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)]


def _polygon(corners: list[list[float]]) -> list[float]:
    return [round(float(v), 2) for pt in corners for v in pt]


def _labelled(record: dict) -> Iterable[dict]:
    return (c for c in record["cards"] if c.get("labelled"))


def coco(records: list[dict]) -> dict:
    """A COCO instances file for one split's scenes."""
    images, annotations = [], []
    next_id = 1
    for r in records:
        image_id = r["index"] + 1
        images.append({"id": image_id, "file_name": r["image"], "width": r["width"], "height": r["height"]})
        for card in _labelled(r):
            x, y, w, h = _bbox(card["corners"], r["width"], r["height"])
            annotations.append({
                "id": next_id, "image_id": image_id, "category_id": card["class_id"] + 1,
                "bbox": [x, y, w, h], "area": round(w * h, 2), "iscrowd": 0,
                "segmentation": [_polygon(card["corners"])],
                "sisepai": {"card": card["card"], "visible": round(card.get("visible", 1.0), 4),
                            "char_visible": round(card.get("char_visible", 1.0), 4), "zone": card.get("zone"),
                            "layout": r["layout"], "font": r["deck"]["font"]},
            })
            next_id += 1
    return {"info": {"description": "sisepai synthetic Four Color Cards scenes", "version": records[0]["generator"]
                     if records else ""},
            "licenses": [], "categories": coco_category_ids(), "images": images, "annotations": annotations}


def hf_rows(records: list[dict]) -> list[dict]:
    """``metadata.jsonl`` rows for the Hugging Face ``imagefolder`` loader (paths relative to the
    split's image folder)."""
    rows = []
    for r in records:
        cards = list(_labelled(r))
        rows.append({
            "file_name": Path(r["image"]).name, "scene": r["index"], "layout": r["layout"],
            "font": r["deck"]["font"],
            "cards": {"card": [c["card"] for c in cards], "category": [c["class_id"] for c in cards],
                      "bbox": [_bbox(c["corners"], r["width"], r["height"]) for c in cards],
                      "polygon": [_polygon(c["corners"]) for c in cards]},
        })
    return rows


def write_formats(folder: Path, formats: Iterable[str], records: dict[str, list[dict]] | None = None) -> None:
    """(Re)write the dataset-wide files of ``formats`` from the scenes' ground truth (``records``
    by split, when already read)."""
    formats = set(formats)
    for split in SPLITS:
        records_of_split = records[split] if records is not None else scene_records(folder, split)
        if "coco" in formats:
            path = folder / "annotations" / f"instances_{split}.json"
            path.write_text(json.dumps(coco(records_of_split), ensure_ascii=False, separators=(",", ":")))
        if "hf" in formats and records_of_split:  # an empty split gets no metadata: the loader would see a split with no rows
            path = folder / "images" / split / "metadata.jsonl"
            path.write_text("".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"
                                    for row in hf_rows(records_of_split)))


def check_formats(text: str) -> tuple[str, ...]:
    """``yolo-obb,coco,hf`` -> a tuple in a fixed order; unknown names raise with the known ones.

    >>> check_formats("hf,coco")
    ('coco', 'hf')
    """
    names = {x.strip() for x in text.split(",") if x.strip()}
    bad = sorted(names - set(FORMATS))
    if bad or not names:
        raise SisepaiError(f"unknown format(s) {', '.join(bad) or repr(text)}; choose from {', '.join(FORMATS)}")
    return tuple(f for f in FORMATS if f in names)


# --- merging shards -------------------------------------------------------------------------

def read_meta(folder: Path) -> dict:
    path = folder / META
    if not path.is_file():
        raise SisepaiError(f"{folder} is not a sisepai dataset (no {META}); make one with: sisepai dataset generate")
    return json.loads(path.read_text())


def merge(out: Path, shards: list[Path]) -> dict:
    """Join the shards of one generation into ``out``; returns the merged ``dataset.json``.

    The shards must share every option and together hold each scene 0..N-1 exactly once.
    """
    metas = [read_meta(s) for s in shards]
    base = {k: v for k, v in metas[0].items() if k != "shard"}
    for shard, meta in zip(shards, metas):
        other = {k: v for k, v in meta.items() if k != "shard"}
        if other != base:
            differ = sorted(k for k in set(base) | set(other) if base.get(k) != other.get(k))
            raise SisepaiError(f"{shard} was made with other options than {shards[0]} ({', '.join(differ)})")
    n = base["n"]
    seen: dict[int, Path] = {}
    for shard in shards:
        for split in SPLITS:
            for path in sorted((shard / "annotations" / split).glob("[0-9]*.json")):
                index = int(path.stem)
                if index in seen:
                    raise SisepaiError(f"scene {index} is in both {seen[index]} and {shard}")
                seen[index] = shard
    missing = sorted(set(range(n)) - set(seen))
    if missing:
        raise SisepaiError(f"{len(missing)} of {n} scenes are in no shard (first: {missing[0]}): "
                           "merge every shard K/N of the generation")
    from sisepai.datasets.export.writer import prepare_folders  # lazy: NumPy, OpenCV, Pillow

    prepare_folders(out, yolo="yolo-obb" in base["formats"])
    for shard in shards:
        for sub in ("images", "labels", "annotations", "crops"):
            src = shard / sub
            if not src.is_dir():
                continue
            for path in sorted(src.rglob("*")):
                if path.is_dir() or path.name == "metadata.jsonl" or path.name.startswith("instances_"):
                    continue
                target = out / path.relative_to(shard)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
    meta = dict(base, shard=[1, 1])
    (out / META).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return meta
