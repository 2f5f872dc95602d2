"""The printed-deck families: each draws what it promises, and none draws a stand-in deck's held-out trait."""


import numpy as np
import pytest

from sisepai.datasets.design import families, standin
from sisepai.datasets.design.families import FAMILIES, apply_family, bend_shading, draw_family, gloss
from sisepai.datasets.design.font_splits import fonts_of
from sisepai.datasets.design.render import DeckStyle, render_face
from tests.datasets.design.hsv import hsv, in_box


@pytest.mark.parametrize("name", FAMILIES)
def test_family_papers_never_fall_in_a_held_out_colour_box(name):
    rng = np.random.default_rng(1)
    for _ in range(300):
        fam = draw_family(rng, name)
        for suit, rgb in fam["papers"].items():
            assert not any(in_box(hsv(rgb), box) for box in standin.STANDIN_PAPERS[suit]), (name, suit, hsv(rgb))


def test_no_family_draws_a_held_out_middle():
    assert not {"flower", "glyph"} & set(families.EMBLEMS)
    rng = np.random.default_rng(2)
    middles = {draw_family(rng)["middle"] for _ in range(200)}
    assert middles <= {"word", "coin", None, *families.EMBLEMS}  # None: nothing between the ends


def _family_style(name: str, seed: int = 0) -> DeckStyle:
    style = DeckStyle.random(np.random.default_rng(seed), printed=True)
    apply_family(style, draw_family(np.random.default_rng(seed), name))
    return style


def test_taiwanese_decks_print_dark_bars_along_both_long_edges_and_an_orange_red_suit():
    style = _family_style("taiwanese", 3)
    img = render_face("RH", style, 90).image
    bar = max(2, int(round(style.printed["family"]["edge_bars"] * 90)))
    rows = slice(int(img.shape[0] * 0.45), int(img.shape[0] * 0.55))  # the middle, away from the glyphs
    for cols in (slice(0, bar), slice(90 - bar, 90)):
        assert img[rows, cols, :3].mean() < 90  # dark, with light ornaments here and there
    hue, sat, _ = hsv(style.palette["R"])
    assert 15 <= hue <= 29 and sat > 0.5  # orange for red


def test_taiwanese_generals_carry_a_coin_and_the_others_do_not():
    style = _family_style("taiwanese", 4)
    k, a = render_face("GK", style, 90).image, render_face("GA", style, 90).image
    mid = slice(int(k.shape[0] * 0.45), int(k.shape[0] * 0.55))
    centre = slice(35, 55)
    gold = np.array([196, 150, 40])
    assert (np.abs(k[mid, centre, :3].astype(int) - gold).sum(axis=2) < 30).mean() > 0.2
    assert (np.abs(a[mid, centre, :3].astype(int) - gold).sum(axis=2) < 30).mean() == 0


def test_singapore_glyphs_are_larger_than_a_vietnamese_script():
    ink = {}
    for name in ("singapore", "vietnamese"):
        style = _family_style(name, 5)
        img = render_face("WK", style, 90).image[..., :3].astype(int)
        paper = np.array(style.palette["W"])
        ink[name] = (np.abs(img - paper).sum(axis=2) > 120).mean()
    assert ink["singapore"] > 1.5 * ink["vietnamese"]


def test_vietnamese_decks_print_a_word_between_the_ends_and_an_inner_frame():
    fam = draw_family(np.random.default_rng(6), "vietnamese")
    assert fam["middle"] == "word" and fam["inner_frame"] > 0 and fam["edge_bars"] == 0


def test_a_share_of_printed_training_decks_belongs_to_each_family():
    rng = np.random.default_rng(7)
    names = [s.printed.get("family", {}).get("name") for s in (DeckStyle.random(rng) for _ in range(120))]
    for name in FAMILIES:
        assert names.count(name) >= 8, names.count(name)
    assert names.count(None) >= 30
    assert not any(DeckStyle.random(rng, "tune").printed for _ in range(5))  # never a tuning or test style


def test_gloss_whitens_and_bend_darkens_without_touching_the_corners_alpha():
    face = render_face("YC", _family_style("singapore", 8), 60).image
    rng = np.random.default_rng(0)
    shiny, bent = gloss(face, rng, 0.8), bend_shading(face, rng, 1.0)
    assert shiny[..., :3].astype(int).sum() > face[..., :3].astype(int).sum()
    assert bent[..., :3].astype(int).sum() < face[..., :3].astype(int).sum()
    assert (shiny[..., 3] == face[..., 3]).all() and (bent[..., 3] == face[..., 3]).all()


def test_an_unknown_family_is_refused():
    with pytest.raises(ValueError, match="unknown deck family"):
        draw_family(np.random.default_rng(0), "martian")


@pytest.mark.parametrize("name", FAMILIES)
def test_a_family_can_be_asked_for_in_the_tuning_fonts(name):
    rng = np.random.default_rng(11)
    styles = [DeckStyle.random(rng, "tune", family=name) for _ in range(4)]
    assert all(s.printed["family"]["name"] == name for s in styles)
    tuning_fonts = {f.file for f in fonts_of("tune")}
    assert all(s.font.file in tuning_fonts for s in styles)  # the fonts of the split asked for


def test_the_cli_offers_every_family_without_importing_opencv():
    from sisepai.datasets.cli import FAMILY_NAMES

    assert FAMILY_NAMES == FAMILIES


def test_printed_decks_write_every_regional_form_and_taiwan_its_bao():
    from collections import Counter

    from sisepai.datasets.design.render import DeckStyle

    seen: Counter = Counter()
    for seed in range(300):
        style = DeckStyle.random(np.random.default_rng(seed), printed=True)
        seen.update(f"{code[0] in 'GW' and 'black' or 'red'} {g}" for code, g in style.glyphs.items() if code != "J")
    for form in ("black 包", "black 砲", "red 炮", "black 仕", "red 士", "black 相", "red 象", "red 車", "black 兵",
                 "red 卒", "black 将"):
        assert seen[form], f"no printed deck writes {form}"
    taiwanese = [DeckStyle.random(np.random.default_rng(seed), family="taiwanese").glyphs for seed in range(40)]
    assert sum(g["GC"] == "包" for g in taiwanese) >= 28  # Taiwan's black Cannon, most of the time


def test_a_family_can_be_left_out_of_a_training_set():
    from sisepai.datasets.design.render import DeckStyle

    drawn = {(DeckStyle.random(np.random.default_rng(seed), printed=True, without_family="singapore").printed
              .get("family") or {}).get("name") for seed in range(120)}
    assert "singapore" not in drawn and {"vietnamese", "taiwanese"} <= drawn
