"""Training: the card/end/back detector (ultralytics OBB) and the card-end reader (a small CNN).

Both run offline on a CPU, reproducibly (fixed seeds) and resumably (checkpoints every epoch).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from .yolo_env import setup_offline

MODELS_DIR = Path(__file__).resolve().parent
DETECTOR_WEIGHTS = MODELS_DIR / "detector.pt"
READER_WEIGHTS = MODELS_DIR / "reader.pt"


def train_detector(
    data_yaml: Path,
    runs: Path,
    epochs: int = 12,
    imgsz: int = 640,
    batch: int = 16,
    resume: bool = True,
    workers: int = 2,
    model_yaml: str = "yolov8n-obb.yaml",
    name: str = "detector",
    init: Path | None = None,
    lr0: float = 0.01,
    device: str = "cpu",
    hours: float | None = None,
    cache: bool | str = False,
) -> Path:
    """Train (or resume) the OBB detector from a model YAML, or fine-tune it from ``init`` weights
    (no warm-up, ``lr0`` falling tenfold); returns the best weights.

    ``device`` is ultralytics' (``"cpu"``, ``"0"`` for the first CUDA GPU). ``hours`` fits the run into
    that time instead of ``epochs`` (ultralytics re-plans the epochs after the first one).
    """
    setup_offline()
    from ultralytics import YOLO

    last = runs / name / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        try:
            model.train(resume=True)
        except AssertionError as exc:  # the run already finished
            if "finished" not in str(exc):
                raise
    else:
        model = YOLO(str(init) if init else model_yaml)
        tune = {"lr0": lr0, "lrf": 0.1, "warmup_epochs": 0} if init else {"lr0": lr0}
        model.train(**tune,
            data=str(data_yaml), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers, device=device,
            amp=False, fliplr=0.0, flipud=0.0, mosaic=1.0, close_mosaic=max(1, epochs // 5), plots=False,
            project=str(runs), name=name, exist_ok=True, seed=0, deterministic=True, patience=100,
            save_period=1, verbose=True, cache=cache, degrees=0.0, scale=0.4, translate=0.1,
            **({"time": hours} if hours else {}),
        )
    best = runs / name / "weights" / "best.pt"
    return best if best.exists() else last
