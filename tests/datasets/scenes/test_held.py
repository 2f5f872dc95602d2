"""Held fans and close heaps (:mod:`sisepai.datasets.scenes.held`): their ranges, their hands and their labels."""

import numpy as np
import pytest

from sisepai.datasets.scenes.backgrounds import background
from sisepai.datasets.scenes.held import (
    HEAP_CARDS,
    HELD_CARDS,
    HELD_STEP,
    MAX_SPREAD,
    STRIP_CLOSE,
    STRIP_WEBCAM,
    held_fan,
    layout_heap,
    layout_held,
)
from sisepai.datasets.scenes.phone import depth_of_field, phone_look
from sisepai.datasets.scenes.scene import LABEL_MIN_CHAR_VISIBLE, PLAIN_BACKGROUND, make_scene


@pytest.mark.parametrize("seed", range(40))
def test_held_fans_keep_to_their_ranges(seed):
    fan = held_fan(np.random.default_rng(seed), 1280, 720, float(np.random.default_rng(seed).uniform(3, 6.5)))
    assert HELD_CARDS[0] <= len(fan.cards) <= HELD_CARDS[1]
    assert HELD_STEP[0] <= fan.step <= HELD_STEP[1]
    angles = sorted(p.angle for p in fan.cards)
    steps = np.diff(angles)
    assert np.all(np.abs(steps - fan.step) < fan.step * 0.5), "neighbouring cards turn by about the fan's step"
    # every card turns about the one pivot: its top edge's middle lies an arm's length from it
    tops = [np.float32(p.corners(fan.length / fan.width)[:2]).mean(0) for p in fan.cards]
    arms = [float(np.linalg.norm(t - np.float32(fan.pivot))) for t in tops]
    assert max(arms) - min(arms) < 0.1 * fan.length


def test_strips_are_as_wide_as_players_show_them():
    """Strip = arm * sin(step), within the webcam or close-up range unless the step's own range
    (3 to 12 degrees, no wider than :data:`MAX_SPREAD` in all) cut it."""
    for seed in range(200):
        rng = np.random.default_rng(seed)
        fan = held_fan(rng, 1280, 720, 4.0)
        first = min(fan.cards, key=lambda p: p.angle)
        top = np.float32(first.corners(4.0)[:2]).mean(0)
        arm = float(np.linalg.norm(top - np.float32(fan.pivot)))
        strip = arm * np.sin(np.radians(fan.step))
        lo, hi = (STRIP_CLOSE if fan.length > 720 else STRIP_WEBCAM)
        cap = min(HELD_STEP[1], MAX_SPREAD / (len(fan.cards) - 1))
        if HELD_STEP[0] + 0.01 < fan.step < cap - 0.01:
            assert lo * 0.8 <= strip <= hi * 1.2, (seed, strip)


def test_fans_come_from_the_bottom_and_the_middle_seen_from_both_sides():
    fans = [held_fan(np.random.default_rng(s), 1280, 720, 4.0) for s in range(120)]
    assert any(f.middle for f in fans) and any(not f.middle for f in fans)
    assert any(f.across for f in fans) and any(not f.across for f in fans)
    assert any(f.length > 720 for f in fans), "some fans are close-ups"


def test_a_held_scene_hides_cards_under_the_hand_and_labels_what_shows():
    scene = make_scene(5, 0, "held", size=(640, 360))
    assert [c for c in scene.clutter if c["kind"] == "hand"], "the hand over the fan is drawn"
    for card in scene.cards:
        assert card["labelled"] == (card["char_visible"] >= LABEL_MIN_CHAR_VISIBLE)
        if card["labelled"]:
            strip = np.float32(card["strip"])
            end = np.float32(max(card["ends"], key=lambda e: e["visible"])["corners"])
            # the strip is the end's visible part: no larger than the end, inside its bounds
            assert _area(strip) <= _area(end) * 1.1
            assert np.all(strip.min(0) >= end.min(0) - 2) and np.all(strip.max(0) <= end.max(0) + 2)


def test_held_labels_match_the_pixels():
    """On a plain table with no hand drawn over it, an end the labels call hidden shows no ink of its
    own: the z-buffer and the picture agree."""
    scene = make_scene(9, 3, "held", size=(640, 360), plain=True)
    img = scene.image.astype(int)
    table = (np.abs(img - np.array(PLAIN_BACKGROUND)).sum(-1) < 30)
    for card in scene.cards:
        c = np.float32(card["corners"]).mean(0).astype(int)
        if 0 <= c[0] < 640 and 0 <= c[1] < 360 and card["visible"] > 0.9:
            assert not table[c[1], c[0]]


@pytest.mark.parametrize("seed", range(20))
def test_heaps_keep_to_their_ranges(seed):
    heap = layout_heap(np.random.default_rng(seed), 1280, 720, 4.0)
    assert HEAP_CARDS[0] <= len(heap.cards) <= HEAP_CARDS[1]
    angles = [p.angle for p in heap.cards]
    assert max(angles) - min(angles) > 90, "cards lie at every angle"


