"""The card-end reader: its 8-bit version reads like the float one, and falls back to floats."""

import numpy as np
import pytest

from sisepai.datasets.scenes.scene import make_scene
from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.geometry import order_upright, straighten


def visible_end_crops(n_scenes=6):
    """Straightened crops of every mostly visible card end in a few held-out-font scenes, and their codes."""
    crops, codes = [], []
    for i in range(n_scenes):
        scene = make_scene(31, i, ("table", "hand", "fan")[i % 3], font_split="tune")
        rgb = scene.image[..., :3]
        for card in scene.labelled():
            for end in card["ends"]:
                if end["visible"] >= 0.9:
                    crops.append(straighten(rgb, order_upright(np.float32(end["corners"])), 48))
                    codes.append(CARD_CODES.index(card["card"]))
    return crops, np.array(codes)


@pytest.mark.model
def test_the_8_bit_reader_reads_like_the_float_one(recognizer):
    from sisepai.vision.recognition.reader import Reader

    int8 = recognizer.reader
    if int8.precision != "int8":
        pytest.skip("no x86 quantised engine in this PyTorch")
    crops, codes = visible_end_crops()
    assert len(crops) >= 80
    fast, exact = int8.read(crops), Reader.load(int8=False).read(crops)
    assert (fast.argmax(1) == exact.argmax(1)).mean() >= 0.95
    assert (fast.argmax(1) == codes).mean() >= (exact.argmax(1) == codes).mean() - 0.03
    np.testing.assert_allclose(fast.sum(1), 1.0, atol=1e-4)


@pytest.mark.model
def test_a_reader_without_calibration_crops_reads_in_floats(tmp_path, monkeypatch):
    import torch

    from sisepai.vision.recognition import reader as reader_module
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS, Reader

    state = torch.load(DEFAULT_WEIGHTS, map_location="cpu", weights_only=False)
    assert len(state["calibration"]) == 256  # the shipped weights carry their calibration crops
    del state["calibration"]
    torch.save(state, tmp_path / "old.pt")
    assert Reader.load(tmp_path / "old.pt").precision == "float32"
    monkeypatch.setattr(reader_module, "INT8_ENGINES", ("no-such-engine",))  # a CPU without the engine
    assert Reader.load().precision == "float32"


def test_the_runtime_imports_no_training_code():
    # vision holds the runtime (networks, weight loading, the shipped weights); training and
    # evaluation in sisepai.models use it, never the reverse
    import re
    from pathlib import Path

    import sisepai.vision as vision

    root = Path(vision.__file__).parent
    assert (root / "weights" / "detector.pt").is_file() and (root / "weights" / "reader.pt").is_file()
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+sisepai\.models", text, re.M), path
