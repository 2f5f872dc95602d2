"""Frame sources: a webcam index, a video file, a stream URL, or a folder of images.

Each yields ``(t, frame)`` with ``t`` in seconds from the start of the source. A live camera is
read in a background thread that keeps only the newest frame, so a slow consumer skips frames
instead of falling behind; a camera that vanishes is reopened with backoff and a clear message.

>>> src = open_source("/nonexistent/folder/")   # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
SourceError: ...
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import cv2

try:  # a missing camera is reported in one line by this module, not by OpenCV's warnings
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
except AttributeError:  # pragma: no cover - an OpenCV build without the logging module
    pass
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


class SourceError(RuntimeError):
    """A source that cannot be opened or read (the message says why)."""


def _say(message: str) -> None:
    print(f"sisepai watch: {message}", file=sys.stderr, flush=True)


class FolderSource:
    def __init__(self, folder: Path, fps: float = 2.0):
        self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise SourceError(f"{folder} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self.fps = fps

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        for i, f in enumerate(self.files):
            img = cv2.imread(str(f))
            if img is None:
                _say(f"skipping unreadable image {f}")
                continue
            yield i / self.fps, img


@contextmanager
def quiet_native_stderr() -> Iterator[None]:
    """Silence what native libraries write to standard error (FFmpeg's "moov atom not found" for a
    damaged video), so the user sees only this program's one-line error."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real file descriptor 2 (an embedding host): nothing to silence
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


PACES = ("keep_up", "every", "realtime")


class VideoSource:
    """A video file's frames with the video's own clock (``t`` = frame index / fps).

    ``pace`` says what happens when reading is slower or faster than the video plays:

    - ``keep_up`` (the default): never fall behind the video's clock. Frames the reader has no
      time for are skipped (grabbed, not decoded), as a camera's would be;
    - ``every``: every frame, however long it takes (offline analysis);
    - ``realtime``: every frame it has time for, and never ahead of the clock (a demo).

    ``skipped`` counts the frames left out; ``behind`` is how many seconds the last frame given
    was behind the clock when it was given.
    """

    def __init__(self, path: str, realtime: bool = False, pace: str | None = None):
        if pace is not None and pace not in PACES:
            raise ValueError(f"pace is one of {', '.join(PACES)}, not {pace!r}")
        self.path = path
        with quiet_native_stderr():
            self.cap = cv2.VideoCapture(path)
        if not self.cap.isOpened():
            raise SourceError(f"cannot open video {path} (missing, corrupt or an unknown format)")
        self.fps = self.cap.get(cv2.CAP_PROP_FPS) or 10.0
        if not 0 < self.fps < 500:
            self.fps = 10.0
        with quiet_native_stderr():
            ok, first = self.cap.read()
        if not ok or first is None:
            raise SourceError(f"{path} holds no readable frames (corrupt or empty video)")
        self.first = first
        self.pace = pace or ("realtime" if realtime else "keep_up")
        self.skipped = 0
        self.behind = 0.0
        self.clock = time.perf_counter

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        start = None
        frame, i = self.first, 0
        while frame is not None:
            t = i / self.fps
            if start is None:
                start = self.clock()
            behind = (self.clock() - start) - t
            if self.pace == "realtime" and behind < 0:
                time.sleep(-behind)
            self.behind = max(0.0, behind)
            yield t, frame
            i += 1
            if self.pace != "every":  # skip what the clock has passed, keeping the newest frame due
                due = int((self.clock() - start) * self.fps)
                while i < due and self.cap.grab():
                    i += 1
                    self.skipped += 1
            ok, frame = self.cap.read()
            if not ok:
                break
        self.cap.release()


STREAM_TIMEOUT_S = 8.0
"""How long a stream URL may take to answer when opened, and between frames, before it counts as
lost (FFmpeg's own wait is 30 s, five times over on retries: a camera that connects and sends
nothing took 2 min 46 s to be reported)."""
FIRST_OPEN_S = 15.0
"""No new attempt to open a source starts this long after the first began."""


def open_capture(spec: int | str, timeout_s: float = STREAM_TIMEOUT_S):
    """``cv2.VideoCapture`` for a camera index or a stream URL; a URL is opened with FFmpeg and
    bounded waits (``timeout_s`` to answer, the same between frames).

    >>> open_capture("http://127.0.0.1:9/none", timeout_s=0.5).isOpened()
    False
    """
    if isinstance(spec, str) and "://" in spec:
        ms = int(timeout_s * 1000)
        with quiet_native_stderr():
            return cv2.VideoCapture(spec, cv2.CAP_FFMPEG,
                                    [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms])
    return cv2.VideoCapture(spec)


