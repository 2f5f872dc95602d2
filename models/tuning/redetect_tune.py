"""Choose how often live video looks at a frame, on tuning videos only.

A live session looks at a frame (detects and reads it) when it changed since the last one looked
at, and, even when nothing changed, once every :data:`~sisepai.vision.live.session.REDETECT_SECONDS`;
while the table is moving (a hand over the cards, a card sliding in) it looks no more often than
every :data:`~sisepai.vision.live.session.MOVING_LOOK_SECONDS` (0: every changed frame). A setting
is the pair ``REDETECT/MOVING`` in seconds (``1.5`` alone keeps today's moving looks). Each setting
trades work for the chance of a card read late or in a worse frame. Each is measured by
reading every frame of the tuning videos with the shipped models and the shipped live pipeline
(only the setting differs), in one run, on:

- the four desk-webcam tuning videos (a fraction-of-a-pixel tremble and sensor noise; 30 cards),
- the first ``--life`` tuning videos of a table's life (cards slid in, hands over the cards, light
  that drifts, lamps switched, a camera bumped; 10, 30 and 60 cards; the real tuning deck among
  them): :mod:`sisepai.models.evaluation.live_videos`.

For each setting: card_shown events found (card and seat within 1.5 s) of the truth, false
card_shown events, frames looked at, and the work for video time (the session's own seconds; on a
busy machine compare settings, not times). The choice: the fewest frames looked at among the
settings that find as many cards as today's and announce no more false ones; else today's.
Writes the record ``redetect_tune`` (split ``tune``) and prints the table::

    python -m sisepai.models.tuning.redetect_tune WORK --settings 1.5,2,3,1/0.3 --life 8
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sisepai.engine.errors import SisepaiError
from sisepai.vision.live.session import MOVING_LOOK_SECONDS, REDETECT_SECONDS
from sisepai.vision.recognition.recognize import Recognizer

from ..evaluation.live_eval import read_every_frame
from ..evaluation.live_videos import life_plan, life_video, webcam_seeds, webcam_video
from ..evaluation.records import require_clean_tree, write_record


def tuning_videos(work: Path, life: int) -> list[tuple[str, Path, list[dict]]]:
    """(name, video file, true events) of the webcam tuning videos and the first ``life`` of a
    table's life, made once into ``work``."""
    videos = [(f"webcam-{seed}", *webcam_video("tune", seed, work / "webcam")) for seed in webcam_seeds("tune")]
    for item in life_plan("tune", life):
        videos.append((f"life-{item['seed']}-{item['deck']}-{item['cards']}", *life_video("tune", item, work / "life")))
    return videos


Setting = tuple[float, float]
"""(seconds between looks at a steady frame, seconds between looks while the table moves)"""
TODAY: Setting = (REDETECT_SECONDS, MOVING_LOOK_SECONDS)


def read_video(recognizer, video: Path, truth: list[dict], setting: Setting) -> dict:
    """One video read every frame with looks as ``setting`` says: its counts."""
    score, session = read_every_frame(recognizer, video, truth, redetect_seconds=setting[0],
                                      moving_look_seconds=setting[1])
    return {"found": score.found, "truth": score.truth, "false": score.false, "looked": session.looked,
            "frames": session.frames, "work_s": round(sum(session.seconds.values()), 2)}


def totals(rows: list[dict], fps: float = 10.0) -> dict:
    """A setting's counts summed over its videos, with the share looked at and work for video time.

    >>> totals([{"found": 13, "truth": 14, "false": 1, "looked": 120, "frames": 600, "work_s": 30.0},
    ...         {"found": 14, "truth": 14, "false": 0, "looked": 60, "frames": 600, "work_s": 18.0}])
    {'found': 27, 'truth': 28, 'false': 1, 'looked': 180, 'frames': 1200, 'work_s': 48.0, 'looked_share': 0.15, 'work_for_video_time': 0.4}
    """
    out = {k: sum(r[k] for r in rows) for k in ("found", "truth", "false", "looked", "frames")}
    out["work_s"] = round(sum(r["work_s"] for r in rows), 2)
    out["looked_share"] = round(out["looked"] / max(out["frames"], 1), 3)
    out["work_for_video_time"] = round(out["work_s"] / max(out["frames"] / fps, 1e-9), 3)
    return out


