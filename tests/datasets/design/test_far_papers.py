"""Far papers keep their distance from training's papers as printed, measured against a fresh sample;
after training's camera they do not (measured too). Tuning papers only: the test split's are measured
by ``models/evaluation/held_out_eval.py``."""

import numpy as np

from sisepai.datasets.design.colour_distance import HELD_OUT_MIN_DELTA_E, delta_e2000, rgb_to_lab
from sisepai.datasets.design.far_papers import SUITS, far_papers, least_delta_e_after_camera, training_papers
from sisepai.datasets.design.splits import PAPER_DECKS, PAPER_SEEDS


def _least(rgb, suit: str) -> float:
    fresh = training_papers(suit, 8000, seed=11)  # another sample than the one far_papers keeps away from
    return float(delta_e2000(rgb_to_lab(np.array([rgb]))[0][None], fresh).min())


def test_every_far_paper_keeps_the_distance_from_every_training_paper_of_its_suit():
    for suit in SUITS:
        for rgb in far_papers(suit, PAPER_DECKS["tune"], PAPER_SEEDS["tune"]):
            assert _least(rgb, suit) >= HELD_OUT_MIN_DELTA_E, (suit, rgb)


def test_a_far_paper_still_looks_most_like_its_own_suit():
    for suit in SUITS:
        for rgb in far_papers(suit, PAPER_DECKS["tune"], PAPER_SEEDS["tune"]):
            own = _least(rgb, suit)
            assert all(own <= _least(rgb, other) for other in SUITS if other != suit), (suit, rgb)


def test_after_training_camera_a_far_paper_is_a_colour_training_shows():
    """Exposure and white balance tint training's papers to within a few ΔE00 of every far paper:
    they are held out as printed, not as the network sees them."""
    after = [least_delta_e_after_camera(rgb, suit) for suit in SUITS
             for rgb in far_papers(suit, PAPER_DECKS["tune"], PAPER_SEEDS["tune"])]
    assert max(after) < 3.0 and min(after) < 0.5, after


def test_a_training_paper_under_a_camera_in_training_range_is_at_no_distance():
    from sisepai.datasets.design.far_papers import training_paper_rgb

    paper = training_paper_rgb("R")[7]
    assert least_delta_e_after_camera(tuple(paper * 0.7 * np.array([1.1, 0.9, 1.0])), "R") < 0.3
    far_off = tuple(np.clip(paper * [0.3, 1.8, 1.0], 0, 255))  # gains no camera of training's makes
    assert least_delta_e_after_camera(far_off, "R") > 3


def test_paper_decks_differ_only_in_their_papers():
    from sisepai.models.evaluation.paper_eval import paper_decks

    own, far, colours = paper_decks(0, "tune", width=40)
    assert own.codes == far.codes and own.aspect == far.aspect
    face_own, face_far = own.faces["GK"].astype(int), far.faces["GK"].astype(int)
    assert face_own.shape == face_far.shape
    paper = np.median(face_far.reshape(-1, 3), axis=0)  # most of a face is its paper
    assert np.abs(paper - np.array(colours["G"])).max() < 30
    assert np.abs(face_own - face_far).max() > 40
