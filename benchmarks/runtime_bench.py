"""The detector's runtimes side by side (:mod:`sisepai.vision.recognition.runtime`): PyTorch, OpenVINO
and ONNX Runtime, each installed one, on the same frames in one run (each frame read by every
runtime in turn, so a machine's drift falls on all alike).

OpenVINO is also run through ultralytics' predictor (``openvino-predictor``), as it was before the
exported network was called directly (:mod:`sisepai.vision.recognition.direct`), so the two are
compared in the same run.

For each runtime: the detector alone on a 1280x720 frame and a whole frame (decode, detect, read),
median and p95 milliseconds with the speed as a ratio to PyTorch's; frames where it finds as many
outlines as PyTorch; and F1 on tuning scenes (generated styles in the tuning fonts, and the real
tuning deck where this machine has it), which must stay within 0.003 of PyTorch's for a runtime to
be the default. Tuning data only: no test font, deck or seed.

    python benchmarks/runtime_bench.py [--frames 24] [--scenes 60]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import scene_jpegs  # noqa: E402

from sisepai.datasets.design.splits import FONT_SCENE_SEEDS, REAL_DECKS, REAL_SCENE_SEEDS, real_deck_folder  # noqa: E402
from sisepai.models.evaluation.records import write_record  # noqa: E402
from sisepai.vision.recognition.images import decode_image  # noqa: E402
from sisepai.vision.recognition.runtime import RUNTIMES, installed  # noqa: E402

SAME_F1 = 0.003
"""A runtime reads the same as PyTorch when its F1 on every tuning set is within this."""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=24, help="frames timed (default 24)")
    p.add_argument("--scenes", type=int, default=60, help="tuning scenes a set for F1 (default 60)")
    args = p.parse_args(argv)
    from sisepai.models.evaluation.deck_eval import write_scenes
    from sisepai.models.evaluation.evaluate import evaluate_recognizer
    from sisepai.vision.recognition.detector import Detector
    from sisepai.vision.recognition.reader import Reader
    from sisepai.vision.recognition.recognize import Recognizer
    from sisepai.vision.recognition.runtime import limit_threads

    runtimes = [r for r in RUNTIMES if installed(r)]
    reader = Reader.load()
    recognizers = {r: Recognizer(Detector.load(runtime=r), reader) for r in runtimes}
    if "openvino" in recognizers:
        predicted = Detector.load(runtime="openvino")
        predicted.direct = None  # ultralytics' predictor around the same network
        recognizers["openvino-predictor"] = Recognizer(predicted, reader)
        runtimes.append("openvino-predictor")
    jpegs = scene_jpegs(FONT_SCENE_SEEDS["tune"], n=args.frames, font_split="tune")
    frames = [decode_image(j) for j in jpegs]
    for rec in recognizers.values():  # warm up each
        rec.recognize(frames[0])
    if "openvino-predictor" in recognizers:  # its predictor set up: compiled as the direct call is
        d = recognizers["openvino-predictor"].detector
        limit_threads(d.model, d.threads, d.exported)
    det_ms = {r: [] for r in runtimes}
    frame_ms = {r: [] for r in runtimes}
    boxes = {r: [] for r in runtimes}
    for data, frame in zip(jpegs, frames):
        for r, rec in recognizers.items():
            t = time.perf_counter()
            found = rec.detector.detect([frame])[0]
            det_ms[r].append((time.perf_counter() - t) * 1000)
            boxes[r].append(len(found))
            t = time.perf_counter()
            rec.recognize(decode_image(data))
            frame_ms[r].append((time.perf_counter() - t) * 1000)
    work = Path(tempfile.mkdtemp(prefix="runtime-bench-"))
    sets = {"tune_fonts": write_scenes(None, work / "tune-fonts", args.scenes, FONT_SCENE_SEEDS["tune"], font_split="tune")}
    for k, name in enumerate(REAL_DECKS["tune"]):
        folder = real_deck_folder(name)
        if folder is not None:
            sets[f"real_{name}"] = write_scenes(folder, work / name, args.scenes, REAL_SCENE_SEEDS["tune"] + k,
                                                layouts=("table", "fan", "hand", "heap"))
    f1 = {r: {s: evaluate_recognizer(rec, data)["overall"]["f1"] for s, data in sets.items()}
          for r, rec in recognizers.items()}
    base = float(np.median(det_ms["torch"])), float(np.median(frame_ms["torch"]))
    figures = {}
    for r in runtimes:
        same = sum(a == b for a, b in zip(boxes[r], boxes["torch"]))
        reads_same = all(abs(f1[r][s] - f1["torch"][s]) <= SAME_F1 for s in sets)
        figures[r] = {"detector_ms": {"median": round(float(np.median(det_ms[r])), 1),
                                      "p95": round(float(np.percentile(det_ms[r], 95)), 1)},
                      "frame_ms": {"median": round(float(np.median(frame_ms[r])), 1),
                                   "p95": round(float(np.percentile(frame_ms[r], 95)), 1)},
                      "detector_speed": round(base[0] / float(np.median(det_ms[r])), 2),
                      "frame_speed": round(base[1] / float(np.median(frame_ms[r])), 2),
                      "same_outline_count": f"{same}/{len(frames)}", "f1": f1[r], "reads_same": reads_same}
        print(f"runtime  {r:9s} detector median {figures[r]['detector_ms']['median']:6.1f} ms "
              f"({figures[r]['detector_speed']:.2f}x)  frame {figures[r]['frame_ms']['median']:6.1f} ms "
              f"({figures[r]['frame_speed']:.2f}x)  outlines as PyTorch's {same}/{len(frames)}  F1 {f1[r]}"
              f"{'' if reads_same else '  (reads differently)'}")
    write_record("runtime_bench", "python benchmarks/runtime_bench.py", figures, split="tune",
                 options={"frames": args.frames, "scenes": args.scenes, "size": "1280x720",
                          "frames_seed": FONT_SCENE_SEEDS["tune"], "sets": sorted(sets)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
