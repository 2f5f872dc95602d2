"""A match of many Four Color Cards deals: dealer rotation, running totals and payments.

The dealer deals again after winning; otherwise (a loss or a draw game) the deal passes to the
right (the next seat).

>>> import random
>>> from sisepai.engine.bots import make_bots
>>> m = Match(players=4, seed=2)
>>> for _ in range(3):
...     _ = m.play_deal(make_bots(["greedy", "random", "random", "random"], len(m.deals)))
>>> len(m.deals), sum(m.totals)
(3, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from .bots import play_out
from .game import Game, Outcome
from .rules import Rules, resolve_rules


@dataclass(frozen=True)
class DealRecord:
    number: int
    dealer: int
    outcome: Outcome
    totals: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"deal": self.number, "dealer": self.dealer, **self.outcome.to_dict(), "totals": list(self.totals)}


class Match:
    """Running totals over deals; each deal is a :class:`~sisepai.engine.game.Game`."""

    def __init__(self, players: int = 4, rules: Rules | str | None = None, seed: int | None = None, dealer: int = 0):
        self.players = players
        self.rules = resolve_rules(rules)
        self.rng = random.Random(seed)
        self.dealer = dealer
        self.totals = [0] * players
        self.deals: list[DealRecord] = []

    def new_deal(self) -> Game:
        """Deal the next game with the current dealer."""
        return Game.new(self.players, rules=self.rules, rng=self.rng, dealer=self.dealer)

    def record(self, game: Game) -> DealRecord:
        """Book a finished deal: payments into the totals, then the next dealer."""
        if game.outcome is None:
            raise ValueError("the deal is not finished")
        for p in game.outcome.payments:
            self.totals[p.payer] -= p.amount
            self.totals[p.payee] += p.amount
        rec = DealRecord(len(self.deals) + 1, self.dealer, game.outcome, tuple(self.totals))
        self.deals.append(rec)
        if game.outcome.winner != self.dealer:
            self.dealer = (self.dealer + 1) % self.players
        return rec

    def play_deal(self, bots: Sequence) -> DealRecord:
        game = self.new_deal()
        play_out(game, bots)
        return self.record(game)
