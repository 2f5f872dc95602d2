"""Held out means held out: no font, stand-in deck or seed is in two splits."""

from sisepai.datasets import splits
from sisepai.datasets.font_splits import fonts_of
from sisepai.models import deck_eval


def test_the_splits_share_no_font():
    files = {s: {f.file for f in fonts_of(splits.FONTS[s])} for s in splits.SPLITS}
    assert files["train"] and files["tune"] and files["test"]
    assert not files["train"] & files["tune"] and not files["train"] & files["test"] and not files["tune"] & files["test"]


def test_the_splits_share_no_seed():
    assert not splits.seeds_of("tune") & splits.seeds_of("test")
    # deck_eval's tuning offset (+50) lands on the tune seeds
    assert deck_eval.SCENE_SEED + 50 == splits.DECK_SCENE_SEEDS["tune"]
    assert deck_eval.HAND_SEED + 50 == splits.DECK_HAND_SEEDS["tune"]


def test_tuning_and_test_stand_in_decks_differ():
    from sisepai.datasets.standin import standin_style

    tune = {standin_style(k, "tune")[0].font.file for k in range(splits.STANDIN_DECKS["tune"])}
    test = {standin_style(k, "test")[0].font.file for k in range(splits.STANDIN_DECKS["test"])}
    assert not tune & test


def test_the_family_tuning_scenes_count_every_family():
    from sisepai.datasets.families import FAMILIES
    from sisepai.datasets.splits import FAMILY_COUNT, FAMILY_SCENE_SEEDS

    assert FAMILY_COUNT == len(FAMILIES)
    assert {FAMILY_SCENE_SEEDS["tune"] + k for k in range(FAMILY_COUNT)} <= splits.seeds_of("tune")
