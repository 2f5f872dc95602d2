"""Adapt the reader to one player's deck, from its face images, on a CPU in minutes.

1. **Scenes of the deck.** The generator lays the deck's own faces on its tables, fans and
   finished hands (:func:`sisepai.datasets.scenes.scene.make_scene` with ``deck=``), under its cameras
   and lights, and the end crops are cut from the JPEG as the recogniser sees them. A tenth of
   the scenes are kept aside to measure the reading before and after.
2. **Replay.** Scenes in generated styles (training fonts) give crops of every kind, and ``none``
   crops (table, clutter, the ends of face-down cards), so the adapted reader keeps what it knew.
3. **Fine-tune** the whole reader: each step is ``deck_batch`` deck crops and ``replay_batch``
   replay crops, augmented as in training, AdamW with a one-cycle schedule, for a fixed number of
   ``steps`` (:data:`DEFAULT_STEPS`), so a deck enrolled on a busy machine reads as one enrolled on
   a quiet one; or, given ``minutes``, for as many steps as fit in that time (timed on the first steps).
4. **Save** the weights with calibration crops of the deck, so it loads in 8 bits like the
   shipped reader.

>>> EnrolOptions().steps, EnrolOptions().minutes
(480, 0.0)
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from sisepai.datasets.export.writer import CROP_MIN_VISIBLE, end_crop
from sisepai.datasets.scenes.scene import make_scene, scene_rng
from sisepai.faces.deck import DeckFaces
from sisepai.vision.recognition.palette import deck_colours
from sisepai.vision.recognition.reader_net import INPUT, NONE, READER_CLASSES, build_reader
from sisepai.workers.pool import worker_pool

from ..training.prepare import back_end_quads, none_quads
from ..training.train_reader import CALIBRATION_CROPS, augment, calibration_crops

DEFAULT_STEPS = 480
"""Fine-tune steps of an enrolment: about 4 minutes on a quiet 2-core CPU, crops included. Chosen on
the five enrolled tuning decks: mean F1 +0.0043 (95% +0.0011 to +0.0077) against 240 steps
(``docs/training-logs/enrolment-detector-adaptation.md``)."""
OVERRUN = 1.3
"""The fine-tune stops at this multiple of its planned minutes, should the machine slow down."""
Progress = Callable[[float, str], None]
"""``progress(fraction done, message)``: enrolment reports through it (a CLI bar, the web page)."""


@dataclass
class EnrolOptions:
    scenes: int = 240
    """Scenes of the deck to cut crops from (a tenth kept aside to measure)."""
    replay_scenes: int = 60
    """Scenes in generated styles, for replay crops."""
    minutes: float = 0.0
    """A time budget for the fine-tune instead of ``steps`` (0: run ``steps``): as many steps as fit."""
    steps: int = DEFAULT_STEPS
    """Fine-tune steps: the same deck reader on any machine, however busy (unless ``deadline``)."""
    deadline: float | None = None
    """A ``time.perf_counter()`` by which the fine-tune ends: its steps shrink to fit, on a busy
    machine, so that a whole enrolment keeps its time (``sisepai deck add`` with its defaults)."""
    deck_batch: int = 80
    replay_batch: int = 48
    lr: float = 1e-3
    seed: int = 0
    workers: int = 2
    none_per_scene: int = 4
    colour_jitter: tuple[float, float, float] = (12.0, 0.3, 0.16)
    """Hue turn (degrees), saturation change and colour cast of the crops' augmentation."""
    check_scenes: int = 5
    """Whole scenes of each layout read before and after enrolment (:mod:`.scene_check`)."""


def _quiet(fraction: float, message: str) -> None:
    pass


def time_left(done: int, total: int, elapsed: float, span: tuple[float, float] = (0.0, 1.0)) -> str:
    """What is left of ``total`` steps after ``done`` took ``elapsed`` seconds, in words. Where the
    steps are only the ``span`` of a progress bar, the time left is the whole bar's, its shares
    after the span taken to go at the span's pace.

    >>> time_left(60, 240, 60.0), time_left(200, 240, 200.0), time_left(0, 240, 1.0)
    ('about 3 min left', 'about 40 s left', '')
    >>> time_left(60, 240, 60.0, span=(0.0, 0.5))  # 3 min of this half, then the other half
    'about 7 min left'
    """
    if done <= 0 or done >= total:
        return ""
    at = span[0] + (span[1] - span[0]) * done / total
    return words_left((total - done) * elapsed / done * (1 - at) / max(span[1] - at, 1e-9))


