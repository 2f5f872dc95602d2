"""Adapt the detector to one deck at enrolment (``sisepai deck add``; ``--quick`` leaves it out).

Scenes of the deck's own faces (every layout: tables, fans, finished hands, heaps, fans held in
a hand) and replay scenes of generated decks are written to a folder, labelled for ultralytics,
and the whole shipped detector is fine-tuned on them: SGD, no warm-up, ``lr`` falling tenfold,
mosaic on half the images, for about ``steps`` image-steps. The weights are saved with the deck,
and ``--deck`` then loads both.

On three tuning decks this design measured the best of five (+0.006 mean F1 over their four sets,
95% -0.006 to +0.017; a tuning deck's fans +0.045), none worse than the shipped detector; a deck
whose fans the shipped detector misses has only its own scenes to learn them from
(``docs/training-logs/enrolment-detector-adaptation.md``). With a ``deadline``, training stops at
the end of the epoch after which another would pass it, and an epoch still running at the deadline
ends the fine-tune there: the last whole epoch's weights are kept, or none when no epoch ended
(the enrolment then keeps the shipped detector). The fine-tune trains only: it validates nothing.

>>> DetectorOptions().steps, DetectorOptions().freeze, DetectorOptions().lr
(400, 0, 0.001)
"""

from __future__ import annotations

import math
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from sisepai.datasets.export.writer import GenerateOptions, generate_one, prepare_folders
from sisepai.datasets.scenes.scene import ALL_LAYOUTS
from sisepai.faces.deck import DeckFaces
from sisepai.vision.recognition.yolo_env import setup_offline
from sisepai.workers.pool import worker_pool

from ..training.prepare import _write_data_yaml, prepare_detector
from ..training.train import CARD_AUGMENT, OFFLINE_RUN, fine_tune_schedule, use_every_core
from .enrol import Progress, time_left

SCENES_SHARE = 0.2
"""The share of the detector's progress that writing its scenes takes (about its share of the time)."""


@dataclass
class DetectorOptions:
    steps: int = 400
    """Image-steps of the fine-tune (one image through the network and back)."""
    deck_scenes: int = 150
    replay_scenes: int = 50
    freeze: int = 0
    """Layers kept as they are (10: the backbone; 0: none)."""
    lr: float = 0.001
    imgsz: int = 640
    batch: int = 8
    seed: int = 0
    workers: int = 2
    """Processes writing the scenes."""
    layouts: tuple[str, ...] = ALL_LAYOUTS
    """The layouts of both the deck's scenes and the replay scenes."""
    deadline: float | None = None
    """A ``time.perf_counter()`` value no epoch may end after (where one epoch fits), or None."""


class OutOfTime(Exception):
    """The detector's fine-tune reached its deadline inside an epoch."""


def _train_only(trainer) -> None:
    """No validation in a fine-tune that keeps its last weights: the epochs' and the final check's
    (ultralytics runs them even with ``val=False``) cost about a minute of an enrolment's ten."""
    from ultralytics.utils.torch_utils import strip_optimizer

    trainer.validate = lambda: ({}, None)
    trainer.final_eval = lambda: strip_optimizer(trainer.last) if trainer.last.exists() else None


def _scene_job(job: tuple[Path, int, GenerateOptions]) -> None:
    generate_one(*job)


def _write_scenes(jobs: list[tuple[Path, int, GenerateOptions]], workers: int, progress: Progress) -> None:
    """Write each ``(folder, index, options)`` scene, on ``workers`` processes (the same scenes on any number)."""
    def say(k: int) -> None:
        progress(SCENES_SHARE * (k + 1) / len(jobs), f"detector scenes {k + 1}/{len(jobs)}")

    if workers > 1:
        with worker_pool(workers) as pool:
            for k, _ in enumerate(pool.map(_scene_job, jobs, chunksize=4)):
                say(k)
    else:
        for k, job in enumerate(jobs):
            _scene_job(job)
            say(k)


