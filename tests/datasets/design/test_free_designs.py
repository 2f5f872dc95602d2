"""Free designs: each trait drawn on its own, each drawn as it promises, none a stand-in's held-out trait."""

from collections import Counter

import numpy as np

from sisepai.datasets.design import standin
from sisepai.datasets.design.families import apply_family
from sisepai.datasets.design.free_designs import CORNER_MARKS, FREE_SHARE, draw_free_design
from sisepai.datasets.design.render import DeckStyle, render_face
from tests.datasets.design.hsv import hsv, in_box


def _designs(n: int = 400, seed: int = 1) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [draw_free_design(rng) for _ in range(n)]


def test_free_papers_never_fall_in_a_held_out_colour_box():
    for design in _designs():
        for suit, rgb in design["papers"].items():
            assert not any(in_box(hsv(rgb), box) for box in standin.STANDIN_PAPERS[suit]), (suit, hsv(rgb))


def test_each_trait_varies_apart_from_the_others():
    designs = _designs()
    barred = [d for d in designs if d["edge_bars"]]
    assert {d["bar_sides"] for d in barred} == {"both", "left", "right"}
    assert {d["bar_colour"] for d in barred} == {"black", "ink"}
    assert {d["corner_marks"] for d in designs} == {None, *CORNER_MARKS}
    framed = [d for d in designs if d["inner_frame"]]
    assert {d["frame_lines"] for d in framed} == {1, 2}
    assert {d["middle"] for d in designs} >= {None, "word", "coin", "fish", "bird", "mark"}
    assert not {"flower", "glyph"} & {d["middle"] for d in designs}  # stand-in middles
    # bars and frames come together and apart: not one family's tie
    pairs = Counter((bool(d["edge_bars"]), bool(d["inner_frame"])) for d in designs)
    assert len(pairs) == 4 and min(pairs.values()) > 20
    aspects = [d["aspect"] for d in designs]
    assert min(aspects) < 3.0 and max(aspects) > 4.6


def test_red_ink_only_on_papers_light_enough_to_read_it():
    for design in _designs():
        for suit in design["red_ink"]["suits"]:
            r, g, b = design["papers"][suit]
            assert 0.299 * r + 0.587 * g + 0.114 * b >= 150


def _free_style(**traits) -> DeckStyle:
    style = DeckStyle.random(np.random.default_rng(0), printed=True)
    design = draw_free_design(np.random.default_rng(0))
    design.update(traits)
    apply_family(style, design)
    return style


def test_a_bar_on_one_long_edge_leaves_the_other_edge_paper():
    style = _free_style(edge_bars=0.1, bar_sides="left", bar_colour="black", bar_ornament="none",
                        inner_frame=0.0, corner_marks=None, middle=None, aspect=3.5)
    img = render_face("GA", style, 100).image[..., :3].astype(int)
    rows = slice(int(img.shape[0] * 0.45), int(img.shape[0] * 0.55))
    paper = np.array(style.palette["G"])
    assert img[rows, 1:9].mean() < 60  # the bar: dark
    assert np.abs(img[rows, 92:99] - paper).sum(axis=2).mean() < 40  # the other edge: the card's paper


def test_an_inset_frame_keeps_the_papers_colour_outside_it():
    style = _free_style(inner_frame=0.12, frame_lines=1, frame_width=0.03, edge_bars=0.0, corner_marks=None,
                        middle=None, aspect=3.5)
    img = render_face("WE", style, 100).image[..., :3].astype(int)
    mid = img.shape[0] // 2
    paper = np.array(style.palette["W"])
    assert np.abs(img[mid, 3:9] - paper).sum(axis=1).mean() < 40  # outside the frame: paper
    ink = np.array(style.ink["W"])
    assert np.abs(img[mid, 12:15] - ink).sum(axis=1).min() < 60  # the frame's line, in the ink


def test_corner_marks_print_ink_in_each_corner_only():
    style = _free_style(corner_marks="triangles", inner_frame=0.0, edge_bars=0.0, middle=None, aspect=3.5)
    plain = _free_style(corner_marks=None, inner_frame=0.0, edge_bars=0.0, middle=None, aspect=3.5)
    marked = render_face("YK", style, 100).image[..., :3].astype(int)
    bare = render_face("YK", plain, 100).image[..., :3].astype(int)
    changed = np.abs(marked - bare).sum(axis=2) > 60
    h = marked.shape[0]
    for ys, xs in ((slice(0, 30), slice(0, 30)), (slice(0, 30), slice(70, 100)),
                   (slice(h - 30, h), slice(0, 30)), (slice(h - 30, h), slice(70, 100))):
        assert changed[ys, xs].sum() > 20
    assert not changed[30:h - 30, 30:70].any()


def test_a_share_of_printed_decks_of_no_family_are_free_designs_and_tuning_decks_never():
    names = Counter((DeckStyle.random(np.random.default_rng(s), printed=True).printed.get("family") or {}).get("name")
                    for s in range(300))
    free, none = names["free"], names[None]
    assert abs(free / (free + none) - FREE_SHARE) < 0.1, names
    plain = [DeckStyle.random(np.random.default_rng(s), font_split="tune").printed for s in range(50)]
    assert all(not p for p in plain)


def test_family_free_makes_every_deck_a_free_design_and_the_cli_offers_it():
    from sisepai.datasets.cli import FREE_DESIGN as CLI_FREE
    from sisepai.datasets.design.free_designs import FREE_DESIGN

    assert CLI_FREE == FREE_DESIGN
    for s in range(20):
        style = DeckStyle.random(np.random.default_rng(s), font_split="tune", family=FREE_DESIGN)
        assert style.printed["family"]["name"] == FREE_DESIGN
