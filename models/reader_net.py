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

    def conv(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # 48 -> 24 -> 12 -> 6: about 40 MFLOPs a crop, small enough to train on a laptop CPU
    return nn.Sequential(
        *conv(3, 24), nn.MaxPool2d(2),
        *conv(24, 48), *conv(48, 48), nn.MaxPool2d(2),
        *conv(48, 96), *conv(96, 96), nn.MaxPool2d(2),
        *conv(96, 128),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, num_classes),
    )
