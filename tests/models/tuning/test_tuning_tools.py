"""The tuning tools: floors applied after reading, and thresholds replayed over recorded frames."""

import numpy as np

from sisepai.vision.recognition.detections import Detections


def _square(x):
    return [[x, 0], [x + 10, 0], [x + 10, 30], [x, 30]]


def test_floors_apply_by_kind_after_reading():
    from sisepai.models.tuning.floor_tune import score

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
    from sisepai.models.tuning.live_tune import replay

    # an empty table for 2 s, then a Green Chariot laid in South's part, read at 0.95
    poly = np.array([[[600, 400], [640, 400], [640, 560], [600, 560]]], float)
    frames = [(Detections.empty() if k < 20 else Detections(poly, np.array([0.95]), np.array([3])), k / 10, 1280, 720, 0)
              for k in range(50)]
    shown = [e for e in replay(frames, 0.4, 0.5, 0.9) if e["type"] == "card_shown"]
    assert [(e["card"], e["seat"]) for e in shown] == [("GR", "S")]
    assert not [e for e in replay(frames, 0.97, 0.5, 0.9) if e["type"] == "card_shown"]  # under the floor: never tracked


def test_each_recognition_choice_moves_alone_and_video_choices_go_by_the_videos_first():
    from sisepai.models.tuning.recognition_tune import VALUES, choose, settings, tag, today

    now = today()
    rows = settings(now)
    assert rows[0] == now and tag(rows[0], now) == "today"
    assert all(sum(r[k] != now[k] for k in VALUES) == 1 for r in rows[1:])  # one choice moved at a time
    assert len(rows) == 1 + sum(len([v for v in vs if v != now[k]]) for k, vs in VALUES.items())

    def row(setting, f1, recall, false):
        return {**setting, "stills": {"all": f1}, "video": {"recall": recall, "false": false}}

    other = next(v for v in VALUES["covered_sure"] if v != now["covered_sure"])
    table = [row(now, 0.91, 0.95, 3), row({**now, "covered_sure": other}, 0.95, 0.95, 4)]
    assert choose(table, "covered_sure", now)["covered_sure"] == now["covered_sure"]  # more false events lose
    table[1]["video"]["false"] = 3
    assert choose(table, "covered_sure", now)["covered_sure"] == other  # then the stills decide
    turned = next(v for v in VALUES["turns_below"] if v != now["turns_below"])
    table.append(row({**now, "turns_below": turned}, 0.91, 0.99, 0))
    assert choose(table, "turns_below", now)["turns_below"] == now["turns_below"]  # a tie on stills keeps today's


def test_a_recognizer_with_a_setting_shares_the_networks():
    from types import SimpleNamespace

    from sisepai.models.tuning.recognition_tune import recognizer_with, today
    from sisepai.vision.recognition.profile import STILL_PROFILE
    from sisepai.vision.recognition.recognize import Recognizer

    base = Recognizer(SimpleNamespace(model=object(), imgsz=640, conf=0.25, iou=0.5, runtime="torch"), object(),
                      min_confidence=0.25, min_end_confidence=0.3, profile=STILL_PROFILE)
    rec = recognizer_with(base, {**today(), "agnostic": False, "covered_sure": 0.5, "inner_ends_below": 0.8,
                                 "paired_kinds": "every kind"})
    assert rec.detector.model is base.detector.model and rec.reader is base.reader
    assert rec.profile.inner_ends_below == 0.8 and "GK" in rec.profile.paired_kinds
    assert rec.detector.agnostic is False and rec.profile.covered_sure == 0.5
    assert rec.for_video().profile.covered_sure == 0.5  # a video reads with the same sureness
    assert (rec.min_confidence, rec.min_end_confidence) == (0.25, 0.3)  # the floors stay


def test_looks_afresh_at_a_steady_table_as_often_as_the_setting_says(tmp_path):
    import cv2

    from sisepai.models.tuning.redetect_tune import read_video
    from sisepai.vision.recognition.recognize import Recognition

    class Nothing:  # finds no card, counts its looks
        def for_video(self):
            return self

        def recognize(self, image, zoom_out=False, memory=None):
            return Recognition(Detections.empty(), np.zeros((0, 4, 2)), image.shape[1], image.shape[0], 1.0)

    video = tmp_path / "still.mp4"  # 6 s of a still, empty table at 10 fps
    out = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 10, (128, 72))
    for _ in range(60):
        out.write(np.full((72, 128, 3), 90, np.uint8))
    out.release()
    counts = {s: read_video(Nothing(), video, [], (s, 0.0)) for s in (1.0, 2.0, 3.0)}
    assert [counts[s]["looked"] for s in (1.0, 2.0, 3.0)] == [6, 3, 2]
    assert all(c["frames"] == 60 and c["found"] == 0 and c["false"] == 0 for c in counts.values())


def test_the_redetect_choice_never_trades_a_card_for_fewer_looks():
    import argparse

    import pytest

    from sisepai.models.tuning.redetect_tune import choose, settings_of

    now, slow, slower, moving = (1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (1.0, 0.3)
    today = {"found": 56, "false": 1, "looked": 480}
    assert choose({now: today, slow: {"found": 55, "false": 1, "looked": 300}}, today=now) == now  # a card lost
    assert choose({now: today, slow: {"found": 56, "false": 2, "looked": 300}}, today=now) == now  # a false event more
    assert choose({now: today, slow: {"found": 56, "false": 1, "looked": 300},
                   slower: {"found": 57, "false": 0, "looked": 280},
                   moving: {"found": 56, "false": 1, "looked": 290}}, today=now) == slower
    assert (1.5, 0.3) in settings_of("1.5/0.3")
    for bad in ("0,2", "often", "1/-1", "1/x"):
        with pytest.raises(argparse.ArgumentTypeError):
            settings_of(bad)
