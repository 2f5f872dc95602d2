"""The card-end reader: a small CNN from a 48x48 end crop to one of 29 card kinds or ``none``.

Trained with random quarter turns, so it reads an end whatever way up it is.

Two sizes, recorded in the weights file as ``arch``:

- ``v1`` (the first shipped reader): 24-48-96-128 channels, about 40 MFLOPs a crop;
- ``v2`` (the default): 32-64-128-256 channels with two convolutions per stage, about 100 MFLOPs
  a crop. It underfits less: the v1 reader's training loss stopped near 0.94 under augmentation.
- ``lite0``: EfficientNet-Lite0 started from ImageNet photographs (:mod:`.reader_lite0`), about
  70 MFLOPs a crop, for printings the generator never drew.

>>> build_reader(arch="v2")[0].out_channels
32
"""

from __future__ import annotations

from sisepai.engine.cards import CARD_CODES

READER_CLASSES: tuple[str, ...] = CARD_CODES + ("none",)
"""The reader's outputs: the engine's 29 card kinds in class-id order, then ``none``."""
NONE = len(READER_CLASSES) - 1
INPUT = 48
DEFAULT_ARCH = "v2"
ARCHS = ("v1", "v2", "lite0")


def build_reader(num_classes: int = len(READER_CLASSES), arch: str = DEFAULT_ARCH):
    """The network (imports torch only when called); ``lite0`` with random weights (training starts
    it from ImageNet's: :func:`.reader_lite0.load_imagenet`)."""
    import torch.nn as nn

    if arch == "lite0":
        from .reader_lite0 import Lite0Reader  # torch at module level: loaded only for this arch

        return Lite0Reader(num_classes)

    def conv(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    if arch == "v1":  # 48 -> 24 -> 12 -> 6: about 40 MFLOPs a crop
        return nn.Sequential(
            *conv(3, 24), nn.MaxPool2d(2),
            *conv(24, 48), *conv(48, 48), nn.MaxPool2d(2),
            *conv(48, 96), *conv(96, 96), nn.MaxPool2d(2),
            *conv(96, 128),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, num_classes),
        )
    if arch == "v2":  # 48 -> 24 -> 12 -> 6: about 100 MFLOPs a crop
        return nn.Sequential(
            *conv(3, 32), *conv(32, 32), nn.MaxPool2d(2),
            *conv(32, 64), *conv(64, 64), nn.MaxPool2d(2),
            *conv(64, 128), *conv(128, 128), nn.MaxPool2d(2),
            *conv(128, 256),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(256, num_classes),
        )
    raise ValueError(f"unknown reader arch {arch!r} (known: {', '.join(ARCHS)})")
