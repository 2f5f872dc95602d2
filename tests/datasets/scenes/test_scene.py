import cv2
import numpy as np
import pytest

from sisepai.datasets.design.render import DeckStyle, render_face
from sisepai.datasets.scenes.scene import LABEL_MIN_CHAR_VISIBLE, PLAIN_BACKGROUND, make_scene, winning_hand_melds
from sisepai.engine import is_winning
from sisepai.engine.cards import CARD_CODES


def _mask(poly, shape, scale):
    m = np.zeros(shape[:2], np.uint8)
    p = np.float32(poly)
    c = p.mean(0)
    cv2.fillConvexPoly(m, np.round(c + (p - c) * scale).astype(np.int32), 1)
    return m.astype(bool)


@pytest.mark.parametrize("layout,index", [("table", 0), ("fan", 1), ("hand", 2), ("table", 3)])
def test_label_corners_match_the_rendered_pixels(layout, index):
    scene = make_scene(7, index, layout, size=(640, 360), plain=True)
    img = scene.image.astype(int)
    magenta = (np.abs(img - np.array(PLAIN_BACKGROUND)).sum(-1) < 30)
    union = np.zeros(img.shape[:2], bool)
    for card in scene.cards:
        union |= _mask(card["corners"], img.shape, 1.0)
        if card["visible"] > 0.98:
            inner = _mask(card["corners"], img.shape, 0.85)
            if inner.sum() > 20:
                assert magenta[inner].mean() < 0.02, "a labelled card's inside shows the table"
    grown = np.zeros(img.shape[:2], bool)
    for card in scene.cards:
        grown |= _mask(card["corners"], img.shape, 1.08)
    outside = ~grown
    assert magenta[outside].mean() > 0.98, "pixels outside every card outline must be table"


def _visible_by_sampling(cards, k, end, shape):
    """Independent check of one end's visibility: sample points, test against later cards."""
    h, w = shape[:2]
    p = np.float32(end["corners"])
    u = np.linspace(0.05, 0.95, 12)
    pts = [(p[0] + (p[1] - p[0]) * a) + ((p[3] + (p[2] - p[3]) * a) - (p[0] + (p[1] - p[0]) * a)) * b
           for a in u for b in u]
    seen = 0
    for q in pts:
        if not (0 <= q[0] < w and 0 <= q[1] < h):
            continue
        covered = any(cv2.pointPolygonTest(np.float32(c["corners"]).reshape(-1, 1, 2), (float(q[0]), float(q[1])), False) > 0
                      for c in cards[k + 1:])
        seen += not covered
    return seen / len(pts)


@pytest.mark.parametrize("index", range(4))
def test_label_rule_holds_on_fans(index):
    scene = make_scene(11, index, "fan", size=(640, 360), plain=True)
    assert scene.cards
    for k, card in enumerate(scene.cards):
        for end in card["ends"]:
            assert abs(_visible_by_sampling(scene.cards, k, end, scene.image.shape) - end["visible"]) < 0.12
        if card["labelled"]:
            assert card["face_up"] and max(e["visible"] for e in card["ends"]) >= LABEL_MIN_CHAR_VISIBLE
        elif card["face_up"]:
            assert all(e["visible"] < LABEL_MIN_CHAR_VISIBLE for e in card["ends"])


def test_finished_hands_are_real_wins():
    rng = np.random.default_rng(4)
    for _ in range(10):
        melds = winning_hand_melds(rng)
        assert is_winning([c for m in melds for c in m])


def test_every_card_renders_in_every_style():
    for seed in range(3):
        style = DeckStyle.random(np.random.default_rng(seed), "all")
        for code in CARD_CODES:
            face = render_face(code, style, 40)
            assert face.image.shape[1] == 40 and face.image.shape[2] == 4
            assert 3.0 * 40 - 1 <= face.image.shape[0] <= 6.5 * 40 + 1


def test_holdout_fonts_are_kept_apart():
    train = {DeckStyle.random(np.random.default_rng(s), "train").font.family for s in range(60)}
    hold = {DeckStyle.random(np.random.default_rng(s), "tune").font.family for s in range(60)}
    assert train and hold and not (train & hold)


def test_thin_stroke_decks_keep_their_characters():
    # generator 1.0 eroded light Ming/Fangsong faces at small sizes until the character vanished,
    # yet labelled the card: every deck style must keep most of a character's ink
    from dataclasses import replace

    from sisepai.datasets.design.render import MIN_INK_KEPT, _glyph_mask

    rng = np.random.default_rng(0)
    for _ in range(150):
        style = DeckStyle.random(rng, "all")
        size = int(rng.uniform(20, 60) * style.char_scale)
        char = style.glyphs["GE"]
        drawn = _glyph_mask(char, style.font, size, style, np.random.default_rng(1)).sum()
        plain = _glyph_mask(char, style.font, size, replace(style, stroke=0, shear=style.shear),
                            np.random.default_rng(1)).sum()
        assert drawn >= MIN_INK_KEPT * plain * 0.9, (style.font.family, style.stroke, size)
