"""The GPU training script, run end to end on the CPU with tiny sets: it brings the weights back."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_the_gpu_script_brings_back_a_detector_and_a_reader(tmp_path):
    env = {**os.environ, "OUT": str(tmp_path / "out"), "WORK": str(tmp_path / "work"), "DEVICE": "cpu",
           "N_MIXED": "12", "N_FANS": "6", "N_HEAPS": "6", "N_FLAT": "4", "N_HELD": "6", "SECONDS_BUDGET": "240",
           "YOLO_CONFIG_DIR": str(tmp_path / "yolo")}
    env["PATH"] = f"{Path(os.sys.executable).parent}:{env['PATH']}"  # python3 is the project's
    run = subprocess.run(["bash", "models/training/train_gpu.sh"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=1200)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    out = tmp_path / "out"
    assert (out / "detector_last.pt").stat().st_size > 1_000_000
    assert (out / "reader.pt").stat().st_size > 100_000
    log = (out / "train_gpu.log").read_text()
    assert "data generated" in log and "detector done" in log and "reader done" in log
