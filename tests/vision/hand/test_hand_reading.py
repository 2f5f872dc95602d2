"""Finished hands read as a whole: the rules as a prior on the cards' readings."""


import numpy as np

from sisepai.engine.cards import CARD_CODES
from sisepai.engine.rules import Rules
from sisepai.vision.hand.reading import decode_hand, unsure_cards
from sisepai.vision.hand.scoring import score_detections
from sisepai.vision.recognition.detections import Detections

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK".split()


def detections(cards, doubts=None, extra=None, det_conf=0.95):
    """A hand's detections in a row: each card read surely, except ``doubts`` {index: {code: p}}."""
    rows = [np.eye(29)[CARD_CODES.index(c)] * 0.97 + 0.001 for c in cards]
    for i, beliefs in (doubts or {}).items():
        rows[i] = np.full(29, 0.001)
        for code, p in beliefs.items():
            rows[i][CARD_CODES.index(code)] = p
    for beliefs in extra or []:
        row = np.full(29, 0.0005)
        for code, p in beliefs.items():
            row[CARD_CODES.index(code)] = p
        rows.append(row)
    probs = np.stack(rows)
    n = len(rows)
    boxes = np.array([[[x, 100], [x + 20, 100], [x + 20, 180], [x, 180]] for x in range(40, 40 + 22 * n, 22)], float)
    return Detections(boxes, probs.max(1) * det_conf, probs.argmax(1), probs=probs, detector_confidence=np.full(n, det_conf))


def test_a_sure_winning_hand_is_read_as_it_is():
    r = decode_hand(detections(WIN), size=(800, 300))
    assert sorted(r.best.cards) == sorted(WIN) and r.best.points == 11 and not r.timed_out


def test_the_rules_choose_between_a_cards_readings():
    # the 4th Soldier read as a Cannon (0.55) rather than a Soldier (0.4): no win with a Cannon alone
    r = decode_hand(detections(WIN, {12: {"GC": 0.55, "GP": 0.4}}), size=(800, 300))
    assert r.best.cards[12] == "GP"
    assert [u["index"] for u in unsure_cards(r)] == [12]


def test_a_phantom_card_is_dropped():
    # a 22nd detection: a joker read at 0.4, where there is no card
    r = decode_hand(detections(WIN, extra=[{"J": 0.4}]), size=(800, 300))
    assert sorted(r.best.cards) == sorted(WIN)
    old = score_detections(detections(WIN, extra=[{"J": 0.4}]), decode=False)
    assert old.winning is False  # each card read alone: 22 cards, no win


def test_a_missed_card_is_filled_in():
    # GA hidden: GE then needs it (GK GA GE), or a second GE (a pair, beside a lone GK: one
    # meld more, so less likely)
    hand = [c for k, c in enumerate(WIN) if k != 1]
    r = decode_hand(detections(hand), size=(800, 300))
    assert sorted(r.best.cards) == sorted(WIN)
    assert r.best.sources.count(None) == 1
    assert sorted(r.runner_up.cards) != sorted(WIN)


def test_runner_up_and_margin():
    r = decode_hand(detections(WIN, {20: {"YK": 0.5, "RK": 0.45}}), size=(800, 300))
    assert r.runner_up is not None and sorted(r.best.cards) != sorted(r.runner_up.cards)
    assert 0 <= r.margin < 0.2  # 0.5 against 0.45: a small gap
    unsure = unsure_cards(r)
    assert unsure[0]["card"] == "YK" and unsure[0]["alternatives"][0] == "RK"


def test_too_many_cards_out_of_sight_is_no_win_not_a_guess():
    r = decode_hand(detections(WIN[:15]), size=(800, 300))
    assert r.best is None


def test_time_is_capped(monkeypatch):
    """The search stops at the first reading past the cap, whatever the machine's speed: a clock
    that moves 1 ms per look stands in for the real one."""
    import sisepai.vision.hand.reading as hand_reading

    ticks = iter(range(10**9))
    monkeypatch.setattr(hand_reading, "_clock", lambda: next(ticks) / 1000)
    # every card equally doubtful between a suit's two ranks: a huge search
    doubts = {i: {c: 0.45, CARD_CODES[(CARD_CODES.index(c) + 1) % 28]: 0.45} for i, c in enumerate(WIN)}
    r = decode_hand(detections(WIN, doubts), size=(800, 300), time_cap=0.1)
    assert r.timed_out
    assert r.tried == 101  # one look at the start, one per reading: it stopped at the first past 100 ms


def test_score_detections_contract():
    reading = score_detections(detections(WIN, {12: {"GC": 0.55, "GP": 0.4}}), size=(800, 300), claimed=9)
    assert not reading.sure and reading.unsure[0].alternative == "GC"
    out = reading.to_dict()
    assert set(out) >= {"cards", "winning", "points", "melds", "unsure", "runner_up", "margin", "claimed"}
    assert set(out["unsure"][0]) == {"index", "card", "alternatives", "confidence", "alternative", "points_if_alternative"}
    assert out["winning"] and out["points"] == 11
    u = out["unsure"][0]
    assert u["index"] == 12 and u["card"] == "GP" and "GC" in u["alternatives"]
    assert out["claimed"]["agrees"] is False and out["claimed"]["points_read"] == 11
    assert out["claimed"]["disputed_meld"]


def test_claim_agrees():
    reading = score_detections(detections(WIN), size=(800, 300), claimed=11)
    assert reading.claimed.agrees
    assert reading.to_dict()["claimed"] == {"claimed": 11, "agrees": True, "points_read": 11}


def test_a_hand_read_alone_has_the_same_shape():
    alone = score_detections(detections(WIN, {12: {"GC": 0.55, "GP": 0.4}}), size=(800, 300), decode=False, claimed=11)
    whole = score_detections(detections(WIN, {12: {"GC": 0.55, "GP": 0.4}}), size=(800, 300), claimed=11)
    assert list(alone.to_dict()) == list(whole.to_dict())
    assert set(alone.to_dict()["unsure"][0]) == set(whole.to_dict()["unsure"][0])


def test_the_live_and_photo_paths_share_the_claim_check():
    from sisepai.vision.live.table_advice import win_claimed

    live = win_claimed("E", list(WIN), 1.0, Rules.preset("seesek"), claimed=9)
    photo = score_detections(detections(WIN), size=(800, 300), claimed=9).claimed
    assert live.agree is False and photo.agrees is False
    assert live.points == photo.points_read == 11
    assert live.disputed == photo.sentence()


def test_the_sample_hand_photo_scores_as_the_readme_says(recognizer):
    from pathlib import Path

    from sisepai.vision.recognition.images import load_image

    photo = Path(__file__).resolve().parents[3] / "examples" / "hand.jpg"
    result = recognizer.recognize(load_image(photo))
    scored = score_detections(result.detections, Rules(), size=(result.width, result.height))
    assert sorted(scored.cards) == sorted(WIN) and scored.winning and scored.points == 11
