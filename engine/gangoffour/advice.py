"""Gang of Four advice and bots: suggest a play and say why.

>>> from .cards import parse_gof_cards
>>> a = advise_play(parse_gof_cards("g2 g2 y2 r2 g5 y9"), parse_play("g4"))
>>> str(a.play), a.reason
('g5', 'beat g4 with the cheapest single that does not break a pair, triple or gang')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from .cards import PRESIDENT, VICE_PREMIER, gof_code, number_of
from .legal import legal_plays, may_pass
from .plays import Play, parse_play

SHED_ORDER = {"straight": 0, "flush": 0, "full_house": 0, "straight_flush": 0, "triple": 1, "pair": 2,
              "single": 3, "gang": 4}


@dataclass(frozen=True)
class GofAdvice:
    """A suggested play (``None`` means pass) and the reason, in plain words."""

    play: Play | None
    reason: str

    def to_dict(self) -> dict:
        return {"play": self.play.codes if self.play else None, "kind": self.play.kind if self.play else "pass",
                "reason": self.reason}


def _groups(hand: Sequence[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for c in hand:
        n = number_of(c)
        if n is not None:
            counts[n] = counts.get(n, 0) + 1
    return counts


def _breaks(play: Play, hand: Sequence[int]) -> int:
    """How much a play breaks up groups of one number (0 when it takes whole groups)."""
    counts = _groups(hand)
    used: dict[int, int] = {}
    for c in play.cards:
        n = number_of(c)
        if n is not None:
            used[n] = used.get(n, 0) + 1
    cost = 0
    for n, k in used.items():
        if k < counts[n]:
            cost += 3 if counts[n] >= 4 else 1
    return cost


def _strength(play: Play) -> int:
    return max(play.cards)


def advise_play(
    hand: Sequence[int],
    current: Play | None = None,
    *,
    first_lead: bool = False,
    next_has_one_card: bool = False,
    opponents_min_cards: int = 16,
) -> GofAdvice:
    """Suggest a play (or a pass) and say why."""
    legal = legal_plays(hand, current, first_lead=first_lead, next_has_one_card=next_has_one_card)
    if not legal:
        return GofAdvice(None, "pass: nothing in hand beats " + (str(current) if current else "the lead"))
    for p in legal:
        if p.size == len(hand):
            return GofAdvice(p, "go out: this play empties your hand")
    danger = opponents_min_cards <= 3
    if current is None:
        non_gang = [p for p in legal if p.kind != "gang"] or legal
        best = min(non_gang, key=lambda p: (_breaks(p, hand), SHED_ORDER[p.kind], _strength(p)))
        if best.size == 5:
            why = f"lead the {best.kind.replace('_', ' ')} to shed five cards at once"
        elif best.kind == "single":
            why = "shed singles early: lead your lowest loose single"
        else:
            why = f"lead a low {best.kind} without breaking other groups"
        if first_lead:
            why += " (the first lead must include the Student Leader)"
        return GofAdvice(best, why)
    non_gang = [p for p in legal if p.kind != "gang"]
    if non_gang:
        cheap = min(non_gang, key=lambda p: (_breaks(p, hand), _strength(p)))
        top = _strength(cheap)
        if (top >= VICE_PREMIER and not danger and len(hand) > 6 and current.kind == "single"
                and may_pass(hand, current, next_has_one_card=next_has_one_card)):
            return GofAdvice(None, f"pass: keep {gof_code(top)} to win control later")
        if _breaks(cheap, hand) == 0:
            return GofAdvice(cheap, f"beat {current} with the cheapest {cheap.kind} that does not break a pair, triple or gang")
        if danger or not may_pass(hand, current, next_has_one_card=next_has_one_card):
            return GofAdvice(cheap, f"an opponent is close to going out: beat {current} even if it breaks a group")
        if len(hand) <= 6:
            return GofAdvice(cheap, f"beat {current}: few cards left, so breaking a group is worth it")
        return GofAdvice(None, "pass: beating it would break a group you need")
    gangs = [p for p in legal if p.kind == "gang"]
    if danger or len(hand) - gangs[0].size <= 3:
        return GofAdvice(min(gangs, key=lambda p: p.key), "play the gang: it beats anything, and the end is near")
    return GofAdvice(None, "pass: keep the gang for when it matters")


class GofRandomBot:
    """Plays a uniformly random legal move (passing included when allowed)."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, match) -> Play | None:
        options: list[Play | None] = list(match.legal())
        if match.can_pass():
            options.append(None)
        return self.rng.choice(options)

    def give_back(self, hand: Sequence[int]) -> int:
        return self.rng.choice(list(hand))


class GofGreedyBot:
    """Follows :func:`advise_play`."""

    name = "greedy"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, match) -> Play | None:
        seat = match.turn
        others = [len(h) for i, h in enumerate(match.hands) if i != seat]
        advice = advise_play(match.hands[seat], match.current, first_lead=match.first_lead,
                        next_has_one_card=len(match.hands[match.next_seat(seat)]) == 1,
                        opponents_min_cards=min(others))
        if advice.play is None and not match.can_pass():
            legal = match.legal()
            return legal[0] if legal else None
        return advice.play

    def give_back(self, hand: Sequence[int]) -> int:
        counts = _groups(hand)
        loose = [c for c in hand if c < VICE_PREMIER and counts.get(number_of(c), 0) == 1]
        return min(loose or [c for c in hand if c != PRESIDENT] or list(hand))


BOTS = {"random": GofRandomBot, "greedy": GofGreedyBot}


def parse_play_or_none(text: str | None) -> Play | None:
    return parse_play(text) if text else None
