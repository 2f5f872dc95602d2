"""One way to open a live session: ``watch``'s arguments and the socket's options fill one
:class:`LiveOptions`, checked in one place."""

import argparse

import pytest

from sisepai.vision.live.options import CHANGEABLE, LiveOptions, LiveOptionsError


def test_options_build_the_session_they_name():
    opts = LiveOptions.from_mapping({"rules": "tusac", "hand": "GK GA GE", "seat": "W", "claimed": 12,
                                     "zones": {"S": [[0, 0.7], [1, 0.7], [1, 1], [0, 1]]}})
    assistant = opts.assistant()
    assert assistant.rules.name == "tusac" and assistant.user_seat == "W" and assistant.claimed == 12
    assert sum(assistant.hand) == 3 and assistant.zones.polygons["S"][0] == [0.0, 0.7]


@pytest.mark.parametrize("values,needle", [
    ({"hand": "GK XX"}, "hand: unknown card 'XX'"),
    ({"hand": " ".join(["GK"] * 22)}, "22 cards, but a hand holds at most 21"),
    ({"seat": "Q"}, "seat: one of S, E, N, W"),
    ({"rules": "poker"}, "rules: unknown rules 'poker' (known: seesek, tusac)"),
    ({"rules": "../../etc/passwd.toml"}, "rules: unknown rules"),  # never a path from the network
    ({"deck": "../x"}, "deck: deck names are 1 to 40 letters"),
    ({"claimed": "lots"}, "claimed: a whole number"),
    ({"claimed": -3}, "claimed: between 0 and 10000"),
    ({"zones": {"X": [[0, 0], [1, 0], [1, 1]]}}, "zones: unknown zone 'X'"),
    ({"zones": {"S": [[0, 0], [1, 0]]}}, "zones: zone S needs a polygon of 3 to 64"),
    ({"colour": "red"}, "unknown live option 'colour'"),
    ({"hand": 7}, "hand: expected text"),
    ({"hand": " ".join(["GK"] * 21)}, "hand: 21 copies of GK, but the deck has only 4"),
    ({"hand": "J J J J J J"}, "hand: 6 jokers, but the deck has only 5"),
])
def test_bad_options_name_the_field(values, needle):
    with pytest.raises(LiveOptionsError) as err:
        LiveOptions.from_mapping(values)
    assert needle in str(err.value)


def test_a_running_session_changes_only_its_hand_seat_and_claim():
    opts = LiveOptions.from_mapping({"rules": "tusac"})
    later = LiveOptions.from_mapping({"hand": "RH RH", "seat": "N"}, base=opts, allowed=CHANGEABLE)
    assert later.rules == "tusac" and later.seat == "N"  # what it leaves out stays
    with pytest.raises(LiveOptionsError, match="rules is chosen when the stream opens"):
        LiveOptions.from_mapping({"rules": "seesek"}, base=opts, allowed=CHANGEABLE)
    assistant = opts.assistant()
    later.apply_to(assistant)
    assert assistant.user_seat == "N" and sum(assistant.hand) == 2


def test_watch_arguments_may_name_a_rules_file(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "seesek"\nhand_size = 20\n')
    args = argparse.Namespace(rules=str(rules), hand=" ".join(["GK"] * 21), seat="S", claimed=None, deck=None,
                              seats=None)
    with pytest.raises(LiveOptionsError, match="hand holds at most 20"):  # the file's rules check the hand
        LiveOptions.from_args(args)
    args.hand = None
    assert LiveOptions.from_args(args).assistant().rules.hand_size == 20
    args.rules = str(tmp_path / "missing.toml")
    with pytest.raises(LiveOptionsError, match="rules: "):
        LiveOptions.from_args(args)
