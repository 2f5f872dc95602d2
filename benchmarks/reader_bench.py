"""Reader benchmark: the shipped reader in 8-bit integers (as the recogniser loads it on an x86 CPU)
against the same weights in 32-bit floats, on the end crops of 40 generated scenes in the tuning
fonts: crops a second each (measured in the same run, so their ratio holds on a loaded machine),
the share of crops both read as the same class, and each one's accuracy."""

import time

import cv2
import numpy as np

from sisepai.datasets.design.splits import BENCH_SEEDS, FONTS
from sisepai.datasets.export.writer import CROP_MIN_VISIBLE, end_crop
from sisepai.datasets.scenes.scene import make_scene
from sisepai.models.evaluation.records import write_record
from sisepai.vision.recognition.reader import Reader

SEED, SCENES, BATCH, ROUNDS = BENCH_SEEDS["reader_bench"], 40, 64, 3


def end_crops(seed: int, scenes: int) -> tuple[np.ndarray, np.ndarray]:
    """Every face-up end at least half visible in ``scenes`` JPEG scenes: (N, 48, 48, 3) RGB, class ids."""
    crops, labels = [], []
    for i in range(scenes):
        scene = make_scene(seed, i, font_split=FONTS["tune"])
        ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(scene.image[..., ::-1]), [cv2.IMWRITE_JPEG_QUALITY, 90])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1]
        for card in scene.cards:
            for end in card["ends"] if card["face_up"] else ():
                if end["visible"] >= CROP_MIN_VISIBLE:
                    crops.append(cv2.resize(end_crop(img, end["corners"]), (48, 48), interpolation=cv2.INTER_AREA))
                    labels.append(card["class_id"])
    return np.stack(crops), np.asarray(labels)


def crops_per_second(reader: Reader, crops: np.ndarray) -> float:
    """The best of ``ROUNDS`` passes over ``crops`` in batches of ``BATCH``, after one warm-up batch."""
    reader.read(crops[:BATCH])
    best = float("inf")
    for _ in range(ROUNDS):
        t = time.perf_counter()
        for k in range(0, len(crops), BATCH):
            reader.read(crops[k:k + BATCH])
        best = min(best, time.perf_counter() - t)
    return len(crops) / best


crops, labels = end_crops(SEED, SCENES)
int8, float32 = Reader.load(), Reader.load(int8=False)
if int8.precision != "int8":
    raise SystemExit("this CPU has no 8-bit engine for PyTorch: the reader runs in 32-bit floats")
rates = {r.precision: crops_per_second(r, crops) for r in (int8, float32)}
reads = {r.precision: np.concatenate([r.read(crops[k:k + BATCH]) for k in range(0, len(crops), BATCH)]).argmax(1)
         for r in (int8, float32)}
same = float((reads["int8"] == reads["float32"]).mean())
accuracy = {p: round(float((r == labels).mean()), 4) for p, r in reads.items()}
print(f"reader  {len(crops)} end crops: 8-bit {rates['int8']:,.0f}/s, 32-bit {rates['float32']:,.0f}/s "
      f"({rates['int8'] / rates['float32']:.1f}x); the same reading on {same:.1%}; "
      f"right {accuracy['int8']:.1%} / {accuracy['float32']:.1%}")
write_record("reader_bench", "python benchmarks/reader_bench.py", {
    "crops": len(crops), "crops_per_second": {p: round(v, 1) for p, v in rates.items()},
    "speedup_int8": round(rates["int8"] / rates["float32"], 2), "same_reading": round(same, 4), "accuracy": accuracy},
    split="tune", options={"scenes_seed": SEED, "scenes": SCENES, "fonts": FONTS["tune"], "batch": BATCH})
