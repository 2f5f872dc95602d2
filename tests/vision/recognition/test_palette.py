"""The deck palette: suit colours learned from sure readings re-rank doubtful ones."""

import numpy as np
import pytest

from sisepai.engine.cards import CARD_CODES, JOKER
from sisepai.vision.recognition.palette import (
    SuitPalette,
    colour_groups,
    one_colour_per_suit,
    paper_colour,
    picture_cast,
    rerank_by_deck_colours,
)
from sisepai.vision.recognition.profile import ReadingProfile

YELLOW, WHITE, LIME, PINK = (np.array(c, np.float32) for c in ([12, 70], [0, 3], [-40, 70], [25, 12]))


def sure(code: str) -> np.ndarray:
    p = np.zeros(30, np.float32)
    p[CARD_CODES.index(code)] = 1.0
    return p


def doubt(first: str, second: str, share: float = 0.8) -> np.ndarray:
    p = np.zeros(30, np.float32)
    p[CARD_CODES.index(first)], p[CARD_CODES.index(second)] = share, 1 - share
    return p


def taught(*pairs) -> SuitPalette:
    palette = SuitPalette()
    for colour, code in pairs:
        palette.learn([colour] * 4, [sure(code)] * 4)
    return palette


def test_a_lime_card_read_as_yellow_is_green_beside_the_decks_true_yellows():
    palette = taught((YELLOW, "YP"), (WHITE, "WP"))
    out = palette.rerank(doubt("YP", "GP"), LIME)
    assert CARD_CODES[int(np.argmax(out))] == "GP"
    assert out.sum() == pytest.approx(1.0, abs=1e-5)


def test_a_card_near_its_own_suits_colour_keeps_its_reading():
    palette = taught((YELLOW, "YP"), (WHITE, "WP"))
    assert CARD_CODES[int(np.argmax(palette.rerank(doubt("YP", "GP"), YELLOW + 2)))] == "YP"


def test_nothing_changes_until_two_suits_are_known():
    palette = taught((YELLOW, "YP"))
    p = doubt("YP", "GP")
    assert np.array_equal(palette.rerank(p, LIME), p)
    assert palette.centres().keys() == {"Y"}


def test_doubtful_readings_are_not_learned():
    palette = SuitPalette()
    palette.learn([LIME] * 5, [doubt("YP", "GP", 0.9)] * 5)
    assert palette.centres() == {}


def test_the_palette_never_promotes_a_kind_the_reader_ruled_out():
    palette = taught((YELLOW, "YP"), (WHITE, "WP"), (LIME, "GP"))
    assert CARD_CODES[int(np.argmax(palette.rerank(doubt("YP", "GP", 0.99), LIME)))] == "GP"
    p = doubt("YP", "GP", 0.999)  # the reader all but rules green out: the colour alone may not bring it back
    assert np.array_equal(palette.rerank(p, LIME), p)


def test_the_palette_never_makes_a_joker_from_colour_alone():
    palette = taught((YELLOW, "YP"), (WHITE, "WP"), (PINK, "RP"), (np.float32([45, 25]), "J"))
    p = doubt("RP", "J", 0.7)
    out = palette.rerank(p, np.float32([45, 25]))
    assert int(np.argmax(out)) != JOKER


def test_paper_colour_ignores_the_ink():
    crop = np.zeros((12, 12, 3), np.uint8)
    crop[:] = (218, 160, 25)  # orange-yellow paper
    crop[3:8, 2:10] = (144, 33, 40)  # red ink
    a, b = paper_colour(crop)
    assert b > 50 and a < 30  # yellow paper, not the red ink's a* of about 50


def test_median_rows_is_numpys_median_to_the_bit():
    from sisepai.vision.recognition.palette import median_rows

    rng = np.random.default_rng(3)
    for n in range(1, 160):
        x = (rng.random((n, 3)) * 255).astype(np.float32)
        for values in (x, x[:, 0]):
            ours, numpys = median_rows(values), np.median(values, axis=0)
            assert ours.dtype == numpys.dtype and np.array_equal(ours, numpys), n


def test_an_unknown_palette_mode_is_refused():
    with pytest.raises(ValueError, match="palette"):
        ReadingProfile(palette="rainbow")


def codes(probs) -> list[str]:
    return [CARD_CODES[int(np.argmax(p[:len(CARD_CODES)]))] for p in probs]


MINT, LAVENDER = np.array([-16.0, 10.0]), np.array([10.0, -4.0])


def test_one_colour_per_suit_gives_a_doubtful_second_paper_to_the_missing_suit():
    # a mint green deck read as white beside its true (lavender) whites, with no green read anywhere
    probs = [sure("WC"), sure("WP"), doubt("WH", "GH", 0.7), doubt("WR", "GR", 0.9), doubt("WP", "GP", 0.6)]
    colours = [LAVENDER, LAVENDER + 1, MINT, MINT + 1, MINT - 1]
    assert codes(one_colour_per_suit(probs, colours)) == ["WC", "WP", "GH", "GR", "GP"]


