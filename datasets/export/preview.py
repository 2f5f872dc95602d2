"""Contact sheets: thumbnails of scenes with their labels drawn on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

THUMB = (480, 270)


def draw_labels(image: np.ndarray, record: dict) -> np.ndarray:
    """Outline labelled cards in green with their code, unlabelled face-up cards in grey."""
    out = image.copy()
    for card in record["cards"]:
        pts = np.int32(card["corners"])
        if card["labelled"]:
            cv2.polylines(out, [pts], True, (0, 230, 0), 2, cv2.LINE_AA)
            for end in card["ends"]:
                if end["visible"] >= 0.5:
                    cv2.polylines(out, [np.int32(end["corners"])], True, (0, 200, 255), 1, cv2.LINE_AA)
            x, y = pts.min(0)
            cv2.putText(out, card["card"], (int(x), int(max(y - 4, 12))), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        (255, 255, 255), 3, cv2.LINE_AA)
            cv2.putText(out, card["card"], (int(x), int(max(y - 4, 12))), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        (0, 120, 0), 1, cv2.LINE_AA)
        elif card["face_up"]:
            cv2.polylines(out, [pts], True, (160, 160, 160), 1, cv2.LINE_AA)
    return out


def contact_sheet(folder: Path, records: list[dict], out: Path, cols: int = 3) -> None:
    thumbs = []
    for r in records:
        img = cv2.imread(str(folder / r["image"]))
        if img is None:
            continue
        img = draw_labels(img, r)
        thumb = cv2.resize(img, THUMB, interpolation=cv2.INTER_AREA)
        cv2.putText(thumb, f"{r['layout']} #{r['index']}", (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 3)
        cv2.putText(thumb, f"{r['layout']} #{r['index']}", (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1)
        thumbs.append(thumb)
    if not thumbs:
        thumbs = [np.zeros((THUMB[1], THUMB[0], 3), np.uint8)]
    while len(thumbs) % cols:
        thumbs.append(np.zeros_like(thumbs[0]))
    rows = [np.hstack(thumbs[i:i + cols]) for i in range(0, len(thumbs), cols)]
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.vstack(rows))
