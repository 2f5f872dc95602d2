"""Recogniser benchmark: time per 1280x720 frame end to end (JPEG decode, detect, read), median and
95th percentile, and peak memory; then `sisepai watch` on a 60 s, 10 fps synthetic game video."""

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.scene import make_scene
from sisepai.datasets.video import GameVideo
from sisepai.vision.recognize import Recognizer, decode_image

def match_events(truth, events, window=1.5):
    """Recall of ground-truth card_shown events (right card and seat, within ``window`` s), the
    number of announced card_shown events that match nothing, and the delays."""
    shown = [e for e in events if e["type"] == "card_shown"]
    used, hits, delays = set(), 0, []
    for g in truth:
        for j, e in enumerate(shown):
            if j not in used and e["card"] == g["card"] and e["seat"] == g["seat"] and 0 <= e["t"] - g["t"] <= window:
                used.add(j)
                hits += 1
                delays.append(e["t"] - g["t"])
                break
    return hits / max(len(truth), 1), len(shown) - len(used), delays


rec = Recognizer.load()
jpegs = []
for i, layout in enumerate(["table", "fan", "hand"] * 10):
    scene = make_scene(2024, i, layout, font_split="holdout")
    ok, buf = cv2.imencode(".jpg", scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    jpegs.append(buf.tobytes())
for data in jpegs[:3]:
    rec.recognize(decode_image(data))  # warm up
times = []
for data in jpegs:
    t = time.perf_counter()
    rec.recognize(decode_image(data))
    times.append((time.perf_counter() - t) * 1000)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"vision  recognise a 1280x720 JPEG, end to end      median {np.median(times):.0f} ms, "
      f"p95 {np.percentile(times, 95):.0f} ms (peak RSS {peak:.0f} MiB)")

with tempfile.TemporaryDirectory() as tmp:
    video = Path(tmp) / "game.mp4"
    GameVideo(seed=7, seconds=60, fps=10).write(video, Path(tmp) / "truth.json")
    exe = Path(sys.executable).with_name("sisepai")
    t = time.perf_counter()
    proc = subprocess.run([str(exe), "watch", str(video), "--json"], capture_output=True, text=True)
    dt = time.perf_counter() - t
    events = [json.loads(x) for x in proc.stdout.splitlines()]
    truth = json.loads((Path(tmp) / "truth.json").read_text())["events"]
    recall, false, delays = match_events(truth, events)
    print(f"vision  sisepai watch, 60 s 1280x720 10 fps video     {dt:.1f} s start to end (rc {proc.returncode}); "
          f"card_shown recall {recall:.3f} within 1.5 s, {false} false events in the minute, "
          f"median delay {np.median(delays) if delays else float('nan'):.2f} s")