def test_one_colour_per_suit_leaves_a_suit_seen_surely_in_two_lights():
    # one suit's papers in and out of a shadow's colour cast: both groups sure, nothing moves
    probs = [sure("YK"), sure("YA"), doubt("YE", "GE", 0.97), doubt("YR", "GR", 0.99)]
    colours = [YELLOW, YELLOW + 1, YELLOW - [0, 15], YELLOW - [1, 15]]
    assert codes(one_colour_per_suit(probs, colours)) == ["YK", "YA", "YE", "YR"]


def test_one_colour_per_suit_needs_the_other_suit_missing_and_in_the_right_direction():
    lime = np.array([-18.0, 63.0])
    doubtful = [doubt("YP", "GP", 0.7), doubt("YR", "GR", 0.7)]
    base = [sure("YK"), sure("YA"), *doubtful]
    colours = [YELLOW, YELLOW + 1, lime, lime + 1]
    assert codes(one_colour_per_suit(base, colours))[2:] == ["GP", "GR"]
    # a sure green elsewhere: green is not missing, so the lime pair keeps its reading
    assert codes(one_colour_per_suit(base + [sure("GK")], colours + [LIME]))[2:4] == ["YP", "YR"]
    # a second paper lying away from green (towards red) is not made green
    orange = YELLOW + [15.0, -8.0]
    assert codes(one_colour_per_suit(base, [YELLOW, YELLOW + 1, orange, orange + 1]))[2:] == ["YP", "YR"]


def test_colour_groups_chain_near_papers_and_skip_unknown_ones():
    chain = [np.array([0.0, 0.0]), np.array([3.0, 0.0]), np.array([6.0, 0.0]), None, np.array([30.0, 0.0])]
    assert colour_groups(chain, 4.0) == [[0, 1, 2], [4]]
    assert colour_groups([None, None], 4.0) == []


# --- a video's suit read on two papers (SuitPalette.observe) ----------------------------------------

CAST_WHITE, CAST_GREEN = np.array([12.0, -7.0], np.float32), np.array([-10.0, 1.0], np.float32)


def frame_of(white_codes, green_codes, extra=()):
    """One frame's readings: white papers and pale green ones, all read as their codes say."""
    colours = [CAST_WHITE] * len(white_codes) + [CAST_GREEN] * len(green_codes) + [c for c, _ in extra]
    probs = [sure(c) for c in white_codes + green_codes] + [p for _, p in extra]
    return colours, probs


def test_a_pale_green_paper_read_surely_as_white_beside_the_decks_whites_becomes_green():
    from sisepai.vision.recognition.palette import SPLIT_FRAMES

    palette = SuitPalette()
    colours, probs = frame_of(["WK", "WP", "WC"], ["WH", "WA"])
    for _ in range(SPLIT_FRAMES - 1):
        assert codes(palette.observe(colours, probs)) == ["WK", "WP", "WC", "WH", "WA"]  # not on one glance
    assert codes(palette.observe(colours, probs)) == ["WK", "WP", "WC", "GH", "GA"]
    # and from then on, a green paper alone in a frame is green, a white one white
    assert codes(palette.observe([CAST_GREEN + 1, CAST_WHITE - 1], [sure("WE"), sure("WE")])) == ["GE", "WE"]


def test_no_split_while_the_other_suit_is_read_in_the_frame():
    palette = SuitPalette()
    colours, probs = frame_of(["WK", "WP"], ["WH", "WA"], extra=[(np.array([-30.0, 20.0]), sure("GK"))])
    for _ in range(10):
        out = palette.observe(colours, probs)
    assert codes(out) == ["WK", "WP", "WH", "WA", "GK"] and palette.splits == {}


def test_one_picture_splits_a_suit_read_on_two_papers_when_asked_and_only_in_chains_of_the_radius():
    """A still picture (``ReadingProfile.split_in_picture``): a palette that takes a split at once,
    its papers' cards chained within the radius given."""
    pink, brown = np.array([43.0, -1.0]), np.array([15.0, 27.0])  # a dim light: yellow papers look brown
    colours = [pink, pink + [6.0, 0.5], brown, brown + [1.0, -1.5], brown + [-1.5, -3.0]]
    probs = [sure(c) for c in ("RP", "RP", "RA", "RH", "RP")]
    tight = SuitPalette(split_frames=1)
    tight.find_split(colours, probs)  # the video's radius: the two pink papers are 6 apart, no group
    assert tight.splits == {}
    wide = SuitPalette(split_frames=1)
    wide.find_split(colours, probs, radius=8.0, gap=20.0)
    assert codes(wide.unsplit(probs, colours)) == ["RP", "RP", "YA", "YH", "YP"]


def test_two_near_papers_of_one_suit_are_not_split_past_the_gap_asked():
    """Two white papers 12 apart, the second a little greener: a gap of 20 keeps them white."""
    white, greyish = np.array([16.0, -7.0]), np.array([7.0, 1.5])
    colours, probs = [white, white, greyish, greyish], [sure(c) for c in ("WK", "WK", "WE", "WE")]
    for gap, split in ((10.0, {1: 0}), (20.0, {})):
        palette = SuitPalette(split_frames=1)
        palette.find_split(colours, probs, radius=8.0, gap=gap)
        assert palette.splits == split


