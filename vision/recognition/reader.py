"""Read a card end: colour and character from a straightened crop, with the shipped reader CNN.

On an x86 CPU the reader runs in 8-bit integers (:func:`quantized`), calibrated on the training
crops stored in its weights file: 4 times faster than 32-bit floats, with the same reading on
99.4% of crops (held-out end crops 95.56% right against 95.64%).

>>> import numpy as np
>>> reader = Reader.load()                                 # doctest: +SKIP
>>> probs = reader.read([np.zeros((48, 48, 3), np.uint8)])  # doctest: +SKIP
"""

from __future__ import annotations

import copy
import warnings
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES, JOKER
from sisepai.vision.recognition.reader_net import build_reader

DEFAULT_WEIGHTS = Path(__file__).resolve().parents[1] / "weights" / "reader.pt"
NUM_CARDS = len(CARD_CODES)


def colour_rank_confidence(probs: np.ndarray, class_id: int) -> tuple[float, float]:
    """Belief in the predicted suit (summed over its ranks) and rank (summed over its suits)."""
    p = probs[:NUM_CARDS]
    if class_id == JOKER:
        return float(p[JOKER]), float(p[JOKER])
    suit, rank = divmod(class_id, 7)
    return float(p[suit * 7:(suit + 1) * 7].sum()), float(p[[s * 7 + rank for s in range(4)]].sum())


def for_inference(model):
    """The reader made faster for a CPU, with the same outputs: each batch norm folded into the
    convolution before it, and channels-last memory (together about 40% less time a crop)."""
    import torch
    import torch.nn as nn
    from torch.nn.utils.fusion import fuse_conv_bn_eval

    model.eval()
    if not isinstance(model, nn.Sequential):  # lite0: its batch norms stay (training-free fusion is for the CNNs)
        return model.to(memory_format=torch.channels_last)
    layers, fused = list(model), []
    while layers:
        layer = layers.pop(0)
        if isinstance(layer, nn.Conv2d) and layers and isinstance(layers[0], nn.BatchNorm2d):
            layer = fuse_conv_bn_eval(layer, layers.pop(0))
        fused.append(layer)
    return nn.Sequential(*fused).eval().to(memory_format=torch.channels_last)


INT8_ENGINES = ("x86", "fbgemm")
"""PyTorch's quantised-kernel engines the 8-bit reader may use (x86 CPUs)."""


def _as_tensor(batch: np.ndarray):
    import torch

    return torch.from_numpy(np.ascontiguousarray(batch)).permute(0, 3, 1, 2).float() / 255


def _traced_quietly(trace):
    """``trace()`` with PyTorch FX recording no Python stack trace per node: the records serve only
    to debug a traced graph, and symbolising them took half of a reader's load."""
    try:
        import torch.fx.config as fx_config
    except ImportError:
        return trace()
    before = getattr(fx_config, "do_not_emit_stack_traces", None)
    if before is None:
        return trace()
    fx_config.do_not_emit_stack_traces = True
    try:
        return trace()
    finally:
        fx_config.do_not_emit_stack_traces = before


def quantized(model, calibration: np.ndarray):
    """``model`` (the float reader, batch norms not yet folded) in 8-bit integers: post-training
    static quantisation (PyTorch FX, per-channel weights), its activation ranges observed on
    ``calibration`` (N, 48, 48, 3) RGB uint8 training crops. None where this PyTorch has no x86
    quantised engine, or no longer has the API; the float reader is then used.
    """

    import torch

    engine = next((e for e in INT8_ENGINES if e in torch.backends.quantized.supported_engines), None)
    if engine is None or not len(calibration):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch.ao.quantization announces its move to torchao
            from torch.ao.quantization import get_default_qconfig_mapping
            from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

            torch.backends.quantized.engine = engine
            x = _as_tensor(calibration)
            observed = _traced_quietly(lambda: prepare_fx(copy.deepcopy(model).eval(), get_default_qconfig_mapping(engine),
                                                          (x[:1],)))
            with torch.inference_mode():
                for i in range(0, len(x), 128):
                    observed(x[i:i + 128])
            return convert_fx(observed)
    except (ImportError, AttributeError, RuntimeError) as exc:  # an API gone from a later PyTorch
        warnings.warn(f"the 8-bit reader is not available ({exc}); reading in 32-bit floats")
        return None


class Reader:
    """The card-end CNN. ``read`` takes RGB crops of any size and returns class probabilities
    (29 card kinds, then ``none``)."""

    def __init__(self, model, classes: Sequence[str], input_size: int, precision: str = "float32",
                 deck_colours: dict[str, list[float]] | None = None):
        self.model = model
        self.classes = list(classes)
        self.input_size = input_size
        self.precision = precision  # "int8" or "float32"
        self.deck_colours = deck_colours  # an enrolled deck's paper colours (palette.rerank_by_deck_colours)

    @classmethod
    def load(cls, weights: str | Path = DEFAULT_WEIGHTS, int8: bool = True) -> "Reader":
        """The reader in ``weights``: in 8-bit integers when ``int8`` and the file holds
        calibration crops (and this CPU has the engine), else in 32-bit floats."""
        import torch

        path = Path(weights)
        if not path.is_file():
            raise FileNotFoundError(f"reader weights not found: {path} (train them with: sisepai train reader)")
        state = torch.load(path, map_location="cpu", weights_only=False)
        model = build_reader(len(state["classes"]), state.get("arch", "v1"))
        model.load_state_dict(state["state_dict"])
        size = int(state.get("input", 48))
        calibration = state.get("calibration")
        fast = quantized(model, calibration) if int8 and calibration is not None else None
        colours = state.get("deck_colours")
        if fast is not None:
            return cls(fast, state["classes"], size, "int8", colours)
        return cls(for_inference(model), state["classes"], size, deck_colours=colours)

    def read(self, crops: Sequence[np.ndarray], turns_below: float = 0.0) -> np.ndarray:
        """Probabilities (N, 30) for RGB uint8 crops. A crop read less surely than ``turns_below``
        (its top class) is read again at the three other quarter turns, and the four readings
        are averaged (:meth:`read_turned`)."""
        batch = self._batch(crops)
        probs = self._forward(batch)
        unsure = np.flatnonzero(probs.max(axis=1) < turns_below)
        if len(unsure):
            probs[unsure] = (probs[unsure] + 3 * self.read_turned(batch[unsure])) / 4
        return probs

    def read_turned(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The mean probabilities (N, 30) of the crops turned by one, two and three quarters. The
        reader learned every quarter turn, and its mistakes differ between turns; the recogniser
        uses it only below ``ReadingProfile.turns_below``, which the tuning scenes set to 0 (off)."""
        batch = self._batch(crops)
        if not len(batch):
            return np.zeros((0, len(self.classes)), np.float32)
        turned = np.concatenate([np.rot90(batch, k, axes=(1, 2)) for k in (1, 2, 3)])
        return self._forward(turned).reshape(3, len(batch), -1).mean(axis=0)

    def _batch(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        s = self.input_size
        if not len(crops):
            return np.zeros((0, s, s, 3), np.uint8)
        return np.stack([c if c.shape[:2] == (s, s) else cv2.resize(c, (s, s), interpolation=cv2.INTER_AREA)
                         for c in crops])

    def _forward(self, batch: np.ndarray) -> np.ndarray:
        import torch

        if not len(batch):
            return np.zeros((0, len(self.classes)), np.float32)
        x = _as_tensor(batch)
        if self.precision == "float32":
            x = x.contiguous(memory_format=torch.channels_last)
        with torch.inference_mode():
            return torch.softmax(self.model(x), dim=1).numpy()
