"""Two lone card ends that are one card (a plain joker found only as its ends) become one reading;
two cards of one kind, side by side or in a row on the table, stay two."""

import dataclasses

import numpy as np

from sisepai.datasets.design.render import DeckStyle, render_face
from sisepai.engine.cards import CARD_CODES
from sisepai.vision.live.tracker import CardTracker
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.end_pairs import card_of_ends, pair_lone_ends
from sisepai.vision.recognition.geometry import card_ends

JOKER = CARD_CODES.index("J")
FELT = (40, 110, 60)


def table_with(cards: list[tuple[str, float, float]], width: int = 36) -> tuple[np.ndarray, list[np.ndarray]]:
    """A felt table (RGB) with upright rendered cards whose top-left corners are at (x, y); each
    card's outline (4 corners)."""
    style = dataclasses.replace(DeckStyle.random(np.random.default_rng(3)), aspect=4.0, joker_faces="plain")
    img = np.zeros((400, 600, 3), np.uint8)
    img[:] = FELT
    outlines = []
    for code, x, y in cards:
        face = render_face(code, style, width, np.random.default_rng(1)).image
        h, w = face.shape[:2]
        alpha = face[..., 3:4].astype(np.float32) / 255
        roi = img[int(y):int(y) + h, int(x):int(x) + w]
        roi[:] = (face[..., :3] * alpha + roi * (1 - alpha)).astype(np.uint8)
        outlines.append(np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]))
    return img, outlines


def test_the_two_ends_of_a_plain_joker_are_one_card():
    img, (joker,) = table_with([("J", 100, 60)])
    top, bottom = card_ends(joker)
    pairs = pair_lone_ends(img, [top, bottom], [JOKER, JOKER])
    assert len(pairs) == 1
    i, j, card = pairs[0]
    assert {i, j} == {0, 1}
    # the pair's outline is the card's: every corner within a few pixels
    assert min(np.abs(np.roll(card, k, axis=0) - joker).max() for k in range(4)) < 3


def test_cards_of_one_kind_side_by_side_or_in_a_row_stay_two():
    img, outlines = table_with([("J", 100, 60), ("J", 200, 60), ("J", 400, 40), ("J", 400, 220)])
    tops = [card_ends(o)[0] for o in outlines]
    bottoms = [card_ends(o)[1] for o in outlines]
    # two tops 2.8 card widths apart, felt between them
    assert card_of_ends(tops[0], tops[1]) is not None  # the geometry alone cannot tell
    assert pair_lone_ends(img, [tops[0], tops[1]], [JOKER, JOKER]) == []
    # the bottom of one card and the top of the next one in a column, a gap of felt between
    assert pair_lone_ends(img, [bottoms[2], tops[3]], [JOKER, JOKER]) == []
    # ends that read as two kinds are never paired
    assert pair_lone_ends(img, card_ends(outlines[0]), [JOKER, 0]) == []


def test_a_card_found_whole_after_its_end_is_followed_whole():
    tracker = CardTracker()
    card = np.float32([[100, 100], [130, 100], [130, 220], [100, 220]])
    top, bottom = card_ends(card)

    def frame(polys, kinds, t):
        det = Detections(np.stack(polys), np.full(len(polys), 0.8), np.full(len(polys), JOKER),
                         kind=np.array(kinds, dtype=object))
        return tracker.update(det, t)

    frame([top], ["end"], 0.0)
    frame([card], ["card"], 0.1)  # the whole card, 40 px from the end's centre: the same card
    (track,) = tracker.tracks.values()
    assert track.kind == "card" and np.allclose(track.polygon, card)
    for k in range(2, 10):  # then only its other end: still the same card, never a second one
        frame([bottom], ["end"], k / 10)
    assert list(tracker.tracks) == [track.id]
