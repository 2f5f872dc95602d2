"""Flat pictures of a deck as detector training scenes: grid photos and scanned sheets.

A player enrols a deck from a photo of its grid (:mod:`.grid_photo`) or from scans; the detector
must find every card there and no card in the table's tiles or on the scanner bed's margin. This
module writes such pictures of generated training decks in the dataset layout of
:mod:`.export` (``images/``, ``annotations/``), so :func:`sisepai.models.training.prepare.prepare_detector`
turns them into detector labels like any scene: each card and its two ends, fully visible.

``sisepai dataset flat --out DIR --n N`` writes them (half grid photos, half scanned sheets).

>>> import tempfile
>>> out = Path(tempfile.mkdtemp())
>>> record = write_flat(out, 0, seed=3, kind="sheet")
>>> record["layout"], record["cards"][0]["visible"], len(record["cards"][0]["ends"])
('sheet', 1.0, 2)
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.render import DeckStyle, render_face
from sisepai.datasets.export.writer import prepare_folders, split_of
from sisepai.datasets.scenes.grid_photo import TABLE_KINDS, grid_photo
from sisepai.datasets.scenes.scene import GENERATOR_VERSION
from sisepai.engine.cards import CARD_CODES, END_FRACTION

FLAT_KINDS = ("grid", "sheet")


class _RenderedDeck:
    """A generated training deck's faces as :func:`~.grid_photo.grid_photo` takes a deck."""

    def __init__(self, style: DeckStyle, width: int, rng: np.random.Generator):
        self.faces = {}
        for code in CARD_CODES:
            face = render_face(code, style, width, rng).image
            a = face[..., 3:].astype(np.float32) / 255
            self.faces[code] = (face[..., :3] * a + 235 * (1 - a)).astype(np.uint8)
        self.aspect = float(style.aspect)
        self.has_joker = True


def _card(code: str, quad: np.ndarray, face_w: float, face_h: float) -> dict:
    """The ground truth of a fully visible card whose face corners (top-left first, clockwise) are ``quad``."""
    src = np.float32([[0, 0], [face_w, 0], [face_w, face_h], [0, face_h]])
    H = cv2.getPerspectiveTransform(src, np.float32(quad))
    depth = END_FRACTION * face_w
    ends = []
    for region in (np.float32([[0, 0], [face_w, 0], [face_w, depth], [0, depth]]),
                   np.float32([[face_w, face_h], [0, face_h], [0, face_h - depth], [face_w, face_h - depth]])):
        poly = cv2.perspectiveTransform(region[None].astype(np.float64), H)[0]
        ends.append({"corners": np.round(poly, 2).tolist(), "visible": 1.0})
    return {"card": code, "class_id": CARD_CODES.index(code), "face_up": True,
            "corners": np.round(np.float64(quad), 2).tolist(), "ends": ends, "visible": 1.0,
            "char_visible": 1.0, "labelled": True, "zone": "flat", "meld": None}


def grid_scene(rng: np.random.Generator, style: DeckStyle) -> tuple[np.ndarray, list[dict]]:
    """A phone photo of a generated deck's grid on a random table: BGR image and its cards."""
    deck = _RenderedDeck(style, int(rng.integers(90, 160)), rng)
    table = str(rng.choice(TABLE_KINDS))
    photo = grid_photo(deck, table, seed=int(rng.integers(2**31)), size=(1280, 960), joker=bool(rng.random() < 0.5))
    fh, fw = next(iter(deck.faces.values())).shape[:2]
    cards = []
    for code, c in photo.outlines.items():
        quad = np.float32([c[1], c[2], c[3], c[0]])  # boxPoints' bottom-left first -> the face's top-left first
        cards.append(_card(code, quad, fw, fh))
    return photo.image, cards


def sheet_scene(rng: np.random.Generator, style: DeckStyle) -> tuple[np.ndarray, list[dict]]:
    """A flatbed scan of 3-14 generated cards on a plain bed, maybe a little skewed: BGR image and its cards."""
    width = int(rng.integers(50, 200))
    codes = [str(c) for c in rng.choice(CARD_CODES, int(rng.integers(3, 15)))]
    faces = [render_face(c, style, width, rng).image for c in codes]
    fh = faces[0].shape[0]
    per_row = min(len(codes), int(rng.integers(3, 15)))
    gap = int(width * rng.uniform(0.1, 0.6))
    rows = -(-len(codes) // per_row)
    bed = int(rng.integers(200, 256))
    sheet = np.full((rows * (fh + gap) + gap, per_row * (width + gap) + gap, 3), bed, np.uint8)
    quads = []
    for i, face in enumerate(faces):
        y, x = gap + (i // per_row) * (fh + gap), gap + (i % per_row) * (width + gap)
        a = face[..., 3:].astype(np.float32) / 255
        roi = sheet[y:y + fh, x:x + width]
        sheet[y:y + fh, x:x + width] = (face[..., :3] * a + roi * (1 - a)).astype(np.uint8)
        quads.append(np.float32([[x, y], [x + width, y], [x + width, y + fh], [x, y + fh]]))
    h, w = sheet.shape[:2]
    if rng.random() < 0.5:  # a slightly skewed scan
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-4, 4)), 1.0)
        sheet = cv2.warpAffine(sheet, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)
        quads = [cv2.transform(q[None], turn)[0] for q in quads]
    cards = [_card(code, q, width, fh) for code, q in zip(codes, quads)]
    return np.ascontiguousarray(sheet[..., ::-1]), cards


def write_flat(out: Path, index: int, seed: int, kind: str | None = None, val: float = 0.05) -> dict:
    """Make flat picture ``index`` (a grid photo or a scanned sheet, of a generated training deck
    with printed traits) and write it into the dataset ``out``; returns its record."""
    rng = np.random.default_rng([seed, index, 0xF1A7])
    kind = kind or FLAT_KINDS[int(rng.integers(len(FLAT_KINDS)))]
    if kind not in FLAT_KINDS:
        raise ValueError(f"unknown flat picture {kind!r} (known: {', '.join(FLAT_KINDS)})")
    style = DeckStyle.random(rng, "train", printed=True)
    image, cards = (grid_scene if kind == "grid" else sheet_scene)(rng, style)
    prepare_folders(out)
    split = split_of(seed, index, val)
    name = f"{index:06d}"
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        raise ValueError(f"flat picture {index}: JPEG encoding failed")
    (out / "images" / split / f"{name}.jpg").write_bytes(buf.tobytes())
    h, w = image.shape[:2]
    record = {"image": f"images/{split}/{name}.jpg", "width": w, "height": h, "index": index, "seed": seed,
              "split": split, "layout": kind, "generator": GENERATOR_VERSION, "deck": style.summary(),
              "cards": cards, "clutter": []}
    (out / "annotations" / split / f"{name}.json").write_text(json.dumps(record, sort_keys=True))
    return record
