"""A Gang of Four match for 4 players: deals, turns, passes, last-card rules, exchange and scoring.

Every action is checked; an illegal one raises :class:`IllegalMoveError` and changes nothing.
The whole history is an event log (JSON-ready dicts) that :meth:`GofMatch.replay` re-plays and
checks move by move.

>>> m = GofMatch(seed=1)
>>> m.deal_no, len(m.hands[0]), m.direction
(1, 16, 1)
>>> STUDENT_LEADER in m.hands[m.turn]
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from ..errors import IllegalMoveError, SisepaiError
from .cards import (
    STUDENT_LEADER,
    check_gof_copies,
    format_gof,
    gof_code,
    parse_gof_card,
    parse_gof_cards,
    shuffled_gof_deck,
)
from .legal import legal_plays, may_pass
from .plays import Play, classify
from .scoring import deal_scores, match_over, match_winners

PLAYERS = 4
HAND = 16


@dataclass
class DealResult:
    winner: int
    cards_left: list[int]
    scores: list[int]


def check_gof_deal(hands: Sequence[Sequence[int]]) -> None:
    """Raise :class:`SisepaiError` unless the hands are a deal of the whole deck: 4 players,
    16 cards each, no card more often than the deck has it (so, 64 cards, each exactly that often)."""
    if len(hands) != PLAYERS or any(len(h) != HAND for h in hands):
        raise SisepaiError(f"a deal is {PLAYERS} hands of {HAND} cards, got {[len(h) for h in hands]}")
    check_gof_copies(c for h in hands for c in h)


class GofMatch:
    """A match to 100. Seats are 0 to 3; ``direction`` is +1 (to the left) or -1."""

    def __init__(self, seed: int | None = None, *, deal: bool = True):
        self.rng = random.Random(seed)
        self.seed = seed
        self.totals = [0] * PLAYERS
        self.deal_no = 0
        self.direction = -1  # flipped to +1 by the first deal
        self.hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.turn = 0
        self.current: Play | None = None
        self.last_player: int | None = None
        self.passes = 0
        self.first_lead = False
        self.announced = [False] * PLAYERS
        self.barred = [False] * PLAYERS
        self.silent = [False] * PLAYERS  # left on one card without announcing it
        self.pending_exchange: tuple[int, int] | None = None  # (dealer/loser, winner)
        self.last_result: DealResult | None = None
        self.hands_at_end: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.finished = False
        self.events: list[dict] = [{"type": "match", "seed": seed}]
        if deal:
            self.start_deal()

    # --- deals -----------------------------------------------------------------------------

    def start_deal(self, hands: Sequence[Sequence[int]] | None = None) -> None:
        """Deal 16 cards each (from the seeded shuffle, or the given hands when replaying)."""
        if self.finished:
            raise IllegalMoveError("the match is over")
        if hands is None:
            deck = shuffled_gof_deck(self.rng)
            hands = [deck[i * HAND:(i + 1) * HAND] for i in range(PLAYERS)]
        self.hands = [sorted(h) for h in hands]
        self.deal_no += 1
        self.direction = -self.direction
        self.current = None
        self.last_player = None
        self.passes = 0
        self.announced = [False] * PLAYERS
        self.barred = [False] * PLAYERS
        self.silent = [False] * PLAYERS
        self.events.append({"type": "deal", "deal": self.deal_no, "direction": self.direction,
                            "hands": [format_gof(h) for h in self.hands]})
        if self.last_result is None:
            self.first_lead = True
            self.turn = next(i for i, h in enumerate(self.hands) if STUDENT_LEADER in h)
        else:
            self.first_lead = False
            loser = self._biggest_scorer(self.last_result)
            winner = self.last_result.winner
            given = max(self.hands[loser])
            self.hands[loser].remove(given)
            self.hands[winner].append(given)
            self.hands[winner].sort()
            self.pending_exchange = (loser, winner)
            self.events.append({"type": "give", "from": loser, "to": winner, "card": gof_code(given)})
            self.turn = winner

    def _biggest_scorer(self, result: DealResult) -> int:
        """The deal's biggest scorer; ties go to the highest card left, then the next highest, and
        so on (RULES.md, seed 003: "highest card/s")."""
        return max(range(PLAYERS), key=lambda p: (result.scores[p], sorted(self.hands_at_end[p], reverse=True)))

    def give_back(self, card: int | str) -> None:
        """The winner of the last deal returns any card to the player who gave them their highest."""
        if self.pending_exchange is None:
            raise IllegalMoveError("there is no card exchange to make now")
        value = parse_gof_card(card) if isinstance(card, str) else card
        loser, winner = self.pending_exchange
        if value not in self.hands[winner]:
            raise IllegalMoveError(f"player {winner} holds no {gof_code(value)} to give back")
        self.hands[winner].remove(value)
        self.hands[loser].append(value)
        self.hands[loser].sort()
        self.pending_exchange = None
        self.events.append({"type": "return", "from": winner, "to": loser, "card": gof_code(value)})

    # --- turns -------------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        return (seat + self.direction) % PLAYERS

    def _next_has_one(self, seat: int) -> bool:
        return len(self.hands[self.next_seat(seat)]) == 1

    def legal(self, seat: int | None = None) -> list[Play]:
        """Legal plays for the player to move (passing: :meth:`can_pass`)."""
        seat = self.turn if seat is None else seat
        return legal_plays(self.hands[seat], self.current, first_lead=self.first_lead,
                           next_has_one_card=self._next_has_one(seat), barred_last_card=self._barred(seat))

    def _barred(self, seat: int) -> bool:
        """A last card that may not be played to win: caught, or never announced. Every card count
        is on the table, so sisepai counts a silent last card as caught."""
        return self.barred[seat] or (len(self.hands[seat]) == 1 and self.silent[seat])

    def can_pass(self) -> bool:
        if not self.legal():
            return True  # nothing to play (a barred last card, say): the player can only pass
        if self.current is None:
            return False
        return may_pass(self.hands[self.turn], self.current, next_has_one_card=self._next_has_one(self.turn))

    def _check_turn(self) -> None:
        if self.finished:
            raise IllegalMoveError("the match is over")
        if self.pending_exchange is not None:
            raise IllegalMoveError(f"player {self.pending_exchange[1]} must first give a card back")

    def play(self, cards: Sequence[int] | str | Play, announce: bool = True) -> DealResult | None:
        """The player to move plays ``cards``. With one card left they should ``announce``."""
        self._check_turn()
        seat = self.turn
        values = parse_gof_cards(cards) if isinstance(cards, str) else list(cards.cards if isinstance(cards, Play) else cards)
        play = classify(values)
        hand = list(self.hands[seat])
        for v in play.cards:
            if v not in hand:
                raise IllegalMoveError(f"player {seat} does not hold {gof_code(v)}")
            hand.remove(v)
        if play.cards not in {p.cards for p in self.legal(seat)}:
            raise IllegalMoveError(self._why_illegal(seat, play))
        self.hands[seat] = hand
        self.current = play
        self.last_player = seat
        self.passes = 0
        self.first_lead = False
        self.announced[seat] = announce and len(hand) == 1
        self.silent[seat] = not announce and len(hand) == 1
        self.events.append({"type": "play", "player": seat, "cards": play.codes, "kind": play.kind,
                            "announce": bool(announce)})
        if not hand:
            return self._end_deal(seat)
        self.turn = self.next_seat(seat)
        return None

    def _why_illegal(self, seat: int, play: Play) -> str:
        if self._barred(seat) and len(self.hands[seat]) == 1:
            return "a last card not announced ('last card') may not be played to win"
        if self.first_lead and STUDENT_LEADER not in play.cards:
            return "the first lead must include the Student Leader (m1)"
        if self.current is None:
            return "with the next player on one card, lead a single only when nothing else can be played, and then your highest"
        if self._next_has_one(seat) and self.current.kind == "single" and play.kind == "single":
            return "the next player has one card: you must play your highest single"
        return f"{play} ({play.kind}) does not beat {self.current} ({self.current.kind})"

    def pass_turn(self) -> None:
        """The player to move passes. After three passes the last player to play leads anew."""
        self._check_turn()
        if not self.can_pass():
            if self.current is None:
                raise IllegalMoveError("the leader must play")
            raise IllegalMoveError("the next player has one card: you must play your highest single")
        seat = self.turn
        self.events.append({"type": "pass", "player": seat})
        if self.current is None:
            self.turn = self.next_seat(seat)
            return
        self.passes += 1
        if self.passes >= PLAYERS - 1:
            self.turn = self.last_player if self.last_player is not None else self.next_seat(seat)
            self.current = None
            self.passes = 0
        else:
            self.turn = self.next_seat(seat)

    def catch(self, by: int, target: int) -> None:
        """``by`` catches ``target`` holding one card without having announced it."""
        if len(self.hands[target]) != 1 or self.announced[target]:
            raise IllegalMoveError(f"player {target} is not holding an unannounced last card")
        if by == target:
            raise IllegalMoveError("a player cannot catch themselves")
        self.barred[target] = True
        self.events.append({"type": "catch", "by": by, "target": target})

    def _end_deal(self, winner: int) -> DealResult:
        left = [len(h) for h in self.hands]
        scores = deal_scores(left)
        self.totals = [t + s for t, s in zip(self.totals, scores)]
        result = DealResult(winner, left, scores)
        self.hands_at_end = [list(h) for h in self.hands]
        self.last_result = result
        self.events.append({"type": "deal_end", "winner": winner, "cards_left": left, "scores": scores,
                            "totals": list(self.totals)})
        if match_over(self.totals):
            self.finished = True
            self.events.append({"type": "match_end", "totals": list(self.totals),
                                "winners": match_winners(self.totals)})
        return result

    # --- replay ------------------------------------------------------------------------------

    @classmethod
    def replay(cls, events: Sequence[dict]) -> "GofMatch":
        """Re-play an event log, checking every move; raises :class:`SisepaiError` on a mismatch."""
        if not events or events[0].get("type") != "match":
            raise SisepaiError("not a Gang of Four event log: it must start with a 'match' event")
        m = cls(events[0].get("seed"), deal=False)
        for n, ev in enumerate(events[1:], start=1):
            kind = ev.get("type")
            try:
                if kind == "deal":
                    hands = [parse_gof_cards(h) for h in ev["hands"]]
                    check_gof_deal(hands)
                    m.start_deal(hands)
                    mine = next(e for e in reversed(m.events) if e["type"] == "deal")
                    for key in ("deal", "direction"):
                        if key in ev and ev[key] != mine[key]:
                            raise SisepaiError(f"the log says {key} {ev[key]}, the replay gives {mine[key]}")
                elif kind == "give":
                    expected = m.events[-1]
                    if expected.get("type") != "give" or {k: ev.get(k) for k in expected} != expected:
                        raise SisepaiError(f"expected the exchange {expected}, log says {ev}")
                elif kind == "return":
                    m.give_back(ev["card"])
                elif kind == "play":
                    if m.turn != ev["player"]:
                        raise SisepaiError(f"log says player {ev['player']} plays, but it is player {m.turn}'s turn")
                    m.play(parse_gof_cards(ev["cards"]), ev.get("announce", True))
                elif kind == "pass":
                    if m.turn != ev["player"]:
                        raise SisepaiError(f"log says player {ev['player']} passes, but it is player {m.turn}'s turn")
                    m.pass_turn()
                elif kind == "catch":
                    m.catch(ev["by"], ev["target"])
                elif kind in ("deal_end", "match_end"):
                    mine = next(e for e in reversed(m.events) if e["type"] == kind)
                    if {k: mine[k] for k in ev} != ev:
                        raise SisepaiError(f"the log's {kind} {ev} differs from the replay's {mine}")
                else:
                    raise SisepaiError(f"unknown event type {kind!r}")
            except (SisepaiError, KeyError, TypeError, ValueError) as exc:
                raise SisepaiError(f"event {n} ({kind}): {exc}") from None
        if not m.finished or events[-1].get("type") != "match_end":
            raise SisepaiError(f"the log stops after {len(events)} events before the match ends: "
                               "a whole log ends with its 'match_end' event")
        return m
