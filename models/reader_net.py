"""The card-end reader: a small CNN from a 48x48 end crop to one of 29 card kinds or ``none``.

Trained with random quarter turns, so it reads an end whatever way up it is.
"""

from __future__ import annotations

from sisepai.engine.cards import CARD_CODES

READER_CLASSES: tuple[str, ...] = CARD_CODES + ("none",)
"""The reader's outputs: the engine's 29 card kinds in class-id order, then ``none``."""
NONE = len(READER_CLASSES) - 1
INPUT = 48


def build_reader(num_classes: int = len(READER_CLASSES)):
    """The network (imports torch only when called)."""
    import torch.nn as nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
        )

    return nn.Sequential(
        block(3, 32), block(32, 64), block(64, 128),
        nn.Conv2d(128, 192, 3, padding=1, bias=False), nn.BatchNorm2d(192), nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(192, num_classes),
    )
