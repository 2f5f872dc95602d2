"""Enrolment's pieces: the deck's crops, what is kept aside to measure it, and the time left it tells."""

import re

import numpy as np

from sisepai.datasets.design.standin import standin_deck
from sisepai.datasets.export.writer import CROP_MIN_VISIBLE
from sisepai.datasets.scenes.scene import make_scene
from sisepai.models.enrolment.enrol import EnrolOptions, make_crops, scene_crops
from sisepai.vision.recognition.reader_net import INPUT, NONE


def test_scene_crops_are_every_visible_end_of_the_deck_and_none_crops():
    deck = standin_deck(0, "tune", width=60)
    x, y = scene_crops(5, 0, deck, none_per_scene=4)
    scene = make_scene(5, 0, deck=deck)
    assert scene.style.aspect == deck.aspect
    ends = [c["class_id"] for c in scene.cards if c["face_up"] for e in c["ends"] if e["visible"] >= CROP_MIN_VISIBLE]
    assert sorted(y[y != NONE].tolist()) == sorted(ends)
    assert x.shape == (len(y), INPUT, INPUT, 3) and (y == NONE).sum() >= 4
    generic, _ = scene_crops(5, 0, None, none_per_scene=4)  # the same scene in its generated style
    assert len(generic) != len(x) or not np.array_equal(generic, x)


def test_a_tenth_of_the_decks_scenes_is_kept_aside():
    deck = standin_deck(1, "tune", width=50)
    opts = EnrolOptions(scenes=10, replay_scenes=2, workers=1)
    crops = make_crops(deck, opts)
    last_x, last_y = scene_crops(opts.seed, 9, deck, opts.none_per_scene)
    assert np.array_equal(crops["deck_val"][1], last_y)
    assert len(crops["deck"][0]) > len(last_y) and len(crops["replay"][0]) > 0


def test_enrolment_runs_its_steps_whatever_the_clock_says(monkeypatch):
    """A busy machine makes every step slower; with a fixed number of steps the deck reader is the
    same, and the progress says the time left from the steps done."""
    import time

    import torch

    from sisepai.models.enrolment import enrol
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS

    deck = standin_deck(1, "tune", width=50)
    opts = EnrolOptions(scenes=10, replay_scenes=2, workers=1, steps=8, deck_batch=16, replay_batch=8)
    crops = make_crops(deck, opts)

    def tuned(clock_speed: float) -> tuple[dict, list[str]]:
        start, real = time.perf_counter(), time.perf_counter
        monkeypatch.setattr(enrol.time, "perf_counter", lambda: start + (real() - start) * clock_speed)
        said: list[str] = []
        model, report = enrol.fine_tune(DEFAULT_WEIGHTS, crops, opts, lambda f, m: said.append(m))
        monkeypatch.setattr(enrol.time, "perf_counter", real)
        assert report["steps"] == 4 and report["planned_steps"] == 4  # 8 steps: 4 timed, then 4 planned
        return model.state_dict(), said

    quiet, said = tuned(1.0)
    busy, _ = tuned(500.0)  # every step 500 times slower
    assert all(torch.equal(quiet[k], busy[k]) for k in quiet)
    assert "left" in said[0] and "left" not in said[-1]  # the last step has nothing left


def test_with_a_deadline_the_steps_shrink_to_fit_and_say_so(monkeypatch):
    """``deck add``'s defaults: the reader's steps end by the reader's deadline, whatever the load,
    so the detector and the check keep their time. The clock is driven: each reading a second on."""
    import itertools

    from sisepai.models.enrolment import enrol
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS

    deck = standin_deck(1, "tune", width=50)
    opts = EnrolOptions(scenes=10, replay_scenes=2, workers=1, steps=40, deck_batch=16, replay_batch=8)
    crops = make_crops(deck, opts)
    ticks = itertools.count(1000.0)
    monkeypatch.setattr(enrol.time, "perf_counter", lambda: next(ticks))
    opts.deadline = 500.0  # already passed on this clock: the fewest steps
    said: list[str] = []
    _, report = enrol.fine_tune(DEFAULT_WEIGHTS, crops, opts, lambda f, m: said.append(m))
    assert report["steps"] == 1 < report["wanted_steps"] == 36
    assert said[-1] == "adapting stopped at 1/1 steps: out of time"


def test_the_scenes_kept_aside_lay_the_faces_as_given():
    """The self-check reads the deck the player gave, not enrolment's own cut: a face that
    enrolment cut (here: made narrower, as a cut taking off printed bars would) is laid whole in
    the scenes kept aside, and cut in the scenes trained on."""
    from sisepai.faces.deck import DeckFaces
    from sisepai.models.enrolment.enrol import held_aside

    given = standin_deck(1, "tune", width=60)
    cut = DeckFaces({code: face[:, 6:-6] for code, face in given.faces.items()})
    cut.as_given = given
    opts = EnrolOptions(scenes=10, replay_scenes=1, workers=1)
    crops = make_crops(cut, opts)
    assert held_aside(opts.scenes) == [9]
    _, aside_labels = scene_crops(opts.seed, 9, given, opts.none_per_scene)
    assert np.array_equal(crops["deck_val"][1], aside_labels)
    aside_as_cut, _ = scene_crops(opts.seed, 9, cut, opts.none_per_scene)
    assert not np.array_equal(crops["deck_val"][0], aside_as_cut[:len(crops["deck_val"][0])])


def test_the_time_left_counts_down_steadily_across_the_reader_and_the_detector():
    from sisepai.models.enrolment.enrol import time_left
    from sisepai.models.enrolment.enrol_deck import later_parts, within

    now = [0.0]
    heard = []
    reader = within(lambda f, m: heard.append((now[0], m)), 0.0, 0.4, later_parts(510.0, clock=lambda: now[0]))
    for step in range(1, 100, 9):  # a reader of 100 steps at one a second, then the detector to its deadline
        now[0] = float(step)
        reader(step / 100, "reader: " + time_left(step, 100, now[0]))
    said = [(t, int(re.search(r"about (\d+) min left", m)[1])) for t, m in heard if "left" in m]
    assert all(abs(minutes * 60 - (600 - t)) <= 30 for t, minutes in said), said  # 600 s in all, whatever the part
