"""The shipped OBB detector (ultralytics): whole face-up cards, card ends, and card backs.

The adapter :func:`from_ultralytics` is the only place that touches ultralytics' result types.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from sisepai.vision.recognition import runtime as runtimes
from sisepai.vision.recognition.direct import DirectOpenVINO
from sisepai.vision.recognition.obb_nms import install as near_nms
from sisepai.vision.recognition.yolo_env import yolo

DEFAULT_WEIGHTS = Path(__file__).resolve().parents[1] / "weights" / "detector.pt"
NAMES = ("card", "end", "back")


@dataclass
class Boxes:
    """Oriented boxes of one image: (N, 4, 2) corners, confidences and part classes."""

    polygons: np.ndarray
    confidence: np.ndarray
    part: np.ndarray  # 0 card, 1 end, 2 back

    def select(self, part: int) -> "Boxes":
        m = self.part == part
        return Boxes(self.polygons[m], self.confidence[m], self.part[m])

    def __len__(self) -> int:
        return len(self.confidence)


def from_ultralytics(result) -> Boxes:
    """Adapter from an ultralytics OBB result to :class:`Boxes`."""
    obb = result.obb
    if obb is None or len(obb) == 0:
        return Boxes(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))
    return Boxes(obb.xyxyxyxy.cpu().numpy().astype(np.float32), obb.conf.cpu().numpy().astype(np.float32),
                 obb.cls.cpu().numpy().astype(np.int64))


DIRECT_RUNTIMES = ("openvino", "openvino-int8")
"""Runtimes whose export is called directly (:mod:`.direct`), not through ultralytics' predictor."""

AGNOSTIC_NMS = True
"""One NMS over every class of outline, so one outline is one part: a face-down pile card also
taken for a face-up card (read as a joker with a plain face) is kept only as what the detector is
surer of. Ends are too small inside their card to overlap it past ``iou``. Chosen again on the
tuning scenes and videos (``models/tuning/recognition_tune.py``): the same events either way, and F1
0.911 against 0.910 per class (``docs/training-logs/recognizer-floors.md``)."""


class Detector:
    def __init__(self, model, imgsz: int = 640, conf: float = 0.25, iou: float = 0.5, agnostic: bool = AGNOSTIC_NMS,
                 runtime: str = "torch", exported: Path | None = None):
        self.model = model
        self.imgsz = imgsz
        self.conf = conf
        self.iou = iou
        self.agnostic = agnostic
        self.runtime = runtime
        """Where the network runs (:mod:`.runtime`): ``torch``, ``openvino`` or ``onnx``."""
        self.exported = exported
        """The file or folder the network was loaded from (:func:`.runtime.exported_detector`)."""
        self.threads: int | None = None
        """The inference threads set last (:meth:`set_threads`)."""
        self.direct = None
        """The exported network called without ultralytics' predictor (:mod:`.direct`), where the
        runtime has such a path; the same boxes."""

    @classmethod
    def load(cls, weights: str | Path = DEFAULT_WEIGHTS, runtime: str | None = None, **kwargs) -> "Detector":
        """The detector of ``weights`` (a ``.pt`` file), run by ``runtime`` (default
        ``$SISEPAI_RUNTIME`` or ``auto``: :func:`sisepai.vision.recognition.runtime.resolve`); an
        export for another runtime than PyTorch is made once and kept."""

        path = Path(weights)
        if not path.is_file():
            raise FileNotFoundError(f"detector weights not found: {path} (train them with: sisepai train detector)")
        chosen = runtimes.resolve(runtime)
        imgsz = kwargs.get("imgsz", 640)
        try:
            exported = runtimes.exported_detector(path, chosen, imgsz)
        except Exception as exc:  # noqa: BLE001 - any exporter failure: PyTorch reads the same
            if runtimes.is_named(runtime):
                raise
            print(f"sisepai: the {chosen} export of the detector failed ({str(exc).splitlines()[0][:160]}); "
                  "running it in PyTorch", file=sys.stderr)
            chosen, exported = "torch", path
        threads = runtimes.inference_threads()
        det = cls(yolo()(str(exported), task="obb"), runtime=chosen, exported=exported, **kwargs)
        near_nms()  # the same boxes, the overlaps of far-apart boxes not worked out (obb_nms)
        if chosen in DIRECT_RUNTIMES:
            det.direct = DirectOpenVINO(exported, imgsz, threads)
        det.detect([np.zeros((64, 64, 3), np.uint8)])  # set the network up now, not on the first frame
        det.set_threads(threads)  # the cores other programs leave free
        return det

    def set_threads(self, threads: int) -> None:
        """Run on at most ``threads`` threads (:func:`~sisepai.vision.recognition.runtime.limit_threads`),
        PyTorch's too (the reader's)."""

        self.threads = threads
        if self.direct is not None:
            import torch

            torch.set_num_threads(threads)
            if self.direct.threads != threads:
                self.direct.set_threads(threads)
            return
        runtimes.limit_threads(self.model, threads, self.exported)

    def detect(self, images_bgr: Sequence[np.ndarray], iou: float | None = None) -> list[Boxes]:
        """Oriented boxes for each BGR image, overlapping boxes past ``iou`` (default: the
        detector's) kept as one. A portrait picture is looked at turned a quarter clockwise (the
        detector learned landscape frames), and its boxes turned back."""
        if not len(images_bgr):
            return []
        iou = self.iou if iou is None else iou
        portrait = [im.shape[0] > im.shape[1] for im in images_bgr]
        views = [cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE) if turn else im for im, turn in zip(images_bgr, portrait)]
        if self.direct is not None:
            boxes = [Boxes(*self.direct.detect_one(v, self.conf, iou, self.agnostic)) for v in views]
        else:
            results = self.model.predict(views, imgsz=self.imgsz, conf=self.conf, iou=iou,
                                         verbose=False, device="cpu",
                                         agnostic_nms=self.agnostic)
            boxes = [from_ultralytics(r) for r in results]
        for b, im, turn in zip(boxes, images_bgr, portrait):
            if turn:
                b.polygons = unturn_quarter(b.polygons, im.shape[0])
        return boxes


def unturn_quarter(points: np.ndarray, height: int) -> np.ndarray:
    """Points of a picture turned a quarter clockwise, back in the picture's own coordinates
    (continuous: pixel ``i`` spans ``[i, i + 1]``; ``height``: the picture's height before the turn).

    >>> img = np.zeros((4, 2), np.uint8); img[3, 1] = 1   # a portrait picture, a dot at x=1, y=3
    >>> y, x = np.argwhere(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE))[0]
    >>> unturn_quarter(np.float32([[x + 0.5, y + 0.5]]), img.shape[0]).tolist()  # the dot's centre
    [[1.5, 3.5]]
    """
    points = np.asarray(points, np.float32)
    return np.stack([points[..., 1], height - points[..., 0]], axis=-1)
