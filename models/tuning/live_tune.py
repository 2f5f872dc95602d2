"""Choose the live assistant's thresholds on the tuning videos, never the test ones.

The tuning videos of :data:`sisepai.datasets.design.splits.VIDEO_SEEDS` (generated decks in the tuning
fonts, and the tuning stand-in decks zero-shot) are read once, every frame, by the shipped
recogniser, as ``sisepai watch --every-frame`` reads them; the readings of each frame the session
looked at are kept in WORK. Each setting of the thresholds that act after recognition is then
replayed over those readings, so a sweep costs seconds, and the machine's load changes nothing:

- ``min_confidence`` (:data:`sisepai.vision.live.assistant.MIN_CONFIDENCE`): readings below it
  are not tracked;
- ``min_mean_confidence`` (:data:`sisepai.vision.live.tracker.MIN_MEAN_CONFIDENCE`): a track is
  announced only when its readings average this;
- ``replace_ratio`` (:data:`sisepai.vision.live.tracker.REPLACE_CONFIDENCE_RATIO`): a replacing
  card's readings must average this share of the replaced card's.

For each setting: card_shown recall within 1.5 s and false card_shown events, summed over the
videos. The choice is the best recall, then the fewest false events, then the setting nearest
today's. ``python -m sisepai.models.tuning.live_tune WORK`` prints the table and the choice.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
import sys
from pathlib import Path
from types import SimpleNamespace

import sisepai.vision.live.tracker as tracker
from sisepai.datasets.design.splits import FONTS, VIDEO_SEEDS, real_deck_folder
from sisepai.datasets.design.standin import standin_style
from sisepai.datasets.video.game import TurnVideo
from sisepai.faces.deck import DeckFaces
from sisepai.vision.live.assistant import MIN_CONFIDENCE, TableAssistant
from sisepai.vision.live.camera import VideoSource
from sisepai.vision.live.session import VideoSession
from sisepai.vision.recognition.recognize import Recognizer

from ..evaluation.live_eval import match_events

GRID = {"min_confidence": (0.3, 0.4, 0.5), "min_mean_confidence": (0.4, 0.5, 0.6), "replace_ratio": (0.8, 0.9, 1.0)}
CARDS = (30, 60)


def tuning_videos(work: Path, cards: tuple[int, ...] = CARDS):
    """(name, video file, truth events) of each tuning video, written once into ``work``."""

    seeds = VIDEO_SEEDS["tune"]
    plan = [("design", None, s) for s in seeds["design"]] + [("standin", k, s) for k, s in seeds["standin"]]
    plan += [("real", name, s) for name, s in seeds.get("real", []) if real_deck_folder(name) is not None]
    for n in cards:
        for kind, k, seed in plan:
            name = f"tune-{kind}-{seed}-{n}"
            video, truth = work / "videos" / f"{name}.mp4", work / "videos" / f"{name}.json"
            if not truth.exists():
                style = standin_style(k, "tune")[0] if kind == "standin" else None
                deck = DeckFaces.load(real_deck_folder(k)) if kind == "real" else None
                record = TurnVideo(seed=seed, cards=n, font_split=FONTS["tune"], style=style, deck=deck).write(video)
                truth.write_text(json.dumps(record["events"]))
            yield name, video, json.loads(truth.read_text())


class _Recorder:
    """Stands in for a session's assistant: keeps what it would have been given, frame by frame."""

    def __init__(self):
        self.frames = []

    def process(self, detections, t, w, h, backs=0):
        self.frames.append((detections, t, w, h, backs))
        return SimpleNamespace(skipped=0, behind=0.0), []


def readings(video: Path, cache: Path, recognizer) -> list:
    """Every frame's input to the assistant, as a live session over every frame gives it (cached)."""
    if cache.exists():
        return pickle.loads(cache.read_bytes())

    session = VideoSession(recognizer)
    session.assistant = _Recorder()
    for t, frame in VideoSource(str(video), pace="every"):
        session.step(frame, t)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(session.assistant.frames))
    return session.assistant.frames


def shipped_thresholds() -> tuple[float, float, float]:
    """The live assistant's thresholds as shipped, in :func:`replay`'s order."""

    return MIN_CONFIDENCE, tracker.MIN_MEAN_CONFIDENCE, tracker.REPLACE_CONFIDENCE_RATIO


def replay(frames: list, min_confidence: float, min_mean_confidence: float, replace_ratio: float) -> list[dict]:
    """The events a table assistant with these thresholds announces over recorded frames."""

    saved = tracker.REPLACE_CONFIDENCE_RATIO
    tracker.REPLACE_CONFIDENCE_RATIO = replace_ratio
    try:
        assistant = TableAssistant(min_confidence=min_confidence)
        assistant.tracker.min_mean_confidence = min_mean_confidence
        events = []
        for det, t, w, h, backs in frames:
            events += [e.to_json() for e in assistant.process(det, t, w, h, backs=backs)[1]]
        return events
    finally:
        tracker.REPLACE_CONFIDENCE_RATIO = saved


def sweep(work: Path, cards: tuple[int, ...] = CARDS, progress=print) -> dict:
    """Every setting of :data:`GRID` on every tuning video; the table and the choice."""

    recognizer = Recognizer.load()
    recorded = []
    for name, video, truth in tuning_videos(work, cards):
        progress(f"live-tune: reading {name} (every frame, once)")
        recorded.append((name, readings(video, work / "readings" / f"{name}.pkl", recognizer), truth))
    today = shipped_thresholds()
    rows = []
    for setting in itertools.product(*GRID.values()):
        found = truth_n = false = 0
        for _, frames, truth in recorded:
            score = match_events(truth, replay(frames, *setting))
            found, truth_n, false = found + score.found, truth_n + score.truth, false + score.false
        rows.append({**dict(zip(GRID, setting)), "recall": round(found / max(truth_n, 1), 4), "found": found,
                     "truth": truth_n, "false": false})
        progress(json.dumps(rows[-1]))

    def distance(row):
        return sum(abs(row[k] - v) for k, v in zip(GRID, today))

    best = max(rows, key=lambda r: (r["recall"], -r["false"], -distance(r)))
    return {"videos": [n for n, _, _ in recorded], "today": dict(zip(GRID, today)), "rows": rows, "choice": best}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.live_tune", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path, help="a folder for the tuning videos and their readings")
    p.add_argument("--cards", default=",".join(map(str, CARDS)), help="cards in view, e.g. 30,60")
    args = p.parse_args(argv)
    out = sweep(args.work, tuple(int(x) for x in args.cards.split(",")))
    (args.work / "live_tune.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({"today": out["today"], "choice": out["choice"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
