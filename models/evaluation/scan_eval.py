"""Scans of cards, in held-out fonts: how the recogniser reads pictures unlike a camera over a table.

The fonts are a split's (:data:`sisepai.datasets.design.splits.FONTS`): the honest held-out faces for
``--split test`` (the default; its record is ``benchmarks/results/scan_eval.json``, made once per
model version), the other held-out faces for ``--split tune``.

Two kinds of picture, drawn with :func:`sisepai.datasets.design.render.render_face` (no scene, no camera):

- **sheets**: 3 to 14 upright cards of one deck in a grid on a pale scanner bed, 50 to 220 px
  wide, sometimes skewed by up to 4 degrees; scored as card multisets (precision and recall);
- **singles**: one card, 60 to 300 px wide, cut to the card (margin 0) or on 6 or 40 px of bed,
  upright or lying; scored as exact matches (the picture reads as that one card and nothing else).

>>> sheet, codes = scan_sheet(np.random.default_rng(0))
>>> sheet.ndim, 3 <= len(codes) <= 14
(3, True)

Run: ``python -m sisepai.models.evaluation.scan_eval [--split test] [--sheets 40] [--singles 30]`` (each split's seed: ``datasets.design.splits.SCAN_SEEDS``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

import numpy as np

from sisepai.datasets.design.render import DeckStyle, render_face
from sisepai.datasets.design.splits import FONTS, SCAN_SEEDS
from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.recognize import Recognizer

from .records import add_again_option, at_defaults, begin_test, write_record

SINGLE_MARGINS = (0, 6, 40)


def sheet_of(faces: list[np.ndarray], per_row: int, gap: int, bed: int = 240) -> np.ndarray:
    """Card faces (RGB, one size) in a grid, ``per_row`` to a row, ``gap`` px apart, on a plain
    bed of grey level ``bed``: an RGB picture.

    >>> sheet_of([np.zeros((6, 2, 3), np.uint8)] * 3, per_row=2, gap=1).shape
    (15, 7, 3)
    """
    height, width = faces[0].shape[:2]
    rows = -(-len(faces) // per_row)
    sheet = np.full((rows * (height + gap) + gap, per_row * (width + gap) + gap, 3), bed, np.uint8)
    for i, face in enumerate(faces):
        y, x = gap + (i // per_row) * (height + gap), gap + (i % per_row) * (width + gap)
        sheet[y:y + height, x:x + width] = face
    return sheet


def on_bed(face: np.ndarray, margin: int, bed: int = 235) -> np.ndarray:
    """One card face (RGB) with ``margin`` px of plain bed of grey level ``bed`` around it.

    >>> on_bed(np.zeros((6, 2, 3), np.uint8), 3).shape
    (12, 8, 3)
    """
    scan = np.full((face.shape[0] + 2 * margin, face.shape[1] + 2 * margin, 3), bed, np.uint8)
    scan[margin:margin + face.shape[0], margin:margin + face.shape[1]] = face
    return scan


def scan_sheet(rng: np.random.Generator, fonts: str = "honest") -> tuple[np.ndarray, list[str]]:
    """A BGR picture of a grid of upright cards on a plain bed, and the cards' codes."""
    import cv2

    width, per_row = int(rng.integers(50, 220)), int(rng.integers(3, 17))
    style = DeckStyle.random(rng, fonts)
    codes = [str(c) for c in rng.choice(CARD_CODES, int(rng.integers(3, 15)))]
    faces = [render_face(c, style, width, rng).image[..., :3] for c in codes]
    gap = int(width * rng.uniform(0.1, 0.6))
    sheet = sheet_of(faces, min(len(codes), per_row), gap, int(rng.integers(200, 256)))
    h, w = sheet.shape[:2]
    if rng.random() < 0.5:  # a slightly skewed scan
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-4, 4)), 1.0)
        sheet = cv2.warpAffine(sheet, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(sheet[..., ::-1]), codes


def single_scan(rng: np.random.Generator, margin: int, fonts: str = "honest") -> tuple[np.ndarray, str]:
    """A BGR picture of one card with ``margin`` px of bed around it, and its code."""

    style = DeckStyle.random(rng, fonts)
    code = str(rng.choice(CARD_CODES))
    face = render_face(code, style, int(rng.integers(60, 300)), rng).image[..., :3]
    scan = on_bed(face, margin)
    if rng.random() < 0.5:
        scan = np.rot90(scan)
    return np.ascontiguousarray(scan[..., ::-1]), code


def evaluate_scans(recognizer, sheets: int = 40, singles: int = 30, seed: int | None = None, fonts: str = "tune") -> dict:
    """Sheet precision and recall, and the exact-match rate of single cards at each margin, in the
    font split ``fonts`` (:func:`sisepai.datasets.design.font_splits.fonts_of`; default the tuning fonts,
    with the tuning split's seed, :data:`sisepai.datasets.design.splits.SCAN_SEEDS`)."""

    rng = np.random.default_rng(SCAN_SEEDS["tune"] if seed is None else seed)
    right = predicted = truth = 0
    for _ in range(sheets):
        image, codes = scan_sheet(rng, fonts)
        got, want = Counter(recognizer.recognize(image).detections.codes), Counter(codes)
        right += sum((got & want).values())
        predicted += sum(got.values())
        truth += len(codes)
    out = {"seed": seed, "fonts": fonts, "sheets": {"pictures": sheets, "cards": truth,
                                    "precision": round(right / max(predicted, 1), 4),
                                    "recall": round(right / max(truth, 1), 4)}}
    exact = {}
    for margin in SINGLE_MARGINS:
        hits = 0
        for _ in range(singles):
            image, code = single_scan(rng, margin, fonts)
            hits += recognizer.recognize(image).detections.codes == [code]
        exact[f"margin_{margin}"] = round(hits / max(singles, 1), 4)
    out["singles"] = {"pictures_per_margin": singles, "exact_match": exact}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.evaluation.scan_eval", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sheets", type=int, default=40, help="sheets of cards to read (default 40)")
    p.add_argument("--singles", type=int, default=30, help="single-card scans per margin (default 30)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the split's, datasets.design.splits.SCAN_SEEDS)")
    p.add_argument("--split", choices=("tune", "test"), default="tune",
                   help="whose held-out fonts: tune (default) or test (the honest faces, read only on purpose; with the defaults, writes the record)")

    add_again_option(p)
    args = p.parse_args(argv)

    seed = SCAN_SEEDS[args.split] if args.seed is None else args.seed
    recorded = args.split == "test" and at_defaults(p, args, ("sheets", "singles", "seed"))
    key = begin_test("scan_eval", None, seed, args.again) if args.split == "test" else None  # any size reads it
    out = evaluate_scans(Recognizer.load(), args.sheets, args.singles, seed, FONTS[args.split])
    print(json.dumps(out, indent=1))

    if args.split == "test" and not recorded:
        print("not recorded: the test record is made with the default sheets, singles and seed")
    elif recorded:
        path = write_record("scan_eval", "python -m sisepai.models.evaluation.scan_eval --split test", out, split="test",
                            options={"sheets": args.sheets, "singles": args.singles, "seed": seed}, key=key,
                            again=args.again)
        print(f"record: {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
