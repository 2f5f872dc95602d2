"""Printed-deck traits: drawn in training decks only, and never one of the stand-in decks' held-out traits."""


import numpy as np
import pytest

from sisepai.datasets.design import printed, standin
from sisepai.datasets.design.fonts import FontBank, draws_ink
from sisepai.datasets.design.render import DeckStyle, render_face
from sisepai.datasets.design.scripts import ALL_SCRIPTS, SCRIPTS
from tests.datasets.design.hsv import hsv, in_box


@pytest.mark.parametrize("suit", "GWYR")
def test_printed_papers_never_fall_in_a_held_out_colour_box(suit):
    rng = np.random.default_rng(0)
    for _ in range(400):
        colour = hsv(printed.printed_paper(rng, suit))
        assert not any(in_box(colour, box) for box in standin.STANDIN_PAPERS[suit]), (suit, colour)


def test_printed_traits_are_not_the_stand_in_traits():
    held_out_borders, held_out_middles = {"band", "dashed", "zigzag"}, {"flower", "glyph"}
    assert not held_out_borders & set(printed.BORDERS)
    assert not held_out_middles & set(printed.MIDDLES)
    assert not {"misregister", "fade", "halftone"} & set(printed.FLAWS)
    assert not set(standin.MIDDLE_GLYPHS) & set(printed.SEAL_GLYPHS)
    assert not set(standin.MIDDLE_GLYPHS) & set(printed.WORD_GLYPHS)


def test_only_training_decks_draw_printed_traits():
    rng = np.random.default_rng(5)
    train = [DeckStyle.random(rng) for _ in range(120)]
    # a family deck, or a free design, prints its own borders instead
    own = [s for s in train if not s.printed.get("family")]
    assert len(own) >= 24 and sum(bool(s.printed.get("border")) for s in own) >= 0.3 * len(own)
    assert sum(bool(s.printed["papers"]) for s in train) >= 60
    assert all(not DeckStyle.random(rng, "tune").printed for _ in range(5))
    style, _ = standin.standin_style(0, "tune")
    assert style.printed == {}


def test_a_scene_with_printed_off_is_the_same_scene_in_plain_styles():
    from sisepai.datasets.scenes.scene import make_scene

    auto = make_scene(1503, 2, size=(320, 180))
    plain = make_scene(1503, 2, size=(320, 180), printed=False)
    assert auto.style.printed and not plain.style.printed
    assert auto.layout == plain.layout and auto.style.font == plain.style.font
    assert [(c["card"], c["corners"]) for c in auto.cards] == [(c["card"], c["corners"]) for c in plain.cards]


@pytest.mark.parametrize("trait,value", [("border", b) for b in printed.BORDERS] + [("middle", m) for m in printed.MIDDLES]
                         + [("flaw", f) for f in printed.FLAWS] + [("brush", 1.0)]
                         + [("script", k) for k in ALL_SCRIPTS] + [("end_frame", True)])
def test_each_trait_changes_the_face_and_keeps_the_character(trait, value):
    style = DeckStyle.random(np.random.default_rng(11), printed=False)
    style.aspect, style.ornament, style.stamp, style.frame = 5.0, 0, None, 0
    plain = render_face("GK", style, 60, np.random.default_rng(1)).image
    style.printed = {trait: value}
    face = render_face("GK", style, 60, np.random.default_rng(1)).image
    assert (np.abs(face.astype(int) - plain.astype(int)).max(axis=2) > 30).sum() >= 20
    top = face[5:65, :, :3].astype(np.float32)
    paper = np.float32(style.palette["G"])
    assert (np.linalg.norm(top - paper, axis=2) > 60).mean() > 0.04  # the character is still printed


def test_abbreviated_soldier_is_drawn_for_the_black_soldier():
    style = DeckStyle.random(np.random.default_rng(12), printed=False)
    style.glyphs["GP"] = "卒"
    plain = render_face("GP", style, 60, np.random.default_rng(1)).image
    style.printed = {"soldier": "卆"}
    assert not np.array_equal(render_face("GP", style, 60, np.random.default_rng(1)).image, plain)


def test_every_glyph_a_font_claims_draws_ink():
    for font in FontBank().all:
        blank = [g for g in font.glyphs if not draws_ink(font.file, g)]
        assert not blank, f"{font.family} claims {''.join(blank)} but draws nothing"


def test_an_upright_far_end_prints_the_near_end_again():
    style = DeckStyle.random(np.random.default_rng(13), printed=False)
    style.aspect, style.ornament, style.stamp, style.frame, style.both_ends, style.misprint = 4.0, 0, None, 0, True, 0.0
    style.wear, style.grain = 0.0, 0.0
    style.printed = {"far_end": "upright"}
    face = render_face("RH", style, 60, np.random.default_rng(1)).image[..., :3].astype(int)
    near, far = face[:60], face[-60:]
    assert np.abs(near - far).mean() < np.abs(near - far[::-1, ::-1]).mean()  # the same way up, not turned


@pytest.mark.parametrize("kind", ALL_SCRIPTS)
def test_each_script_keeps_the_ink_of_a_character(kind):
    from sisepai.datasets.design.scripts import script_mask

    style = DeckStyle.random(np.random.default_rng(14), printed=False)
    from sisepai.datasets.design.render import _glyph_mask

    mask = _glyph_mask("馬", style.font, 64, style, np.random.default_rng(0))
    drawn = script_mask(mask, kind, np.random.default_rng(0))
    assert drawn.shape == mask.shape
    share = (drawn > 127).sum() / max(1, (mask > 127).sum())
    assert 0.3 < share < 3.0  # a redrawn character, neither erased nor a blot


def test_default_decks_draw_the_default_scripts_only():
    rng = np.random.default_rng(21)
    drawn = {s.printed.get("script") for s in (DeckStyle.random(rng, printed=True) for _ in range(200))}
    assert drawn - {None} <= set(SCRIPTS)


def test_named_scripts_are_drawn_on_the_share_given():
    rng = np.random.default_rng(22)
    styles = [DeckStyle.random(rng, printed=True, scripts=("nib", "flared"), script_share=1.0) for _ in range(200)]
    own = [s for s in styles if not s.printed.get("family")]  # families and free designs keep their own
    assert own and all(s.printed["script"] in ("nib", "flared") for s in own)
    assert {s.printed["script"] for s in own} == {"nib", "flared"}


def test_default_traits_stay_what_they_were():
    """Naming the default scripts and share draws the same decks as naming nothing."""
    a = DeckStyle.random(np.random.default_rng(23), printed=True)
    b = DeckStyle.random(np.random.default_rng(23), printed=True, scripts=SCRIPTS, script_share=printed.SCRIPT_SHARE)
    assert a.printed == b.printed and a.glyphs == b.glyphs
