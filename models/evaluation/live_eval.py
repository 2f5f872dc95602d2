"""Score the live pipeline's events against a test video's ground truth.

A ground-truth ``card_shown`` is found when an announced ``card_shown`` names the same card and
seat at most ``window`` seconds after it (each announcement matches one truth at most). The
announced ``card_shown`` events that match nothing are false events.

>>> truth = [{"t": 3.0, "card": "RH", "seat": "E"}, {"t": 7.0, "card": "GK", "seat": "N"}]
>>> said = [{"t": 3.6, "type": "card_shown", "card": "RH", "seat": "E"},
...         {"t": 7.5, "type": "card_shown", "card": "GK", "seat": "center"}]
>>> score = match_events(truth, said)
>>> score.recall, score.false, score.delays
(0.5, 1, [0.6])
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import NamedTuple, Sequence

WINDOW = 1.5
"""Seconds after the truth within which an announcement counts."""


class EventScore(NamedTuple):
    recall: float  # share of the truth's cards announced with the right card and seat in time
    false: int  # announced cards that match no truth
    delays: list[float]  # seconds from each found card's truth to its announcement
    found: int
    truth: int


def match_events(truth: Sequence[dict], events: Sequence[dict], window: float = WINDOW) -> EventScore:
    """Score announced events (JSON forms) against ground-truth ``card_shown`` events."""
    shown = [e for e in events if e["type"] == "card_shown"]
    used: set[int] = set()
    delays = []
    for g in truth:
        for j, e in enumerate(shown):
            if j not in used and e["card"] == g["card"] and e["seat"] == g["seat"] and 0 <= e["t"] - g["t"] <= window:
                used.add(j)
                delays.append(round(e["t"] - g["t"], 3))
                break
    return EventScore(len(delays) / max(len(truth), 1), len(shown) - len(used), delays, len(delays), len(truth))


def read_every_frame(recognizer, video: Path, truth: Sequence[dict], **session_options):
    """``watch`` as a user runs it on every frame of ``video`` (none skipped), in this process, with a
    :class:`~sisepai.vision.live.session.VideoSession` of ``session_options``: ``(score, session)``,
    the announcements scored against ``truth``'s ``card_shown`` events, and the session (its frames
    looked at and where the time went)."""
    from sisepai.vision.live.camera import open_source  # lazy: OpenCV
    from sisepai.vision.live.session import VideoSession  # lazy: OpenCV, the recogniser
    from sisepai.vision.live.watch import watch  # lazy: OpenCV

    session = VideoSession(recognizer, **session_options)
    out = io.StringIO()
    watch(open_source(str(video), pace="every"), session, out=out, as_json=True)
    said = [json.loads(line) for line in out.getvalue().splitlines()]
    return match_events([e for e in truth if e.get("type", "card_shown") == "card_shown"], said), session
