"""Face prints: a card face known by its look, not its name, so tuning decks never reach training.

A print is a small, contrast-normalised grey thumbnail of a face (:data:`PRINT_SIZE`). Two faces
match when their prints correlate above :data:`MATCH_CORRELATION`, upright or turned: a renamed,
rescaled, re-encoded or slightly recoloured copy of a face still matches, and two different cards
of one printing do not (``tests/datasets/design/test_face_prints.py`` measures both on the real tuning deck).

``sisepai dataset generate --deck-faces DIR`` stores the prints of the deck it lays in
``dataset.json``; ``sisepai train`` refuses any dataset whose prints match a tuning deck's
(:func:`refuse_tuning_faces`).

>>> import numpy as np
>>> face = np.full((300, 90, 3), 220, np.uint8); face[20:90, 15:75] = 30  # a character near one end
>>> matches(face_print(face), face_print(face[::2, ::2]))  # half the size
True
>>> matches(face_print(face), face_print(face[:, ::-1][40:]))  # another face
False
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.splits import REAL_DECKS, real_deck_folder
from sisepai.engine.errors import SisepaiError
from sisepai.faces.deck import DeckFaces

PRINT_SIZE = (12, 40)
"""(width, height) of a face print."""
MATCH_CORRELATION = 0.9
"""Prints correlating above this are one face."""


def face_print(face: np.ndarray) -> np.ndarray:
    """The print of one face (RGB or grey, portrait): a float32 (40, 12) thumbnail, zero mean, unit norm."""
    grey = face if face.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_RGB2GRAY)
    small = cv2.resize(grey, PRINT_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= small.mean()
    return small / (np.linalg.norm(small) + 1e-6)


def matches(a: np.ndarray, b: np.ndarray) -> bool:
    """Are prints ``a`` and ``b`` one face, upright or turned end over end?"""
    return max(float((a * b).sum()), float((a * b[::-1, ::-1]).sum())) > MATCH_CORRELATION


def encode_prints(prints: dict[str, np.ndarray]) -> dict[str, str]:
    """Prints as short text for ``dataset.json`` (8-bit, base64)."""
    out = {}
    for code, p in prints.items():
        q = np.clip(np.round(p * 127 / (np.abs(p).max() + 1e-6)), -127, 127).astype(np.int8)
        out[code] = base64.b64encode(q.tobytes()).decode()
    return out


def decode_prints(text: dict[str, str]) -> dict[str, np.ndarray]:
    """The prints :func:`encode_prints` wrote."""
    out = {}
    for code, b64 in text.items():
        q = np.frombuffer(base64.b64decode(b64), np.int8).astype(np.float32).reshape(PRINT_SIZE[1], PRINT_SIZE[0])
        q -= q.mean()
        out[code] = q / (np.linalg.norm(q) + 1e-6)
    return out


def deck_prints(faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The print of every face of a deck (code -> RGB face)."""
    return {code: face_print(img) for code, img in faces.items()}


def tuning_deck_prints() -> dict[str, dict[str, np.ndarray]]:
    """The prints of every real tuning deck found on this machine (:func:`.splits.real_deck_folder`).
    A tuning deck that is here but cannot be read raises: a deck that cannot be checked is not a
    passed check."""

    out = {}
    for name in REAL_DECKS["tune"]:
        folder = real_deck_folder(name)
        if folder is not None:
            try:
                out[name] = deck_prints(DeckFaces.load(folder).faces)
            except Exception as exc:  # noqa: BLE001 - any failure to read the deck: refuse, do not go on
                raise SisepaiError(f"the tuning deck {name} ({folder}) cannot be read to check the training data "
                                   f"against it: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from exc
            if not out[name]:
                raise SisepaiError(f"the tuning deck {name} ({folder}) has no faces to check the training data against")
    return out


def tuning_faces_in(prints: dict[str, np.ndarray], tuning: dict[str, dict[str, np.ndarray]] | None = None) -> list[str]:
    """Which faces among ``prints`` are a tuning deck's: ``"DECK:CODE"`` for each match."""
    tuning = tuning_deck_prints() if tuning is None else tuning
    found = []
    for deck, faces in tuning.items():
        for code, theirs in faces.items():
            if any(matches(theirs, mine) for mine in prints.values()):
                found.append(f"{deck}:{code}")
    return found


def refuse_tuning_faces(datasets: list[Path], tuning: dict[str, dict[str, np.ndarray]] | None = None) -> None:
    """Raise :class:`SisepaiError` when a dataset of ``datasets`` was drawn with a tuning deck's faces,
    whatever its folder or files were called: tuning decks choose, they never train.

    It fails closed: a dataset whose ``dataset.json`` is missing or unreadable, one laid with a real
    deck's faces but without their prints, or one laid with faces while no tuning deck can be
    compared on this machine, is refused too. Generated styles alone need no check.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "dataset.json").write_text('{"deck_faces": "mine"}')
    >>> refuse_tuning_faces([d], tuning={})
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: ... laid a real deck's faces but stores no prints of them ...
    """
    tuning_known = tuning_deck_prints() if tuning is None else tuning  # a tuning deck here that cannot be read raises
    for d in datasets:
        meta_file = Path(d) / "dataset.json"
        try:
            meta = json.loads(meta_file.read_text())
        except (OSError, ValueError) as exc:
            raise SisepaiError(f"{d}: its dataset.json cannot be read ({type(exc).__name__}), so it cannot be "
                               "checked against the tuning decks; generate it again with sisepai dataset generate") from exc
        prints = meta.get("deck_prints")
        if not meta.get("deck_faces") and not prints:
            continue  # generated styles only: no real deck's faces to check
        if not prints:
            raise SisepaiError(f"{d} laid a real deck's faces but stores no prints of them, so it cannot be checked "
                               "against the tuning decks; generate it again with this version")
        if not tuning_known:
            raise SisepaiError(f"{d} laid a real deck's faces, and no tuning deck is on this machine to check them "
                               f"against (set SISEPAI_DECKS to the shared decks folder)")
        found = tuning_faces_in(decode_prints(prints), tuning_known)
        if found:
            raise SisepaiError(f"{d} was drawn with the faces of a tuning deck ({', '.join(found[:3])}"
                               f"{' ...' if len(found) > 3 else ''}): tuning decks choose models, they are never trained on")
