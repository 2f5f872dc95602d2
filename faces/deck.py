"""A printed deck as a value: its 28 (or 29) card faces as images, and the rules they must keep.

A deck is a folder of one image a card kind, named by code: ``GK.png`` ... ``RP.jpg``, and ``J.*``
when the deck has jokers. Each is a scan or a photo of one card, cut to its edges, either way up
(a landscape picture is turned to portrait). :class:`DeckFaces` loads them, checks them against
the rules below (one of each of the 28 kinds, a joker optional, long and narrow, large enough to
learn from) and saves them. The deck store, the grid cut, enrolment and the generator (which
renders them into scenes, :func:`sisepai.datasets.design.deck_faces.printed_face`) all use this one value.

>>> import numpy as np
>>> deck = DeckFaces({code: np.full((200, 40, 3), 200, np.uint8) for code in FACE_CODES})
>>> round(deck.aspect, 1), deck.has_joker, len(deck.codes)
(5.0, False, 28)
>>> len(FACE_CODES), FACE_CODES[:3], ASPECT_RANGE
(28, ('GK', 'GA', 'GE'), (2.2, 8.0))
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES, parse_card_id
from sisepai.engine.errors import InvalidCardError, SisepaiError

FACE_CODES: tuple[str, ...] = tuple(CARD_CODES[:-1])
"""The 28 faces every deck must have: G W Y R, each K A E R H C P."""
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
MIN_FACE_WIDTH = 24
"""A face narrower than this (pixels, after turning it upright) has too little detail to learn from."""
MAX_FACE_PIXELS = 4096 * 4096
"""A face image larger than this is refused before it is decoded in full."""
ASPECT_RANGE = (2.2, 8.0)
"""Height over width of a card face; a picture outside this is not one long, narrow card."""


class DeckError(SisepaiError):
    """A deck's faces are missing, unreadable or not card-shaped."""

    code = "deck_faces"


def read_face(path: Path) -> np.ndarray:
    """One face image as RGB uint8, upright (portrait); a :class:`DeckError` naming the file when
    it is empty, not an image, or too large."""
    data = np.fromfile(str(path), np.uint8)
    if not len(data):
        raise DeckError(f"{path.name}: the file is empty")
    header = cv2.imdecode(data, cv2.IMREAD_REDUCED_GRAYSCALE_8)  # a cheap look at the size first
    if header is None:
        raise DeckError(f"{path.name}: not an image OpenCV can read")
    if header.shape[0] * header.shape[1] * 64 > MAX_FACE_PIXELS:
        raise DeckError(f"{path.name}: too large ({header.shape[1] * 8}x{header.shape[0] * 8} or more); "
                        f"scale it under 4096x4096")
    img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is None:
        raise DeckError(f"{path.name}: not an image OpenCV can read")
    if img.shape[1] > img.shape[0]:
        img = np.ascontiguousarray(np.rot90(img))
    return np.ascontiguousarray(img[..., ::-1])


def find_face_files(folder: Path) -> dict[str, Path]:
    """The face image of each code in ``folder``: file names are codes in any case, or a suit letter
    and the printed character (``G將.png``), with any image suffix.

    Raises :class:`DeckError` naming the missing codes, or a code given twice.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise DeckError(f"{folder}: not a folder of face images")
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:  # GK.png, gk.jpg, G將.png, R俥.png, j.png
            code = CARD_CODES[parse_card_id(path.stem)]
        except InvalidCardError:
            continue
        if code in found:
            raise DeckError(f"two images for {code}: {found[code].name} and {path.name}")
        found[code] = path
    missing = [c for c in FACE_CODES if c not in found]
    if missing:
        raise DeckError(f"{folder}: no face image for {', '.join(missing)} "
                        f"(expected files named GK.png ... RP.png, and J.png for a joker)")
    return found


class DeckFaces:
    """The faces of one printed deck: RGB uint8 images, upright, keyed by card code."""

    def __init__(self, faces: dict[str, np.ndarray]):
        missing = [c for c in FACE_CODES if c not in faces]
        if missing:
            raise DeckError(f"no face for {', '.join(missing)}")
        self.faces = {c: np.ascontiguousarray(img) for c, img in faces.items() if c in CARD_CODES}
        for code, img in self.faces.items():
            if img.ndim != 3 or img.shape[2] != 3:
                raise DeckError(f"{code}: a face must be an RGB image")
            h, w = img.shape[:2]
            if w < MIN_FACE_WIDTH:
                raise DeckError(f"{code}: the face is {w} px wide; at least {MIN_FACE_WIDTH} px are needed")
            if not ASPECT_RANGE[0] <= h / w <= ASPECT_RANGE[1]:
                raise DeckError(f"{code}: a {w}x{h} picture is not one long, narrow card "
                                f"(height over width {h / w:.1f}; cards are {ASPECT_RANGE[0]:g} to {ASPECT_RANGE[1]:g})")
        self.aspect = float(np.median([img.shape[0] / img.shape[1] for img in self.faces.values()]))
        self.as_given: "DeckFaces | None" = None
        """The faces as the player gave them, before enrolment cut a scanner bed off them (None: these are)."""

    @classmethod
    def load(cls, folder: str | Path) -> "DeckFaces":
        """Read every face of ``folder`` (see :func:`find_face_files`)."""
        return cls({code: read_face(path) for code, path in find_face_files(Path(folder)).items()})

    @property
    def has_joker(self) -> bool:
        return "J" in self.faces

    @property
    def codes(self) -> list[str]:
        return [c for c in CARD_CODES if c in self.faces]

    def save(self, folder: str | Path) -> None:
        """Write each face as ``CODE.png`` into ``folder`` (made if missing)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for code, img in self.faces.items():
            cv2.imwrite(str(folder / f"{code}.png"), img[..., ::-1])
