"""A phone's close-up photo: shallow depth of field, a phone's white balance, noise and sharpening.

A phone held close over cards focuses on the middle: the picture is sharp there and blurs
towards the edges (:func:`depth_of_field`). Its automatic white balance errs further than a
webcam's (a warm lamp, a cold window), its small sensor adds colour noise, and it sharpens what it
keeps (:func:`phone_look`). Both act on an RGB frame before the camera's own light and JPEG.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> frame = np.full((60, 80, 3), 128, np.uint8)
>>> depth_of_field(frame, rng).shape, phone_look(frame, rng).dtype
((60, 80, 3), dtype('uint8'))
"""

from __future__ import annotations

import cv2
import numpy as np

EDGE_BLUR = (1.5, 5.0)
"""The Gaussian sigma at the picture's corners, in pixels of a 720-line frame; the middle is sharp."""
SHARP_RADIUS = (0.25, 0.5)
"""The sharp middle's radius, as a share of the picture's half-diagonal."""
PHONE_WHITE_BALANCE = (0.75, 1.3)
"""Each channel's white-balance gain in a phone photo (a webcam's: :data:`~.camera.WHITE_BALANCE`)."""
CHROMA_NOISE = (2.0, 7.0)
"""Per-channel noise, as standard deviation in levels."""


def depth_of_field(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The frame sharp around a focus point near its middle, blurred more and more towards the
    edges (two blur levels blended by distance)."""
    h, w = frame.shape[:2]
    sigma = rng.uniform(*EDGE_BLUR) * h / 720
    fx, fy = w / 2 + rng.uniform(-0.1, 0.1) * w, h / 2 + rng.uniform(-0.1, 0.1) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    half_diag = np.hypot(w, h) / 2
    d = np.hypot(xx - fx, yy - fy) / half_diag
    sharp = rng.uniform(*SHARP_RADIUS)
    t = np.clip((d - sharp) / max(1.0 - sharp, 1e-3), 0, 1)[..., None]
    img = frame.astype(np.float32)
    soft = cv2.GaussianBlur(img, (0, 0), sigma / 2)
    softer = cv2.GaussianBlur(img, (0, 0), sigma)
    out = np.where(t < 0.5, img * (1 - 2 * t) + soft * (2 * t), soft * (2 - 2 * t) + softer * (2 * t - 1))
    return np.clip(out, 0, 255).astype(np.uint8)


def phone_look(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A phone's white balance, colour noise and sharpening on an RGB frame."""
    img = frame.astype(np.float32) * rng.uniform(*PHONE_WHITE_BALANCE, 3).astype(np.float32)
    img += cv2.GaussianBlur(rng.standard_normal(img.shape, dtype=np.float32), (0, 0), 0.8) * rng.uniform(*CHROMA_NOISE)
    amount = rng.uniform(0.2, 0.8)
    img = img * (1 + amount) - cv2.GaussianBlur(img, (0, 0), 1.5) * amount
    return np.clip(img, 0, 255).astype(np.uint8)
