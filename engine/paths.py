"""Where sisepai keeps its own files (enrolled decks, exported detectors, the HTTPS certificate).

>>> import os
>>> os.environ["SISEPAI_HOME"] = "/tmp/sisepai-home"; str(home())
'/tmp/sisepai-home'
>>> del os.environ["SISEPAI_HOME"]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def home() -> Path:
    """``$SISEPAI_HOME``, or the platform's user data folder for sisepai."""
    if os.environ.get("SISEPAI_HOME"):
        return Path(os.environ["SISEPAI_HOME"]).expanduser()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "sisepai"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "sisepai"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "sisepai"
