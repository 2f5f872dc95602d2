"""Draw recognised cards on a frame: one method, ``annotate(scene, detections) -> scene``."""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.detections import Detections

SUIT_BGR = {"G": (60, 170, 60), "W": (235, 235, 235), "Y": (40, 210, 240), "R": (60, 60, 230), "J": (40, 20, 140)}


class CardAnnotator:
    """Outlines each card in its suit colour with its code and confidence."""

    def __init__(self, thickness: int = 2, font_scale: float = 0.5, show_confidence: bool = True):
        self.thickness = thickness
        self.font_scale = font_scale
        self.show_confidence = show_confidence

    def annotate(self, scene: np.ndarray, detections: Detections) -> np.ndarray:
        out = scene.copy()
        for poly, cid, conf in zip(detections.polygons, detections.class_id, detections.confidence):
            code = CARD_CODES[int(cid)]
            colour = SUIT_BGR["J" if code == "J" else code[0]]
            pts = np.round(poly).astype(np.int32)
            cv2.polylines(out, [pts], True, colour, self.thickness, cv2.LINE_AA)
            label = f"{code} {conf:.2f}" if self.show_confidence else code
            x, y = pts.min(0)
            org = (int(x), int(max(y - 4, 12)))
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, self.font_scale, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, self.font_scale, colour, 1, cv2.LINE_AA)
        return out