def adapt_detector(deck: DeckFaces, faces: Path, base: Path, out: Path, work: Path,
                   opts: DetectorOptions | None = None, progress: Progress | None = None) -> dict:
    """Fine-tune ``base`` on scenes of the deck whose faces are in ``faces``; save it at ``out``.
    ``work`` holds the scenes and the run (removed afterwards); ``progress(fraction, message)``
    hears of each scene written and each batch trained. Returns what it did."""

    opts = opts or DetectorOptions()
    progress = progress or (lambda fraction, message: None)
    work = work.resolve()  # ultralytics puts a relative project under its own runs folder
    t0 = time.perf_counter()
    sets, jobs = [], []
    for name, n, options in (("deck", opts.deck_scenes, GenerateOptions(seed=opts.seed + 2, val=0.0, deck_faces=str(faces),
                                                                           layouts=opts.layouts)),
                             ("replay", opts.replay_scenes, GenerateOptions(seed=opts.seed + 3, val=0.0,
                                                                            layouts=opts.layouts))):
        folder = work / name
        prepare_folders(folder)
        jobs += [(folder, i, options) for i in range(n)]
        sets.append(folder)
    _write_scenes(jobs, opts.workers, progress)
    for folder in sets:
        prepare_detector(folder)
    sets = [folder / "detector" / "images" / "train" for folder in sets]
    images = opts.deck_scenes + opts.replay_scenes
    train = "[" + ", ".join(f"'{s.resolve()}'" for s in sets) + "]"
    data = _write_data_yaml(work / "data.yaml", train, train)
    setup_offline()
    from ultralytics import YOLO

    model = YOLO(str(base))
    use_every_core(model)
    epochs = max(1, math.ceil(opts.steps / images))
    batches = epochs * math.ceil(images / opts.batch)
    trained = {"batches": 0, "start": time.perf_counter()}

    def batch_done(trainer) -> None:
        if opts.deadline is not None and time.perf_counter() > opts.deadline:
            raise OutOfTime
        trained["batches"] += 1
        k = trained["batches"]
        left = time_left(k, batches, time.perf_counter() - trained["start"])
        progress(SCENES_SHARE + (1 - SCENES_SHARE) * min(1.0, k / batches),
                 f"adapting the detector: {k}/{batches} batches" + (f", {left}" if left else ""))

    def epoch_trained(trainer) -> None:
        trained["epochs"] = trained.get("epochs", 0) + 1

    def epoch_done(trainer) -> None:  # (also called once more after the last epoch, by the final check)
        if opts.deadline is not None and time.perf_counter() + trainer.epoch_time > opts.deadline:
            trainer.stop = True  # another epoch would pass the deadline: keep this one's weights

    model.add_callback("on_train_start", _train_only)
    model.add_callback("on_train_batch_end", batch_done)
    model.add_callback("on_train_epoch_end", epoch_trained)
    model.add_callback("on_fit_epoch_end", epoch_done)
    weights = work / "runs" / "detector" / "weights" / "last.pt"
    try:
        model.train(**fine_tune_schedule(opts.lr), **OFFLINE_RUN, **CARD_AUGMENT,
                    data=str(data), epochs=epochs, imgsz=opts.imgsz, batch=opts.batch, workers=0, device="cpu",
                    mosaic=0.5, close_mosaic=0, project=str(work / "runs"), name="detector", exist_ok=True,
                    seed=opts.seed, val=False, freeze=opts.freeze, verbose=False, save_period=-1)
    except OutOfTime:
        if not trained.get("epochs"):
            return {"skipped": "the detector's first epoch did not end within the enrolment's time",
                    "seconds": round(time.perf_counter() - t0, 1)}
        from ultralytics.utils.torch_utils import strip_optimizer

        strip_optimizer(weights)
    shutil.copyfile(weights, out)
    run = trained.get("epochs", epochs)
    return {"image_steps": run * images, "scenes": images, "seconds": round(time.perf_counter() - t0, 1),
            "freeze": opts.freeze, "lr": opts.lr, "epochs": run, "epochs_planned": epochs}
