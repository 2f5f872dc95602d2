"""Which of sisepai's optional parts are installed: the commands that need one check here first
and say in one line what to install (the engine itself needs nothing beyond Python).

>>> require_vision() is None  # this checkout has the vision extra
True
"""

from __future__ import annotations

import importlib.util

from .errors import SisepaiError

VISION_MODULES = ("cv2", "numpy", "PIL")
"""What the ``vision`` extra brings that the generator and the recogniser cannot do without."""


def require_vision() -> None:
    """A one-line error when the ``vision`` extra (OpenCV, numpy, Pillow) is not installed; the
    commands that need it call this first. Looked for, not imported: the check costs nothing."""
    for name in VISION_MODULES:
        if importlib.util.find_spec(name) is None:
            raise SisepaiError(f"this command needs the vision extra ({name} is missing): "
                               "pip install 'sisepai[vision]'")
