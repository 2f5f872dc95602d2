"""Recogniser benchmark: time per 1280x720 frame end to end (JPEG decode, detect, read), median and
95th percentile, and peak memory; then `sisepai watch` on a 60 s, 10 fps synthetic game video."""

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
    n = len(proc.stdout.splitlines())
    print(f"vision  sisepai watch, 60 s 1280x720 10 fps video     {dt:.1f} s start to end ({n} events, rc {proc.returncode})")
