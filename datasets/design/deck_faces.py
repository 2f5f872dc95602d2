"""A printed deck's faces rendered as the cards of generated scenes.

:func:`printed_face` turns one face of a :class:`~sisepai.faces.deck.DeckFaces` into a
:class:`~sisepai.datasets.design.render.Face`, so :func:`~sisepai.datasets.scenes.scene.make_scene` can lay that
deck on its tables instead of a generated style.

>>> import numpy as np
>>> from sisepai.faces.deck import FACE_CODES, DeckFaces
>>> deck = DeckFaces({code: np.full((200, 40, 3), 200, np.uint8) for code in FACE_CODES})
>>> face = printed_face(deck, "GK", width=30)
>>> face.image.shape, len(face.ends)
((150, 30, 4), 2)
"""

from __future__ import annotations

import cv2
import numpy as np

from sisepai.datasets.design.render import Face, rounded_alpha
from sisepai.engine.cards import END_FRACTION
from sisepai.faces.deck import DeckFaces


def printed_face(deck: DeckFaces, code: str, width: int, rng: np.random.Generator | None = None,
                corner: float = 0.06) -> Face:
    """The face of ``code`` as a :class:`Face` ``width`` px wide, at the deck's aspect, with
    rounded corners; its two ends are the generator's end regions. Each copy of a card is
    printed a little differently: ``rng`` adds a small shift of brightness and colour."""
    img = deck.faces[code]
    height = int(round(width * deck.aspect))
    out = np.zeros((height, width, 4), np.uint8)
    out[..., :3] = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
    if rng is not None:
        gain = 1 + rng.uniform(-0.06, 0.06, 3)
        out[..., :3] = np.clip(out[..., :3] * gain, 0, 255).astype(np.uint8)
    out[..., 3] = rounded_alpha(width, height, int(corner * width))
    depth = END_FRACTION * width
    top = np.float32([[0, 0], [width, 0], [width, depth], [0, depth]])
    bottom = np.float32([[width, height], [0, height], [0, height - depth], [width, height - depth]])
    return Face(out, [top, bottom], code)
