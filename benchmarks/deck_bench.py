"""Deck enrolment benchmark: `sisepai deck add` on a stand-in deck's 29 faces, default options (its
reader and detector adapted; wall time and peak memory of the whole command, and its check on whole
scenes kept aside), then the recogniser with that deck (its own reader and detector): time per
1280x720 frame end to end (JPEG decode, detect, read), median and 95th percentile."""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sisepai.datasets.design.standin import standin_deck
from sisepai.faces.deck import DeckFaces
from sisepai.models.evaluation.records import write_record
from sisepai.vision.decks.recognizer import deck_recognizer
from sisepai.vision.decks.store import detector_weights

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import recognition_ms, scene_jpegs  # noqa: E402

from sisepai.datasets.design.splits import BENCH_SEEDS  # noqa: E402

SISEPAI = Path(sys.executable).with_name("sisepai")

with tempfile.TemporaryDirectory() as tmp:
    faces = Path(tmp) / "faces"
    standin_deck(1, "tune").save(faces)
    env = {**os.environ, "SISEPAI_HOME": str(Path(tmp) / "home")}
    t = time.perf_counter()
    proc = subprocess.run([str(SISEPAI), "deck", "add", "bench", str(faces)], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"deck add failed: {proc.stderr.strip().splitlines()[-1]}")
    info = json.loads((Path(tmp) / "home" / "decks" / "bench" / "deck.json").read_text())
    print(f"deck    enrol a deck from its 29 faces (sisepai deck add)   {wall / 60:.1f} min, "
          f"peak RSS {info['peak_memory_mb']:.0f} MiB; its ends read "
          f"{info['reading_before']['accuracy']:.1%} -> {info['reading_after']['accuracy']:.1%}")
    check = info["scene_check"]
    for line in proc.stdout.strip().splitlines()[1:]:  # the check on whole scenes, the detector's adaptation
        print(f"deck    {line}")
    os.environ["SISEPAI_HOME"] = env["SISEPAI_HOME"]
    rec = deck_recognizer("bench")
    times = recognition_ms(rec, scene_jpegs(BENCH_SEEDS["deck_bench"], deck=DeckFaces.load(faces)))
    print(f"deck    recognise a 1280x720 JPEG with an enrolled deck     median {np.median(times):.0f} ms, "
          f"p95 {np.percentile(times, 95):.0f} ms")
    write_record("deck_bench", "python benchmarks/deck_bench.py", {
        "enrol_minutes": round(wall / 60, 2), "peak_rss_mib": round(info["peak_memory_mb"]),
        "detector_adapted": detector_weights("bench") is not None,
        "ends_read_before": info["reading_before"]["accuracy"], "ends_read_after": info["reading_after"]["accuracy"],
        "whole_scenes_f1": {"before": check["before"]["all"]["f1"], "after": check["after"]["all"]["f1"],
                            "layouts_after": {k: v["f1"] for k, v in check["after"].items() if k != "all"},
                            "weakest": check["weakest"], "scenes_per_layout": check["scenes_per_layout"]},
        "frame_ms_enrolled": {"median": round(float(np.median(times)), 1), "p95": round(float(np.percentile(times, 95)), 1)}},
        split="tune", options={"deck": "stand-in tune-1", "size": "1280x720"})
