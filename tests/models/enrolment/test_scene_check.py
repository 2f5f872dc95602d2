"""The enrolled deck's self-check through a second camera, beside the project's own scenes."""

from types import SimpleNamespace

import numpy as np
import pytest

from sisepai.datasets.second_camera import stranger_folder
from sisepai.models.enrolment.scene_check import check_line, read_scenes, second_camera_scenes


def test_the_check_line_puts_the_second_camera_beside_the_projects_scenes():
    part = lambda f: {"f1": f, "cards": 40}  # noqa: E731
    check = {"before": {"all": part(0.8)}, "after": {"all": part(0.9), "fan": part(0.7)}, "weakest": "fan",
             "scenes_per_layout": 5,
             "camera2": {"before": {"all": part(0.6)}, "after": {"all": part(0.75), "fan": part(0.4)}}}
    assert check_line(check).endswith("; through a second camera: F1 0.600 -> 0.750 (fans 0.400)")
    del check["camera2"]
    assert "second camera" not in check_line(check)


def test_a_card_the_second_camera_does_not_require_is_not_false_when_read_right():
    box = [[0, 0], [20, 0], [20, 60], [0, 60]]
    needed = {"card": "GK", "corners": box, "labelled": True}
    optional = {"card": "RP", "corners": [[40, 0], [60, 0], [60, 60], [40, 60]], "labelled": False, "optional": True}
    reads = SimpleNamespace(recognize=lambda img: SimpleNamespace(detections=SimpleNamespace(
        codes=["GK", "RP"], centers=[(10, 30), (50, 30)], confidence=[0.9, 0.8])))
    scene = ("fan", np.zeros((8, 8, 3), np.uint8), [needed])
    assert read_scenes(reads, [scene])["all"]["fp"] == 1  # the project's scenes: every reading counts
    assert read_scenes(reads, [scene + ([needed, optional],)])["all"]["fp"] == 0


@pytest.mark.skipif(stranger_folder() is None, reason="the second camera's generator is not on this machine")
def test_the_second_camera_lays_an_enrolled_decks_faces():
    from sisepai.datasets.design.standin import standin_deck

    scenes = second_camera_scenes(standin_deck(0, "tune"), seed=3, per_layout=1)
    assert [s[0] for s in scenes] == ["table", "fan", "hand"]
    assert all(s[1].shape == (720, 1280, 3) and s[2] and all(c["labelled"] for c in s[2]) for s in scenes)
