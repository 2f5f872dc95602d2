"""Detector labels from the ground truth, and one data.yaml over several generated datasets."""

from pathlib import Path

import pytest

from sisepai.datasets.export.writer import GenerateOptions, generate_one, prepare_folders

pytest.importorskip("cv2")


def _tiny_set(root: Path, seed: int, layouts: tuple[str, ...]) -> Path:
    prepare_folders(root)
    opts = GenerateOptions(seed=seed, size=(320, 180), layouts=layouts, val=0.5)
    for i in range(2):
        generate_one(root, i, opts)
    return root


def test_detector_labels_are_three_classes_of_normalised_quads(tmp_path):
    from sisepai.models.training.prepare import prepare_detector

    yaml = prepare_detector(_tiny_set(tmp_path / "a", 1, ("table",)))
    labels = list((yaml.parent / "labels").rglob("*.txt"))
    assert len(labels) == 2
    rows = [line.split() for f in labels for line in f.read_text().splitlines() if line]
    assert rows, "a table scene has labelled cards"
    for row in rows:
        assert row[0] in {"0", "1", "2"} and len(row) == 9
        assert all(0.0 <= float(v) <= 1.0 for v in row[1:])


def test_combined_yaml_lists_every_dataset(tmp_path):
    from sisepai.models.training.prepare import combine_detector_sets

    a = _tiny_set(tmp_path / "a", 1, ("table",))
    b = _tiny_set(tmp_path / "b", 2, ("fan",))
    assert combine_detector_sets([a], tmp_path / "one.yaml") == a / "detector" / "data.yaml"
    text = combine_detector_sets([a, b], tmp_path / "runs" / "both.yaml").read_text()
    for d in (a, b):
        assert str((d / "detector" / "images" / "train").resolve()) in text
        assert str((d / "detector" / "images" / "val").resolve()) in text
    assert "nc: 3" in text


def test_results_csv_reads_as_polars_reads_it(tmp_path):
    """The GPU machine has no polars: ultralytics' checkpoints then read results.csv with ours."""
    polars = pytest.importorskip("polars")
    from sisepai.models.training.train import read_results_csv

    f = tmp_path / "results.csv"
    f.write_text("epoch,time,metrics/mAP50(B),lr/pg0\n1,18.9,0.669,0.001429\n2,28.1,0.684,0.00131\n")
    ours = read_results_csv(f)
    theirs = polars.read_csv(f.read_bytes(), infer_schema_length=None).to_dict(as_series=False)
    assert ours.keys() == theirs.keys()
    assert all(ours[k] == [float(v) for v in theirs[k]] for k in ours)


def test_the_ends_of_face_down_cards_are_none_crops_unless_a_face_up_card_covers_them(tmp_path):
    import json

    import cv2
    import numpy as np

    from sisepai.models.training.prepare import back_end_crops

    (tmp_path / "images" / "train").mkdir(parents=True)
    (tmp_path / "annotations" / "train").mkdir(parents=True)
    cv2.imwrite(str(tmp_path / "images" / "train" / "000000.jpg"), np.full((200, 300, 3), 90, np.uint8))
    back = {"face_up": False, "visible": 0.9, "corners": [[20, 20], [50, 20], [50, 160], [20, 160]]}
    hidden = {"face_up": False, "visible": 0.3, "corners": [[200, 20], [230, 20], [230, 160], [200, 160]]}
    # a face-up card lying across the back's lower end
    face = {"face_up": True, "visible": 1.0, "corners": [[10, 130], [120, 130], [120, 160], [10, 160]]}
    record = {"image": "images/train/000000.jpg", "cards": [back, hidden, face]}
    (tmp_path / "annotations" / "train" / "000000.json").write_text(json.dumps(record))
    assert back_end_crops(tmp_path) == 1  # the back's upper end; its lower end is under the face
    (crop,) = (tmp_path / "crops" / "train" / "none").glob("back_*.png")
    assert cv2.imread(str(crop)).shape == (64, 64, 3)
    generated = _tiny_set(tmp_path / "scenes", 4, ("table",))  # real scenes have a face-down pile
    assert back_end_crops(generated) == len(list((generated / "crops").rglob("back_*.png"))) > 0


def test_an_end_showing_a_third_is_labelled_for_the_detector():
    from sisepai.models.training.prepare import END_MIN_VISIBLE, detector_lines

    end = {"corners": [[0, 0], [10, 0], [10, 10], [0, 10]]}
    card = {"face_up": True, "visible": 0.4, "corners": [[0, 0], [10, 0], [10, 50], [0, 50]],
            "ends": [dict(end, visible=END_MIN_VISIBLE), dict(end, visible=END_MIN_VISIBLE - 0.01)]}
    lines = detector_lines({"width": 100, "height": 100, "cards": [card]})
    assert [line.split()[0] for line in lines] == ["1"], "the end at the floor, not the one below it nor the covered card"
