"""The exported detector called directly finds the boxes ultralytics' predictor finds."""

import numpy as np
import pytest

from sisepai.vision.recognition import runtime
from sisepai.vision.recognition.detector import Detector
from sisepai.vision.recognition.direct import DirectOpenVINO, letterbox_params

pytestmark = [pytest.mark.model,
              pytest.mark.skipif(not runtime.installed("openvino"), reason="OpenVINO is not installed")]


@pytest.fixture(scope="module")
def openvino_detector():
    return Detector.load(runtime="openvino")


def test_the_letterbox_is_ultralytics_own():
    from ultralytics.data.augment import LetterBox

    for h, w in ((720, 1280), (800, 800), (1080, 1920), (361, 1283), (2000, 500)):
        image = (np.random.default_rng(h).random((h, w, 3)) * 255).astype(np.uint8)
        theirs = LetterBox(640, auto=True, stride=32)(image=image)
        new_h, new_w, top, bottom, left, right = letterbox_params(h, w)
        assert theirs.shape[:2] == (new_h + top + bottom, new_w + left + right)


@pytest.mark.parametrize("layout,index", [("table", 0), ("fan", 1), ("hand", 2), ("heap", 3), ("held", 4)])
def test_the_same_boxes_as_the_predictor_on_tuning_scenes(openvino_detector, layout, index):
    from sisepai.datasets.design.splits import FONT_SCENE_SEEDS
    from sisepai.datasets.scenes.scene import make_scene

    det = openvino_detector
    assert det.direct is not None, "the default runtime is called directly"
    image = make_scene(FONT_SCENE_SEEDS["tune"], index, layout=layout, font_split="tune").image[..., ::-1].copy()
    direct = det.detect([image])[0]
    kept, det.direct = det.direct, None  # the predictor's way, on the same network
    try:
        det.detect([image])  # sets the predictor up; then compiled as the direct call is (32-bit, one thread)
        runtime.limit_threads(det.model, kept.threads, det.exported)
        predicted = det.detect([image])[0]
    finally:
        det.direct = kept
    assert len(direct) == len(predicted) > 0
    order_a, order_b = np.argsort(-direct.confidence), np.argsort(-predicted.confidence)
    assert np.allclose(direct.confidence[order_a], predicted.confidence[order_b], atol=1e-4)
    assert np.array_equal(direct.part[order_a], predicted.part[order_b])
    assert np.abs(direct.polygons[order_a] - predicted.polygons[order_b]).max() < 0.05


def test_threads_recompile_the_direct_network(openvino_detector):
    det = openvino_detector
    det.set_threads(2)
    assert det.direct.threads == 2
    det.set_threads(1)
    assert det.direct.threads == 1
    assert isinstance(det.direct, DirectOpenVINO)