def test_close_heaps_and_every_surface():
    closes = [layout_heap(np.random.default_rng(s), 1280, 720, 4.0).close for s in range(60)]
    assert 0.15 < np.mean(closes) < 0.55
    for kind in ("wood", "felt", "cloth", "plastic"):
        assert background(np.random.default_rng(0), 64, 48, kind).shape == (48, 64, 3)


def test_depth_of_field_keeps_the_middle_sharp_and_blurs_the_edges():
    rng = np.random.default_rng(0)
    noise = (np.random.default_rng(1).random((360, 640, 3)) * 255).astype(np.uint8)
    out = depth_of_field(noise, rng).astype(float)
    src = noise.astype(float)

    def detail(img, ys, xs):
        return float(np.abs(np.diff(img[ys, xs], axis=1)).mean())

    middle, corner = (slice(170, 190), slice(310, 330)), (slice(0, 20), slice(0, 20))
    assert detail(out, *middle) > 0.8 * detail(src, *middle)
    assert detail(out, *corner) < 0.5 * detail(src, *corner)


def test_phone_look_shifts_colour_and_adds_noise():
    flat = np.full((40, 40, 3), 128, np.uint8)
    out = phone_look(flat, np.random.default_rng(2)).astype(float)
    assert out.std() > 1.0
    assert np.ptp(out.reshape(-1, 3).mean(0)) > 3.0, "the channels' gains differ"


def test_layout_held_draws_one_or_two_fans():
    counts = {len(layout_held(np.random.default_rng(s), 1280, 720, 4.0).fans) for s in range(80)}
    assert counts == {1, 2}


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))) / 2)


@pytest.mark.parametrize("seed", range(30))
def test_distant_fans_are_small_and_tight(seed):
    from sisepai.datasets.scenes.held import DISTANT_CARDS, DISTANT_SHARE, DISTANT_WIDTH, distant_fan

    fan = distant_fan(np.random.default_rng(seed), 1280, 720, 4.5)
    assert DISTANT_CARDS[0] <= len(fan.cards) <= DISTANT_CARDS[1]
    assert DISTANT_WIDTH[0] <= fan.width <= DISTANT_WIDTH[1] and fan.palm
    top = np.float32(min(fan.cards, key=lambda p: p.angle).corners(4.5)[:2]).mean(0)
    strip = float(np.linalg.norm(top - np.float32(fan.pivot))) * np.sin(np.radians(fan.step))
    cap = min(HELD_STEP[1], MAX_SPREAD / (len(fan.cards) - 1))
    if 1.51 < fan.step < cap - 0.01:  # a strip a share of the card's width, unless the step's bounds cut it
        assert DISTANT_SHARE[0] * 0.8 <= strip / fan.width <= DISTANT_SHARE[1] * 1.2, (seed, strip / fan.width)


def test_a_distant_scene_labels_cards_from_a_third_of_a_character_and_draws_a_palm():
    from sisepai.datasets.scenes.held import DISTANT_LABEL_MIN
    from sisepai.datasets.scenes.scene import LABEL_MIN_BY_LAYOUT

    scenes = [make_scene(11, i, "distant", size=(1280, 720)) for i in range(3)]
    assert LABEL_MIN_BY_LAYOUT["distant"] == DISTANT_LABEL_MIN < LABEL_MIN_CHAR_VISIBLE
    cards = [c for s in scenes for c in s.cards]
    for card in cards:
        assert card["labelled"] == (card["face_up"] and card["char_visible"] >= DISTANT_LABEL_MIN)
    assert any(DISTANT_LABEL_MIN <= c["char_visible"] < LABEL_MIN_CHAR_VISIBLE for c in cards if c["labelled"]), \
        "strips under half a character are labelled"
    # a thumb, fingers and a palm for each fan
    assert all(sum(c["kind"] == "hand" for c in s.clutter) >= 3 for s in scenes)


def test_naming_the_distant_layout_leaves_the_other_layouts_as_they_were():
    """The new layout draws from the same stream only when chosen: a held scene is the same picture."""
    a = make_scene(5, 0, "held", size=(320, 180))
    b = make_scene(5, 0, "held", size=(320, 180), layouts=("table", "distant"))
    assert np.array_equal(a.image, b.image)


def test_a_distant_fan_crops_its_strips_for_the_reader(tmp_path):
    """A distant fan's ends are cropped from the share its cards are labelled at, so the reader
    learns the strips the detector is taught to find; other layouts keep half an end."""
    import json

    from sisepai.datasets.export.writer import CROP_MIN_VISIBLE, GenerateOptions, generate_one, prepare_folders
    from sisepai.datasets.scenes.held import DISTANT_LABEL_MIN

    prepare_folders(tmp_path)
    opts = GenerateOptions(seed=11, size=(1280, 720), layouts=("distant",), val=1.0, crops=True)
    generate_one(tmp_path, 0, opts)
    record = json.loads(next((tmp_path / "annotations" / "val").glob("*.json")).read_text())
    shown = [e["visible"] for c in record["cards"] if c["face_up"] for e in c["ends"]]
    crops = list((tmp_path / "crops" / "val").rglob("*.png"))
    assert len(crops) == sum(v >= DISTANT_LABEL_MIN for v in shown) > sum(v >= CROP_MIN_VISIBLE for v in shown)
