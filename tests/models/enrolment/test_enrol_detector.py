"""A deck enrolled with --adapt-detector keeps its own detector, and --deck loads both."""

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.homes import own_home

SISEPAI = Path(sys.executable).with_name("sisepai")


def _fake_deck(home: Path, name: str, with_detector: bool) -> Path:
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DETECTOR
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READER

    folder = home / "decks" / name
    folder.mkdir(parents=True)
    shutil.copyfile(READER, folder / "reader.pt")
    if with_detector:
        shutil.copyfile(DETECTOR, folder / "detector.pt")
    (folder / "deck.json").write_text(json.dumps({"name": name}))
    return folder


@pytest.mark.model
def test_deck_loads_its_own_detector_when_it_has_one(tmp_path, monkeypatch):
    import sisepai.vision.recognition.detector as detector_module
    from sisepai.vision.cli import _load

    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path)))
    own = _fake_deck(tmp_path, "own", True)
    _fake_deck(tmp_path, "plain", False)
    loaded = []
    real = detector_module.Detector.load.__func__
    monkeypatch.setattr(detector_module.Detector, "load", classmethod(lambda cls, w=detector_module.DEFAULT_WEIGHTS, **k:
                                                                         loaded.append(Path(w)) or real(cls, w, **k)))
    args = argparse.Namespace(reader=None, detector=None, deck="own")
    _load(args)
    args.deck = "plain"
    _load(args)
    assert loaded == [own / "detector.pt", detector_module.DEFAULT_WEIGHTS]


@pytest.mark.slow
def test_deck_add_adapts_the_detector_and_keeps_it(tmp_path):
    from sisepai.datasets.design.standin import standin_deck
    from sisepai.models.enrolment.enrol_deck import READER_SHARE

    faces = tmp_path / "faces"
    standin_deck(0, "tune", width=60).save(faces)
    env = {**__import__("os").environ, "SISEPAI_HOME": str(own_home(tmp_path / "home"))}
    proc = subprocess.run([str(SISEPAI), "deck", "add", "fam", str(faces), "--minutes", "0.1", "--scenes", "12",
                           "--workers", "1", "--adapt-detector", "16", "--progress", "lines"],
                          capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    deck = tmp_path / "home" / "decks" / "fam"
    assert (deck / "detector.pt").is_file()
    info = json.loads((deck / "deck.json").read_text())
    assert "detector_adaptation" not in info  # the report is said, not kept: nothing reads it later
    steps = int(re.search(r"adapted over (\d+) image-steps", proc.stdout)[1])
    assert steps >= 16
    told = [(float(m[1]), m[2]) for m in re.finditer(r"^progress (\S+) (.*)$", proc.stderr, re.M)]
    fractions = [f for f, _ in told]
    assert fractions == sorted(fractions) and told[-1] == (1.0, "saved")  # one bar, forward only, ending full
    detector = [f for f, message in told if "detector" in message]
    assert detector and READER_SHARE <= min(detector) and max(detector) <= 0.97  # the detector's share, after the reader's


def test_the_detectors_scenes_are_the_same_on_any_number_of_workers(tmp_path):
    from sisepai.datasets.export.writer import GenerateOptions, prepare_folders
    from sisepai.models.enrolment.enrol_detector import SCENES_SHARE, _write_scenes

    told = {}
    for workers in (1, 2):
        folder = tmp_path / str(workers)
        prepare_folders(folder)
        heard = []
        _write_scenes([(folder, i, GenerateOptions(seed=5, val=0.0, size=(320, 180))) for i in range(3)], workers,
                      lambda fraction, message: heard.append(fraction))
        told[workers] = heard
    one = {p.relative_to(tmp_path / "1"): p.read_bytes() for p in sorted((tmp_path / "1").rglob("*")) if p.is_file()}
    two = {p.relative_to(tmp_path / "2"): p.read_bytes() for p in sorted((tmp_path / "2").rglob("*")) if p.is_file()}
    assert len(one) >= 6 and one == two  # every picture and label, byte for byte
    assert told[1] == told[2] == sorted(told[1]) and told[1][-1] == pytest.approx(SCENES_SHARE)  # the scenes' share of the bar


def test_an_enrolment_that_leaves_the_detector_too_little_time_says_so_and_keeps_the_shipped_one(tmp_path,
                                                                                                  monkeypatch):
    from sisepai.datasets.design.standin import standin_deck
    from sisepai.models.enrolment.enrol import EnrolOptions
    from sisepai.models.enrolment.enrol_deck import enrol
    from sisepai.models.enrolment.enrol_detector import DetectorOptions

    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path / "home")))
    deck = standin_deck(0, "tune", width=60)
    opts = EnrolOptions(scenes=10, replay_scenes=4, steps=5, workers=1, check_scenes=1)
    late = DetectorOptions(deadline=float("-inf"))  # a deadline the reader's part has passed, whatever the clock
    info = enrol("late", deck, opts, detector_opts=late)
    assert info["detector_adaptation"] == {"skipped": "the reader's adaptation left too little of the enrolment's time"}
    folder = tmp_path / "home" / "decks" / "late"
    assert (folder / "reader.pt").is_file() and not (folder / "detector.pt").exists()


@pytest.mark.slow
def test_the_detectors_fine_tune_keeps_to_its_deadline_at_an_epochs_end(tmp_path, monkeypatch):
    from sisepai.datasets.design.standin import standin_deck
    from sisepai.models.enrolment.enrol_detector import DetectorOptions, adapt_detector
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS

    deck = standin_deck(0, "tune", width=60)
    deck.save(tmp_path / "faces")
    # the deadline passes during the first epoch's last batch: that epoch ends, and no other starts
    opts = DetectorOptions(steps=24, deck_scenes=6, replay_scenes=2, workers=1, deadline=float("inf"))
    batches = []

    def progress(fraction, message):
        if "batches" in message:
            batches.append(message)
            if len(batches) == 1:  # one batch of 8 a epoch: the next check is at the epoch's end
                opts.deadline = float("-inf")  # passed, whatever the clock

    monkeypatch.chdir(tmp_path)  # a work folder given relative to here, as the tuning tool's is
    report = adapt_detector(deck, tmp_path / "faces", DEFAULT_WEIGHTS, tmp_path / "detector.pt", Path("work"),
                            opts, progress)
    assert (report["epochs"], report["epochs_planned"], report["image_steps"]) == (1, 3, 8)
    assert (tmp_path / "detector.pt").is_file()
    assert (tmp_path / "detector.pt").stat().st_size < 1.5 * DEFAULT_WEIGHTS.stat().st_size  # no optimizer state kept


@pytest.mark.slow
def test_a_deadline_inside_the_first_epoch_keeps_the_shipped_detector(tmp_path):
    from sisepai.datasets.design.standin import standin_deck
    from sisepai.models.enrolment.enrol_detector import DetectorOptions, adapt_detector
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS

    deck = standin_deck(0, "tune", width=60)
    deck.save(tmp_path / "faces")
    opts = DetectorOptions(steps=8, deck_scenes=6, replay_scenes=2, workers=1, batch=2,
                           deadline=float("-inf"))  # passed before the first batch ends, whatever the clock
    report = adapt_detector(deck, tmp_path / "faces", DEFAULT_WEIGHTS, tmp_path / "detector.pt", tmp_path / "work", opts)
    assert report["skipped"] == "the detector's first epoch did not end within the enrolment's time"
    assert not (tmp_path / "detector.pt").exists()
