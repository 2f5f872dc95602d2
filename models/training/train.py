"""Training: the card/end/back detector (ultralytics OBB) and the card-end reader (a small CNN).

Both run offline on a CPU, reproducibly (fixed seeds) and resumably (checkpoints every epoch).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from sisepai.engine.errors import SisepaiError
from sisepai.vision.recognition.yolo_env import setup_offline

CARD_AUGMENT = {"fliplr": 0.0, "flipud": 0.0, "degrees": 0.0, "scale": 0.4, "translate": 0.1}
"""How every detector run of ours augments: never mirrored (a mirrored character is not a card),
no rotation beyond what the generator draws, scale and shift jitter."""
OFFLINE_RUN = {"optimizer": "SGD", "momentum": 0.937, "amp": False, "deterministic": True, "plots": False}
"""What every detector run of ours shares: a named optimizer (ultralytics' ``optimizer="auto"``
ignores ``lr0``), no mixed precision (its check downloads weights), reproducible, no plots."""


def fine_tune_schedule(lr0: float) -> dict:
    """A fine-tune's learning rate: no warm-up, ``lr0`` falling tenfold.

    >>> fine_tune_schedule(0.002)
    {'lr0': 0.002, 'lrf': 0.1, 'warmup_epochs': 0}
    """
    return {"lr0": lr0, "lrf": 0.1, "warmup_epochs": 0}


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
    arch: str | None = None,
    freeze: int = 0,
) -> Path:
    """Train (or resume) the OBB detector from a model YAML, or fine-tune it from ``init`` weights
    (no warm-up, ``lr0`` falling tenfold); returns the best weights.

    ``arch`` is the network (:data:`DETECTOR_ARCHS`): ``yolov8n`` (``model_yaml``, the shipped
    detector's) or ``lite0`` (:mod:`.detector_lite0`: EfficientNet-Lite0's ImageNet backbone under
    YOLOv8n-OBB's neck and head). Left out, it is ``init``'s (or ``yolov8n``). A ``lite0`` run
    from a ``yolov8n`` ``init`` is a new network whose neck and head start from ``init``'s, with
    the usual warm-up; from a ``lite0`` ``init`` it is a fine-tune.

    The optimizer is named (SGD, momentum 0.937): ultralytics' ``optimizer="auto"`` picks its own
    optimizer and learning rate and ignores ``lr0``.

    ``device`` is ultralytics' (``"cpu"``, ``"0"`` for the first CUDA GPU). ``hours`` fits the run into
    that time instead of ``epochs`` (ultralytics re-plans the epochs after the first one).
    ``freeze`` keeps the network's first layers as they start (ultralytics' ``freeze``): 2 holds a
    ``lite0`` detector's whole ImageNet backbone, its batch norms' statistics too (ultralytics keeps
    a frozen layer's), so only the projections, neck and head learn; 10 holds YOLOv8n's backbone.
    """
    setup_offline()
    from ultralytics import YOLO

    _results_without_polars()
    last = runs / name / "weights" / "last.pt"

    resuming = resume and last.exists()
    checkpoint = _checkpoint(last) if resuming else None
    if checkpoint is not None and checkpoint.get("optimizer") is None:
        pass  # a finished run (its optimizer stripped): kept as it is, ultralytics would start anew on its own data
    elif checkpoint is not None:
        model = YOLO(str(last))
        if device == "cpu":
            use_every_core(model)
        try:
            model.train(resume=True, **_trainer_of(checkpoint))
        except AssertionError as exc:  # the run already finished
            if "finished" not in str(exc):
                raise
    else:
        init_arch = detector_arch(init) if init else None
        arch = arch or init_arch or "yolov8n"
        if arch not in DETECTOR_ARCHS:
            raise ValueError(f"unknown detector arch {arch!r} (one of {', '.join(DETECTOR_ARCHS)})")
        if init_arch == "lite0" and arch != "lite0":
            raise SisepaiError(f"{init} holds a lite0 detector: a {arch} run cannot start from it")
        fine_tune = init is not None and init_arch == arch
        model = YOLO(str(init) if fine_tune else model_yaml)
        if device == "cpu":
            use_every_core(model)
        extra = {}
        if arch == "lite0":
            from .detector_lite0 import trainer  # lazy: only lite0 runs build it

            extra = {"trainer": trainer(neck_from=None if fine_tune else init)}
        # a lite0 network from a YOLOv8n checkpoint: only the projections into the neck start new, so one
        # epoch of warm-up, not ultralytics' three
        schedule = fine_tune_schedule(lr0) if fine_tune else {"lr0": lr0, **({"warmup_epochs": 1} if init else {})}
        model.train(**schedule, **OFFLINE_RUN, **CARD_AUGMENT,
                    data=str(data_yaml), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers, device=device,
                    mosaic=1.0, close_mosaic=max(1, epochs // 5), project=str(runs), name=name, exist_ok=True,
                    seed=0, patience=100, save_period=1, verbose=True, cache=cache,
                    **({"time": hours} if hours else {}), **({"freeze": freeze} if freeze else {}), **extra)
    best = runs / name / "weights" / "best.pt"
    return best if best.exists() else last


DETECTOR_ARCHS = ("yolov8n", "lite0")
"""The detector's networks: YOLOv8n-OBB (shipped), or its neck and head on EfficientNet-Lite0's
ImageNet backbone (:mod:`.detector_lite0`)."""


def _checkpoint(path: Path) -> dict:
    """An ultralytics checkpoint file as it was saved (its network, optimizer state and epoch)."""
    import torch

    return torch.load(path, map_location="cpu", weights_only=False)


def detector_arch(weights: Path) -> str:
    """The network an ultralytics OBB checkpoint holds (:data:`DETECTOR_ARCHS`)."""
    from .detector_lite0 import checkpoint_is_lite0  # lazy: torch, ultralytics

    return "lite0" if checkpoint_is_lite0(weights) else "yolov8n"


def _trainer_of(checkpoint: dict) -> dict:
    """``{"trainer": ...}`` when resuming a ``lite0`` run (ultralytics would rebuild YOLOv8n from
    the YAML and keep only the weights that fit it), else nothing."""
    from .detector_lite0 import is_lite0, trainer  # lazy: torch, ultralytics

    return {"trainer": trainer()} if is_lite0(checkpoint.get("ema") or checkpoint.get("model")) else {}


def use_every_core(model) -> None:
    """Train ``model`` (ultralytics) on every CPU core: it leaves torch at one thread on a small CPU,
    and two threads make a step 1.5x faster on 2 cores."""
    for event in ("on_train_start", "on_train_epoch_start"):
        model.add_callback(event, lambda trainer: _use_cores())


def _use_cores() -> None:

    import torch

    torch.set_num_threads(max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


def read_results_csv(path: Path) -> dict[str, list[float]]:
    """ultralytics' results.csv as columns, with the standard library (what polars gives it).

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "results.csv"
    >>> _ = f.write_text("epoch,metrics/mAP50(B)\\n1,0.5\\n2,0.75\\n")
    >>> read_results_csv(f)
    {'epoch': [1.0, 2.0], 'metrics/mAP50(B)': [0.5, 0.75]}
    """

    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}


def _results_without_polars() -> None:
    """ultralytics reads results.csv with polars when it saves a checkpoint; use the csv module where
    polars is not installed (a bare GPU machine)."""
    try:
        import polars  # noqa: F401
    except ModuleNotFoundError:
        from ultralytics.engine.trainer import BaseTrainer

        BaseTrainer.read_results_csv = lambda self: read_results_csv(self.csv)
