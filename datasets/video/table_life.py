"""What a real table and camera do to a game's video besides the game: changing light, a camera
bumped, cards slid in fast (:class:`TableLife`), and a desk webcam's tremble and sensor noise
(:class:`Webcam`). :class:`~.video.GameVideo` draws each from a random stream of its own, so the
game itself stays its seed's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class TableLife:
    """What a real table does to a camera's view besides the game: light that changes (a slow drift
    and a lamp switched now and then), a camera bumped (the view shifts a few pixels and turns a
    little, for good, after a short shake) and cards slid in fast from their seat's edge.

    >>> life = TableLife.random(np.random.default_rng(0), 60.0)
    >>> 1 <= len(life.bumps) <= 3 and 1 <= len(life.lamps) <= 3 and 0.2 <= life.slide <= 0.45
    True
    >>> life.shift(0.0)
    (0.0, 0.0, 0.0)
    """

    drift: float  # the light's slow swing, as a share of its level
    period: float  # seconds of one swing
    lamps: list[tuple[float, float]]  # (time, the light's level from then on)
    bumps: list[tuple[float, float, float, float]]  # (time, dx px, dy px, degrees), each for good
    slide: float  # seconds a card shown takes to slide in from its seat's edge
    shake: float = 0.3  # seconds a bump shakes the view before it settles

    @classmethod
    def random(cls, rng: np.random.Generator, seconds: float) -> "TableLife":
        def times(per_minute: tuple[int, int]) -> list[float]:
            n = max(1, int(round(rng.integers(*per_minute) * seconds / 60)))
            return sorted(float(t) for t in rng.uniform(4.0, max(seconds - 3.0, 5.0), n))

        lamps = [(t, float(rng.uniform(0.75, 1.2))) for t in times((1, 3))]
        bumps = []
        for t in times((1, 3)):
            size, direction = float(rng.uniform(4, 14)), float(rng.uniform(0, 2 * np.pi))
            bumps.append((t, size * float(np.cos(direction)), size * float(np.sin(direction)), float(rng.uniform(-0.6, 0.6))))
        return cls(drift=float(rng.uniform(0.04, 0.12)), period=float(rng.uniform(15, 40)), lamps=lamps, bumps=bumps,
                   slide=float(rng.uniform(0.2, 0.45)))

    def light(self, t: float) -> float:
        """The light's level at ``t`` (1 at the start)."""
        level = next((v for when, v in reversed(self.lamps) if when <= t), 1.0)
        return level * (1 + self.drift * float(np.sin(2 * np.pi * t / self.period)))

    def shift(self, t: float) -> tuple[float, float, float]:
        """The view's shift at ``t``: dx, dy (px) and a turn (degrees), every bump so far summed,
        with a shake just after each."""
        dx = dy = turn = 0.0
        for when, bx, by, bturn in self.bumps:
            if when <= t:
                dx, dy, turn = dx + bx, dy + by, turn + bturn
                if t - when < self.shake:  # shaking: back and forth about the new place
                    k = np.sin((t - when) / self.shake * 3 * np.pi)
                    dx, dy = dx + 6 * k, dy - 4 * k
        return round(float(dx), 3), round(float(dy), 3), round(float(turn), 3)

    def apply(self, frame: np.ndarray, t: float) -> np.ndarray:
        """The frame as the camera gives it at ``t``: lit at :meth:`light` and moved by :meth:`shift`."""
        h, w = frame.shape[:2]
        dx, dy, turn = self.shift(t)
        if dx or dy or turn:
            M = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
            M[:, 2] += (dx, dy)
            frame = cv2.warpAffine(frame, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        return np.clip(frame.astype(np.float32) * self.light(t), 0, 255).astype(np.uint8)


@dataclass
class Webcam:
    """A cheap webcam on a desk: the view trembles by a fraction of a pixel from frame to frame (the
    desk, the stand, a rolling shutter) and the sensor adds fresh noise to every frame.

    >>> cam = Webcam.random(np.random.default_rng(0))
    >>> 0.15 <= cam.jitter <= 0.6 and 2.0 <= cam.noise <= 5.0
    True
    >>> frame = np.full((36, 64, 3), 120, np.uint8)
    >>> moved = cam.apply(frame, np.random.default_rng(1))
    >>> moved.shape, bool(np.abs(moved.astype(int) - 120).max() > 0)
    ((36, 64, 3), True)
    """

    jitter: float  # the largest shift of a frame from the view's rest, in pixels
    noise: float  # the sensor noise's standard deviation, in grey levels

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Webcam":
        return cls(jitter=float(rng.uniform(0.15, 0.6)), noise=float(rng.uniform(2.0, 5.0)))

    def apply(self, frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """``frame`` moved by a fresh sub-pixel tremble, with fresh sensor noise."""
        h, w = frame.shape[:2]
        dx, dy = rng.uniform(-self.jitter, self.jitter, 2)
        moved = cv2.warpAffine(frame, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
        noisy = moved.astype(np.float32) + rng.normal(0.0, self.noise, moved.shape).astype(np.float32)
        return np.clip(noisy, 0, 255).astype(np.uint8)
