"""Does the Tesseract cross-check help the reader? Measured on held-out crops.

    python -m sisepai.models.evaluation.ocr_eval data/test_holdout [N]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from sisepai.engine.cards import CARD_CODES
from sisepai.models.evaluation import ocr
from sisepai.models.training.train_reader import load_crops
from sisepai.vision.recognition.reader import Reader

RANKS = "KAERHCP"


def main(folder: Path, n: int = 400, threshold: float = 0.6) -> dict:
    if not ocr.available():
        return {"error": "tesseract with chi_tra is not installed"}
    x, y = load_crops([folder], "val")
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(x))
    idx = [i for i in idx if y[i] < 28][:n]  # card crops with a character (not jokers, not none)
    reader = Reader.load()
    probs = reader.read([x[i] for i in idx])
    ocr_right = reader_right = combined_right = unsure = 0
    ms = []
    for k, i in enumerate(idx):
        truth_rank = CARD_CODES[y[i]][1]
        t = time.perf_counter()
        rank = ocr.ocr_rank(x[i])
        ms.append((time.perf_counter() - t) * 1000)
        ocr_right += rank == truth_rank
        pred = int(np.argmax(probs[k][:28]))
        reader_right += pred == y[i]
        final = pred
        if probs[k][pred] < threshold:
            unsure += 1
            if rank is not None:
                suit = pred // 7
                final = suit * 7 + RANKS.index(rank)
        combined_right += final == y[i]
    return {"crops": len(idx), "tesseract_rank_accuracy": round(ocr_right / len(idx), 4),
            "tesseract_ms_median": round(float(np.median(ms)), 1),
            "reader_accuracy": round(reader_right / len(idx), 4),
            "reader_plus_ocr_when_unsure_accuracy": round(combined_right / len(idx), 4),
            "unsure_share": round(unsure / len(idx), 4), "threshold": threshold}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 400), indent=1))
