"""Far papers are held out by look: measured against a fresh sample of training's papers."""

import numpy as np

from sisepai.datasets.colour_distance import HELD_OUT_MIN_DELTA_E, delta_e2000, rgb_to_lab
from sisepai.datasets.far_papers import SUITS, far_papers, training_papers
from sisepai.datasets.splits import PAPER_DECKS, PAPER_SEEDS


def _least(rgb, suit: str) -> float:
    fresh = training_papers(suit, 8000, seed=11)  # another sample than the one far_papers keeps away from
    return float(delta_e2000(rgb_to_lab(np.array([rgb]))[0][None], fresh).min())


def test_every_far_paper_keeps_the_distance_from_every_training_paper_of_its_suit():
    for split in ("tune", "test"):
        for suit in SUITS:
            for rgb in far_papers(suit, PAPER_DECKS[split], PAPER_SEEDS[split]):
                assert _least(rgb, suit) >= HELD_OUT_MIN_DELTA_E, (split, suit, rgb)


def test_a_far_paper_still_looks_most_like_its_own_suit():
    for suit in SUITS:
        for rgb in far_papers(suit, PAPER_DECKS["test"], PAPER_SEEDS["test"]):
            own = _least(rgb, suit)
            assert all(own <= _least(rgb, other) for other in SUITS if other != suit), (suit, rgb)


def test_tuning_and_test_far_papers_differ():
    for suit in SUITS:
        tune = set(far_papers(suit, PAPER_DECKS["tune"], PAPER_SEEDS["tune"]))
        test = set(far_papers(suit, PAPER_DECKS["test"], PAPER_SEEDS["test"]))
        assert not tune & test


def test_paper_decks_differ_only_in_their_papers():
    from sisepai.models.evaluation.paper_eval import paper_decks

    own, far, colours = paper_decks(0, "tune", width=40)
    assert own.codes == far.codes and own.aspect == far.aspect
    face_own, face_far = own.faces["GK"].astype(int), far.faces["GK"].astype(int)
    assert face_own.shape == face_far.shape
    paper = np.median(face_far.reshape(-1, 3), axis=0)  # most of a face is its paper
    assert np.abs(paper - np.array(colours["G"])).max() < 30
    assert np.abs(face_own - face_far).max() > 40
