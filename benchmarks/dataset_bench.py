"""Dataset generator benchmark: scenes a second at 1280x720 with 2 workers, and peak memory.

Peak memory is the largest resident set of any process (parent or worker), sampled with psutil;
it is measured for two sizes of N to show it does not grow with N.
"""

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from sisepai.models.evaluation.records import write_record

EXE = Path(sys.executable).with_name("sisepai")


def run(n: int, formats: str = "yolo-obb") -> tuple[float, float]:
    out = Path(tempfile.mkdtemp())
    peak = 0.0
    proc = subprocess.Popen([str(EXE), "dataset", "generate", "--out", str(out), "--n", str(n), "--seed", "1",
                             "--workers", "2", "--format", formats], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = time.perf_counter()
    p = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            rss = [p.memory_info().rss] + [c.memory_info().rss for c in p.children(recursive=True)]
            peak = max(peak, max(rss) / 2**20)
        except psutil.Error:
            pass
        time.sleep(0.05)
    dt = time.perf_counter() - t
    shutil.rmtree(out)
    return n / dt, peak


small_rate, small_peak = run(60)
rate, peak = run(240)
print(f"dataset scenes at 1280x720, 2 workers             {rate:>12,.1f} scenes/s "
      f"(peak RSS per process {peak:.0f} MiB at N=240, {small_peak:.0f} MiB at N=60)")
every_rate, _ = run(240, "yolo-obb,coco,hf")
print(f"dataset with COCO and Hugging Face export too       {every_rate:>12,.1f} scenes/s "
      f"({rate / every_rate - 1:+.1%} time against YOLO only; aim under 10%)")
write_record("dataset_bench", "python benchmarks/dataset_bench.py", {
    "scenes_per_second": round(rate, 2), "peak_rss_mib": {"n60": round(small_peak), "n240": round(peak)},
    "with_coco_and_hf_scenes_per_second": round(every_rate, 2), "export_time_added": round(rate / every_rate - 1, 4)},
    split="none", models={}, options={"size": "1280x720", "workers": 2})
