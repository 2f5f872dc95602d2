"""Write scenes as an ultralytics OBB dataset, with one ground-truth JSON per image and
optional straightened card-end crops.

Layout of a dataset folder::

    data.yaml                      names: the 29 card codes, in the engine's class order
    images/{train,val}/NNNNNN.jpg
    labels/{train,val}/NNNNNN.txt  class x1 y1 x2 y2 x3 y3 x4 y4 (normalised), labelled cards only
    annotations/{train,val}/NNNNNN.json   every card: code, corners, ends, visibility, zone, meld
    dataset.json                   what made it: generator, seed, options, formats, shard
    README.md, preview.png         the dataset card (:mod:`.card`); COCO and Hugging Face files: :mod:`.formats`
    crops/{train,val}/CODE/NNNNNN_K_E.png (with --crops): each visible card end, upright, 64x64
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.scenes.scene import (
    GENERATOR_VERSION,
    LABEL_MIN_BY_LAYOUT,
    LABEL_MIN_CHAR_VISIBLE,
    LAYOUTS,
    Scene,
    make_scene,
)
from sisepai.datasets.scenes.spec import SceneSpec
from sisepai.engine.cards import CARD_CODES
from sisepai.faces.deck import DeckFaces

CROP_SIZE = 64
CROP_MIN_VISIBLE = 0.5
"""An end is cropped for the reader when this share of it shows; in the layouts of
:data:`~sisepai.datasets.scenes.scene.LABEL_MIN_BY_LAYOUT` (a fan held across the table), from
their own smaller share, so the reader learns the strips a detector finds there."""


@dataclass(frozen=True)
class GenerateOptions:
    seed: int = 0
    size: tuple[int, int] = (1280, 720)
    layouts: tuple[str, ...] = LAYOUTS
    val: float = 0.1
    crops: bool = False
    font_split: str = "train"
    max_tilt: float = 45.0
    deck_faces: str | None = None
    """A folder of a real deck's face images (:mod:`.deck_faces`) to lay instead of generated styles."""
    yolo: bool = True
    """Write the ultralytics OBB labels (``labels/``)."""
    printed: bool | None = None
    """Printed-deck traits on (``True``), off (``False``) or as the fonts' split decides (``None``)."""
    family: str | None = None
    """Every deck a printing of this family (:data:`~.families.FAMILIES`), printed traits on."""
    without_family: str | None = None
    """No deck a printing of this family: a family left out of training."""
    photos: str | None = None
    """A folder of photographs a scene's table may be, besides scikit-image's."""
    scripts: tuple[str, ...] | None = None
    """The scripts printed decks beyond the families are drawn in (default :data:`~.scripts.SCRIPTS`)."""
    script_share: float | None = None
    """The share of those decks drawn in a script (default :data:`~.printed.SCRIPT_SHARE`)."""


@lru_cache(maxsize=4)
def _deck_faces(folder: str):
    return DeckFaces.load(folder)


def split_of(seed: int, index: int, val: float) -> str:
    """``train`` or ``val`` for a scene: a fixed draw from (seed, index), whatever the workers."""
    return "val" if np.random.default_rng([seed, index, 1]).random() < val else "train"


def write_data_yaml(out: Path) -> None:
    """The ultralytics dataset file; paths are relative to the file's folder."""
    lines = ["# sisepai synthetic Four Color Cards scenes (OBB); class ids follow sisepai.engine.cards.CARD_CODES",
             "train: images/train", "val: images/val", f"nc: {len(CARD_CODES)}", "names:"]
    lines += [f"  {i}: {code}" for i, code in enumerate(CARD_CODES)]
    (out / "data.yaml").write_text("\n".join(lines) + "\n")


def obb_lines(scene: Scene) -> list[str]:
    h, w = scene.image.shape[:2]
    out = []
    for card in scene.labelled():
        pts = np.clip(np.float64(card["corners"]) / [w, h], 0.0, 1.0)
        out.append(f"{card['class_id']} " + " ".join(f"{v:.6f}" for v in pts.reshape(-1)))
    return out


def end_crop(image: np.ndarray, corners: list[list[float]], size: int = CROP_SIZE, margin: float = 0.08) -> np.ndarray:
    """The straightened end region: the card's edge at the top, the character upright."""
    q = np.float32(corners)
    centre = q.mean(0)
    q = centre + (q - centre) * (1 + margin)
    dst = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    M = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, M, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def scene_record(scene: Scene, index: int, opts: GenerateOptions, split: str, name: str) -> dict:
    h, w = scene.image.shape[:2]
    return {
        "image": f"images/{split}/{name}.jpg", "width": w, "height": h, "index": index, "seed": opts.seed,
        "split": split, "layout": scene.layout, "generator": GENERATOR_VERSION,
        "label_rule": f"face up and at least {LABEL_MIN_BY_LAYOUT.get(scene.layout, LABEL_MIN_CHAR_VISIBLE):.0%} "
                      "of one character visible",
        "deck": scene.style.summary() | ({"faces": Path(opts.deck_faces).name} if opts.deck_faces else {}),
        "camera": scene.camera.summary(),
        "cards": scene.cards, "clutter": scene.clutter,
    }


def generate_one(out: Path, index: int, opts: GenerateOptions) -> dict:
    """Make and write scene ``index``; returns a small summary for the progress display."""
    deck = _deck_faces(opts.deck_faces) if opts.deck_faces else None
    spec = SceneSpec(size=opts.size, layouts=opts.layouts, font_split=opts.font_split, max_tilt=opts.max_tilt,
                     deck=deck, printed=opts.printed, family=opts.family, without_family=opts.without_family,
                     photos=opts.photos, scripts=opts.scripts, script_share=opts.script_share)
    scene = make_scene(opts.seed, index, spec=spec)
    split = split_of(opts.seed, index, opts.val)
    name = f"{index:06d}"
    bgr = scene.image[..., ::-1]
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, scene.camera.jpeg])
    assert ok
    (out / "images" / split / f"{name}.jpg").write_bytes(buf.tobytes())
    if opts.yolo:
        (out / "labels" / split / f"{name}.txt").write_text("\n".join(obb_lines(scene)) + ("\n" if scene.labelled() else ""))
    record = scene_record(scene, index, opts, split, name)
    (out / "annotations" / split / f"{name}.json").write_text(json.dumps(record, sort_keys=True))
    n_crops = 0
    if opts.crops:
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)  # crop what a model will see: the JPEG
        least = min(CROP_MIN_VISIBLE, LABEL_MIN_BY_LAYOUT.get(scene.layout, CROP_MIN_VISIBLE))  # a fan's strips too
        for k, card in enumerate(scene.cards):
            for e, end in enumerate(card["ends"]):
                if end["visible"] < least or not card["face_up"]:
                    continue
                folder = out / "crops" / split / card["card"]
                folder.mkdir(parents=True, exist_ok=True)
                ok, png = cv2.imencode(".png", end_crop(decoded, end["corners"]))
                (folder / f"{name}_{k:02d}_{e}.png").write_bytes(png.tobytes())
                n_crops += 1
    return {"index": index, "split": split, "layout": scene.layout, "labelled": len(scene.labelled()),
            "crops": n_crops}


def prepare_folders(out: Path, yolo: bool = True) -> None:
    for sub in ("images", "labels", "annotations") if yolo else ("images", "annotations"):
        for split in ("train", "val"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
    if yolo:
        write_data_yaml(out)
