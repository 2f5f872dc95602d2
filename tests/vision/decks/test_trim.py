"""Faces kept whole: a scan's bed is cut, and everything printed on the card stays, whatever the
card prints near its edges (a frame inset with paper outside it, such a frame with black bars
across both ends inside it, bars along one or both long edges, corner marks, ornaments), on pale
and dark papers and light and dark beds, at the aspects decks are printed in."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sisepai.vision.decks.trim import trim_face

PAPERS = {"cream": (235, 225, 200), "yellow": (250, 220, 60), "green": (40, 140, 60), "white": (242, 242, 238),
          "red": (190, 40, 40), "navy": (30, 40, 90)}
BEDS = {"light": (252, 252, 252), "dark": (22, 22, 24)}


def _face(structure: str, paper: tuple[int, int, int], aspect: float, w: int = 110) -> np.ndarray:
    h = int(round(w * aspect))
    ink = (25, 25, 25)
    face = np.full((h, w, 3), paper, np.uint8)
    if structure == "frame":
        inset, t = int(0.07 * w), max(2, w // 40)
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset), ink, t)
    elif structure == "frame and end bars":  # a coloured margin, a thin black frame, black bars across both ends inside it
        inset, t = int(0.06 * w), max(2, w // 50)
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset), ink, t)
        bar = int(0.07 * h)
        face[inset:inset + bar, inset:w - inset] = ink
        face[h - inset - bar:h - inset, inset:w - inset] = ink
    elif structure in ("bars", "one bar"):
        bar = int(0.1 * w)
        face[:, :bar] = ink
        if structure == "bars":
            face[:, -bar:] = ink
    elif structure == "corners":
        for x, y in ((4, 4), (w - 16, 4), (4, h - 16), (w - 16, h - 16)):
            cv2.rectangle(face, (x, y), (x + 11, y + 11), ink, -1)
    elif structure == "ornament":
        for y in range(10, h - 10, 24):
            cv2.circle(face, (6, y), 4, ink, -1)
            cv2.circle(face, (w - 7, y), 4, ink, -1)
    cv2.putText(face, "K", (w // 3, h // 5), cv2.FONT_HERSHEY_SIMPLEX, 1.6, ink, 4)
    return face


@pytest.mark.parametrize("structure", ["frame", "frame and end bars", "bars", "one bar", "corners", "ornament"])
@pytest.mark.parametrize("bed", sorted(BEDS))
@pytest.mark.parametrize("aspect", [3.5, 4.5, 6.0])
def test_a_scanned_face_keeps_its_whole_width_and_loses_its_bed(structure, bed, aspect):
    for name, paper in PAPERS.items():
        face = _face(structure, paper, aspect)
        h, w = face.shape[:2]
        scan = np.full((h + 70, w + 70, 3), BEDS[bed], np.uint8)
        scan[35:35 + h, 35:35 + w] = face
        cut = trim_face(scan)
        ch, cw = sorted(cut.shape[:2], reverse=True)
        assert cw >= 0.97 * w and ch >= 0.97 * h, (name, cut.shape, face.shape)  # the card kept whole
        assert cw <= 1.03 * w and ch <= 1.03 * h, (name, cut.shape, face.shape)  # and the bed cut away
        assert trim_face(face).shape == face.shape, name  # a face cut to its edges stays as it is
