"""The live table on decks the recogniser never saw: `sisepai watch` (default options: it keeps up
with the video's clock) on 60 s, 1280x720, 10 fps videos of a game under way (meld rows on the
table from the start, a card shown every 3 to 5 s by the seat whose turn it is), with 10, 30 and
60 cards in view. Three kinds of deck:

- ``design``: generated deck styles printed in held-out fonts (test: the honest held-out faces;
  tune: the other held-out faces);
- ``standin``: the stand-in decks of the split (held-out font faces; their papers and layouts like training's), zero-shot;
- ``enrolled``: the same videos read with each stand-in deck's enrolled reader.

Videos draw their decks at 1:3.3 to 1:4.5, so four seats' rows fit the table. For each kind and
size: card_shown recall (card and seat within 1.5 s), false card_shown events a minute, median
delay, wall time from start to end (model loading included) and the share of frames skipped.

Environment: LIVE_SPLIT=tune (default) or test (read only on purpose; LIVE_AGAIN=REASON to read a key again); LIVE_CARDS=10,30,60; LIVE_KINDS=design,standin,enrolled;
LIVE_WORK=a folder that keeps enrolled readers between runs (default: the system's temp folder).
The test split's record is written once per model version (``benchmarks/results/live_bench.json``).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sisepai.datasets.design.splits import FONTS as FONT_SPLITS
from sisepai.datasets.design.splits import VIDEO_SEEDS
from sisepai.datasets.design.standin import standin_deck, standin_style
from sisepai.datasets.video.game import TurnVideo
from sisepai.models.evaluation.deck_eval import MEASURE_ENROL_STEPS
from sisepai.models.evaluation.live_eval import match_events
from sisepai.models.evaluation.records import write_record

SPLIT = os.environ.get("LIVE_SPLIT", "tune")
SEEDS = VIDEO_SEEDS[SPLIT]
FONTS = FONT_SPLITS[SPLIT]
SIZES = [int(x) for x in os.environ.get("LIVE_CARDS", "10,30,60").split(",")]
KINDS = os.environ.get("LIVE_KINDS", "design,standin,enrolled").split(",")
WORK = Path(os.environ.get("LIVE_WORK") or Path(tempfile.gettempdir()) / "sisepai-live-bench")
EXE = Path(sys.executable).with_name("sisepai")


def enrolled_reader(k: int) -> Path:
    """Stand-in deck k's enrolled reader, enrolled here once (``sisepai deck add``'s adaptation)."""
    from sisepai.faces.deck import DeckFaces
    from sisepai.models.enrolment.enrol import EnrolOptions, adapt_reader
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS

    weights = WORK / "readers" / f"{SPLIT}-{k}.pt"
    if not weights.exists():
        faces = WORK / "faces" / f"{SPLIT}-{k}"
        if not faces.is_dir():
            standin_deck(k, SPLIT).save(faces)
        weights.parent.mkdir(parents=True, exist_ok=True)
        print(f"live    enrolling stand-in deck {SPLIT}-{k} (a few minutes, once)", flush=True)
        # a fixed number of steps, as deck_eval enrols: a loaded machine changes nothing
        adapt_reader(DeckFaces.load(faces), DEFAULT_WEIGHTS, weights, EnrolOptions(steps=MEASURE_ENROL_STEPS))
    return weights


def watch(video: Path, reader: Path | None) -> tuple[list[dict], float, dict]:
    command = [str(EXE), "watch", str(video), "--json"] + (["--reader", str(reader)] if reader else [])
    t = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode:
        sys.exit(f"sisepai watch failed: {proc.stderr.strip()[-300:]}")
    m = re.search(r"(\d+) frames: (\d+) read \((\d+) looked at, (\d+) steady\), (\d+) skipped, at most ([\d.]+) s behind",
                  proc.stderr)
    counts = {"read": int(m[2]), "looked": int(m[3]), "skipped": int(m[5]), "behind": float(m[6])} if m else {}
    counts["parts"] = {k: float(v) for k, v in re.findall(r"(look|detect|read|follow) ([\d.]+) s", proc.stderr)}
    return [json.loads(x) for x in proc.stdout.splitlines()], wall, counts


def videos(kind: str, cards: int):
    """(video style, seed, reader) for one kind of deck."""
    if kind == "design":
        for seed in SEEDS["design"]:
            yield None, seed, None
    else:
        for k, seed in SEEDS["standin"]:
            yield standin_style(k, SPLIT)[0], seed, enrolled_reader(k) if kind == "enrolled" else None


def main() -> None:
    figures: dict = {}
    key = None
    if SPLIT == "test":  # any sizes and kinds read the test split
        from sisepai.models.evaluation.records import begin_test

        key = begin_test("live_bench", None, SEEDS, os.environ.get("LIVE_AGAIN"))
    WORK.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        for cards in SIZES:
            found = truth = false = read = skipped = 0
            delays, walls, behind = [], [], 0.0
            parts: dict = {}
            for style, seed, reader in videos(kind, cards):
                video = WORK / "videos" / f"{SPLIT}-{kind if kind == 'design' else 'standin'}-{seed}-{cards}.mp4"
                record_file = video.with_suffix(".json")
                if not record_file.exists():
                    video.parent.mkdir(parents=True, exist_ok=True)
                    record = TurnVideo(seed=seed, cards=cards, font_split=FONTS, style=style).write(video)
                    record_file.write_text(json.dumps(record["events"]))
                events, wall, counts = watch(video, reader)
                score = match_events(json.loads(record_file.read_text()), events)
                found, truth, false = found + score.found, truth + score.truth, false + score.false
                delays += score.delays
                walls.append(wall)
                read += counts.get("read", 0) + counts.get("skipped", 0)
                skipped += counts.get("skipped", 0)
                behind = max(behind, counts.get("behind", 0.0))
                for k, v in counts["parts"].items():
                    parts[k] = parts.get(k, 0.0) + v
                print(f"live    {kind:8s} {cards:2d} cards, seed {seed}: {wall:.1f} s for 60 s; recall "
                      f"{score.recall:.3f} ({score.found}/{score.truth}), {score.false} false, "
                      f"{counts.get('skipped', '?')} of {counts.get('read', 0) + counts.get('skipped', 0)} frames skipped",
                      flush=True)
            n = len(walls)
            figures[f"{kind}/{cards}"] = {
                "recall": round(found / max(truth, 1), 3), "found": found, "truth": truth,
                "false_per_minute": round(false / max(n, 1), 2),
                "median_delay_s": round(float(np.median(delays)), 2) if delays else None,
                "wall_s_max": round(max(walls), 1), "skipped_share": round(skipped / max(read, 1), 3),
                "behind_s_max": round(behind, 2), "videos": n,
                "seconds_per_video": {k: round(v / max(n, 1), 1) for k, v in parts.items()}}
            print(f"live    {kind:8s} {cards:2d} cards, {n} videos: " + json.dumps(figures[f"{kind}/{cards}"]), flush=True)
    if SIZES != [10, 30, 60] or KINDS != ["design", "standin", "enrolled"]:
        print("live    a subset: no record written")
        return
    name = "live_bench" if SPLIT == "test" else "live_bench_tune"
    path = write_record(name, "python benchmarks/run.py live_bench", figures, split=SPLIT,
                        options={"cards": SIZES, "kinds": KINDS, "seeds": SEEDS, "fonts": FONTS,
                                 "enrol_steps": MEASURE_ENROL_STEPS}, key=key, again=os.environ.get("LIVE_AGAIN"))
    print(f"live    record: {path}")


if __name__ == "__main__":
    main()
