"""Camera frames to cards: detection, reading and table state (needs the ``vision`` extra).

Four rooms, one job each: :mod:`.recognition` (a picture to cards), :mod:`.live` (following a
table over video), :mod:`.hand` (reading and scoring a finished hand) and :mod:`.decks` (a
player's own deck: its faces, store and grid cut).
"""

from sisepai.engine.errors import SisepaiError


def require_vision() -> None:
    """A one-line error when the ``vision`` extra (OpenCV, numpy, Pillow) is not installed; the
    commands that need it call this first."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
        import PIL  # noqa: F401
    except ModuleNotFoundError as exc:
        raise SisepaiError(f"this command needs the vision extra ({exc.name} is missing): "
                           "pip install 'sisepai[vision]'") from None
