"""The held-out evaluation: its scores add up, on a few generated scenes read by the shipped model."""

import pytest

from sisepai.datasets.export.writer import GenerateOptions, generate_one, prepare_folders
from sisepai.models.evaluation.evaluate import LABEL_BAND, LABEL_RULE, evaluate_recognizer, outside_label_band


@pytest.fixture(scope="module")
def scenes(tmp_path_factory):
    out = tmp_path_factory.mktemp("holdout")
    prepare_folders(out)
    opts = GenerateOptions(seed=7, val=1.0, font_split="tune")
    for i in range(6):
        generate_one(out, i, opts)
    return out


@pytest.mark.model
def test_scores_by_card_width_add_up_to_the_layouts(recognizer, scenes):
    report = evaluate_recognizer(recognizer, scenes)
    layouts = report["layouts"]
    assert sum(s["scenes"] for s in layouts.values()) == 6
    for layout, groups in report["by_card_width"].items():
        if layout == "all":
            continue
        # a scene with no labelled card has no width group; every other scene is in exactly one
        counted = {k: sum(g[k] for g in groups.values()) for k in ("tp", "fn")}
        assert counted["tp"] == layouts[layout]["tp"] and counted["fn"] <= layouts[layout]["fn"]
        assert all(0.0 <= g["f1"] <= 1.0 for g in groups.values())
    every = report["by_card_width"]["all"]
    assert sum(g["tp"] for g in every.values()) == report["overall"]["tp"]
    for s in [*layouts.values(), report["overall"]]:
        assert 0.0 <= s["f1"] <= 1.0 and 0.0 <= s["f1_outside_label_band"] <= 1.0


def test_the_label_band_forgives_cards_near_the_rule_and_nothing_else():
    def card(code, x, shown, labelled):
        return {"card": code, "corners": [[x, 0], [x + 10, 0], [x + 10, 60], [x, 60]], "face_up": True,
                "labelled": labelled, "char_visible": shown}

    near_below = LABEL_RULE - LABEL_BAND / 2
    near_above = LABEL_RULE + LABEL_BAND / 2
    cards = [card("GK", 0, 1.0, True), card("RA", 20, near_below, False), card("YE", 40, near_above, True),
             card("WC", 60, 0.1, False)]
    centres = [(5, 30), (25, 30), (45, 30), (65, 30)]
    # all four read right: the sure card counts, the two near the rule are forgiven, the sliver is false
    assert outside_label_band(["GK", "RA", "YE", "WC"], centres, [0.9] * 4, cards) == (1, 1, 0)
    # none read: only the clearly labelled card is missed
    assert outside_label_band([], [], [], cards) == (0, 0, 1)
    # a wrong reading on a card near the rule is still false
    assert outside_label_band(["GK", "RH"], centres[:2], [0.9, 0.9], cards) == (1, 1, 0)


@pytest.mark.model
def test_fans_read_at_their_measured_level(recognizer, tmp_path):
    """Fans are the hardest layout: 36 fan scenes in the tuning fonts read at F1 0.830 (161 right,
    13 false, 53 missed) with the shipped models and settings; the detector before this one read
    them at 0.810 beside the same reader. (Twelve scenes, this test's size before, swung a card
    either way between the two detectors.)"""
    prepare_folders(tmp_path)
    opts = GenerateOptions(seed=7150, val=1.0, font_split="tune", layouts=("fan",))
    for i in range(36):
        generate_one(tmp_path, i, opts)
    fan = evaluate_recognizer(recognizer, tmp_path)["layouts"]["fan"]
    assert fan["scenes"] == 36 and fan["f1"] >= 0.825, fan  # one card fewer reads 0.827
