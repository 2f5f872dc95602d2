"""The camera: a perspective view of the table plane, light, blur, noise and JPEG.

>>> import numpy as np
>>> cam = Camera.random(np.random.default_rng(0), 1280, 720)
>>> H = cam.homography()
>>> H.shape
(3, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from sisepai.datasets.design.colour_distance import EXPOSURE, WHITE_BALANCE
from sisepai.datasets.design.planes import plus_plane, times_channels, times_plane


@dataclass
class Camera:
    """A pinhole camera looking at the table plane (plane coords centred on the frame centre)."""

    width: int
    height: int
    tilt: float  # degrees from straight down
    roll: float  # degrees
    focal: float  # px
    exposure: float
    white_balance: tuple[float, float, float]
    blur: float
    motion: int
    motion_angle: float
    noise: float
    jpeg: int
    shadow: bool
    glare: bool
    vignette: float

    @classmethod
    def random(cls, rng: np.random.Generator, width: int, height: int, max_tilt: float = 45.0) -> "Camera":
        return cls(
            width=width, height=height,
            tilt=float(rng.uniform(0, max_tilt) if rng.random() < 0.8 else 0.0),
            roll=float(rng.uniform(-8, 8)),
            focal=float(rng.uniform(0.9, 1.6) * width),
            exposure=float(rng.uniform(*EXPOSURE)),
            white_balance=tuple(float(x) for x in rng.uniform(*WHITE_BALANCE, 3)),
            blur=float(rng.choice([0, 0, rng.uniform(0.3, 1.6)])),
            motion=int(rng.choice([0, 0, 0, int(rng.integers(3, 9))])),
            motion_angle=float(rng.uniform(0, 180)),
            noise=float(rng.uniform(0, 9)),
            jpeg=int(rng.integers(40, 96)),
            shadow=bool(rng.random() < 0.35),
            glare=bool(rng.random() < 0.25),
            vignette=float(rng.uniform(0, 0.35)),
        )

    def homography(self) -> np.ndarray:
        """Table plane (x, y centred on the frame centre) to image pixels."""
        t = np.radians(self.tilt)
        r = np.radians(self.roll)
        rx = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
        rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
        R = rx @ rz
        K = np.array([[self.focal, 0, self.width / 2], [0, self.focal, self.height / 2], [0, 0, 1]])
        t_vec = np.array([0, 0, self.focal])
        H = K @ np.column_stack([R[:, 0], R[:, 1], t_vec])
        return H / H[2, 2]

    def develop(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Light, blur and noise on an RGB uint8 frame (JPEG happens when it is written)."""
        out = img.astype(np.float32)
        h, w = out.shape[:2]
        sw, sh = max(8, w // 4), max(8, h // 4)
        light = np.ones((sh, sw), np.float32)  # multiplicative light map, built small
        add = np.zeros((sh, sw), np.float32)
        if self.shadow:
            mask = np.zeros((sh, sw), np.float32)
            pts = (rng.uniform(0, 1, (5, 2)) * [sw, sh] + [rng.uniform(-sw / 2, sw / 2), 0]).astype(np.int32)
            cv2.fillPoly(mask, [cv2.convexHull(pts)], 1.0)
            mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2, 10))
            light *= 1 - rng.uniform(0.25, 0.55) * mask
        if self.glare:
            mask = np.zeros((sh, sw), np.float32)
            cv2.ellipse(mask, (int(rng.uniform(0, sw)), int(rng.uniform(0, sh))),
                        (int(rng.uniform(8, 50)), int(rng.uniform(5, 30))), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            add += cv2.GaussianBlur(mask, (0, 0), rng.uniform(3, 10)) * rng.uniform(60, 150)
        if self.vignette:
            yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
            d = ((xx - sw / 2) / (sw / 2)) ** 2 + ((yy - sh / 2) / (sh / 2)) ** 2
            light *= 1 - self.vignette * np.clip(d / 2, 0, 1)
        if self.shadow or self.vignette:
            times_plane(out, cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR), out=out)
        if self.glare:
            plus_plane(out, cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR), out=out)
        times_channels(out, self.exposure * np.float32(self.white_balance), out=out)
        if self.blur > 0:
            out = cv2.GaussianBlur(out, (0, 0), self.blur)
        if self.motion > 1:
            k = np.zeros((self.motion, self.motion), np.float32)
            k[self.motion // 2, :] = 1.0 / self.motion
            M = cv2.getRotationMatrix2D((self.motion / 2 - 0.5, self.motion / 2 - 0.5), self.motion_angle, 1)
            k = cv2.warpAffine(k, M, (self.motion, self.motion))
            k /= max(k.sum(), 1e-6)
            out = cv2.filter2D(out, -1, k)
        if self.noise > 0:
            plus_plane(out, rng.standard_normal((h, w), dtype=np.float32) * self.noise, out=out)
        return np.clip(out, 0, 255, out=out).astype(np.uint8)

    def summary(self) -> dict:
        return {"tilt": round(self.tilt, 1), "roll": round(self.roll, 1), "jpeg": self.jpeg,
                "blur": round(self.blur, 2), "motion": self.motion, "noise": round(self.noise, 1)}
