"""Faces cut from a photo of the deck laid out in the documented grid."""

import cv2
import numpy as np
import pytest

from sisepai.datasets.deck_faces import DeckError
from sisepai.datasets.standin import standin_deck
from sisepai.vision.deck_grid import GRID_COLUMNS, GRID_ROWS, cut_grid


def grid_photo(deck, joker: bool, tilt: float = 3.0, drop: str | None = None) -> np.ndarray:
    """The deck's faces on a dark wooden-looking table in the grid, each turned a little; BGR."""
    rng = np.random.default_rng(0)
    w = 70
    h = int(w * deck.aspect)
    rows = 5 if joker else 4
    table = np.full((rows * (h + 40) + 60, 7 * (w + 40) + 60, 3), (35, 60, 90), np.uint8)
    table = np.clip(table + rng.normal(0, 6, table.shape), 0, 255).astype(np.uint8)
    codes = [[f"{s}{r}" for r in GRID_COLUMNS] for s in GRID_ROWS] + ([["J"]] if joker else [])
    for r, row in enumerate(codes):
        for c, code in enumerate(row):
            if code == drop:
                continue
            face = cv2.resize(deck.faces[code], (w, h))[..., ::-1]
            if (r + c) % 3 == 0:
                face = np.ascontiguousarray(face[::-1, ::-1])  # either way up
            cx, cy = 50 + c * (w + 40) + w / 2, 50 + r * (h + 40) + h / 2
            M = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-tilt, tilt), 1.0)
            M[:, 2] += (cx - w / 2, cy - h / 2)
            mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), M, table.shape[1::-1])
            warped = cv2.warpAffine(face, M, table.shape[1::-1])
            table[mask > 127] = warped[mask > 127]
    return table


@pytest.fixture(scope="module")
def deck():
    return standin_deck(0, "tune", width=70)


def test_grid_gives_each_face_in_its_place(deck):
    faces = cut_grid([grid_photo(deck, joker=True)])
    assert len(faces) == 29
    def look(img):  # blurred past the halftone screen, at one size
        return cv2.GaussianBlur(cv2.resize(img, (40, 160), interpolation=cv2.INTER_AREA), (0, 0), 2).astype(np.float32)

    def distance(a, b):  # either way up
        return min(np.abs(a - b).mean(), np.abs(a - b[::-1, ::-1]).mean())

    for code in faces:
        cut = look(faces[code])
        nearest = min(deck.faces, key=lambda o: distance(cut, look(deck.faces[o])))
        assert nearest == code


def test_a_missing_card_is_reported_by_row(deck):
    with pytest.raises(DeckError, match=r"found 27 cards in 4 rows \(7, 6, 7, 7\)"):
        cut_grid([grid_photo(deck, joker=False, drop="WE")])


def test_two_photos_read_as_one_tall_photo(deck):
    photo = grid_photo(deck, joker=False)
    half = photo.shape[0] // 2
    faces = cut_grid([photo[:half], photo[half:]])
    assert len(faces) == 28


def test_a_face_on_a_scanner_bed_is_cut_to_the_card_and_cut_faces_stay():
    from sisepai.datasets.standin import TEST_DECKS, TUNE_DECKS
    from sisepai.vision.deck_grid import trim_face

    for split, n in (("test", TEST_DECKS), ("tune", TUNE_DECKS)):
        for k in range(n):
            deck = standin_deck(k, split, width=80)
            for code, face in deck.faces.items():  # cut to their edges, frames and bands included
                assert trim_face(face).shape == face.shape, (split, k, code)
    face = standin_deck(2, "test", width=80).faces["YH"]
    h, w = face.shape[:2]
    bed = np.full((h + 120, w + 160, 3), 246, np.uint8)
    M = cv2.getRotationMatrix2D((w / 2, h / 2), 2.0, 1.0)
    M[:, 2] += (80, 60)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), M, bed.shape[1::-1])
    bed[mask > 127] = cv2.warpAffine(face, M, bed.shape[1::-1])[mask > 127]
    cut = trim_face(bed)
    assert abs(cut.shape[0] - h) <= 4 and abs(cut.shape[1] - w) <= 4
    assert np.abs(cv2.resize(cut, (w, h)).astype(float) - face).mean() < 20
