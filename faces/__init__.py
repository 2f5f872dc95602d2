"""Card facts that need numpy and OpenCV, below both the generator and vision: a printed deck's
faces (:mod:`.deck`) and the card's geometry (:mod:`.geometry`). The generator draws the very
faces and ends that vision reads, so both take them from here; the pure-Python card notation
stays in :mod:`sisepai.engine.cards`.

>>> from sisepai.faces.geometry import END_FRACTION
>>> END_FRACTION
1.15
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
