"""The generated videos that live measurements read, each made once into a folder and reused.

Two sets, each with a tuning and a test split (the test split's are read only on purpose):

- **a table's life** (:func:`life_plan`, :func:`life_video`): 60 s, 1280x720, 10 fps videos of a
  game with what a table shows besides it (``TurnVideo(life=True)``: cards slid in, hands over the
  cards, light that drifts, lamps switched, a camera bumped). Video k of a split has seed
  ``LIVE_SCALE_SEEDS[split] + k`` and takes its deck in turn from a generated design in the split's
  fonts, each stand-in deck of the split and (tuning only) each real tuning deck, with 10, 30 or
  60 cards in view in turn. ``benchmarks/live_scale.py`` reads them.
- **a desk webcam** (:func:`webcam_video`): 60 s videos of 30 cards in view through a camera that
  trembles by a fraction of a pixel and adds fresh sensor noise to each frame
  (``TurnVideo(webcam=True)``), seeds ``WEBCAM_SEEDS[split] + k``, tuning only.
  ``benchmarks/live_webcam.py`` reads them.

>>> [(v["deck"], v["cards"]) for v in life_plan("test", 4)]
[('design', 10), ('standin-0', 30), ('standin-1', 60), ('standin-2', 10)]
>>> [v["seed"] for v in life_plan("test", 2, first=16)]
[8216, 8217]
"""

from __future__ import annotations

import json
from pathlib import Path

from sisepai.datasets.design.splits import (
    FONTS,
    LIVE_SCALE_SEEDS,
    LIVE_SCALE_VIDEOS,
    REAL_DECKS,
    STANDIN_DECKS,
    WEBCAM_SEEDS,
    WEBCAM_VIDEOS,
    real_deck_folder,
)
from sisepai.engine.errors import SisepaiError

LIFE_CARDS = (10, 30, 60)
"""Cards in view in a table's life videos, in turn."""
WEBCAM_SECONDS, WEBCAM_CARDS = 60.0, 30


def life_plan(split: str, n: int, first: int = 0) -> list[dict]:
    """Videos ``first`` to ``first + n - 1`` of ``split``'s table's life: each one's seed, deck
    (``design``, ``standin-K`` or a real deck's name) and cards in view."""
    decks = ["design"] + [f"standin-{k}" for k in range(STANDIN_DECKS[split])]
    decks += [name for name in REAL_DECKS[split] if real_deck_folder(name) is not None]
    if first < 0 or first + n > LIVE_SCALE_VIDEOS:
        raise SisepaiError(f"videos 0 to {LIVE_SCALE_VIDEOS - 1} a split (splits.LIVE_SCALE_VIDEOS)")
    return [{"seed": LIVE_SCALE_SEEDS[split] + k, "deck": decks[k % len(decks)], "cards": LIFE_CARDS[k % len(LIFE_CARDS)]}
            for k in range(first, first + n)]


def life_video(split: str, item: dict, folder: Path) -> tuple[Path, list[dict]]:
    """The table's life video of one :func:`life_plan` item and its true events, written once into ``folder``."""
    from sisepai.datasets.design.standin import standin_style  # lazy: the generator's drawing
    from sisepai.datasets.video.game import TurnVideo  # lazy: the generator's drawing
    from sisepai.faces.deck import DeckFaces  # lazy: OpenCV

    name = f"{split}-{item['seed']}-{item['deck']}-{item['cards']}"
    video, truth = folder / f"{name}.mp4", folder / f"{name}.json"
    if not truth.exists():
        folder.mkdir(parents=True, exist_ok=True)
        deck = item["deck"]
        style = standin_style(int(deck.split("-")[1]), split)[0] if deck.startswith("standin-") else None
        faces = DeckFaces.load(real_deck_folder(deck)) if deck != "design" and style is None else None
        record = TurnVideo(seed=item["seed"], cards=item["cards"], font_split=FONTS[split], style=style, deck=faces,
                           life=True).write(video)
        truth.write_text(json.dumps(record["events"]))
    return video, json.loads(truth.read_text())


def webcam_seeds(split: str = "tune") -> list[int]:
    """The desk-webcam videos' seeds of ``split`` (tuning only: the test videos are hidden)."""
    if split not in WEBCAM_SEEDS:
        raise SisepaiError(f"the desk-webcam videos have no {split!r} split: the hidden videos are the test")
    return [WEBCAM_SEEDS[split] + k for k in range(WEBCAM_VIDEOS)]


def webcam_video(split: str, seed: int, folder: Path) -> tuple[Path, list[dict]]:
    """The desk-webcam video of ``seed`` and its true events, written once into ``folder``."""
    from sisepai.datasets.video.game import TurnVideo  # lazy: the generator's drawing

    path = folder / f"{split}-{seed}.mp4"
    truth = path.with_suffix(".json")
    if not truth.exists():
        folder.mkdir(parents=True, exist_ok=True)
        TurnVideo(seed=seed, cards=WEBCAM_CARDS, seconds=WEBCAM_SECONDS, font_split=FONTS[split], webcam=True).write(path, truth)
    return path, json.loads(truth.read_text())["events"]
