"""The live table through a desk webcam: `sisepai watch`'s pipeline (every frame, the shipped
models, default options) on 60 s, 1280x720, 10 fps tuning videos of a game with 30 cards in view,
seen through a camera that trembles by a fraction of a pixel from frame to frame and adds fresh
sensor noise to each (``TurnVideo(webcam=True)``).

Two designs read the same frames in the same run, one after the other on each video:

- ``block change``: a frame is looked at afresh when some block of its 160-px copy changed by
  more than the threshold (the session before alignment);
- ``aligned``: the same, after the copy is moved onto the last one looked at (phase correlation,
  :func:`sisepai.vision.live.session.look_change`).

For each: work time for video time (the session's steps, decoding left out), the share of frames
looked at, card_shown recall (card and seat within 1.5 s) and false card_shown events; and the
aligned design's work as a ratio of the other's, video by video. Writes
``benchmarks/results/live_webcam.json``.

Environment: WEBCAM_SPLIT=tune (default; the test split is read only on purpose), WEBCAM_WORK=a
folder that keeps the videos between runs (default: the system's temp folder).
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sisepai.datasets.design.splits import FONTS as FONT_SPLITS
from sisepai.models.evaluation.live_eval import read_every_frame
from sisepai.models.evaluation.live_videos import WEBCAM_CARDS, WEBCAM_SECONDS, webcam_seeds, webcam_video
from sisepai.models.evaluation.records import write_record
from sisepai.vision.recognition.recognize import Recognizer

SPLIT = os.environ.get("WEBCAM_SPLIT", "tune")
if SPLIT != "tune":
    sys.exit("live_webcam measures tuning videos only: the hidden videos are the test")
SEEDS = webcam_seeds(SPLIT)
WORK = Path(os.environ.get("WEBCAM_WORK") or Path(tempfile.gettempdir()) / "sisepai-live-webcam")
SECONDS, CARDS = WEBCAM_SECONDS, WEBCAM_CARDS
DESIGNS = {"block change": False, "aligned": True}


def run(path: Path, truth: list[dict], recognizer, align: bool) -> dict:
    score, session = read_every_frame(recognizer, path, truth, align=align)
    work = sum(session.seconds.values())
    return {"work_s": round(work, 2), "looked": session.looked, "frames": session.frames,
            "found": score.found, "truth": score.truth, "false": score.false}


def main() -> None:
    recognizer = Recognizer.load()
    rows = {name: [] for name in DESIGNS}
    for seed in SEEDS:
        print(f"webcam  video {seed} (made once into {WORK}, then reused)", flush=True)
        path, truth = webcam_video(SPLIT, seed, WORK)
        for name, align in DESIGNS.items():
            r = run(path, truth, recognizer, align)
            rows[name].append(r)
            print(f"webcam  {name:12s} video {seed}: work {r['work_s'] / SECONDS:.2f}x the video, looked at "
                  f"{r['looked']}/{r['frames']} frames, recall {r['found']}/{r['truth']}, {r['false']} false", flush=True)
    figures = {}
    for name, rs in rows.items():
        found, total = sum(r["found"] for r in rs), sum(r["truth"] for r in rs)
        figures[name] = {"work_for_video_time": round(sum(r["work_s"] for r in rs) / (SECONDS * len(rs)), 3),
                         "looked_share": round(sum(r["looked"] for r in rs) / sum(r["frames"] for r in rs), 3),
                         "recall": round(found / max(total, 1), 3), "found": found, "truth": total,
                         "false": sum(r["false"] for r in rs), "videos": len(rs),
                         "work_s_per_video": [r["work_s"] for r in rs]}
    ratios = [a["work_s"] / b["work_s"] for a, b in zip(rows["aligned"], rows["block change"])]
    figures["aligned_over_block_change"] = {"median": round(float(np.median(ratios)), 3),
                                            "each": [round(x, 3) for x in ratios]}
    print("webcam  " + json.dumps(figures), flush=True)
    path = write_record("live_webcam", "python benchmarks/run.py live_webcam", figures, split=SPLIT,
                        options={"seeds": SEEDS, "seconds": SECONDS, "cards": CARDS, "fonts": FONT_SPLITS[SPLIT],
                                 "pace": "every"})
    print(f"webcam  record: {path}")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"webcam  {time.perf_counter() - t0:.0f} s")
