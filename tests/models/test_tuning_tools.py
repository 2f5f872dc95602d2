"""The tuning tools: floors applied after reading, and thresholds replayed over recorded frames."""

import numpy as np

from sisepai.vision.recognition.detections import Detections


def _square(x):
    return [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]


def test_floors_apply_by_kind_after_reading():
    from sisepai.models.floor_tune import score

    rec = {"layout": "fan", "cards": [{"card": "GK", "corners": _square(0), "labelled": True},
                                     {"card": "GA", "corners": _square(20), "labelled": True}]}
    polys = np.array([_square(0), _square(20)], float)
    det = Detections(polys, np.array([0.5, 0.33]), np.array([0, 1]))
    det.kind = np.array(["card", "end"], dtype=object)  # the GA is a lone end read at 0.33
    both = score([(rec, det)], min_confidence=0.25, min_end_confidence=0.3)
    strict_ends = score([(rec, det)], min_confidence=0.25, min_end_confidence=0.4)
    strict_cards = score([(rec, det)], min_confidence=0.6, min_end_confidence=0.3)
    assert both["all"] == 1.0
    assert strict_ends["all"] < 1.0 and strict_cards["all"] < 1.0  # each floor drops its own kind only
    assert strict_ends["all"] == strict_cards["all"]


def test_a_replay_announces_what_the_assistant_would():
    from sisepai.models.live_tune import replay

    # an empty table for 2 s, then a Green Chariot laid in South's part, read at 0.95
    poly = np.array([[[600, 400], [640, 400], [640, 560], [600, 560]]], float)
    frames = [(Detections.empty() if k < 20 else Detections(poly, np.array([0.95]), np.array([3])), k / 10, 1280, 720, 0)
              for k in range(50)]
    shown = [e for e in replay(frames, 0.4, 0.5, 0.9) if e["type"] == "card_shown"]
    assert [(e["card"], e["seat"]) for e in shown] == [("GR", "S")]
    assert not [e for e in replay(frames, 0.97, 0.5, 0.9) if e["type"] == "card_shown"]  # under the floor: never tracked
