"""``sisepai deck``: enrolment end to end on a small deck with a small time budget, and its errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sisepai.datasets.design.standin import standin_deck
from tests.homes import own_home

SISEPAI = Path(sys.executable).with_name("sisepai")


def run(home: Path, *args, timeout=600):
    env = {**os.environ, "SISEPAI_HOME": str(own_home(home))}
    return subprocess.run([str(SISEPAI), *args], capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    folder = tmp_path_factory.mktemp("faces")
    standin_deck(1, "tune", width=60).save(folder)
    return folder


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory, faces):
    home = tmp_path_factory.mktemp("home")
    r = run(home, "deck", "add", "tiny", str(faces), "--quick", "--steps", "40", "--scenes", "12", "--workers", "1",
            "--check-scenes", "2")
    assert r.returncode == 0, r.stderr
    return home, r


def test_enrolment_writes_a_whole_deck(enrolled):
    home, r = enrolled
    folder = home / "decks" / "tiny"
    assert sorted(p.name for p in folder.iterdir()) == ["deck.json", "faces", "reader.pt"]
    assert len(list((folder / "faces").glob("*.png"))) == 29  # with the joker
    info = json.loads((folder / "deck.json").read_text())
    assert info["name"] == "tiny" and info["has_joker"] is True
    from sisepai.vision.decks.folder import DECK_FIELDS

    assert sorted(info) == sorted(DECK_FIELDS)  # only what is read after enrolment
    # the adapted reader reads the deck's own scenes kept aside better: measured 65.8% -> 75.6% (41 ends)
    assert info["reading_after"]["accuracy"] >= info["reading_before"]["accuracy"] + 0.05
    # measured on the scenes kept aside, never trained on, laid with the faces as the player gave them
    assert info["held_aside"]["faces"] == "as given" and info["held_aside"]["never_trained_on"]
    assert info["held_aside"]["scenes"] == [11] and info["held_aside"]["faces_cut_by_enrolment"] == []
    assert "enrolled tiny" in r.stdout and "never trained on" in r.stdout
    # the player's number: whole scenes of each layout, found and read, before and after
    check = info["scene_check"]
    assert check["faces"] == "as given" and check["never_trained_on"] and check["scenes_per_layout"] == 2
    assert set(check["after"]) == {"table", "hand", "fan", "held", "all"} == set(check["before"])
    assert check["weakest"] == min(("table", "hand", "fan", "held"), key=lambda k: check["after"][k]["f1"])
    assert check["after"]["all"]["cards"] == check["before"]["all"]["cards"] >= 40
    assert check["after"]["all"]["f1"] >= check["before"]["all"]["f1"] - 0.05
    assert f"whole scenes kept aside (2 of each layout): F1 {check['before']['all']['f1']:.3f} -> " in r.stdout
    assert not [p for p in (home / "decks").iterdir() if p.name.startswith(".")]  # nothing half-built


def test_list_show_and_recognize_with_the_deck(enrolled, faces, tmp_path):
    home, _ = enrolled
    listed = json.loads(run(home, "deck", "list", "--json").stdout)
    assert [d["name"] for d in listed] == ["tiny"]
    assert "whole scenes F1" in run(home, "deck", "list").stdout
    r = run(home, "deck", "show", "tiny", "--out", str(tmp_path / "sheet.png"))
    assert r.returncode == 0, r.stderr
    assert "weakest:" in r.stdout  # the same figures as deck add gave
    sheet = cv2.imread(str(tmp_path / "sheet.png"))
    assert sheet is not None and sheet.shape[0] > 4 * 260
    from sisepai.datasets.scenes.scene import make_scene
    from sisepai.faces.deck import DeckFaces

    scene = make_scene(11, 0, layout="table", deck=DeckFaces.load(faces))
    cv2.imwrite(str(tmp_path / "t.jpg"), scene.image[..., ::-1])
    r = run(home, "recognize", str(tmp_path / "t.jpg"), "--json", "--deck", "tiny")
    assert r.returncode == 0, r.stderr
    cards = json.loads(r.stdout)["cards"]
    truth = [c["card"] for c in scene.labelled()]
    right = sum(min([c["card"] for c in cards].count(k), truth.count(k)) for k in set(truth))
    assert right >= 0.6 * len(truth)
    assert all(len(c["top"]) == 3 and 0 < c["detector_confidence"] <= 1 for c in cards)
    assert json.loads(r.stdout)["deck"] == "tiny"  # the answer names the deck it read with
    said = run(home, "recognize", str(tmp_path / "t.jpg"), "--deck", "tiny").stdout
    assert "(read with deck 'tiny')" in said


def test_unknown_deck_names_the_known_ones(enrolled, tmp_path):
    home, _ = enrolled
    cv2.imwrite(str(tmp_path / "x.png"), np.zeros((100, 100, 3), np.uint8))
    r = run(home, "recognize", str(tmp_path / "x.png"), "--deck", "nope")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["sisepai recognize: error: no deck named 'nope' (decks: tiny)"]


def test_bad_sources_leave_nothing_behind(tmp_path, faces):
    home = tmp_path / "home"
    partial = tmp_path / "partial"
    partial.mkdir()
    for p in list(faces.glob("*.png"))[:20]:
        (partial / p.name).write_bytes(p.read_bytes())
    r = run(home, "deck", "add", "half", str(partial))
    assert r.returncode == 2 and "no face image for" in r.stderr and "Traceback" not in r.stderr
    photo = tmp_path / "grid.jpg"
    cv2.imwrite(str(photo), np.full((400, 600, 3), 90, np.uint8))
    r = run(home, "deck", "add", "grid", str(photo))
    assert r.returncode == 2 and "found 0 cards" in r.stderr
    r = run(home, "deck", "add", "../evil", str(faces))
    assert r.returncode == 2 and "deck names are" in r.stderr
    assert not (home / "decks").exists() or not list((home / "decks").iterdir())


def test_remove(tmp_path, enrolled):
    home, _ = enrolled
    r = run(home, "deck", "remove", "tiny")
    assert r.returncode == 0
    assert json.loads(run(home, "deck", "list", "--json").stdout) == []


@pytest.fixture(scope="module")
def phone_grid_faces(tmp_path_factory):
    """A phone photo (4000x3000) of a deck laid in the grid, cut by ``sisepai deck cut``: faces
    of the size a phone gives (about 120x400 px)."""
    from sisepai.datasets.scenes.grid_photo import grid_photo

    folder = tmp_path_factory.mktemp("grid")
    deck = standin_deck(1, "tune", width=160)
    photo = grid_photo(deck, "dark wood", seed=1, size=(4000, 3000))
    cv2.imwrite(str(folder / "grid.jpg"), photo.image)
    r = run(folder, "deck", "cut", str(folder / "grid.jpg"), "--out", str(folder / "faces"))
    assert r.returncode == 0, r.stderr
    assert "cut 29 faces" in r.stdout and (folder / "faces" / "contact.png").is_file()
    assert sorted(p.stem for p in (folder / "faces").glob("*.png") if p.stem != "contact") == \
        sorted(list(deck.faces))
    return folder / "faces"


@pytest.mark.slow  # a 4000x3000 photo cut (half a minute); the grid tests cut 1600x1200 photos by default
def test_cut_faces_are_phone_sized(phone_grid_faces):
    face = cv2.imread(str(phone_grid_faces / "GK.png"))
    assert face.shape[1] >= 100 and face.shape[0] >= 380


@pytest.mark.slow
def test_enrolment_with_the_default_workers_always_finishes(phone_grid_faces, tmp_path):
    """The parent cuts and trims the faces with OpenCV (its threads start) before the scene
    workers start: with forked workers this hung in 4 of 5 runs. Three runs, each with a budget,
    with the default workers; nothing is left in the temporary folder."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    for k in range(3):
        env = {**os.environ, "SISEPAI_HOME": str(own_home(tmp_path / f"home{k}")), "TMPDIR": str(tmp)}
        r = subprocess.run([str(SISEPAI), "deck", "add", "phone", str(phone_grid_faces), "--quick", "--scenes", "16",
                            "--minutes", "0.1"], capture_output=True, text=True, timeout=240, env=env)
        assert r.returncode == 0, r.stderr
        assert (tmp_path / f"home{k}" / "decks" / "phone" / "reader.pt").is_file()
    assert not list(tmp.iterdir())


