"""``sisepai watch``: follow a game through a camera, a video, a stream or a folder of images."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from typing import IO

from sisepai.engine.environment import environment
from sisepai.engine.errors import SisepaiError
from sisepai.vision.live.announce import announce, event_message
from sisepai.vision.live.events import SPOKEN
from sisepai.vision.recognition.runtime import ThreadFollower


class Speaker:
    """Reads announcements aloud with espeak-ng, without blocking the frame loop."""

    VOICES = {"en": "en", "zh": "cmn", "zh-Hant": "cmn", "zh-HK": "yue", "vi": "vi"}

    def __init__(self, lang: str = "en"):
        self.exe = shutil.which("espeak-ng") or shutil.which("espeak")
        self.lang = lang
        self.proc: subprocess.Popen | None = None
        if not self.exe:
            print("sisepai watch: espeak-ng is not installed; --speak is off (apt-get install espeak-ng)",
                  file=sys.stderr)

    def say(self, text: str) -> None:
        if not self.exe:
            return
        if self.proc is not None and self.proc.poll() is None:
            return  # still speaking: skip rather than queue up
        self.proc = subprocess.Popen([self.exe, "-v", self.VOICES.get(self.lang, "en"), text],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def watch(src, session, out: IO[str] = sys.stdout, as_json: bool = False, speak: bool = False,
          show: bool = False, lang: str = "en") -> dict:
    """Run a :class:`~.session.VideoSession` over an opened source (``(t, frame)`` pairs, as
    :func:`~.camera.open_source` gives: a camera its newest frame, a video file at its own clock)
    until it ends; returns a summary (frames read, looked at, skipped, the most seconds behind,
    events, timing)."""
    from sisepai.vision.live.camera import SourceError  # OpenCV: `sisepai --help` imports this module

    speaker = Speaker(lang) if speak else None
    if show and not environment().display and sys.platform.startswith("linux"):
        print("sisepai watch: no display found; --show is off", file=sys.stderr)
        show = False
    n_events = 0
    t0 = time.perf_counter()
    follower = _thread_follower(session)
    try:
        for t, frame in src:
            if follower is not None:
                follower.tick()
            _, events, seen = session.step(frame, t, getattr(src, "skipped", 0), getattr(src, "behind", 0.0))
            for ev in events:
                n_events += 1
                if as_json:
                    out.write(json.dumps(event_message(ev, lang), ensure_ascii=False) + "\n")
                else:
                    out.write(f"[{ev.t:7.2f}s] {announce(ev, lang)}\n")
                out.flush()
                if speaker and ev.type in SPOKEN:
                    speaker.say(announce(ev, lang))
            if show:
                import cv2

                from sisepai.vision.recognition.annotate import CardAnnotator  # lazy: NumPy, OpenCV

                cv2.imshow("sisepai", CardAnnotator().annotate(frame, seen.detections))
                if cv2.waitKey(1) & 0xFF in (27, ord("q")):
                    break
    except SourceError as exc:
        raise SisepaiError(str(exc)) from None
    if session.frames == 0:
        raise SisepaiError("the source gave no frames")
    skipped = getattr(src, "skipped", 0)
    return {"source_frames": session.frames + skipped, "frames": session.frames, "looked": session.looked,
            "steady": session.frames - session.looked, "skipped": skipped,
            "behind": round(session.behind, 3), "events": n_events, "seconds": time.perf_counter() - t0,
            "parts": {k: round(v, 2) for k, v in session.seconds.items()}}


def _thread_follower(session):
    """A :class:`~sisepai.vision.recognition.runtime.ThreadFollower` for the session's detector, so
    a long watch takes a second core when the machine frees it and gives it back when another
    program wants it; None for a session without one (a test's stand-in)."""
    detector = getattr(getattr(session, "recognizer", None), "detector", None)
    if detector is None or getattr(detector, "threads", None) is None:
        return None

    return ThreadFollower(detector.set_threads, detector.threads)


KEEPS_UP_BELOW = 0.1
"""A source whose frames are skipped more often than this (the work of a frame taking longer than
the camera's next frame) is said not to keep up, in the summary and on the page."""


def summary_line(summary: dict) -> str:
    """``watch``'s summary in words; its frame counts add up: the source's frames are read or
    skipped, and a frame read is looked at afresh or steady (kept from the last look).

    >>> summary_line({"source_frames": 600, "frames": 483, "looked": 452, "steady": 31, "skipped": 117,
    ...               "behind": 0.4, "events": 12, "seconds": 61.0})
    '600 frames: 483 read (452 looked at, 31 steady), 117 skipped, at most 0.4 s behind; 12 events in 61.0 s; this machine could not keep up with the source (20% of its frames skipped)'
    """
    line = (f"{summary['source_frames']} frames: {summary['frames']} read ({summary['looked']} looked at, "
            f"{summary['steady']} steady), {summary['skipped']} skipped, at most {summary['behind']:.1f} s behind; "
            f"{summary['events']} events in {summary['seconds']:.1f} s")
    share = summary["skipped"] / max(summary["source_frames"], 1)
    if share > KEEPS_UP_BELOW:
        line += f"; this machine could not keep up with the source ({share:.0%} of its frames skipped)"
    return line
