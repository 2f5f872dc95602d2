"""Generated game videos: the cards a table is dealt."""

from types import SimpleNamespace

import numpy as np

from sisepai.datasets.video.game import TurnVideo


def test_a_table_of_60_cards_is_dealt_whatever_the_seed():
    """About one deal in thirty of 60 cards ran out of copies for a small meld and failed
    (``high <= 0``); the seat then shows fewer cards instead."""
    for seed in range(300):
        rows, left = TurnVideo._deal_rows(SimpleNamespace(cards_in_view=60), np.random.default_rng(seed))
        dealt = [c for melds in rows.values() for meld in melds for c in meld]
        assert 50 <= len(dealt) <= 60, (seed, len(dealt))
        assert all(n >= 0 for n in left.values())
