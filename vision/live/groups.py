"""A seat's cards in groups, as they lie: the cards of a meld lie side by side, and melds apart.

>>> import numpy as np
>>> from types import SimpleNamespace
>>> card = lambda x: SimpleNamespace(center=np.float32([x, 100]), size=30.0)
>>> [[int(c.center[0]) for c in g] for g in groups([card(100), card(133), card(300), card(166)])]
[[100, 133, 166], [300]]
"""

from __future__ import annotations

import numpy as np

MELD_LINK = 1.4
"""Cards of one seat lie in one group when their centres are within this many card widths: the
cards of a meld lie side by side (about 1.1 widths apart), and melds lie apart."""


def groups(tracks: list) -> list[list]:
    """``tracks`` (anything with a ``center`` and a ``size``) in groups: left to right, a card
    joins the first group holding a card within MELD_LINK card widths of it. Centres, sizes and
    their distances are computed once, as arrays."""
    tracks = sorted(tracks, key=lambda x: (x.center[0], x.center[1]))
    if not tracks:
        return []
    centers = np.stack([tr.center for tr in tracks])
    sizes = np.maximum(np.array([tr.size for tr in tracks]), 8)
    apart = np.linalg.norm(centers[:, None, :] - centers[None, :, :], axis=-1)
    near = apart < MELD_LINK * np.maximum(sizes[:, None], sizes[None, :])
    found: list[list[int]] = []
    for i in range(len(tracks)):
        for group in found:
            if near[i, group].any():
                group.append(i)
                break
        else:
            found.append([i])
    return [[tracks[i] for i in group] for group in found]
