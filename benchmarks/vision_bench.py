"""Recogniser benchmark: time per 1280x720 frame end to end (JPEG decode, detect, read), median and
95th percentile, and peak memory. Live video is measured by ``live_bench.py``."""

import resource
import sys
from pathlib import Path

import numpy as np

from sisepai.datasets.design.splits import BENCH_SEEDS, FONTS
from sisepai.models.evaluation.records import write_record
from sisepai.vision.recognition.recognize import Recognizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import recognition_ms, scene_jpegs  # noqa: E402

rec = Recognizer.load()
times = recognition_ms(rec, scene_jpegs(BENCH_SEEDS["vision_bench"], font_split=FONTS["tune"]))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"vision  recognise a 1280x720 JPEG, end to end      median {np.median(times):.0f} ms, "
      f"p95 {np.percentile(times, 95):.0f} ms (peak RSS {peak:.0f} MiB)")

write_record("vision_bench", "python benchmarks/vision_bench.py", {
    "frame_ms": {"median": round(float(np.median(times)), 1), "p95": round(float(np.percentile(times, 95)), 1),
                 "frames": len(times)}, "peak_rss_mib": round(peak)}, split="tune", options={"size": "1280x720", "scenes_seed": BENCH_SEEDS["vision_bench"], "fonts": FONTS["tune"]})