def test_one_paper_under_a_changing_light_is_not_split():
    """A lamp switched moves every white paper at once: two frames, one paper each, no split."""
    palette = SuitPalette()
    for k in range(10):
        colour = CAST_WHITE if k % 2 else CAST_GREEN
        out = palette.observe([colour] * 4, [sure(c) for c in ("WK", "WP", "WH", "WA")])
        assert codes(out) == ["WK", "WP", "WH", "WA"]
    assert palette.splits == {}


def test_a_fanned_ends_paper_is_measured_where_the_card_over_it_leaves_it_bare():
    """A card in a fan shows an end that the whole card over it partly covers: its paper is the
    uncovered part's (pink), not the mix with the top card's green; an end no card covers is
    measured as a whole, as before."""
    import cv2

    from sisepai.vision.recognition.end_rows import EndRows
    from sisepai.vision.recognition.geometry import straighten
    from sisepai.vision.recognition.palette import crop_paper_colour, uncovered_paper_colour
    from sisepai.vision.recognition.recognize import Recognizer

    img = np.full((120, 200, 3), 40, np.uint8)
    pink, green = (205, 105, 120), (120, 235, 150)  # the top card's paper the brighter
    end = np.float32([[20, 20], [80, 20], [80, 80], [20, 80]])
    bare = end + np.float32([110, 0])
    card = np.float32([[45, 0], [100, 0], [100, 119], [45, 119]])  # a green card lying over most of the end
    cv2.fillConvexPoly(img, np.int32(end), pink)
    cv2.fillConvexPoly(img, np.int32(bare), pink)
    cv2.fillConvexPoly(img, np.int32(card), green)
    rows = EndRows([card], [end, bare], owner=[-1, -1])
    crop = lambda q: straighten(img, q, 48)  # noqa: E731
    rows.add_card(0, [crop(card), crop(card)], [card, card])
    rows.add_end(0, crop(end))
    rows.add_end(1, crop(bare))
    rows.colours = [None] * len(rows.crops)
    rec = Recognizer.__new__(Recognizer)
    rec.profile, rec.crop = ReadingProfile(), 48
    pink_paper = paper_colour(np.full((12, 12, 3), pink, np.uint8))
    assert np.abs(rec._row_colour(img, rows, 2) - pink_paper).max() <= 2  # the covered end: its own pink
    assert np.abs(crop_paper_colour(crop(end)) - pink_paper).max() > 10  # measured whole, it is not pink
    assert uncovered_paper_colour(img, bare, [card]) is None  # no card over it: measured whole
    assert np.array_equal(rec._row_colour(img, rows, 3), crop_paper_colour(crop(bare)))


DECK = {"G": [-16.0, 16.0], "W": [-2.0, 9.0], "Y": [-19.0, 71.0], "R": [9.0, 8.0]}
"""An enrolled deck whose pink and cream papers lie 11 a*b* units apart (the 1:6.4 stand-in's)."""


def test_a_pink_card_read_as_cream_is_pink_once_the_pictures_cast_is_taken_off():
    cast = np.float32([7.0, 3.0])  # a warm light: every paper moves alike
    colours = [np.float32(DECK["W"]) + cast] * 3 + [np.float32(DECK["R"]) + cast + 1]
    probs = [sure("WK"), sure("WC"), sure("WP"), doubt("WH", "RH", 0.7)]
    out = rerank_by_deck_colours(probs, colours, DECK)
    assert [CARD_CODES[int(np.argmax(p))] for p in out] == ["WK", "WC", "WP", "RH"]
    assert out[3].sum() == pytest.approx(1.0, abs=1e-5)


def test_one_suits_papers_spread_by_the_light_keep_the_suit_read():
    # a picture of cream cards alone, their papers spread as one picture's light spreads them: the
    # suits are never split in two groups for the two papers' sake (what the old rule did)
    colours = [np.float32(c) for c in ([-5, 8], [-4, 10], [-4, 4], [3, 9], [4, 11])]
    probs = [sure("WC"), sure("WC"), sure("WP"), sure("WA"), doubt("WA", "RA", 0.9)]
    out = rerank_by_deck_colours(probs, colours, DECK)
    assert [CARD_CODES[int(np.argmax(p))] for p in out] == ["WC", "WC", "WP", "WA", "WA"]


def test_the_deck_colours_leave_a_picture_alone_until_two_cards_tell_its_cast():
    probs = [sure("WK"), doubt("WH", "RH", 0.6)]
    out = rerank_by_deck_colours(probs, [np.float32(DECK["W"]), np.float32(DECK["R"])], DECK)
    assert [np.array_equal(a, b) for a, b in zip(out, probs)] == [True, True]
    assert picture_cast(probs, [np.float32(DECK["W"]), None], DECK) is None
