"""One video pipeline for every live source: ``sisepai watch`` and the page's ``/api/live`` both
drive a :class:`VideoSession`.

A session holds the recogniser's video profile, the video's memory (its still cards' readings
and deck palette, a :class:`~sisepai.vision.recognition.profile.VideoMemory`), the card tracker
and the table assistant. ``step(frame, t)`` gives a :class:`Step`: the table state, the events
and the recognition of that frame. Its cost follows what changes on the table, not how many cards lie there:

- a frame that looks like the last one looked at (:data:`FRAME_CHANGE`) keeps its detections, so
  nothing is detected or read again; one is looked at afresh at least every
  :data:`REDETECT_SECONDS` all the same;
- in a frame that changed, a card whose look has not changed keeps its reading
  (:class:`~.still_readings.StillReadings`): only new or changed cards are read.

>>> import numpy as np
>>> class Nothing:  # a stand-in recogniser that finds no cards
...     calls = 0
...     def for_video(self): return self
...     def recognize(self, image, zoom_out=False, memory=None):
...         from sisepai.vision.recognition.recognize import Recognition
...         from sisepai.vision.recognition.detections import Detections
...         Nothing.calls += 1
...         return Recognition(Detections.empty(), np.zeros((0, 4, 2)), image.shape[1], image.shape[0], 1.0)
>>> session = VideoSession(Nothing())
>>> frame = np.full((72, 128, 3), 90, np.uint8)
>>> kinds = [e.type for k in range(30) for e in session.step(frame, k / 10).events]
>>> kinds, Nothing.calls  # a still, empty table: one table event; looked at every 1.5 s
(['table'], 2)
"""

from __future__ import annotations

import time
from typing import NamedTuple

import cv2
import numpy as np

from sisepai.vision.live.assistant import TableAssistant
from sisepai.vision.live.events import Event
from sisepai.vision.live.table import TableState
from sisepai.vision.recognition.profile import VideoMemory
from sisepai.vision.recognition.recognize import Recognition

FRAME_CHANGE = 8.0
"""A frame has changed when some part of its look (:func:`frame_look`), aligned to the look of
the frame last looked at, moved by more than this many grey levels from it."""
REDETECT_SECONDS = 1.5
"""Even a steady frame is looked at afresh this often. Chosen with :data:`MOVING_LOOK_SECONDS` on
the tuning videos (``models/tuning/redetect_tune.py``, record ``redetect_tune``): the fewest looks
that find as many cards as 1 s and every moving frame did, with no more false events."""
LOOK_WIDTH = 160
LOOK_BLUR = 1.0
"""The look's blur, in pixels of the 160-pixel copy. A block average alone changes by a tenth of
its edges' contrast when a desk webcam trembles by half a pixel (an edge moves within its block);
the blur spreads each edge over several blocks, so a tremble moves the look smoothly, and
alignment can take it away. A card placed, moved or turned changes tens of blocks by far more."""
MOVING_LOOK_SECONDS = 0.5
"""While the table is moving (a frame changed from the frame just before it, not only from the last
one looked at: a hand over the cards, a card sliding in), it is looked at no more often than this;
the first frame after the movement stops is looked at as any changed frame. 0 looks at every
changed frame. On the tuning videos 0.5 s halved the frames looked at (24.0% to 11.6%) and found
the same cards with the same false events; 0.8 s lost a card (``docs/training-logs/live-thresholds.md``)."""
MAX_TREMBLE = 0.5
"""The largest shift, in pixels of the 160-pixel copy (4 pixels of a 1280-pixel frame), that
alignment takes away before looks are compared. A larger one (the camera bumped) is a change, so
the frame is looked at afresh and the cards' places follow it."""


def frame_look(frame: np.ndarray, blur: float = LOOK_BLUR) -> np.ndarray:
    """A frame in brief: grey, 160 pixels wide, each pixel the mean of its block (noise averages
    out), blurred by ``blur`` (0: none)."""
    h, w = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    look = cv2.resize(grey, (LOOK_WIDTH, max(1, round(LOOK_WIDTH * h / w))), interpolation=cv2.INTER_AREA).astype(np.float32)
    return cv2.GaussianBlur(look, (0, 0), blur) if blur else look


