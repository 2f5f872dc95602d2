"""Simulate Gang of Four matches between bots.

>>> stats = simulate(games=2, bots=["greedy", "random", "random", "random"], seed=1)
>>> stats["games"], sum(stats["wins"]) >= 2
(2, True)
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable, Sequence

from ..errors import SisepaiError
from ..progress import Progress
from .advice import BOTS
from .game import PLAYERS, GofMatch

FORGET_ANNOUNCE = 0.1
"""How often a random bot forgets to announce its last card (so catching gets exercised)."""


def play_match(seed: int, bot_names: Sequence[str], on_deal: Callable[[], None] | None = None) -> GofMatch:
    """Play one match to 100 between bots; returns the finished match with its event log."""
    rng = random.Random(seed)
    bots = [BOTS[name](random.Random(rng.random())) for name in bot_names]
    match = GofMatch(seed=seed)
    deals = 0
    while not match.finished:
        if match.pending_exchange is not None:
            _, winner = match.pending_exchange
            match.give_back(bots[winner].give_back(match.hands[winner]))
            continue
        seat = match.turn
        if bot_names[seat] == "greedy":
            for target in range(PLAYERS):
                if target != seat and len(match.hands[target]) == 1 and not match.announced[target] \
                        and not match.barred[target]:
                    match.catch(seat, target)
        choice = bots[seat].choose(match)
        if choice is None:
            match.pass_turn()
            continue
        announce = bot_names[seat] != "random" or rng.random() > FORGET_ANNOUNCE
        if match.play(choice, announce=announce) is not None:
            deals += 1
            if on_deal:
                on_deal()
            if not match.finished:
                match.start_deal()
        if deals > 500:
            raise SisepaiError("a match ran over 500 deals")
    return match


def simulate(
    games: int,
    bots: Sequence[str] = ("greedy", "random", "random", "random"),
    seed: int = 0,
    log_dir: str | Path | None = None,
    progress: bool = False,
) -> dict:
    """Play ``games`` matches; returns wins per seat (ties share), average totals and deal counts."""
    if len(bots) != PLAYERS:
        raise SisepaiError(f"Gang of Four needs {PLAYERS} bots, got {len(bots)}")
    for name in bots:
        if name not in BOTS:
            raise SisepaiError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if games < 1:
        raise SisepaiError("--games must be at least 1")
    bar = None
    if progress:
        bar = Progress(games, "matches")
    wins = [0.0] * PLAYERS
    totals = [0] * PLAYERS
    deals = 0
    plays = 0
    for g in range(games):
        match = play_match(seed * 1_000_003 + g, bots)
        deals += sum(1 for e in match.events if e["type"] == "deal_end")
        plays += sum(1 for e in match.events if e["type"] == "play")
        winners = next(e for e in match.events if e["type"] == "match_end")["winners"]
        for w in winners:
            wins[w] += 1 / len(winners)
        totals = [t + x for t, x in zip(totals, match.totals)]
        if log_dir:
            Path(log_dir).mkdir(parents=True, exist_ok=True)
            (Path(log_dir) / f"gof-{g:05d}.json").write_text(json.dumps(match.events))
        if bar:
            bar.update()
    if bar:
        bar.close()
    return {
        "games": games, "bots": list(bots), "seed": seed,
        "wins": [round(w, 3) for w in wins], "win_rate": [round(w / games, 4) for w in wins],
        "average_total": [round(t / games, 2) for t in totals],
        "deals": deals, "deals_per_game": round(deals / games, 2), "plays_per_deal": round(plays / max(deals, 1), 2),
    }
