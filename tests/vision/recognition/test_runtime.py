"""The detector's runtimes: one setting, PyTorch where nothing else is installed, and exports tied
to the weights they came from."""

import shutil

import numpy as np
import pytest

from sisepai.vision.recognition import runtime
from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS, Detector
from tests.homes import own_home


def test_auto_falls_back_to_pytorch_where_nothing_else_is_installed(monkeypatch):
    monkeypatch.setattr(runtime, "installed", lambda r: r == "torch")
    assert runtime.resolve("auto") == runtime.resolve(None) == "torch"
    with pytest.raises(ValueError, match="pip install openvino"):
        runtime.resolve("openvino")
    monkeypatch.setenv(runtime.ENV, "torch")
    assert runtime.resolve(None) == "torch"


def test_the_setting_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(runtime.ENV, "nonsense")
    with pytest.raises(ValueError, match="unknown runtime 'nonsense'"):
        runtime.resolve(None)


@pytest.mark.skipif(not runtime.installed("openvino"), reason="OpenVINO is not installed")
def test_an_export_is_made_once_per_weights_and_reads_as_pytorch_does(tmp_path, monkeypatch):
    monkeypatch.setenv("SISEPAI_HOME", str(tmp_path / "home"))
    weights = tmp_path / "detector.pt"
    shutil.copyfile(DEFAULT_WEIGHTS, weights)
    first = runtime.exported_detector(weights, "openvino")
    assert first.is_dir() and runtime.file_hash(weights) in str(first)
    monkeypatch.setattr(runtime, "shutil", None)  # a second export would need it: the first is reused
    assert runtime.exported_detector(weights, "openvino") == first
    monkeypatch.undo()
    monkeypatch.setenv("SISEPAI_HOME", str(tmp_path / "home"))
    weights.write_bytes(weights.read_bytes() + b"\0")  # other weights: another export, never the old one
    assert runtime.file_hash(weights) not in str(first)
    from sisepai.datasets.design.splits import FONT_SCENE_SEEDS
    from sisepai.datasets.scenes.scene import make_scene

    frame = make_scene(FONT_SCENE_SEEDS["tune"], 0, "table", font_split="tune").image[..., ::-1].copy()
    torch_boxes = Detector.load(DEFAULT_WEIGHTS, runtime="torch").detect([frame])[0]
    vino = Detector.load(DEFAULT_WEIGHTS, runtime="openvino")
    vino_boxes = vino.detect([frame])[0]
    assert vino.runtime == "openvino" and len(torch_boxes) >= 10
    # the same outlines, to a pixel or two: each of PyTorch's has one of OpenVINO's at its centre
    centres = vino_boxes.polygons.mean(1)
    near = [np.linalg.norm(centres - c, axis=1).min() < 3 for c in torch_boxes.polygons.mean(1)]
    assert abs(len(vino_boxes) - len(torch_boxes)) <= 1 and sum(near) >= len(near) - 1


def test_a_failed_export_falls_back_to_pytorch_unless_the_runtime_was_named(monkeypatch, capsys):
    from sisepai.vision.recognition import detector

    def broken(weights, runtime_name, imgsz=640, folder=None):
        if runtime_name == "torch":
            return weights
        raise OSError("read-only file system: exports")

    monkeypatch.setattr(runtime, "exported_detector", broken)
    monkeypatch.setattr(runtime, "installed", lambda r: True)
    monkeypatch.delenv(runtime.ENV, raising=False)
    assert detector.Detector.load().runtime == "torch"
    assert "export of the detector failed (read-only file system: exports); running it in PyTorch" in capsys.readouterr().err
    with pytest.raises(OSError, match="read-only"):
        detector.Detector.load(runtime="openvino")


@pytest.mark.skipif(not runtime.installed("openvino"), reason="OpenVINO is not installed")
def test_the_8_bit_model_lives_beside_its_weights_and_finds_the_same_cards(tmp_path, monkeypatch):
    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path / "home")))  # the 32-bit export: the run's
    from sisepai.datasets.design.splits import FONT_SCENE_SEEDS
    from sisepai.datasets.scenes.scene import make_scene

    frame = make_scene(FONT_SCENE_SEEDS["tune"], 1, "table", font_split="tune").image[..., ::-1].copy()
    full = Detector.load(DEFAULT_WEIGHTS, runtime="openvino").detect([frame])[0]
    eight = Detector.load(DEFAULT_WEIGHTS, runtime="openvino-int8")
    assert eight.runtime == "openvino-int8" and "-int8-" in str(eight.exported)
    boxes = eight.detect([frame])[0]
    centres = boxes.polygons.mean(1)
    near = [np.linalg.norm(centres - c, axis=1).min() < 4 for c in full.polygons.mean(1)]
    assert len(full) >= 10 and abs(len(boxes) - len(full)) <= 2 and sum(near) >= len(near) - 2
    # weights with no 8-bit model beside them: refused, saying how to make one
    other = tmp_path / "candidate.pt"
    shutil.copyfile(DEFAULT_WEIGHTS, other)
    with pytest.raises(runtime.NoQuantizedModel, match="quantize_detector"):
        Detector.load(other, runtime="openvino-int8")


@pytest.mark.skipif(not runtime.installed("openvino"), reason="OpenVINO is not installed")
def test_openvino_runs_on_the_inference_threads_in_32_bit(monkeypatch):
    monkeypatch.setenv(runtime.THREADS_ENV, "1")
    compiled = Detector.load(runtime="openvino").direct.compiled  # the network the detector calls
    assert compiled.get_property("INFERENCE_NUM_THREADS") == 1
    assert str(compiled.get_property("INFERENCE_PRECISION_HINT")) in ("<Type: 'float32'>", "f32")


def test_threads_follow_the_machines_load(monkeypatch):
    """A quiet two-core machine gets both cores; when another program takes one, inference gives it
    back at the next look, and takes it again once it is free. Looks are counted on a fake clock."""
    monkeypatch.delenv(runtime.THREADS_ENV, raising=False)
    monkeypatch.setattr(runtime, "_cores", lambda: 2)
    load = {"others": 0.0}
    monkeypatch.setattr(runtime.CoreShare, "others", lambda self, wait=0.0: load["others"])
    now = {"t": 0.0}
    applied = []
    assert runtime.inference_threads() == 2
    follower = runtime.ThreadFollower(applied.append, 2, every=3.0, clock=lambda: now["t"])
    load["others"] = 1.0  # another program takes a core
    now["t"] = 1.0
    assert follower.tick() == 2 and applied == []  # not time to look yet
    now["t"] = 3.5
    assert follower.tick() == 1 and applied == [1]
    load["others"] = 0.1
    now["t"] = 7.0
    assert follower.tick() == 2 and applied == [1, 2]
    monkeypatch.setenv(runtime.THREADS_ENV, "1")  # a fixed setting is never changed
    fixed = runtime.ThreadFollower(applied.append, 1, every=0.0, clock=lambda: now["t"])
    assert fixed.tick() == 1 and applied == [1, 2]


def test_the_core_share_measures_a_busy_program():
    import subprocess
    import sys

    share = runtime.CoreShare()
    share.others(wait=0.3)
    loop = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        share.others(wait=0.5)  # from the start of the loop
        busy = share.others(wait=1.0)
    finally:
        loop.kill()
        loop.wait()
    assert busy >= 0.6, busy  # at least most of a core, whatever else this machine runs
