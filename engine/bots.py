"""Bots for Four Color Cards. They see the game only through ``legal_moves`` and play only legal moves.

- ``random``: any legal move.
- ``greedy``: the advice functions: win when it can, claim or meld when that brings the hand
  closer to a win (distance to win), and discard what keeps the most live waits.

>>> import random
>>> from sisepai.engine.game import Game
>>> g = Game.new(seed=3)
>>> bots = [GreedyBot(), RandomBot(random.Random(1)), RandomBot(random.Random(2)), RandomBot(random.Random(3))]
>>> play_out(g, bots).winner in (None, 0, 1, 2, 3)
True
"""

from __future__ import annotations

import random
from typing import Sequence

from .advice import discard_options, distance_counts
from .cards import parse_card_id
from .claims import hand_after
from .errors import SisepaiError
from .game import Game, Outcome
from .moves import ClaimMove, Discard, MeldMove, MoveType, Pass, Win


def _seen(game: Game, player: int) -> list[int]:
    """Every card this player can see: own hand, everyone's melds and discards, the shown card."""
    seen = list(game.hands[player])
    for p in range(game.n):
        for e in game.exposed[p]:
            for c in e.meld.cards:
                seen[c] += 1
        for c in game.discards[p]:
            seen[c] += 1
    for k in game.locked[player]:
        seen[k] += 3
    if game.shown is not None:
        seen[game.shown.card] += 1
    return seen


class RandomBot:
    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.Random()

    def choose(self, game: Game, player: int) -> MoveType:
        return self.rng.choice(game.legal_moves(player))


class GreedyBot:
    name = "greedy"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng

    def choose(self, game: Game, player: int) -> MoveType:
        moves = game.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        if game.phase == "discard":
            win = next((m for m in moves if isinstance(m, Win)), None)
            if win is not None:  # tusac: the dealt hand already wins
                return win
            extra = game.exposed_cards(player) + 3 * len(game.locked[player])
            options = discard_options(game.hands[player], extra, _seen(game, player), game.rules)
            legal = {m.card for m in moves if isinstance(m, Discard)}
            for o in options:
                card = parse_card_id(o.card)
                if card in legal:
                    return Discard(card)
            return moves[0]
        # claims phase: win if we can; otherwise meld when it brings us closer to a win
        claims = game.claim_options(player)
        wins = [c for c in claims if c.wins]
        if wins:  # of several ways to win, the one that scores most
            best_win = max(wins, key=lambda c: game.win_points(player, c))
            return _as_move(game, player, best_win.meld.cards)
        if not claims:
            return Pass(player)
        extra = game.exposed_cards(player) + 3 * len(game.locked[player])
        counts = game.hands[player]
        now = distance_counts(counts, extra, game.rules)
        best, best_key = None, None
        seen = _seen(game, player)
        for c in claims:
            rest = hand_after(counts, c.meld, game.shown.card)
            after = discard_options(rest, extra + len(c.meld), seen, game.rules)
            dist = after[0].distance if after else distance_counts(rest, extra + len(c.meld), game.rules)
            live = after[0].live_waits if after else 0
            key = (dist, c.priority, -live)
            if best_key is None or key < best_key:
                best, best_key = c, key
        must = Pass(player) not in moves
        if best is not None and (must or best_key[0] <= now):
            return _as_move(game, player, best.meld.cards)
        return Pass(player)


def _as_move(game: Game, player: int, cards: tuple[int, ...]) -> MoveType:
    return (MeldMove if player == game.shown.owner else ClaimMove)(player, cards)


BOTS = {"random": RandomBot, "greedy": GreedyBot}


def make_bots(names: Sequence[str], seed: int = 0) -> list:
    bots = []
    for i, name in enumerate(names):
        if name not in BOTS:
            raise SisepaiError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
        bots.append(BOTS[name](random.Random(seed * 7919 + i)))
    return bots


def play_out(game: Game, bots: Sequence, max_moves: int = 5000) -> Outcome:
    """Play a game to its end with one bot a seat; returns the outcome."""
    for _ in range(max_moves):
        if game.outcome is not None:
            return game.outcome
        if game.phase == "claims":
            player = game.responders()[0]
        else:
            player = game.turn
        if game.phase == "draw" and not game.pile:
            break
        game.push(bots[player].choose(game, player))
    if game.outcome is None:
        raise RuntimeError("a game did not end")
    return game.outcome