class LiveSource:
    """A webcam or stream, read in a thread; the consumer always gets the newest frame. The first
    open gives up after :data:`FIRST_OPEN_S` (``first_open_s``) however many retries are left: each
    attempt is given only the time left (``opener(spec, timeout_s)``), so a source that connects and
    sends nothing is reported within that time, not one attempt's wait after it."""

    def __init__(self, spec: int | str, retries: int = 5, backoff: float = 0.5,
                 opener: Callable[[int | str, float], object] = open_capture, first_open_s: float = FIRST_OPEN_S):
        self.spec = spec
        self.retries = retries
        self.backoff = backoff
        self.opener = opener
        self.first_open_s = first_open_s
        self.cap = self._open(first=True)
        self.latest: tuple[float, np.ndarray] | None = None
        self.error: str | None = None
        self.lock = threading.Condition()
        self.stopped = False
        self.captured = 0  # frames the camera gave
        self.given = 0  # frames handed on: the rest were skipped, a newer one having come
        self.behind = 0.0
        self.start = time.perf_counter()
        self.thread = threading.Thread(target=self._reader, daemon=True)
        self.thread.start()

    def _open(self, first: bool = False):
        delay = self.backoff
        began = time.monotonic()
        for attempt in range(1, self.retries + 1):
            left = self.first_open_s - (time.monotonic() - began) if first else STREAM_TIMEOUT_S
            cap = self.opener(self.spec, max(0.1, min(STREAM_TIMEOUT_S, left)))
            if cap is not None and cap.isOpened():
                if not first:
                    _say(f"camera {self.spec} is back")
                return cap
            if first and time.monotonic() + delay - began >= self.first_open_s:
                raise SourceError(f"camera {self.spec} did not answer with video within {self.first_open_s:.0f} s "
                                  f"({attempt} attempt{'s' if attempt > 1 else ''}): check the address and "
                                  "that the camera is streaming")
            if first and attempt == 1:
                _say(f"cannot open camera {self.spec}; retrying")
            else:
                _say(f"camera {self.spec} unavailable (attempt {attempt}/{self.retries}); retrying in {delay:.1f} s")
            time.sleep(delay)
            delay = min(delay * 2, 8.0)
        raise SourceError(f"camera {self.spec} could not be opened after {self.retries} attempts")

    def _reader(self) -> None:
        while not self.stopped:
            ok, frame = self.cap.read()
            if not ok or frame is None:
                _say(f"lost camera {self.spec}; reopening")
                try:
                    self.cap.release()
                    self.cap = self._open()
                    continue
                except SourceError as exc:
                    with self.lock:
                        self.error = str(exc)
                        self.lock.notify_all()
                    return
            with self.lock:
                self.latest = (time.perf_counter() - self.start, frame)
                self.captured += 1
                self.lock.notify_all()

    @property
    def skipped(self) -> int:
        """Frames the camera gave that were never handed on (a newer one came first)."""
        return max(0, self.captured - self.given)

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        last_t = -1.0
        try:
            while True:
                with self.lock:
                    while (self.latest is None or self.latest[0] == last_t) and self.error is None:
                        self.lock.wait(timeout=1.0)
                    if self.error is not None:
                        raise SourceError(self.error)
                    t, frame = self.latest
                    self.given += 1
                last_t = t
                self.behind = time.perf_counter() - self.start - t
                yield t, frame
        finally:
            self.stopped = True


def open_source(spec: str, realtime: bool = False, retries: int = 5, pace: str | None = None):
    """Pick the source kind from ``spec``: an integer (webcam), a URL, a folder or a video file
    (read at ``pace``, see :class:`VideoSource`)."""
    if spec.isdigit():
        return LiveSource(int(spec), retries=retries)
    if "://" in spec:
        return LiveSource(spec, retries=retries)
    p = Path(spec)
    if p.is_dir():
        return FolderSource(p)
    if not p.exists():
        raise SourceError(f"{spec}: no such file, folder or camera")
    return VideoSource(spec, realtime=realtime, pace=pace)
