"""Import ultralytics offline: no hub, no downloads, settings kept inside the project."""

from __future__ import annotations

from sisepai.engine.environment import hand_to_ultralytics


def setup_offline() -> None:
    """Set ultralytics' environment (must run before ``import ultralytics``)."""
    hand_to_ultralytics()


def yolo():
    """The ``ultralytics.YOLO`` class, imported offline."""
    setup_offline()
    from ultralytics import YOLO

    return YOLO