def look_change(look: np.ndarray, last: np.ndarray, align: bool = True) -> float:
    """The largest change in grey levels between two :func:`frame_look` copies, after ``look`` is
    moved onto ``last`` when the two differ by a tremble (phase correlation, to a fraction of a
    pixel, at most :data:`MAX_TREMBLE`); the copies' edges, which a shift moves in and out of
    view, are left out.

    >>> rng = np.random.default_rng(0)
    >>> last = cv2.GaussianBlur(rng.uniform(0, 255, (90, 160)).astype(np.float32), (0, 0), 1.5)
    >>> trembled = cv2.warpAffine(last, np.float32([[1, 0, 0.3], [0, 1, -0.2]]), (160, 90), borderMode=cv2.BORDER_REFLECT)
    >>> look_change(trembled, last, align=False) > 8.0, look_change(trembled, last) < 8.0
    (True, True)
    >>> bumped = cv2.warpAffine(last, np.float32([[1, 0, 2.0], [0, 1, 0]]), (160, 90), borderMode=cv2.BORDER_REFLECT)
    >>> look_change(bumped, last) > 8.0  # a bump is a change
    True
    """
    if look.shape != last.shape:
        return float("inf")
    margin = 2
    if not align or min(look.shape) <= 4 * margin:
        return float(np.abs(look - last).max())
    (dx, dy), _ = cv2.phaseCorrelate(last, look, _window(look.shape))
    if max(abs(dx), abs(dy)) <= MAX_TREMBLE:
        h, w = look.shape
        look = cv2.warpAffine(look, np.float32([[1, 0, -dx], [0, 1, -dy]]), (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return float(np.abs(look - last)[margin:-margin, margin:-margin].max())


_WINDOWS: dict[tuple[int, int], np.ndarray] = {}


def _window(shape: tuple[int, int]) -> np.ndarray:
    """A Hann window of ``shape`` for phase correlation (made once per shape)."""
    if shape not in _WINDOWS:
        _WINDOWS[shape] = cv2.createHanningWindow((shape[1], shape[0]), cv2.CV_32F)
    return _WINDOWS[shape]


class Step(NamedTuple):
    """What one frame made: the table state, its events, and the recognition it was read from (the
    last frame looked at, when this one had not changed)."""

    state: TableState
    events: list[Event]
    recognition: Recognition


class VideoSession:
    """The live pipeline of one camera (or one page connection): frames in, state and events out."""

    def __init__(self, recognizer, assistant: TableAssistant | None = None,
                 frame_change: float = FRAME_CHANGE, redetect_seconds: float = REDETECT_SECONDS, align: bool = True,
                 moving_look_seconds: float = MOVING_LOOK_SECONDS):
        self.recognizer = recognizer.for_video()
        self.memory = VideoMemory()  # this video's still readings and deck palette
        self.assistant = assistant or TableAssistant()
        self.frame_change = frame_change
        self.redetect_seconds = redetect_seconds
        self.align = align  # blur and align looks before they are compared; False: plain block averages
        self._last: Recognition | None = None  # the last frame looked at
        self.frames = 0
        self.looked = 0  # frames the recogniser looked at
        self.skipped = 0  # frames the source left out, as last told
        self.behind = 0.0  # the most seconds a frame was late
        self.seconds = {"look": 0.0, "detect": 0.0, "read": 0.0, "follow": 0.0}  # where the time went
        self.moving_look_seconds = moving_look_seconds
        self._look: np.ndarray | None = None
        self._looked_at = float("-inf")
        self._previous: np.ndarray | None = None  # the frame just before's look

    def _steady(self, look: np.ndarray, t: float) -> bool:
        return (self._look is not None and t - self._looked_at < self.redetect_seconds
                and look_change(look, self._look, self.align) <= self.frame_change)

    def _moving(self, look: np.ndarray, t: float) -> bool:
        """Whether a changed frame is one of a movement looked at less than
        ``moving_look_seconds`` ago (so it is left for a later frame)."""
        return (self.moving_look_seconds > 0 and self._previous is not None
                and t - self._looked_at < self.moving_look_seconds
                and look_change(look, self._previous, self.align) > self.frame_change)

    def step(self, frame: np.ndarray, t: float, skipped: int = 0, behind: float = 0.0) -> Step:
        """Follow one BGR frame taken ``t`` seconds after the source started; ``skipped`` (frames
        the source left out so far) and ``behind`` (seconds this frame is late) go into the state."""
        t0 = time.perf_counter()
        look = frame_look(frame, LOOK_BLUR if self.align else 0.0)
        self.seconds["look"] += time.perf_counter() - t0
        if not self._steady(look, t) and not self._moving(look, t):
            self._last = self.recognizer.recognize(frame, zoom_out=False, memory=self.memory)
            self._look, self._looked_at = look, t
            self.looked += 1
            self.seconds["detect"] += self._last.detect_ms / 1000
            self.seconds["read"] += (self._last.ms - self._last.detect_ms) / 1000
        self._previous = look
        self.frames += 1
        h, w = frame.shape[:2]
        t1 = time.perf_counter()
        state, events = self.assistant.process(self._last.detections, t, w, h, backs=len(self._last.backs))
        self.seconds["follow"] += time.perf_counter() - t1
        state.skipped, state.behind = skipped, behind
        self.skipped, self.behind = skipped, max(self.behind, behind)
        return Step(state, events, self._last)