def choose(figures: dict[Setting, dict], today: Setting = TODAY) -> Setting:
    """The setting with the fewest frames looked at among those finding as many cards as
    ``today``'s with no more false events (``today`` when none does better).

    >>> choose({(1.0, 0.0): {"found": 56, "false": 1, "looked": 480}, (2.0, 0.0): {"found": 55, "false": 2, "looked": 390},
    ...         (1.5, 0.0): {"found": 56, "false": 1, "looked": 420}}, today=(1.0, 0.0))
    (1.5, 0.0)
    """
    base = figures[today]
    fit = [s for s, f in figures.items() if f["found"] >= base["found"] and f["false"] <= base["false"]]
    return min(fit, key=lambda s: (figures[s]["looked"], abs(s[0] - today[0]) + abs(s[1] - today[1])))


def settings_of(text: str) -> list[Setting]:
    """``--settings``: ``REDETECT`` or ``REDETECT/MOVING`` seconds, comma-separated (REDETECT above
    0, MOVING at least 0, today's when left out); today's setting is always added.

    >>> settings_of("2,1.5/0.3") == sorted({(2.0, MOVING_LOOK_SECONDS), (1.5, 0.3), TODAY})
    True
    """
    try:
        pairs = {(float(a), float(b[0]) if b else MOVING_LOOK_SECONDS)
                 for a, *b in (x.strip().split("/", 1) for x in text.split(",") if x.strip())}
    except ValueError:
        raise argparse.ArgumentTypeError(f"--settings takes REDETECT or REDETECT/MOVING seconds separated by commas, "
                                         f"not {text[:40]!r}") from None
    if not pairs or min(a for a, _ in pairs) <= 0 or min(b for _, b in pairs) < 0:
        raise argparse.ArgumentTypeError("--settings takes REDETECT above 0 and MOVING at least 0 seconds")
    return sorted(pairs | {TODAY})


def label(setting: Setting) -> str:
    """A setting as ``--settings`` writes it.

    >>> label((1.5, 0.0)), label((1.0, 0.3))
    ('1.5/0', '1/0.3')
    """
    return "/".join(f"{x:g}" for x in setting)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.redetect_tune", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path, help="a folder for the tuning videos (made once, reused)")
    p.add_argument("--settings", type=settings_of, default=settings_of("1/0,2/0.5,1.5/0.8"),
                   help="REDETECT or REDETECT/MOVING seconds to measure: between looks at a steady frame, and "
                        "while the table moves (default 1/0,2/0.5,1.5/0.8; today's is added)")
    p.add_argument("--life", type=int, default=8, help="tuning videos of a table's life to read (default 8)")
    args = p.parse_args(argv)
    require_clean_tree()  # the record names a clean commit: refused before the readings, not after
    try:
        videos = tuning_videos(args.work, args.life)
    except SisepaiError as exc:
        p.error(str(exc))
    recognizer = Recognizer.load()
    rows: dict[Setting, list[dict]] = {s: [] for s in args.settings}
    for name, video, truth in videos:
        for s in args.settings:
            r = read_video(recognizer, video, truth, s)
            rows[s].append({"video": name, **r})
            print(f"looks {label(s):>8s} s {name}: {r['found']}/{r['truth']} found, {r['false']} false, "
                  f"looked at {r['looked']}/{r['frames']}", flush=True)
    figures = {s: totals(rs) for s, rs in rows.items()}
    chosen = choose(figures)
    for s, f in figures.items():
        print(f"looks {label(s):>8s} s: {f['found']}/{f['truth']} found, {f['false']} false, looked at "
              f"{f['looked_share']:.1%} of frames, work {f['work_for_video_time']:.3f}x video time"
              + ("  <- chosen" if s == chosen else ""))
    path = write_record("redetect_tune", "python -m sisepai.models.tuning.redetect_tune " + " ".join(argv or sys.argv[1:]),
                        {"settings": {label(s): {**f, "videos": rows[s]} for s, f in figures.items()},
                         "chosen": label(chosen), "today": label(TODAY)}, split="tune",
                        options={"videos": [v[0] for v in videos], "life": args.life, "pace": "every",
                                 "seeds": webcam_seeds("tune") + [item["seed"] for item in life_plan("tune", args.life)]})
    print(f"record: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
