import pytest

from sisepai.engine import Rules, RulesError, SisepaiError, all_scores, is_winning, payments, score
from sisepai.engine.errors import TooManyCardsError
from sisepai.engine.scoring import Payment

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"


def test_seesek_breakdown():
    s = score(WIN)
    assert s.total == 11 and s.odd
    points = {tuple(sm.meld.codes): sm.points for sm in s.melds}
    assert points[("J",)] == 3
    assert points[("YK",)] == 1
    assert points[("GP", "WP", "YP", "RP")] == 2
    assert points[("WC", "WC", "WC")] == 1


def test_four_card_option():
    assert score(WIN, rules=Rules.preset("seesek", four_card_points=4)).total == 13


def test_tusac_concealed_and_exposed():
    assert score(WIN, rules="tusac").total == 13  # concealed triple 3 instead of 1
    # the same triple laid down earlier, exposed: 1 point
    hand = WIN.replace("WC WC WC ", "")
    s = score(hand, exposed=["WC WC WC"], rules="tusac")
    assert s.total == 11
    assert [sm.exposed for sm in s.melds][0] is True


def test_tusac_claimed_winning_card_makes_its_meld_exposed():
    self_drawn = score(WIN, rules="tusac", winning_card="WC", self_drawn=True)
    claimed = score(WIN, rules="tusac", winning_card="WC", self_drawn=False)
    assert self_drawn.total == 13
    assert claimed.total == 11


def test_tusac_quads():
    hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC WC"
    with pytest.raises(TooManyCardsError, match="22 cards"):  # more than a hand holds: refused at once
        is_winning(hand.replace(" WC", "", 1) + " GK GK")
    base = "GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J"  # 16 cards
    groups = 1 + 1 + 1 + 1 + 2 + 3  # two command, two field, four soldiers, joker
    assert score(base + " GK WC WC WC WC", rules="tusac").total == groups + 8  # concealed quad
    assert score(base + " GK", exposed=["WC WC WC WC"], rules="tusac").total == groups + 6  # exposed quad
    generals = "GK GK GK GK WK WA WE YR YH YC RR RH RC GP WP YP RP J GA GA GA"
    assert score(generals, rules="tusac").total == 8 + 1 + 1 + 1 + 2 + 3 + 3  # General quad 8, triple 3
    assert score(generals, rules="seesek").total == 4 + 1 + 1 + 1 + 2 + 3 + 1  # four singles beat a quad


def test_totals_and_checksum_in_all_scores():
    scores = all_scores("GP WP YP RP GP WP YP RP GK GK GK J J J J J WK WK WK YK RK")
    assert scores[0].total == max(s.total for s in scores)
    assert all(s.odd for s in scores)


def test_toml_override(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('preset = "seesek"\n[points]\nquad = 4\nfour_soldiers = 4\njoker = 5\n')
    rules = Rules.from_toml(path)
    assert score(WIN, rules=rules).total == 11 + 2 + 2
    bad = tmp_path / "bad.toml"
    bad.write_text('[points]\nquadd = 4\n')
    with pytest.raises(RulesError, match="quadd"):
        Rules.from_toml(bad)
    with pytest.raises(RulesError, match="not valid TOML"):
        bad.write_text("[points\n")
        Rules.from_toml(bad)
    with pytest.raises(RulesError, match="unknown rules preset"):
        Rules.preset("mahjong")


def test_the_vietnamese_preset_is_still_taken_by_its_former_name(tmp_path):
    assert Rules.preset("korean") == Rules.preset("tusac")
    house = tmp_path / "house.toml"
    house.write_text('preset = "korean"\ndeal = "korean"\n[points]\njoker = 5\n')
    rules = Rules.from_toml(house)
    assert rules.deal == "tusac" and rules.points["triple"] == 3 and rules.points["joker"] == 5


def test_payments():
    assert payments(11, winner=2, discarder=0) == [Payment(0, 2, 11)]
    assert payments(11, winner=2, players=4) == [Payment(0, 2, 11), Payment(1, 2, 11), Payment(3, 2, 11)]
    with pytest.raises(SisepaiError):
        payments(11, winner=2, discarder=2)


def test_hand_must_have_21_cards():
    assert not is_winning("GK GA GE")
    assert score("GK GA GE", require_size=False).total == 1


def test_the_batch_mode_writes_the_same_answer_as_the_api_and_the_cli():
    import json

    from sisepai.engine.batch import BatchScorer
    from sisepai.engine.rules import Rules
    from sisepai.engine.scoring import prepare_hand, score, score_answer

    rules = Rules.preset("seesek")
    batch = BatchScorer(rules)
    for line in ["GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK",
                 "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J YK | WC WC WC",
                 "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YA"]:
        cards, _, melds = line.partition("|")
        ids, exposed = prepare_hand(cards, [melds] if melds.strip() else [], rules)
        full = score_answer(ids, exposed, score(ids, exposed, rules))
        fast = json.loads(batch.line(line))
        assert fast == {k: full[k] for k in fast} and list(fast) == ["cards", "winning", "points", "melds"]


def test_one_claim_check_names_the_meld_the_two_readings_differ_in():
    from sisepai.engine.scoring import check_claim, score

    hand = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK".split()
    read = score(hand)
    other = [("GK" if c == "J" else c) for c in hand]  # the Joker misread as a General
    other_points = score(other).total
    assert other_points != read.total
    check = check_claim(other_points, read, (other, other_points))
    assert not check.agrees and check.points_read == read.total
    assert "J" in check.disputed_meld and check.reading_for_claim == tuple(other)
    assert check.to_dict()["reading_for_claim"] == other
    assert check.sentence().startswith(f"the claim differs by {other_points - read.total} points")

