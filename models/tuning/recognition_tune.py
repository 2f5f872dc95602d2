"""Choose the choices that act inside recognition on tuning data, never the test ones.

Three choices change what the recogniser reads, not what is done with its readings afterwards,
so each setting reads the pictures again:

- ``turns_below`` (:data:`sisepai.vision.recognition.profile.TURNS_BELOW`): still pictures read
  a doubtful end again at the other quarter turns. Video never does, so only the tuning scenes
  measure it;
- ``covered_sure`` (:data:`~sisepai.vision.recognition.beliefs.COVERED_SURE`): how sure two
  disagreeing ends must be before one is taken for a card lying over it;
- ``agnostic`` (:class:`~sisepai.vision.recognition.detector.Detector`): one NMS over every class
  of outline, so one outline is one part;
- ``inner_ends_below`` (:data:`~sisepai.vision.recognition.profile.INNER_ENDS_BELOW`): how sure a
  card's two ends must agree before the ends detected inside it are left unread (still pictures);
- ``paired_kinds`` (:data:`~sisepai.vision.recognition.profile.PAIRED_KINDS`): the kinds whose
  two lone ends are paired into one card with no known card length (``J`` alone, or every kind).

One choice moves at a time, the others stay at today's. The tuning scenes (the tuning fonts and
the tuning stand-in decks, as ``deck_eval --split tune`` writes them) give F1, with today's
floors; the tuning videos (:mod:`.live_tune`) give card_shown recall and false events, with
today's live thresholds. For a choice the videos measure, the choice is the best recall, then the
fewest false events, then the best F1; for ``turns_below``, the best F1. Ties keep today's value.

``python -m sisepai.models.tuning.recognition_tune LIVE_WORK DATASET...`` prints the table and the choices.
LIVE_WORK is :mod:`.live_tune`'s folder: its videos, and today's readings of them, are reused.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.beliefs import COVERED_SURE
from sisepai.vision.recognition.candidates import MIN_CONFIDENCE, MIN_END_CONFIDENCE
from sisepai.vision.recognition.detector import AGNOSTIC_NMS, Detector
from sisepai.vision.recognition.profile import INNER_ENDS_BELOW, PAIRED_KINDS, TURNS_BELOW
from sisepai.vision.recognition.recognize import Recognizer

from ..evaluation.live_eval import match_events
from .floor_tune import score, unfloored_readings
from .live_tune import readings, replay, shipped_thresholds, tuning_videos

EVERY_KIND = "every kind"
VALUES = {"turns_below": (0.0, 0.8, 0.9, 0.95), "covered_sure": (0.2, 0.3, 0.5), "agnostic": (True, False),
          "inner_ends_below": (0.8, 0.9, 0.95, 0.99), "paired_kinds": ("J", EVERY_KIND)}
CARDS = (30, 60)
"""The tuning videos, by cards in view (:data:`.live_tune.CARDS`)."""
ON_VIDEO = ("covered_sure", "agnostic", "paired_kinds")
"""The choices that act on live video too (video reads no end turned)."""


def today() -> dict:
    """Today's value of each choice."""

    return {"turns_below": TURNS_BELOW, "covered_sure": COVERED_SURE, "agnostic": AGNOSTIC_NMS,
            "inner_ends_below": INNER_ENDS_BELOW, "paired_kinds": "J" if PAIRED_KINDS == ("J",) else EVERY_KIND}


def recognizer_with(base, setting: dict):
    """``base`` (a :class:`~sisepai.vision.recognition.recognize.Recognizer`) reading with
    ``setting``; the networks are shared."""

    det = base.detector
    detector = Detector(det.model, det.imgsz, det.conf, det.iou, agnostic=setting["agnostic"], runtime=det.runtime,
                        exported=getattr(det, "exported", None))
    paired = tuple(CARD_CODES) if setting["paired_kinds"] == EVERY_KIND else (setting["paired_kinds"],)
    profile = replace(base.profile, turns_below=setting["turns_below"], covered_sure=setting["covered_sure"],
                      inner_ends_below=setting["inner_ends_below"], paired_kinds=paired)
    return base.with_changes(detector=detector, profile=profile)


def tag(setting: dict, today_setting: dict) -> str:
    """A folder name for a setting's readings; ``today`` for today's."""
    moved = [f"{k}-{str(v).replace(' ', '-')}" for k, v in setting.items() if v != today_setting[k]]
    return "-".join(moved) or "today"