def words_left(seconds: float) -> str:
    """``seconds`` still to go, in the words progress messages use.

    >>> words_left(200.0), words_left(41.0), words_left(1.0)
    ('about 3 min left', 'about 40 s left', 'about 5 s left')
    """
    return f"about {round(seconds / 60)} min left" if seconds >= 90 else f"about {max(5, round(seconds / 5) * 5)} s left"


SAID_LEFT = re.compile(r"about (\d+) (min|s) left")
"""The time left as a progress message says it (:func:`words_left`)."""


# --- crops --------------------------------------------------------------------------------------

_DECK: DeckFaces | None = None
_GIVEN: DeckFaces | None = None


def _init_worker(deck: DeckFaces | None, given: DeckFaces | None = None) -> None:
    global _DECK, _GIVEN
    _DECK, _GIVEN = deck, given or deck
    cv2.setNumThreads(1)


def held_aside(scenes: int) -> list[int]:
    """The deck scenes an enrolment keeps aside to measure itself on, never trained on: the last
    tenth (at least one).

    >>> held_aside(40)
    [36, 37, 38, 39]
    """
    return list(range(scenes - max(1, scenes // 10), scenes))


def scene_crops(seed: int, index: int, deck: DeckFaces | None, none_per_scene: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The reader's training crops of one generated scene (the deck's faces when ``deck``): every
    face-up end at least half visible, ``none_per_scene`` crops with no end, and the ends of the
    face-down cards; as (N, 48, 48, 3) RGB uint8 and class ids."""

    scene = make_scene(seed, index, deck=deck)
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(scene.image[..., ::-1]), [cv2.IMWRITE_JPEG_QUALITY, scene.camera.jpeg])
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1]  # what a camera gives: the JPEG
    crops, labels = [], []
    for card in scene.cards:
        if not card["face_up"]:
            continue
        for end in card["ends"]:
            if end["visible"] >= CROP_MIN_VISIBLE:
                crops.append(end_crop(img, end["corners"]))
                labels.append(card["class_id"])
    h, w = img.shape[:2]
    for quad in none_quads(scene.cards, w, h, scene_rng(seed, index + 10**7), none_per_scene):
        crops.append(end_crop(img, quad.tolist(), margin=0.0))
        labels.append(NONE)
    for _, _, quad in back_end_quads(scene.cards):
        crops.append(end_crop(img, quad.tolist()))
        labels.append(NONE)
    if not crops:
        return np.zeros((0, INPUT, INPUT, 3), np.uint8), np.zeros(0, np.int64)
    return (np.stack([cv2.resize(c, (INPUT, INPUT), interpolation=cv2.INTER_AREA) for c in crops]),
            np.asarray(labels, np.int64))


def _crops_job(job: tuple[int, int, str, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, index, faces, none = job
    return scene_crops(seed, index, {"deck": _DECK, "given": _GIVEN}.get(faces), none)


def make_crops(deck: DeckFaces, opts: EnrolOptions, progress: Progress = _quiet, span: tuple[float, float] = (0, 1)
               ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The deck's training and held-aside crops and the replay crops, made on ``opts.workers``
    processes: ``{"deck": ..., "deck_val": ..., "replay": ...}``. The held-aside scenes (the last
    tenth, :func:`held_aside`) lay the deck's faces as given (``deck.as_given``, before enrolment cut
    them), so the self-check reads what the player gave, not enrolment's own cut."""
    aside = set(held_aside(opts.scenes))
    jobs = [(opts.seed, i, "given" if i in aside else "deck", opts.none_per_scene) for i in range(opts.scenes)]
    jobs += [(opts.seed + 1, i, "styles", opts.none_per_scene) for i in range(opts.replay_scenes)]
    given = getattr(deck, "as_given", None)
    results = []
    t0 = time.perf_counter()

    def say(k: int) -> None:
        left = time_left(k + 1, len(jobs), time.perf_counter() - t0, span)
        progress(span[0] + (span[1] - span[0]) * (k + 1) / len(jobs), f"scenes {k + 1}/{len(jobs)}"
                 + (f", {left}" if left else ""))

    if opts.workers > 1:
        # spawned, not forked: the parent has used OpenCV (cutting and trimming the faces), and a
        # fork taken then can leave a worker waiting for ever on a lock of OpenCV's thread pool
        with worker_pool(opts.workers, _init_worker, (deck, given)) as pool:
            for k, r in enumerate(pool.map(_crops_job, jobs, chunksize=4)):
                results.append(r)
                say(k)
    else:
        _init_worker(deck, given)
        for k, job in enumerate(jobs):
            results.append(_crops_job(job))
            say(k)
    n_val = len(aside)

    def join(parts):
        parts = [p for p in parts if len(p[0])]
        if not parts:
            return np.zeros((0, INPUT, INPUT, 3), np.uint8), np.zeros(0, np.int64)
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    return {"deck": join(results[:opts.scenes - n_val]), "deck_val": join(results[opts.scenes - n_val:opts.scenes]),
            "replay": join(results[opts.scenes:])}


# --- the fine-tune ------------------------------------------------------------------------------

def accuracy(model, images: np.ndarray, labels: np.ndarray) -> dict:
    """Overall and per-rank accuracy of a float reader on crops (``none`` crops left out of the ranks)."""
    import torch

    if not len(images):
        return {"accuracy": float("nan"), "n": 0, "by_rank": {}}
    model.eval()
    with torch.inference_mode():
        pred = np.concatenate([model(torch.from_numpy(images[i:i + 256]).permute(0, 3, 1, 2).float() / 255)
                               .argmax(1).numpy() for i in range(0, len(images), 256)])
    by_rank = {}
    names = {"K": "general", "A": "advisor", "E": "elephant", "R": "chariot", "H": "horse", "C": "cannon",
             "P": "soldier", "J": "joker"}
    for rank, name in names.items():
        sel = np.array([READER_CLASSES[y][-1] == rank and y != NONE for y in labels])
        if sel.any():
            by_rank[name] = round(float((pred[sel] == labels[sel]).mean()), 4)
    return {"accuracy": round(float((pred == labels).mean()), 4), "n": int(len(labels)), "by_rank": by_rank}


def fine_tune(base: Path, crops: dict, opts: EnrolOptions, progress: Progress = _quiet,
              span: tuple[float, float] = (0, 1)) -> tuple[object, dict]:
    """The base reader fine-tuned on the deck's crops with replay; (float model, report)."""
    import torch
    import torch.nn as nn

    torch.manual_seed(opts.seed)
    gen = torch.Generator().manual_seed(opts.seed)
    state = torch.load(base, map_location="cpu", weights_only=False)
    arch = state.get("arch", "v1")
    model = build_reader(len(state["classes"]), arch)
    model.load_state_dict(state["state_dict"])
    xd, yd = crops["deck"]
    xr, yr = crops["replay"]
    if not len(xd):
        raise ValueError("the deck's scenes gave no crops")
    before = accuracy(model, *crops["deck_val"])
    model = model.to(memory_format=torch.channels_last)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    opt = torch.optim.AdamW(model.parameters(), lr=opts.lr, weight_decay=1e-4)
    xd_t, yd_t = torch.from_numpy(xd).permute(0, 3, 1, 2).contiguous(), torch.from_numpy(yd)
    xr_t, yr_t = torch.from_numpy(xr).permute(0, 3, 1, 2).contiguous(), torch.from_numpy(yr)

    def batch():
        i = torch.randint(0, len(xd_t), (opts.deck_batch,), generator=gen)
        parts_x, parts_y = [xd_t[i]], [yd_t[i]]
        if len(xr_t) and opts.replay_batch:
            j = torch.randint(0, len(xr_t), (opts.replay_batch,), generator=gen)
            parts_x.append(xr_t[j])
            parts_y.append(yr_t[j])
        return torch.cat(parts_x), torch.cat(parts_y)

    def step(x, y) -> float:
        model.train()
        xa = augment(x.float() / 255, gen, opts.colour_jitter).contiguous(memory_format=torch.channels_last)
        loss = loss_fn(model(xa), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return float(loss.detach())

    # time a few steps at a low learning rate, then plan the one-cycle run to fill the budget
    for group in opt.param_groups:
        group["lr"] = opts.lr / 25
    t0 = time.perf_counter()
    for _ in range(4):
        step(*batch())
    per_step = (time.perf_counter() - t0) / 4
    budget = opts.minutes > 0
    if not budget and opts.steps < 5:
        raise ValueError(f"an enrolment takes at least 5 steps, not {opts.steps}")
    total = max(10, int(opts.minutes * 60 / per_step) - 4) if budget else max(1, opts.steps - 4)
    wanted = total
    if opts.deadline is not None:  # the steps that fit before the deadline, at the pace just timed
        total = max(1, min(total, int((opts.deadline - time.perf_counter()) / per_step)))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=opts.lr, total_steps=total)
    losses = []
    started = time.perf_counter()
    stop_at = min([t for t in (started + opts.minutes * 60 * OVERRUN if budget else None, opts.deadline) if t is not None],
                  default=None)  # the budget's overrun, or the enrolment's own deadline, whichever comes first
    for k in range(total):
        losses.append(step(*batch()))
        sched.step()
        if stop_at is not None and time.perf_counter() > stop_at:  # the machine got slower than timed: stop in time
            progress(span[1], f"adapting stopped at {k + 1}/{total} steps: out of time")
            break
        if k % 5 == 0 or k == total - 1:
            left = time_left(k + 1, total, time.perf_counter() - started, span)
            progress(span[0] + (span[1] - span[0]) * (k + 1) / total,
                     f"adapting {k + 1}/{total} steps, loss {np.mean(losses[-20:]):.3f}" + (f", {left}" if left else ""))
    model = model.to(memory_format=torch.contiguous_format)
    after = accuracy(model, *crops["deck_val"])
    report = {"steps": len(losses), "planned_steps": total, "wanted_steps": wanted, "seconds_per_step": round(per_step, 3),
              "train_seconds": round(time.perf_counter() - started, 1),
              "deck_crops": int(len(xd)), "replay_crops": int(len(xr)),
              "held_aside_before": before, "held_aside_after": after, "arch": arch}
    return model, report


def save_reader(model, out: Path, crops: dict, arch: str, report: dict, seed: int = 0) -> None:
    """Save the adapted reader like the shipped one, with calibration crops mixed from the deck
    (three quarters) and the replay crops, and the deck's paper colours as its scenes show them
    (:func:`sisepai.vision.recognition.palette.rerank_by_deck_colours` weighs each card's suit by them)."""
    import torch

    n_deck = CALIBRATION_CROPS * 3 // 4
    calib = np.concatenate([calibration_crops(crops["deck"][0], n_deck, seed),
                            calibration_crops(crops["replay"][0], CALIBRATION_CROPS - n_deck, seed)])

    torch.save({"state_dict": model.state_dict(), "classes": list(READER_CLASSES), "input": INPUT, "arch": arch,
                "history": [report], "calibration": calib, "deck_colours": deck_colours(*crops["deck"])}, out)


def adapt_reader(deck: DeckFaces, base: Path, out: Path, opts: EnrolOptions | None = None,
                 progress: Progress = _quiet) -> dict:
    """Make the crops, fine-tune ``base`` to the deck, and save the reader at ``out``; the report."""
    opts = opts or EnrolOptions()
    t0 = time.perf_counter()
    crops = make_crops(deck, opts, progress, (0.0, 0.35))
    made = time.perf_counter()
    model, report = fine_tune(base, crops, opts, progress, (0.35, 0.97))
    save_reader(model, out, crops, report["arch"], report, opts.seed)
    progress(1.0, "saved")
    given = getattr(deck, "as_given", None)
    cut = sorted(c for c in deck.faces if given is not None and given.faces[c].shape != deck.faces[c].shape)
    aside = {"scenes": held_aside(opts.scenes), "seed": opts.seed, "never_trained_on": True,
             "faces": "as given" if given is not None else "as enrolled",
             "faces_cut_by_enrolment": cut}
    return {**report, "held_aside": aside, "crop_seconds": round(made - t0, 1), "options": asdict(opts)}


def peak_memory_mb() -> float:
    """The peak resident memory so far of this process or of any of its finished child processes
    (the scene workers), whichever is larger, in MiB (Linux and macOS)."""
    import resource

    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return round(peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024, 1)
