"""CardTracker: ids across frames, confirmation, and a card replaced by another in its place."""

import numpy as np

from sisepai.engine.cards import CARD_CODES
from sisepai.vision.live.tracker import CardTracker
from sisepai.vision.recognition.detections import Detections

BOX = np.float32([[[10, 10], [30, 10], [30, 120], [10, 120]]])


def frames(tracker: CardTracker, codes: list[str], start: float = 0.0, fps: float = 10.0,
           confidence: list[float] | None = None):
    """Feed one card box read as ``codes[k]`` in frame k; returns (time, confirmed codes, removed codes)."""
    out = []
    for k, code in enumerate(codes):
        t = start + k / fps
        conf = confidence[k] if confidence else 0.8
        confirmed, removed = tracker.update(Detections(BOX, np.array([conf]), np.array([CARD_CODES.index(code)])), t)
        out.append((round(t, 2), [tr.code for tr in confirmed], [tr.code for tr in removed]))
    return out


def test_a_card_laid_where_another_lay_is_a_new_card():
    tracker = CardTracker()
    log = frames(tracker, ["RP"] * 10 + ["RR"] * 10)
    confirmed = [(t, c) for t, cs, _ in log for c in cs]
    removed = [(t, c) for t, _, rs in log for c in rs]
    assert [c for _, c in confirmed] == ["RP", "RR"]
    assert [c for _, c in removed] == ["RP"]  # the covered card leaves, under its own name
    assert 1.0 < confirmed[1][0] <= 1.6  # within about half a second of the new card's first frame
    assert len(tracker.tracks) == 1 and next(iter(tracker.tracks.values())).code == "RR"


def test_a_short_misread_of_a_seen_card_changes_nothing():
    tracker = CardTracker()
    log = frames(tracker, ["RP"] * 10 + ["RR"] * 3 + ["RP"] * 5 + ["RR"] * 4 + ["RP"] * 3)
    assert [c for _, cs, _ in log for c in cs] == ["RP"]
    assert not [c for _, _, rs in log for c in rs]


def test_a_faded_colour_read_two_ways_is_not_a_new_card():
    """A pale green General read as white for a while is the same card, not a replacement."""
    tracker = CardTracker()
    log = frames(tracker, ["GK"] * 10 + ["WK"] * 10 + ["GK"] * 5)
    assert [c for _, cs, _ in log for c in cs] == ["GK"]
    assert not [c for _, _, rs in log for c in rs]


def test_a_second_reading_far_less_sure_than_the_first_is_not_a_new_card():
    """A card seen as RK at 0.9 and then, for a while, as YC at 0.5 is one card misread, not two."""
    tracker = CardTracker()
    log = frames(tracker, ["RK"] * 10 + ["YC"] * 10, confidence=[0.9] * 10 + [0.5] * 10)
    assert [c for _, cs, _ in log for c in cs] == ["RK"]
    assert not [c for _, _, rs in log for c in rs]
