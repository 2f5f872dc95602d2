"""Import ultralytics offline: no hub, no downloads, settings kept inside the project."""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parents[1] / ".ultralytics"


def setup_offline() -> None:
    """Set ultralytics' environment (must run before ``import ultralytics``)."""
    os.environ["YOLO_OFFLINE"] = "true"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ.setdefault("YOLO_VERBOSE", "false")
    if "YOLO_CONFIG_DIR" not in os.environ:
        CONFIG_DIR.mkdir(parents=True, exist_ok=True)
        os.environ["YOLO_CONFIG_DIR"] = str(CONFIG_DIR)


def yolo():
    """The ``ultralytics.YOLO`` class, imported offline."""
    setup_offline()
    from ultralytics import YOLO

    return YOLO