HUNG_STOP = """
import multiprocessing, signal, sys, threading, time
from sisepai.models.enrolment import deck_cli
from sisepai.vision.decks.folder import build_folder

if __name__ == "__main__":
    build_folder("k").mkdir(parents=True)
    worker = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(600,))
    worker.start()
    deck_cli._stop_cleanly_on_term("k", grace_s=1.0)
    try:  # "ready" inside: a SIGTERM arriving as the print returns must land in the try
        print("ready", flush=True)
        time.sleep(600)
    except KeyboardInterrupt:
        threading.Event().wait()  # a stop that hangs, as inside a worker pool's locks
"""


def test_a_sigterm_whose_clean_stop_hangs_still_ends_and_removes_the_build(tmp_path):
    import signal

    home = own_home(tmp_path / "home")
    script = tmp_path / "hung_stop.py"
    script.write_text(HUNG_STOP)
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "SISEPAI_HOME": str(home)}, start_new_session=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        assert [d.name for d in (home / "decks").iterdir()] == [f".k.tmp-{p.pid}"]
        p.send_signal(signal.SIGTERM)
        assert p.wait(60) == 128 + signal.SIGTERM
    finally:
        os.killpg(p.pid, signal.SIGKILL) if p.poll() is None else None
    assert "enrolment stopped" in p.stderr.read()
    assert not list((home / "decks").iterdir())
    group = subprocess.run(["ps", "-o", "stat=,args=", "-s", str(p.pid)], capture_output=True, text=True).stdout
    leftover = [line for line in group.splitlines() if not line.startswith("Z")]  # dead, waiting to be reaped
    assert not leftover, f"the worker outlived the stop: {leftover}"


@pytest.mark.slow
def test_a_killed_enrolment_leaves_nothing_and_starts_again(faces, tmp_path):
    import signal
    import time

    home = own_home(tmp_path / "home")
    env = {**os.environ, "SISEPAI_HOME": str(home)}

    def start():
        return subprocess.Popen([str(SISEPAI), "deck", "add", "k", str(faces), "--quick", "--scenes", "40", "--minutes", "1",
                                 "--progress", "lines"], stderr=subprocess.PIPE, text=True, env=env,
                                start_new_session=True)

    def wait_for_scenes(p):
        for line in p.stderr:
            if line.startswith("progress") and "scenes" in line:
                # keep reading what it writes, so a full pipe never holds it up while it stops
                import threading

                threading.Thread(target=lambda: [None for _ in p.stderr], daemon=True).start()
                return
        raise AssertionError("no progress")

    p = start()  # SIGTERM (the service stopping): the half-built folder goes at once
    wait_for_scenes(p)
    p.send_signal(signal.SIGTERM)
    assert p.wait(60) != 0
    time.sleep(0.5)
    assert not list((home / "decks").iterdir())
    p = start()  # SIGKILL of the whole group: nothing can clean up now, the next enrolment does
    wait_for_scenes(p)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait(30)
    r = run(home, "deck", "add", "k", str(faces), "--quick", "--scenes", "12", "--minutes", "0.1")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (home / "decks").iterdir()) == ["k"]
