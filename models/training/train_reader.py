"""Train the card-end reader on crops exported by ``sisepai dataset generate --crops``.

Augmentation runs on whole batches in torch: quarter turns, small affine jitter, blur,
brightness/contrast, and random erasing (a half-hidden character in a fan).
"""

from __future__ import annotations

import copy
import json
import math
import time
from pathlib import Path
from typing import Callable, Sequence

import cv2
import numpy as np

from sisepai.engine.errors import SisepaiError
from sisepai.vision.recognition.reader import Reader
from sisepai.vision.recognition.reader_net import DEFAULT_ARCH, INPUT, READER_CLASSES, build_reader


def load_crops(folders: Sequence[Path], split: str, limit_per_class: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All crops of ``split`` under each dataset folder, as (N, 48, 48, 3) RGB uint8 and labels."""
    images, labels = [], []
    index = {c: i for i, c in enumerate(READER_CLASSES)}
    for folder in folders:
        root = Path(folder) / "crops" / split
        if not root.is_dir():
            continue
        for class_dir in sorted(root.iterdir()):
            if class_dir.name not in index:
                continue
            files = sorted(class_dir.glob("*.png"))
            if limit_per_class:
                files = files[:limit_per_class]
            for f in files:
                img = cv2.imread(str(f))
                if img is None:
                    continue
                images.append(cv2.resize(img, (INPUT, INPUT), interpolation=cv2.INTER_AREA)[..., ::-1])
                labels.append(index[class_dir.name])
    if not images:
        return np.zeros((0, INPUT, INPUT, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(images), np.asarray(labels, np.int64)


COLOUR_AUGMENT = (12.0, 0.3, 0.16)
"""The reader's colour augmentation by default: a hue turn of up to 12 degrees, saturation x0.7 to
x1.3 and a cast of up to 8% a channel (:func:`colour_matrices`)."""


def augment(x, generator, colour: tuple[float, float, float] = COLOUR_AUGMENT):
    """Batch augmentation of float images in [0, 1], shape (B, 3, H, W); ``colour`` is the hue turn
    (degrees), saturation change and cast of :func:`colour_matrices`."""
    import torch
    import torch.nn.functional as F

    b = x.shape[0]
    # quarter turns: the reader must read an end whatever way up
    k = torch.randint(0, 4, (b,), generator=generator)
    out = torch.empty_like(x)
    for r in range(4):
        sel = k == r
        if sel.any():
            out[sel] = torch.rot90(x[sel], r, dims=(2, 3))
    x = out
    # small affine jitter: rotation, scale, shift (the detector's boxes are not exact)
    ang = (torch.rand(b, generator=generator) - 0.5) * math.radians(24)
    scale = 1 + (torch.rand(b, generator=generator) - 0.5) * 0.3
    shift = (torch.rand(b, 2, generator=generator) - 0.5) * 0.2
    cos, sin = torch.cos(ang) / scale, torch.sin(ang) / scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    x = F.grid_sample(x, grid, padding_mode="border", align_corners=False)
    # brightness, contrast, and the camera's colour: cast, saturation and a small hue turn
    bright = 1 + (torch.rand(b, 1, 1, 1, generator=generator) - 0.5) * 0.5
    contrast = 1 + (torch.rand(b, 1, 1, 1, generator=generator) - 0.5) * 0.5
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = ((x - mean) * contrast + mean) * bright
    x = torch.einsum("bij,bjhw->bihw", colour_matrices(b, generator, *colour), x)
    # blur some
    blur = torch.rand(b, generator=generator) < 0.3
    if blur.any():
        kernel = torch.tensor([1.0, 2.0, 1.0])
        kernel = (kernel[:, None] * kernel[None, :]) / 16
        kernel = kernel.expand(3, 1, 3, 3)
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), kernel, groups=3)
    # low resolution: a small card end far from the camera, scaled down then up again
    low = torch.rand(b, generator=generator) < 0.25
    if low.any():
        side = int(torch.randint(14, 32, (1,), generator=generator))
        small = F.interpolate(x[low], size=(side, side), mode="area")
        x[low] = F.interpolate(small, size=x.shape[2:], mode="bilinear", align_corners=False)
    # random erasing: part of the character hidden by another card
    erase = torch.rand(b, generator=generator) < 0.35
    h = x.shape[2]
    for i in torch.nonzero(erase).flatten().tolist():
        side = int(torch.randint(0, 4, (1,), generator=generator))
        depth = int(h * (0.15 + 0.3 * float(torch.rand(1, generator=generator))))
        fill = torch.rand(3, 1, 1, generator=generator)
        if side == 0:
            x[i, :, :, :depth] = fill
        elif side == 1:
            x[i, :, :, h - depth:] = fill
        elif side == 2:
            x[i, :, :depth, :] = fill
        else:
            x[i, :, h - depth:, :] = fill
    noise = torch.randn(x.shape, generator=generator) * 0.02
    return (x + noise).clamp(0, 1)


def colour_matrices(b: int, generator, hue_degrees: float = 12.0, saturation: float = 0.3, cast: float = 0.16):
    """``b`` random 3x3 RGB colour transforms: a hue turn about the grey axis, a saturation change and a
    per-channel cast, like a camera's white balance.

    The suits are 60 degrees of hue apart (red, yellow, green) or unsaturated (white), so a turn of
    up to ``hue_degrees`` either way and ``saturation`` (0.3: x0.7 to x1.3) keep every suit itself;
    a family that prints its red suit orange puts it 20-35 degrees from its yellow, which a smaller
    turn keeps apart (``sisepai train --reader-colour``).

    >>> import torch
    >>> m = colour_matrices(4, torch.Generator().manual_seed(0))
    >>> tuple(m.shape)
    (4, 3, 3)
    >>> bool(torch.allclose(colour_matrices(1, torch.Generator(), 0, 0, 0)[0], torch.eye(3)))
    True
    """
    import torch

    ang = (torch.rand(b, generator=generator) * 2 - 1) * math.radians(hue_degrees)
    sat = 1 + (torch.rand(b, generator=generator) * 2 - 1) * saturation
    gains = 1 + (torch.rand(b, 3, generator=generator) - 0.5) * cast
    k = torch.full((3, 3), 1 / 3)  # projection on the grey axis
    axis = torch.tensor([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]) / math.sqrt(3)  # cross-product matrix
    eye = torch.eye(3)
    cos, sin = torch.cos(ang)[:, None, None], torch.sin(ang)[:, None, None]
    rotation = cos * eye + sin * axis + (1 - cos) * k  # Rodrigues, about (1, 1, 1)
    saturate = k + sat[:, None, None] * (eye - k)
    return torch.diag_embed(gains) @ saturate @ rotation


def evaluate(model, images: np.ndarray, labels: np.ndarray, batch: int = 512, device: str = "cpu") -> dict:
    import torch

    model.eval()
    correct = 0
    confusion: dict[str, int] = {}
    with torch.no_grad():
        for i in range(0, len(images), batch):
            x = torch.from_numpy(images[i:i + batch]).permute(0, 3, 1, 2).float().to(device) / 255
            pred = model(x).argmax(1).cpu().numpy()
            y = labels[i:i + batch]
            correct += int((pred == y).sum())
            for p, t in zip(pred, y):
                if p != t:
                    key = f"{READER_CLASSES[t]}->{READER_CLASSES[p]}"
                    confusion[key] = confusion.get(key, 0) + 1
    top = dict(sorted(confusion.items(), key=lambda kv: -kv[1])[:12])
    return {"accuracy": correct / max(len(images), 1), "n": int(len(images)), "top_confusions": top}


def train_reader(
    datasets: Sequence[Path],
    out: Path,
    epochs: int = 10,
    batch: int = 128,
    lr: float = 3e-3,
    seed: int = 0,
    samples_per_epoch: int = 40_000,
    checkpoint: Path | None = None,
    init: Path | None = None,
    arch: str | None = None,
    progress: Callable[[str], None] = print,
    device: str = "cpu",
    minutes: float | None = None,
    colour: tuple[float, float, float] = COLOUR_AUGMENT,
) -> dict:
    """Train the reader; checkpoints each epoch and resumes from ``checkpoint`` when it exists.

    An epoch is ``samples_per_epoch`` crops drawn without replacement (all of them when fewer).
    ``device`` is a torch device (``"cpu"``, ``"cuda"``); augmentation stays on the CPU.
    ``minutes`` replaces ``epochs`` by as many as fit in that time, from a timing of a few steps.
    ``colour`` is the augmentation's hue turn, saturation change and cast (:func:`colour_matrices`).
    ``arch`` is the network (:data:`~sisepai.vision.recognition.reader_net.ARCHS`); by default the
    arch of ``init``'s weights, or :data:`~sisepai.vision.recognition.reader_net.DEFAULT_ARCH`.
    """
    import torch
    import torch.nn as nn

    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    x_train, y_train = load_crops(datasets, "train")
    x_val, y_val = load_crops(datasets, "val")
    if not len(x_train):
        raise RuntimeError(f"no crops found under {', '.join(str(d) for d in datasets)}: generate with --crops")
    progress(f"reader: {len(x_train)} train crops, {len(x_val)} val crops, {len(READER_CLASSES)} classes")
    start = torch.load(init, map_location="cpu", weights_only=False) if init is not None else None
    arch = arch or (start.get("arch", "v1") if start is not None else DEFAULT_ARCH)
    model = build_reader(arch=arch)
    if start is not None:  # fine-tune from earlier weights (of the same arch), with a fresh schedule
        if start.get("arch", "v1") != arch:
            raise SisepaiError(f"{init} holds a {start.get('arch', 'v1')} reader, not {arch}: drop --reader-arch, "
                               f"or start {arch} without --reader-init")
        model.load_state_dict(start["state_dict"])
        progress(f"reader: starting from {init}")
    elif arch == "lite0":  # from features learned on photographs, not from random weights
        from sisepai.vision.recognition.reader_lite0 import load_imagenet  # lazy: torch at its module level

        progress(f"reader: lite0 starting from ImageNet weights ({load_imagenet(model)} tensors)")
    model = model.to(device=device, memory_format=torch.channels_last)  # channels-last: ~25% faster on a CPU
    # balance classes a little: 'none' and common classes do not swamp the rest
    counts = np.bincount(y_train, minlength=len(READER_CLASSES)).astype(np.float64)
    weights = torch.tensor(1.0 / np.sqrt(np.maximum(counts, 1)), dtype=torch.float32)
    weights = weights / weights.mean()
    loss_fn = nn.CrossEntropyLoss(weight=weights.to(device), label_smoothing=0.05)
    xt = torch.from_numpy(x_train).permute(0, 3, 1, 2).contiguous()
    yt = torch.from_numpy(y_train)
    steps_per_epoch = math.ceil(min(samples_per_epoch, len(x_train)) / batch)
    state = torch.load(checkpoint, map_location=device, weights_only=False) if checkpoint and checkpoint.exists() else None
    if minutes is not None and state is not None:
        epochs = state.get("epochs", epochs)  # a resumed run keeps the plan it started with
    elif minutes is not None:
        seconds = _seconds_per_step(model, loss_fn, xt[:batch], yt[:batch], device)
        # a validation pass reads every val crop forward only: about a third of a training step per batch
        val_seconds = seconds / 3 * math.ceil(len(x_val) / batch)
        epochs = max(1, int(minutes * 60 / ((seconds * steps_per_epoch + val_seconds) * 1.1)))
        progress(f"reader: {seconds * 1000:.0f} ms a step, so {epochs} epochs fit in {minutes:g} minutes")
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch)
    start_epoch = 0
    history = []
    if state is not None:
        if state.get("colour", list(COLOUR_AUGMENT)) != list(colour):
            raise SisepaiError(f"{checkpoint} was trained with colour augmentation {state.get('colour')}, not "
                               f"{list(colour)}: resume with the same --reader-colour, or start a new --runs folder")
        if state.get("epochs", epochs) != epochs or state.get("arch", arch) != arch:
            raise SisepaiError(f"{checkpoint} is a {state.get('epochs')}-epoch {state.get('arch')} run, not {epochs} "
                             f"epochs of {arch}: resume with the same settings, or fine-tune from its weights "
                             f"(--reader-init) in a new --runs folder")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start_epoch = state["epoch"] + 1
        history = state.get("history", [])
        gen.set_state(state["gen"])
        progress(f"reader: resuming after epoch {start_epoch}")
    for epoch in range(start_epoch, epochs):
        model.train()
        t0 = time.time()
        perm = torch.randperm(len(xt), generator=gen)
        total, seen = 0.0, 0
        for step in range(steps_per_epoch):
            idx = perm[step * batch:(step + 1) * batch]
            loss = _train_step(model, opt, loss_fn, xt[idx], yt[idx], gen, device, colour)
            sched.step()
            total += float(loss.detach()) * len(idx)
            seen += len(idx)
        metrics = evaluate(model, x_val, y_val, device=device) if len(x_val) else {"accuracy": float("nan")}
        history.append({"epoch": epoch + 1, "loss": total / seen, "val_accuracy": metrics["accuracy"],
                        "seconds": time.time() - t0})
        progress(f"reader epoch {epoch + 1}/{epochs}: loss {total / seen:.3f}, val accuracy "
                 f"{metrics['accuracy']:.4f} ({time.time() - t0:.0f} s)")
        if checkpoint:
            checkpoint.parent.mkdir(parents=True, exist_ok=True)
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                        "epoch": epoch, "history": history, "gen": gen.get_state(), "epochs": epochs,
                        "arch": arch, "colour": list(colour)}, checkpoint)
    out.parent.mkdir(parents=True, exist_ok=True)
    model = model.cpu()
    torch.save({"state_dict": model.state_dict(), "classes": list(READER_CLASSES), "input": INPUT, "arch": arch,
                "history": history, "colour": list(colour), "calibration": calibration_crops(x_train, seed=seed)}, out)
    return {"history": history, "train_crops": int(len(x_train)), "val_crops": int(len(x_val))}


def _train_step(model, opt, loss_fn, images, labels, gen, device: str,
                colour: tuple[float, float, float] = COLOUR_AUGMENT):
    """One optimiser step on a batch of uint8 (B, 3, H, W) images, augmented on the CPU; the loss."""
    import torch

    x = augment(images.float() / 255, gen, colour).to(device).contiguous(memory_format=torch.channels_last)
    loss = loss_fn(model(x), labels.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


def _seconds_per_step(model, loss_fn, images, labels, device: str, steps: int = 12) -> float:
    """Seconds per training step (augmentation included), timed on a throwaway copy of the model."""

    import torch

    trial = copy.deepcopy(model).train()
    opt = torch.optim.AdamW(trial.parameters(), lr=1e-4)
    gen = torch.Generator().manual_seed(0)
    t0 = 0.0
    for step in range(steps + 2):
        if step == 2:  # the first steps warm up allocators and kernels
            if device != "cpu":
                torch.cuda.synchronize()
            t0 = time.time()
        _train_step(trial, opt, loss_fn, images, labels, gen, device)
    if device != "cpu":
        torch.cuda.synchronize()
    return (time.time() - t0) / steps


CALIBRATION_CROPS = 256
"""Training crops stored in a reader's weights file, to calibrate its 8-bit version at load time
(:func:`sisepai.vision.recognition.reader.quantized`): about 1.8 MB."""


def calibration_crops(images: np.ndarray, n: int = CALIBRATION_CROPS, seed: int = 0) -> np.ndarray:
    """``n`` of ``images`` (training crops, never test crops), drawn at random.

    >>> calibration_crops(np.zeros((1000, 48, 48, 3), np.uint8), n=4).shape
    (4, 48, 48, 3)
    """
    pick = np.random.default_rng(seed).permutation(len(images))[:n]
    return np.ascontiguousarray(images[np.sort(pick)])


def add_calibration(weights: Path, datasets: Sequence[Path], n: int = CALIBRATION_CROPS, seed: int = 0) -> int:
    """Store calibration crops from the training split of ``datasets`` in a reader weights file
    made before readers carried them; returns how many."""
    import torch

    state = torch.load(weights, map_location="cpu", weights_only=False)
    images, _ = load_crops(datasets, "train")
    if not len(images):
        raise RuntimeError(f"no training crops under {', '.join(str(d) for d in datasets)}")
    state["calibration"] = calibration_crops(images, n, seed)
    torch.save(state, weights)
    return len(state["calibration"])


def reader_metrics(weights: Path, datasets: Sequence[Path], split: str = "val") -> dict:
    """Accuracy of saved reader weights on a split of crop datasets, in 32-bit floats
    (``accuracy``) and, where the recogniser reads in 8 bits, as it reads (``int8_accuracy``)."""
    import torch

    state = torch.load(weights, map_location="cpu", weights_only=False)
    model = build_reader(len(state["classes"]), state.get("arch", "v1"))
    model.load_state_dict(state["state_dict"])
    x, y = load_crops(datasets, split)
    metrics = evaluate(model, x, y)

    reader = Reader.load(weights)  # as the recogniser reads: in 8 bits where it can
    if reader.precision == "int8" and len(x):
        probs = np.concatenate([reader.read(list(x[i:i + 256])) for i in range(0, len(x), 256)])
        metrics["int8_accuracy"] = float((probs.argmax(axis=1) == y).mean())
    return metrics


def average_readers(new: Path, old: Path, out: Path, weight: float = 0.5) -> dict:
    """Write ``out``: a reader whose weights are ``weight`` of ``new``'s and the rest of ``old``'s
    (the same architecture and classes; a fine-tune averaged with the weights it started from keeps
    more of what they read well). ``new`` gives everything else (classes, calibration crops).

    >>> import tempfile, torch
    >>> d = Path(tempfile.mkdtemp())
    >>> for name, v in (("a", 0.0), ("b", 1.0)):
    ...     torch.save({"state_dict": {"w": torch.full((2,), v), "n": torch.tensor(3)}, "classes": ["x"]}, d / name)
    >>> average_readers(d / "b", d / "a", d / "c", 0.25)["weight"]
    0.25
    >>> torch.load(d / "c", weights_only=False)["state_dict"]["w"].tolist()
    [0.25, 0.25]
    """
    import torch

    if not 0.0 < weight < 1.0:
        raise ValueError(f"the weight of the new reader is between 0 and 1, not {weight}")
    a = torch.load(new, map_location="cpu", weights_only=False)
    b = torch.load(old, map_location="cpu", weights_only=False)
    if a.get("classes") != b.get("classes") or set(a["state_dict"]) != set(b["state_dict"]):
        raise ValueError(f"{new} and {old} are not readers of the same classes and architecture")
    state = {k: (weight * v.float() + (1 - weight) * b["state_dict"][k].float()).to(v.dtype) if v.is_floating_point() else v
             for k, v in a["state_dict"].items()}
    record = {"averaged": [str(new.name), str(old.name)], "weight": weight}
    torch.save({**a, "state_dict": state, "history": list(a.get("history", [])) + [record]}, out)
    return record


if __name__ == "__main__":  # pragma: no cover
    import argparse
    import sys

    p = argparse.ArgumentParser(prog="python -m sisepai.models.training.train_reader",
                                description="Average two readers' weights (train with sisepai train).")
    p.add_argument("new", type=Path, help="the fine-tuned reader")
    p.add_argument("old", type=Path, help="the reader it started from")
    p.add_argument("--weight", type=float, default=0.5, help="the new reader's share (default 0.5)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    print(json.dumps(average_readers(args.new, args.old, args.out, args.weight)))
    sys.exit(0)
