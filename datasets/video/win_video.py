"""A video of a win laid down: an empty table, then a finished winning hand at South's edge, held
still. It is what the live table sees when a player shows a whole winning hand, and the page's
"Record this deal" is tested with it.

>>> video = WinVideo(seed=20, seconds=2.0, fps=5, before=1.0)
>>> frames = list(video.frames())
>>> len(frames), frames[0].shape, bool((frames[0] == frames[0][0, 0]).all()), len(video.cards)
(10, (720, 1280, 3), True, 21)
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from sisepai.datasets.scenes.scene import make_scene
from sisepai.datasets.video.game import write_frames


class WinVideo:
    """``before`` seconds of the bare table, then the winning hand of the finished-hand scene of
    ``seed`` (its cards shrunk by ``scale`` towards table distance), lying at the frame's bottom
    edge, until ``seconds``. ``cards``: the hand's cards, the truth a reader of the video should
    give; ``seat``: where the hand lies (``"S"``)."""

    seat = "S"

    def __init__(self, seed: int, seconds: float = 8.0, fps: float = 5, before: float = 3.0, scale: float = 0.55):
        scene = make_scene(seed, seed, layout="hand", plain=True)
        image = scene.image
        h, w = image.shape[:2]
        corners = np.concatenate([np.asarray(c["corners"], np.float32) for c in scene.cards])
        x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 8, 0)
        x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 8, [w, h])
        border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        self.bare = np.empty_like(image)
        self.bare[:] = np.median(border, axis=0).astype(np.uint8)
        hand = cv2.resize(image[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        self.shown = self.bare.copy()
        left = (w - hand.shape[1]) // 2
        self.shown[h - hand.shape[0] - 4:h - 4, left:left + hand.shape[1]] = hand
        self.cards = sorted(c["card"] for c in scene.cards if c["zone"] == "hand")
        self.seed, self.seconds, self.fps, self.before = seed, seconds, fps, before
        self.size = (w, h)

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame, RGB."""
        for i in range(int(round(self.seconds * self.fps))):
            yield self.bare if i / self.fps < self.before else self.shown

    def write(self, path: str | Path) -> None:
        """An MP4, AVI or Y4M (:func:`.video.write_frames`)."""
        write_frames(Path(path), self.frames(), self.size, self.fps)