def settings(today_setting: dict, only: tuple[str, ...] = tuple(VALUES)) -> list[dict]:
    """Today's setting, then each choice of ``only`` moved alone through its values.

    >>> sorted(s["paired_kinds"] for s in settings(today(), only=("paired_kinds",)))
    ['J', 'every kind']
    """
    out = [dict(today_setting)]
    for k in only:
        out += [{**today_setting, k: v} for v in VALUES[k] if v != today_setting[k]]
    return out


def still_scores(datasets: list[Path], recognizer, cache: Path) -> dict:
    """F1 per layout and in all on the tuning scenes, at today's floors."""

    return score(unfloored_readings(datasets, cache, recognizer), MIN_CONFIDENCE, MIN_END_CONFIDENCE)


def video_scores(live_work: Path, recognizer, folder: str, cards: tuple[int, ...] = CARDS, progress=print) -> dict:
    """card_shown recall and false events over the tuning videos, at today's live thresholds."""

    thresholds = shipped_thresholds()
    found = truth_n = false = 0
    for name, video, truth in tuning_videos(live_work, cards):
        progress(f"recognition-tune: {folder}: {name}")
        frames = readings(video, live_work / folder / f"{name}.pkl", recognizer)
        score = match_events(truth, replay(frames, *thresholds))
        found, truth_n, false = found + score.found, truth_n + score.truth, false + score.false
    return {"recall": round(found / max(truth_n, 1), 4), "found": found, "truth": truth_n, "false": false}


def choose(rows: list[dict], choice: str, today_setting: dict) -> dict:
    """The row chosen for ``choice`` among the rows that move only it (and today's)."""
    mine = [r for r in rows if all(r[k] == today_setting[k] for k in VALUES if k != choice)]

    def key(r):
        near = r[choice] == today_setting[choice]
        if choice in ON_VIDEO:
            return (r["video"]["recall"], -r["video"]["false"], r["stills"]["all"], near)
        return (r["stills"]["all"], near)

    return max(mine, key=key)


def sweep(live_work: Path, datasets: list[Path], stills_cache: Path | None = None, cards: tuple[int, ...] = CARDS,
          progress=print, only: tuple[str, ...] = tuple(VALUES)) -> dict:
    """Every setting of :func:`settings` (the choices of ``only``), measured; the table and the choice of each."""

    base = Recognizer.load()
    now = today()
    rows = []
    for setting in settings(now, only):
        name = tag(setting, now)
        recognizer = recognizer_with(base, setting)
        cache = stills_cache if (name == "today" and stills_cache) else live_work / f"stills-{name}.pkl"
        progress(f"recognition-tune: {name}: the tuning scenes")
        row = {**setting, "stills": still_scores(datasets, recognizer, cache)}
        if name == "today" or any(setting[k] != now[k] for k in ON_VIDEO):
            row["video"] = video_scores(live_work, recognizer, "readings" if name == "today" else f"readings-{name}",
                                        cards, progress)
        else:
            row["video"] = rows[0]["video"]  # video never turns an end: today's readings stand
        rows.append(row)
        progress(json.dumps(row))
    return {"datasets": [str(d) for d in datasets], "cards": list(cards), "today": now, "rows": rows,
            "choices": {k: choose(rows, k, now)[k] for k in only}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.recognition_tune", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("live_work", type=Path, metavar="LIVE_WORK", help="live_tune's folder (tuning videos, readings)")
    p.add_argument("datasets", nargs="+", type=Path, metavar="DATASET", help="generated datasets of tuning scenes")
    p.add_argument("--stills-cache", type=Path, help="today's unfloored readings of the scenes (floor_tune --cache)")
    p.add_argument("--cards", default=",".join(map(str, CARDS)), help="the tuning videos by cards in view (default %(default)s)")
    p.add_argument("--out", type=Path, help="write the whole table here (JSON)")
    p.add_argument("--only", default=",".join(VALUES), help="the choices to move, comma-separated (default: every one)")
    args = p.parse_args(argv)
    only = tuple(c.strip() for c in args.only.split(",") if c.strip())
    if not only or any(c not in VALUES for c in only):
        p.error(f"--only takes choices among {', '.join(VALUES)}")
    out = sweep(args.live_work, args.datasets, args.stills_cache, tuple(int(x) for x in args.cards.split(",")),
                only=only)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({"today": out["today"], "choices": out["choices"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
