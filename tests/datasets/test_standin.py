"""Stand-in decks are held out: honest fonts, paper colours and traits outside training."""

from sisepai.datasets.font_overlap import HOLDOUT_MAX_OVERLAP, closest_training_face, ink_overlap
from sisepai.datasets.font_splits import fonts_of
from sisepai.datasets.fonts import font_bank
from sisepai.datasets.standin import TEST_DECKS, TUNE_DECKS, standin_style


def test_near_copies_are_not_honest():
    bank = font_bank()
    by_family = {f.family: f for f in bank.all}
    # TakaoMincho is a fork of IPAmjMincho: near-identical ink
    assert ink_overlap(by_family["TakaoMincho"], by_family["IPAmjMincho"]) > 0.9
    honest = {f.family for f in fonts_of("honest")}
    assert "TakaoMincho" not in honest and "LXGW WenKai Light" not in honest
    assert len(honest) >= 3


def test_every_honest_face_is_under_the_limit_against_every_training_face():
    for face in fonts_of("honest"):
        assert closest_training_face(face)[1] < HOLDOUT_MAX_OVERLAP


def test_test_decks_print_only_honest_faces_and_tuning_decks_never_do():
    honest = {f.file for f in fonts_of("honest")}
    train = {f.file for f in font_bank().train}
    for k in range(TEST_DECKS):
        assert standin_style(k, "test")[0].font.file in honest
    for k in range(TUNE_DECKS):
        font = standin_style(k, "tune")[0].font.file
        assert font not in honest and font not in train
