"""OCR cross-check with Tesseract (``chi_tra``): read the rank of a straightened, upright card end.

For experiments (``python -m sisepai.models.evaluation.ocr_eval``), not used by the recogniser: on held-out
end crops Tesseract read 9% of ranks against the reader's 90.5%, and using it where the reader
is unsure changed nothing (models/MODEL_CARD.md). Install with ``pip install 'sisepai[ocr]'``
and ``apt-get install tesseract-ocr tesseract-ocr-chi-tra``; a missing Tesseract gives a
warning, never a failure.

>>> rank_of_text("俥")
'R'
>>> rank_of_text("?") is None
True
"""

from __future__ import annotations

import shutil
import warnings

import cv2
import numpy as np

from sisepai.engine.cards import GLYPH_VARIANTS

_GLYPH_RANK = {g: r for r, gs in GLYPH_VARIANTS.items() for g in gs}
_WARNED = False


def available() -> bool:
    global _WARNED
    ok = shutil.which("tesseract") is not None
    if ok:
        try:
            import pytesseract

            ok = "chi_tra" in pytesseract.get_languages(config="")
        except Exception:  # noqa: BLE001
            ok = False
    if not ok and not _WARNED:
        warnings.warn("tesseract with chi_tra is not installed: the OCR cross-check is off "
                      "(apt-get install tesseract-ocr tesseract-ocr-chi-tra)", stacklevel=2)
        _WARNED = True
    return ok


def rank_of_text(text: str) -> str | None:
    for ch in text:
        if ch in _GLYPH_RANK:
            return _GLYPH_RANK[ch]
    return None


def ocr_rank(crop_rgb: np.ndarray) -> str | None:
    """The rank Tesseract reads in an upright end crop, or ``None``."""
    import pytesseract

    gray = cv2.cvtColor(crop_rgb, cv2.COLOR_RGB2GRAY)
    big = cv2.resize(gray, (128, 128), interpolation=cv2.INTER_CUBIC)
    _, bw = cv2.threshold(big, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if (bw < 128).mean() > 0.5:
        bw = 255 - bw
    bw = cv2.copyMakeBorder(bw, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    whitelist = "".join(_GLYPH_RANK)
    text = pytesseract.image_to_string(bw, lang="chi_tra", config=f"--psm 10 -c tessedit_char_whitelist={whitelist}")
    return rank_of_text(text)
