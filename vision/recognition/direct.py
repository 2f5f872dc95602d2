"""The exported detector called directly: letterbox, the compiled network, NMS, boxes.

ultralytics' predictor wraps an exported network in work a frame does not need (source loaders,
tensor copies, result objects). :class:`DirectOpenVINO` does what it does, the same way, and no
more: it letterboxes with OpenCV into a reused buffer exactly as ultralytics' ``LetterBox`` (to
the stride, centred, grey 114), runs the OpenVINO network compiled in 32-bit on a set number of
threads, keeps boxes over the confidence floor with ultralytics' own rotated NMS (made fast by
:mod:`.obb_nms`), and scales them back to the picture. ``tests/vision/recognition/test_direct.py``
checks that it finds the same boxes as the predictor.

ultralytics stays the tool for training and export (:mod:`.runtime` makes the export).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

STRIDE = 32
PAD_VALUE = 114
MAX_DET = 300


def letterbox_params(height: int, width: int, imgsz: int = 640, stride: int = STRIDE) -> tuple[int, int, int, int, int, int]:
    """``(new_h, new_w, top, bottom, left, right)`` of ultralytics' ``LetterBox(auto=True)`` for a
    ``height`` x ``width`` picture: resized so its long side is ``imgsz``, padded to the stride.

    >>> letterbox_params(720, 1280)
    (360, 640, 12, 12, 0, 0)
    """
    r = min(imgsz / height, imgsz / width)
    new_w, new_h = max(round(width * r), 1), max(round(height * r), 1)
    dw, dh = np.mod(imgsz - new_w, stride) / 2, np.mod(imgsz - new_h, stride) / 2
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    return new_h, new_w, top, bottom, left, right


class DirectOpenVINO:
    """An OpenVINO export of the OBB detector, called without ultralytics' predictor.

    ``detect_one`` takes a BGR picture and gives ``(corners (N, 4, 2), confidence (N,),
    class (N,))`` in the picture's pixels, as the predictor's ``result.obb`` gives them.
    """

    def __init__(self, exported: Path, imgsz: int = 640, threads: int = 1):
        import openvino as ov

        xml = exported if exported.suffix == ".xml" else next(Path(exported).glob("*.xml"))
        self.core = ov.Core()
        self.network = self.core.read_model(model=str(xml), weights=xml.with_suffix(".bin"))
        self.imgsz = imgsz
        self._buffer: np.ndarray | None = None
        self.set_threads(threads)

    def set_threads(self, threads: int) -> None:
        """Compile the network for ``threads`` threads, in full 32-bit arithmetic (as PyTorch reads)."""
        self.threads = threads
        self.compiled = self.core.compile_model(self.network, "CPU", {
            "PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": "f32"})

    def _input(self, image_bgr: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
        """The network's input for one picture (1, 3, H, W, float32 RGB in 0-1) and its padded size."""
        h, w = image_bgr.shape[:2]
        new_h, new_w, top, bottom, left, right = letterbox_params(h, w, self.imgsz)
        resized = image_bgr if (new_h, new_w) == (h, w) else cv2.resize(image_bgr, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
        ph, pw = new_h + top + bottom, new_w + left + right
        if self._buffer is None or self._buffer.shape != (1, 3, ph, pw):
            self._buffer = np.empty((1, 3, ph, pw), np.float32)
        padded = cv2.copyMakeBorder(resized, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3)
        # BGR HWC uint8 -> RGB CHW float in 0-1, written into the reused buffer
        np.multiply(padded[..., ::-1].transpose(2, 0, 1), np.float32(1 / 255), out=self._buffer[0], casting="unsafe")
        return self._buffer, (ph, pw)

    def detect_one(self, image_bgr: np.ndarray, conf: float = 0.25, iou: float = 0.5,
                   agnostic: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Corners, confidences and classes of one BGR picture's boxes over ``conf``, after NMS at
        ``iou`` over every class at once (``agnostic``) or class by class."""
        import torch
        from ultralytics.utils import nms, ops

        tensor, padded_shape = self._input(image_bgr)
        raw = next(iter(self.compiled(tensor).values()))
        names = raw.shape[1] - 5  # x, y, w, h, the classes' scores, the angle
        pred = nms.non_max_suppression(torch.from_numpy(raw), conf, iou, None, agnostic,
                                       max_det=MAX_DET, nc=names, rotated=True)[0]
        if not len(pred):
            return np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64)
        rboxes = torch.cat([pred[:, :4], pred[:, -1:]], dim=-1)
        rboxes[:, :4] = ops.scale_boxes(padded_shape, rboxes[:, :4], image_bgr.shape, xywh=True)
        corners = ops.xywhr2xyxyxyxy(rboxes)
        return (corners.numpy().astype(np.float32), pred[:, 4].numpy().astype(np.float32),
                pred[:, 5].numpy().astype(np.int64))
