"""The second camera's scenes (:mod:`sisepai.datasets.second_camera`) read as the project's datasets are."""

import json

import numpy as np
import pytest

from sisepai.datasets.second_camera import as_project_card, convert, stranger_folder, write_stranger_scenes
from sisepai.models.evaluation.evaluate import evaluate_recognizer
from sisepai.vision.recognition.matching import optional_readings


def _raw_scene(folder, name, kind, cards):
    import cv2

    cv2.imwrite(str(folder / f"{name}.jpg"), np.zeros((72, 128, 3), np.uint8))
    (folder / f"{name}.json").write_text(json.dumps({"image": f"{name}.jpg", "kind": kind, "cards": cards}))


def test_required_cards_are_labelled_and_the_others_optional(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    square = [[0, 0], [10, 0], [10, 40], [0, 40]]
    _raw_scene(raw, "0000_fan", "fan", [{"card": "GK", "polygon": square, "head_visible": 0.8, "required": True},
                                        {"card": "RP", "polygon": square, "head_visible": 0.1, "required": False}])
    _raw_scene(raw, "0001_hand", "hand", [{"card": "J", "polygon": square, "head_visible": 1.0, "required": True}])
    assert convert(raw, tmp_path / "out") == 2
    fan = json.loads((tmp_path / "out" / "annotations" / "val" / "0000_fan.json").read_text())
    assert fan["layout"] == "fan" and [c["labelled"] for c in fan["cards"]] == [True, False]
    assert [c["optional"] for c in fan["cards"]] == [False, True]
    assert (tmp_path / "out" / "images" / "val" / "0001_hand.jpg").is_file()


def test_a_face_down_card_is_neither_needed_nor_optional():
    card = as_project_card({"card": "back", "polygon": [[0, 0]] * 4, "required": True})
    assert card["face_up"] is False and not card["labelled"] and not card["optional"]


def test_a_right_reading_of_an_optional_card_is_not_false(tmp_path):
    """Scored through evaluate_recognizer: the optional card read right adds nothing; read wrong it is false."""
    raw = tmp_path / "raw"
    raw.mkdir()
    a, b = [[0, 0], [20, 0], [20, 60], [0, 60]], [[40, 0], [60, 0], [60, 60], [40, 60]]
    _raw_scene(raw, "0000_fan", "fan", [{"card": "GK", "polygon": a, "head_visible": 0.8, "required": True},
                                        {"card": "RP", "polygon": b, "head_visible": 0.1, "required": False}])
    convert(raw, tmp_path / "out")

    class Reads:
        def __init__(self, codes):
            self.codes = codes

        def recognize(self, img):
            from types import SimpleNamespace
            return SimpleNamespace(detections=SimpleNamespace(codes=self.codes, centers=[(10, 30), (50, 30)],
                                                              confidence=[0.9, 0.8]))

    right = evaluate_recognizer(Reads(["GK", "RP"]), tmp_path / "out")["layouts"]["fan"]
    wrong = evaluate_recognizer(Reads(["GK", "RH"]), tmp_path / "out")["layouts"]["fan"]
    assert (right["tp"], right["fp"], right["fn"]) == (1, 0, 0)
    assert (wrong["tp"], wrong["fp"], wrong["fn"]) == (1, 1, 0)
    assert optional_readings(["GK"], [(10, 30)], [0.9], [], []) == 0


@pytest.mark.skipif(stranger_folder() is None, reason="the second camera's generator is not on this machine")
def test_the_second_camera_writes_a_dataset_once(tmp_path):
    from sisepai.datasets.design.font_splits import fonts_of

    fonts = [str(f.path) for f in fonts_of("tune")][:2]
    out = write_stranger_scenes(tmp_path / "cam2", 3, 8750, fonts=fonts)
    records = sorted((out / "annotations" / "val").glob("*.json"))
    assert [json.loads(r.read_text())["layout"] for r in records] == ["table", "fan", "hand"]
    stamp = (out / "dataset.json").stat().st_mtime_ns
    assert write_stranger_scenes(tmp_path / "cam2", 3, 8750, fonts=fonts) == out
    assert (out / "dataset.json").stat().st_mtime_ns == stamp, "made once and kept"
    assert not list(tmp_path.glob("*.raw"))
