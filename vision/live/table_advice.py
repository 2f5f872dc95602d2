"""What the live assistant says about cards, apart from following them: the claims a shown card
offers the user's hand, and the score of a hand a seat lays down.

>>> from sisepai.engine.cards import counts_of, parse_card_ids
>>> from sisepai.engine.rules import Rules
>>> from sisepai.vision.live.events import CardShown
>>> hand = counts_of(parse_card_ids("GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"))
>>> advice_sentence(claim_advice(hand, CardShown(1.0, "YK", "E", 0, 1.0), "S", Rules.preset("seesek"))[0])
'You can claim Yellow General: a win, with Yellow General.'
"""

from __future__ import annotations

from typing import Sequence

from sisepai.engine.advice import best_discard
from sisepai.engine.cards import SEATS, parse_card_id, seat_after
from sisepai.engine.claims import claims as claim_options
from sisepai.engine.claims import hand_after
from sisepai.engine.rules import Rules
from sisepai.engine.scoring import check_claim, score
from sisepai.vision.live.announce import advice_sentence  # noqa: F401 - the example
from sisepai.vision.live.events import Advice, CardShown, WinClaimed


def relation_to(owner: str, user_seat: str) -> str:
    """``previous`` when ``owner`` plays just before ``user_seat`` (seats are in turn order, the
    next player to the right), else ``other``.

    >>> relation_to("W", "S"), relation_to("E", "S"), relation_to("center", "S")
    ('previous', 'other', 'other')
    """
    if owner in SEATS and user_seat in SEATS and owner == seat_after(user_seat, -1):
        return "previous"
    return "other"


def claim_advice(hand: Sequence[int], shown: CardShown, user_seat: str, rules: Rules,
                 card_id: int | None = None) -> list[Advice]:
    """An ``advice`` event for a card another seat showed: the best claim the user's concealed
    ``hand`` (a count vector) has on it, and the discard after it; empty when there is none.
    ``card_id``: the shown card as the tracker has it (else read from the event's code)."""
    card = parse_card_id(shown.card) if card_id is None else card_id
    options = claim_options(hand, card, relation_to(shown.seat, user_seat), 0, rules.hand_size,
                            rules.allow_general_pair)
    if not options:
        return []
    best = options[0]
    discard = None
    if not best.wins:
        rest = hand_after(hand, best.meld, card)
        ids = [k for k in range(len(rest)) for _ in range(rest[k])]
        found = best_discard(ids, [best.meld.cards], rules=rules) if ids else None
        discard = found.card if found else None
    event = {"type": "advice", "card": shown.card, "claims": [c.to_dict() for c in options], "discard": discard}
    return [Advice(shown.t, event["claims"], shown.card, discard)]


def win_claimed(seat: str, codes: list[str], t: float, rules: Rules, claimed: int | None = None) -> WinClaimed | None:
    """A :class:`WinClaimed` event when the cards a seat laid down are a whole winning hand (scored,
    and checked against ``claimed`` points when given, by :func:`sisepai.engine.scoring.check_claim`),
    else ``None``."""
    if len(codes) != rules.hand_size:
        return None
    read = score(codes, rules=rules)
    if read is None:
        return None
    check = check_claim(claimed, read) if claimed is not None else None
    return WinClaimed(t, seat, sorted(codes), read.total, read.meld_codes, claimed,
                      None if check is None else check.agrees, check.sentence() if check else None)
