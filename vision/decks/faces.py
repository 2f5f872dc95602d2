"""What a deck's face pictures must be: one of each of the 28 kinds (a joker optional), long and
narrow, large enough to learn from. The deck store, the grid cut and the generator's
:class:`~sisepai.datasets.deck_faces.DeckFaces` all check against these.

>>> len(FACE_CODES), FACE_CODES[:3], ASPECT_RANGE
(28, ('GK', 'GA', 'GE'), (2.2, 8.0))
"""

from __future__ import annotations

from sisepai.engine.cards import CARD_CODES
from sisepai.engine.errors import SisepaiError

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
