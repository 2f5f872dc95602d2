"""``sisepai train``: train the detector and the reader on generated data, then measure them.

Standard library only at import time; torch and ultralytics load when the command runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from sisepai.engine.errors import SisepaiError
from sisepai.engine.extras import require_vision
from sisepai.models.training.train import DETECTOR_ARCHS, train_detector
from sisepai.vision.recognition.reader_net import ARCHS

MODELS = Path(__file__).resolve().parent
WEIGHTS = MODELS.parent / "vision" / "weights"
"""The shipped weights (the runtime's, in ``sisepai.vision``): ``--install`` replaces them."""

EPILOG = """\
steps (all by default; pick with --only):
  detector   prepare the card/end/back labels from the ground truth, train the OBB detector
  reader     cut 'none' crops, train the card-end reader CNN on the dataset crops
  evaluate   precision/recall/F1 per layout on the held-out test set (as shot, and turned to
             portrait), and reading scans of cards (models/evaluation/scan_eval.py) -> models/metrics.json

examples (the shipped model, see models/MODEL_CARD.md):
  sisepai dataset generate --out data/train1 --n 900 --seed 1 --crops
  sisepai dataset generate --out data/crops2 --n 1500 --seed 2 --crops
  sisepai dataset generate --out data/crops3 --n 1800 --seed 3 --crops
  sisepai dataset generate --out data/crops5 --n 2000 --seed 5 --crops
  sisepai dataset generate --out data/fans6 --n 700 --seed 6 --layouts fan --crops
  sisepai dataset generate --out data/test_holdout12 --n 300 --seed 99 --fonts holdout --val 1 --crops
  sisepai train --data data/train1 --only detector --detector-epochs 9
  sisepai train --data data/crops3 --only detector --detector-init vision/weights/detector.pt --detector-epochs 4 --detector-lr 0.002 --runs runs/det3
  sisepai train --data data/crops5 --detector-data data/fans6 --only detector --detector-init vision/weights/detector.pt --detector-epochs 2 --detector-lr 0.002 --runs runs/d5
  sisepai train --data data/train1 --reader-data data/crops2 data/crops3 --only reader --reader-epochs 16 --runs runs/v2
  sisepai train --data data/crops5 --reader-data data/fans6 --only reader --reader-init vision/weights/reader.pt --reader-epochs 8 --reader-lr 0.0015 --runs runs/r5
  sisepai train --data data/train1 --test data/test_holdout12 --only evaluate
On a CUDA GPU (the shipped weights' last run, models/training/train_gpu.sh):
  sisepai train --data DIR --detector-data DIR --only detector --device 0 --workers 10 --batch 64 --detector-hours 0.1
  sisepai train --data DIR --reader-data DIR --only reader --device 0 --reader-minutes 5
Runs resume from their last checkpoint (runs/detector/weights/last.pt, runs/reader/checkpoint.pt):
run the same command again after an interruption.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train the recogniser (detector + reader) and measure it",
                       description="Train sisepai's card recogniser offline, resumably.", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, required=True, metavar="DIR", help="a generated dataset (with --crops)")
    p.add_argument("--reader-data", type=Path, nargs="*", default=[], metavar="DIR",
                   help="more generated datasets whose crops train the reader")
    p.add_argument("--detector-data", type=Path, nargs="*", default=[], metavar="DIR",
                   help="more generated datasets the detector trains on (e.g. a fan-only set)")
    p.add_argument("--test", type=Path, metavar="DIR", help="held-out test set (generated with --fonts holdout)")
    p.add_argument("--only", choices=("detector", "reader", "evaluate"), action="append",
                   help="run only these steps (repeatable)")
    p.add_argument("--runs", type=Path, default=Path("runs"), metavar="DIR", help="checkpoints (default runs/)")
    p.add_argument("--detector-epochs", type=int, default=12)
    p.add_argument("--imgsz", type=int, default=640)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--detector-init", type=Path, metavar="PT",
                   help="fine-tune the detector from these weights (e.g. vision/weights/detector.pt) instead of from scratch")
    p.add_argument("--detector-arch", choices=DETECTOR_ARCHS, default=None,
                   help="the detector's network: yolov8n (YOLOv8n-OBB, the shipped one's, the default) or lite0 "
                        "(its neck and head on EfficientNet-Lite0's backbone from ImageNet photographs); with "
                        "--detector-init of the other kind, the new network's neck and head start from those weights")
    p.add_argument("--detector-freeze", type=int, default=0, metavar="N",
                   help="keep the detector's first N layers as they start: 2 holds lite0's ImageNet backbone "
                        "(only its projections, neck and head learn), 10 YOLOv8n's backbone (default 0: none)")
    p.add_argument("--detector-lr", type=float, default=None,
                   help="initial learning rate (default 0.01 from scratch, 0.004 when fine-tuning)")
    p.add_argument("--reader-epochs", type=int, default=8)
    p.add_argument("--reader-lr", type=float, default=3e-3, help="peak one-cycle learning rate (default 3e-3)")
    p.add_argument("--reader-init", type=Path, metavar="PT",
                   help="fine-tune the reader from these weights (same arch) instead of from scratch")
    p.add_argument("--reader-arch", choices=ARCHS, default=None,
                   help="the reader's network: v2 (a small CNN from random weights, the default), or lite0 "
                        "(EfficientNet-Lite0's first layers from ImageNet photographs); with --reader-init, the "
                        "arch of those weights")
    p.add_argument("--reader-colour", type=float, nargs=3, default=None, metavar=("HUE", "SATURATION", "CAST"),
                   help="the reader's colour augmentation: hue turn in degrees, saturation change and per-channel "
                        "cast (default 12 0.3 0.16); a smaller hue turn keeps an orange red suit apart from yellow")
    p.add_argument("--device", default="cpu", metavar="DEV",
                   help="where to train: cpu (default) or a CUDA GPU index such as 0")
    p.add_argument("--workers", type=int, default=2, metavar="N", help="detector data-loading processes (default 2)")
    p.add_argument("--detector-hours", type=float, default=None, metavar="H",
                   help="fit the detector run into H hours instead of --detector-epochs (re-planned after epoch 1)")
    p.add_argument("--reader-minutes", type=float, default=None, metavar="M",
                   help="as many reader epochs as fit in M minutes (timed on a few steps), instead of --reader-epochs")
    p.add_argument("--install", action="store_true",
                   help="copy the new weights over the shipped ones in models/ (by default they stay in --runs)")
    p.add_argument("--no-install", action="store_true", help=argparse.SUPPRESS)  # the old default, kept for scripts
    p.set_defaults(func=_train)


def _check_train_args(args, steps: list[str]) -> None:
    """Every argument checked before any long work starts: a missing test set or a dataset
    without crops fails in a second, not after hours of training."""
    for flag, path in (("--detector-init", args.detector_init), ("--reader-init", args.reader_init)):
        if path is not None and not path.is_file():
            raise SisepaiError(f"{flag} {path}: no such weights file")
    if not (args.data / "data.yaml").is_file():
        raise SisepaiError(f"{args.data} is not a generated dataset: sisepai dataset generate --out {args.data} ...")
    if "detector" in steps:
        for d in args.detector_data:
            if not (d / "data.yaml").is_file():
                raise SisepaiError(f"--detector-data {d} is not a generated dataset")
    if "reader" in steps:
        for d in [args.data, *args.reader_data]:
            if not (d / "crops").is_dir():
                raise SisepaiError(f"{d} has no crops: generate it with --crops")
    if "evaluate" in steps:
        if not args.test:
            raise SisepaiError("evaluate needs --test DIR (a held-out generated test set); "
                               "or leave it out with --only detector --only reader")
        if not any((args.test / "annotations").glob("*/*.json")):
            raise SisepaiError(f"--test {args.test} holds no generated scenes")
    from sisepai.datasets.design.face_prints import refuse_tuning_faces  # lazy: NumPy, OpenCV

    refuse_tuning_faces([args.data, *args.reader_data, *args.detector_data])
    if args.install and args.no_install:
        raise SisepaiError("--install and --no-install contradict each other")
    for n, name in ((args.detector_epochs, "--detector-epochs"), (args.reader_epochs, "--reader-epochs")):
        if n < 1:
            raise SisepaiError(f"{name} must be at least 1")
    if not 0 <= args.detector_freeze <= 22:
        raise SisepaiError("--detector-freeze takes 0 to 22 layers (the detector has 23; its head is the last)")


def _train(args) -> int:
    require_vision()
    steps = args.only or ["detector", "reader", "evaluate"]
    if args.device != "cpu":
        _require_gpu(args.device)
    _check_train_args(args, steps)
    runs = args.runs.resolve()
    trained: dict[str, Path] = {}
    if "detector" in steps:
        from sisepai.models.training.prepare import combine_detector_sets  # lazy: NumPy, OpenCV

        yaml = combine_detector_sets([args.data, *args.detector_data], runs / "detector_data.yaml")
        print(f"detector: training on {yaml} ({args.detector_epochs} epochs, imgsz {args.imgsz})")
        lr = args.detector_lr or (0.004 if args.detector_init else 0.01)
        trained["detector"] = train_detector(
            yaml, runs, epochs=args.detector_epochs, imgsz=args.imgsz, batch=args.batch, init=args.detector_init,
            lr0=lr, device=args.device, workers=args.workers, hours=args.detector_hours,
            cache="ram" if args.device != "cpu" else False, arch=args.detector_arch, freeze=args.detector_freeze)
    if "reader" in steps:
        from sisepai.models.training.prepare import none_crops  # lazy: NumPy, OpenCV
        from sisepai.models.training.train_reader import COLOUR_AUGMENT, train_reader  # lazy: NumPy, OpenCV

        sets = [args.data, *args.reader_data]
        for d in sets:
            if not (d / "crops" / "train" / "none").is_dir():
                print(f"reader: cutting 'none' crops from {d}: {none_crops(d, per_image=5)}")
        out = runs / "reader" / "reader.pt"
        train_reader(sets, out, epochs=args.reader_epochs, checkpoint=runs / "reader" / "checkpoint.pt",
                     init=args.reader_init, lr=args.reader_lr, minutes=args.reader_minutes,
                     colour=tuple(args.reader_colour) if args.reader_colour else COLOUR_AUGMENT,
                     arch=args.reader_arch,
                     device=_torch_device(args.device))
        trained["reader"] = out
    for kind, path in trained.items():
        if args.install:
            shutil.copyfile(path, WEIGHTS / f"{kind}.pt")
            print(f"{kind}: installed {path} -> {WEIGHTS / f'{kind}.pt'}")
        else:
            print(f"{kind}: new weights in {path} (add --install to replace {WEIGHTS / f'{kind}.pt'})")
    if "evaluate" in steps:
        metrics = evaluate_all(args.test, trained.get("detector"), trained.get("reader"))
        target = MODELS / "metrics.json" if args.install or not trained else runs / "metrics.json"
        target.write_text(json.dumps(metrics, indent=1))
        print(json.dumps(metrics, indent=1))
        print(f"metrics: {target}")
    return 0


def _require_gpu(device: str) -> None:
    """A clear error, not a traceback, for ``--device 0`` where torch sees no such GPU."""
    import torch

    name = _torch_device(device)
    index = int(name.split(":")[1]) if ":" in name else 0
    if not torch.cuda.is_available() or index >= torch.cuda.device_count():
        raise SisepaiError(f"--device {device}: torch sees no such CUDA GPU here "
                           f"({torch.cuda.device_count()} found); train with --device cpu")


def _torch_device(device: str) -> str:
    """ultralytics' device names in torch's words.

    >>> _torch_device("0"), _torch_device("cpu"), _torch_device("cuda:1")
    ('cuda:0', 'cpu', 'cuda:1')
    """
    return f"cuda:{device}" if device.isdigit() else device


def evaluate_all(test: Path, detector: Path | None = None, reader: Path | None = None) -> dict:
    from sisepai.models.evaluation.evaluate import evaluate_recognizer  # lazy: NumPy, OpenCV
    from sisepai.models.evaluation.scan_eval import evaluate_scans  # lazy: NumPy, OpenCV, Pillow
    from sisepai.models.training.train_reader import reader_metrics  # lazy: NumPy, OpenCV
    from sisepai.vision.recognition.recognize import Recognizer  # lazy: NumPy, OpenCV

    rec = Recognizer.load(detector, reader)
    split = "val" if any((test / "annotations" / "val").glob("*.json")) else "train"
    metrics = {"test_set": str(test), "recognizer": evaluate_recognizer(rec, test, split)}
    metrics["reader_on_holdout_crops"] = reader_metrics(reader or WEIGHTS / "reader.pt", [test], split)
    portrait = evaluate_recognizer(rec, test, split, portrait=True)
    metrics["portrait"] = {"layouts": {k: {"f1": v["f1"], "precision": v["precision"], "recall": v["recall"]}
                                       for k, v in portrait["layouts"].items()}, "overall": portrait["overall"]}
    metrics["scans"] = evaluate_scans(rec)
    return metrics
