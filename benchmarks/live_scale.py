"""The live table at scale: `sisepai watch`, as a user runs it (default options, a new process per
video, keeping the video's clock), on enough 60 s videos for a few hundred card events, quiet and
with another process keeping one core busy.

The videos show what a table shows besides the game (``TurnVideo(life=True)``,
:class:`sisepai.datasets.video.table_life.TableLife`): cards slid in fast from their seat's edge, hands
passing over the cards, cards covered on a discard stack, light that drifts and lamps switched,
a camera bumped now and then. Video k of a split (seed ``splits.LIVE_SCALE_SEEDS[split] + k``) takes
its deck in turn from: a generated design in the split's held-out fonts, each stand-in deck of the
split, and (tuning only) each real tuning deck; and 10, 30 or 60 cards in view in turn. 1280x720,
10 fps.

For each load (quiet; one core busy) and in all and by cards in view: card_shown recall (card and
seat within 1.5 s) with its 95% Wilson interval, false card_shown events a minute, the median and
95th-percentile delay, wall seconds of work for 60 s of video (model loading included), the
share of frames skipped, and where the time went (``watch``'s look, detect, read and follow
seconds, the mean over the videos).

    python benchmarks/live_scale.py [--split tune|test] [--videos 16] [--first 0] [--load quiet,busy]

The tuning split publishes its latest run (``benchmarks/results/live_scale_tune.json``); the test
split's record (``live_scale.json``) is written once per model version: measure it once, after
every choice is made.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from busy_bench import wilson  # noqa: E402
from live_bench import watch  # noqa: E402

from sisepai.engine.errors import SisepaiError  # noqa: E402
from sisepai.models.evaluation.live_videos import LIFE_CARDS as CARDS  # noqa: E402
from sisepai.models.evaluation.live_videos import life_plan as plan
from sisepai.models.evaluation.live_videos import life_video as make_video


def summarise(rows: list[dict]) -> dict:
    """Recall with its interval, false events a minute, delays, work and skipped frames over ``rows``."""
    found, truth = sum(r["found"] for r in rows), sum(r["truth"] for r in rows)
    delays = [d for r in rows for d in r["delays"]]
    return {"videos": len(rows), "found": found, "truth": truth, "recall": round(found / max(truth, 1), 3),
            "recall_95": wilson(found, truth), "false": sum(r["false"] for r in rows),
            "false_per_minute": round(sum(r["false"] for r in rows) / max(len(rows), 1), 2),
            "delay_s_median": round(float(np.median(delays)), 2) if delays else None,
            "delay_s_p95": round(float(np.percentile(delays, 95)), 2) if delays else None,
            "wall_s_per_60s_median": round(float(np.median([r["wall"] for r in rows])), 1),
            "wall_s_per_60s_max": round(max(r["wall"] for r in rows), 1),
            "skipped_share": round(sum(r["skipped"] for r in rows) / max(sum(r["frames"] for r in rows), 1), 3),
            "seconds_per_video": {part: round(float(np.mean([r.get("parts", {}).get(part, 0.0) for r in rows])), 2)
                                  for part in ("look", "detect", "read", "follow")},
            "behind_s_max": round(max(r["behind"] for r in rows), 2)}


def main(argv: list[str] | None = None) -> int:
    from sisepai.models.evaluation.live_eval import match_events
    from sisepai.models.evaluation.records import add_again_option, begin_test, write_record

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--split", choices=("tune", "test"), default="tune", help="whose videos (default tune)")
    p.add_argument("--videos", type=int, default=16, help="60 s videos (default 16: about 220 card events)")
    p.add_argument("--first", type=int, default=0,
                   help="the first video's number (default 0); a fresh test set takes videos never read, e.g. --first 16")
    p.add_argument("--load", default="quiet,busy", help="quiet, busy (one core kept busy) or both (default)")
    p.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "sisepai-live-scale",
                   help="where the videos are made once (default: the system's temp folder)")
    p.add_argument("--make-only", action="store_true", help="make the videos and stop (no timing: any load will do)")
    add_again_option(p)
    args = p.parse_args(argv)
    loads = [x.strip() for x in args.load.split(",") if x.strip()]
    if not loads or any(x not in ("quiet", "busy") for x in loads):
        p.error("--load takes quiet, busy or both")
    try:
        items = plan(args.split, args.videos, args.first)
    except SisepaiError as exc:
        p.error(str(exc))
    seeds = [item.get("seed") for item in items]
    key = begin_test("live_scale", None, seeds, args.again) if args.split == "test" and not args.make_only else None
    folder = args.work / "videos"
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for i, item in enumerate(items, 1):
        print(f"scale   making video {i}/{len(items)} ({item['deck']}, {item['cards']} cards)", flush=True)
        made.append(make_video(args.split, item, folder))
    if args.make_only:
        return 0
    figures: dict = {}
    for load in loads:
        loop = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if load == "busy" else None
        time.sleep(1.0 if loop else 0.0)
        rows = []
        try:
            for item, (video, truth) in zip(items, made):
                events, wall, counts = watch(video, None)
                score = match_events([e for e in truth if e.get("type", "card_shown") == "card_shown"], events)
                rows.append({**item, "found": score.found, "truth": score.truth, "false": score.false,
                             "delays": score.delays, "wall": wall, "skipped": counts.get("skipped", 0),
                             "frames": counts.get("read", 0) + counts.get("skipped", 0),
                             "behind": counts.get("behind", 0.0), "parts": counts.get("parts", {})})
                print(f"scale   {load:5s} {video.stem}: {score.found}/{score.truth} found, {score.false} false, "
                      f"{wall:.1f} s, {counts.get('skipped', '?')} skipped", flush=True)
        finally:
            if loop is not None:
                loop.kill()
                loop.wait()
        figures[load] = {"all": summarise(rows)} | {
            f"{n} cards": summarise([r for r in rows if r["cards"] == n]) for n in CARDS if any(r["cards"] == n for r in rows)}
        print(f"scale   {load}: " + json.dumps(figures[load]["all"]), flush=True)
    name = "live_scale" if args.split == "test" else "live_scale_tune"
    path = write_record(name, f"python benchmarks/live_scale.py --split {args.split}" + (f" --first {args.first}" if args.first else ""), figures, split=args.split,
                        options={"videos": len(items), "plan": items, "loads": loads, "life": True,
                                 "size": "1280x720", "fps": 10, "seeds": seeds}, key=key, again=args.again)
    print(f"scale   record: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
