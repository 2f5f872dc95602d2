"""The one place that says what is trained on, what chooses, and what measures.

- **train**: the training fonts and generated deck styles (with :mod:`.printed`'s traits), any seed
  the training commands use;
- **tune**: chooses thresholds and designs: the held-out fonts that are no test face, the tuning
  stand-in decks, the real printed tuning deck (:data:`REAL_DECKS`), and the seeds below;
- **test**: measured once a choice is made: the honest held-out fonts, the test stand-in decks,
  the test paper decks, and their seeds.

``tests/datasets/design/test_splits.py`` checks that no font, deck or seed is in two splits.

>>> sorted(SPLITS)
['test', 'train', 'tune']
>>> FONTS["test"], STANDIN_DECKS["tune"]
('honest', 4)
"""

from __future__ import annotations

from pathlib import Path

from sisepai.engine.environment import DECKS, environment

SPLITS = ("train", "tune", "test")
FONTS = {"train": "train", "tune": "tune", "test": "honest"}
"""The font split (:func:`.font_splits.fonts_of`) each split draws."""
STANDIN_DECKS = {"tune": 4, "test": 4}
"""How many stand-in decks (:mod:`.standin`) each split has; tune and test decks differ in fonts and
seeds. Each split's decks run from 1:3.0 to 1:6.4 long, the proportions training draws."""
DECK_SCENE_SEEDS = {"tune": 7050, "test": 7000}
"""Scenes of stand-in deck k: seed DECK_SCENE_SEEDS[split] + k (:mod:`sisepai.models.evaluation.deck_eval`)."""
DECK_HAND_SEEDS = {"tune": 7250, "test": 7200}
"""Finished hands of stand-in deck k: seed DECK_HAND_SEEDS[split] + k."""
FONT_SCENE_SEEDS = {"tune": 7150, "test": 7100}
"""Generated styles in the split's held-out fonts (their finished hands: the seed + 1)."""
VIDEO_SEEDS = {"tune": {"design": [1], "standin": [(0, 11), (1, 12)], "real": [("tu-sac-scans", 13)]},
               "test": {"design": [21], "standin": [(0, 31), (1, 32)], "real": []}}
"""The live benchmark's videos: seeds of generated designs, (stand-in deck, seed) pairs and
(real deck, seed) pairs (:data:`REAL_DECKS`)."""
PAPER_DECKS = {"tune": 2, "test": 4}
"""How many paper decks (:mod:`sisepai.models.evaluation.paper_eval`: training fonts on far papers) each split has."""
PAPER_SEEDS = {"tune": 7450, "test": 7400}
"""Paper deck k's style and far papers: this seed; its scenes: the seed + 10 + k."""
FAMILY_SCENE_SEEDS = {"tune": 7550}
"""Scenes of generated decks of printed family k (:data:`sisepai.datasets.design.families.FAMILIES`) in the
split's held-out fonts: seed + k (:mod:`sisepai.models.tuning.choose`). Tuning only: the test split's
families are the real decks of each style it holds."""
SCAN_SEEDS = {"tune": 58, "test": 8}
"""Scans of cards (:mod:`sisepai.models.evaluation.scan_eval`): the random seed of each split's sheets and single cards."""
BENCH_SEEDS = {"vision_bench": 2024, "deck_bench": 2025, "reader_bench": 2026, "service_bench": 77}
"""Speed benchmarks' scenes, drawn in the tuning fonts (``FONTS["tune"]``): never a test font or seed."""
LIVE_SCALE_SEEDS = {"tune": 8100, "test": 8200}
"""The live set at scale (``benchmarks/live_scale.py``): video k of a split has seed LIVE_SCALE_SEEDS[split] + k
(at most :data:`LIVE_SCALE_VIDEOS` of them)."""
LIVE_SCALE_VIDEOS = 40
WEBCAM_SEEDS = {"tune": 8300}
"""Videos through a trembling, noisy desk webcam (``benchmarks/live_webcam.py``): video k has seed
WEBCAM_SEEDS[split] + k (:data:`WEBCAM_VIDEOS` of them). Tuning only: the test videos are hidden."""
WEBCAM_VIDEOS = 4
FAMILY_COUNT = 3
"""How many families :data:`FAMILY_SCENE_SEEDS` counts (``tests/datasets/design/test_splits.py`` checks it
against :data:`sisepai.datasets.design.families.FAMILIES`)."""


def seed_sets(split: str) -> dict[str, set[int]]:
    """Each set of ``split`` by name, with the seeds it uses for scenes, hands and videos, deck
    offsets included: no seed is in two sets, of one split or of two (``tests/datasets/design/test_splits.py``)."""
    n = STANDIN_DECKS[split]
    out = {"standin scenes": {DECK_SCENE_SEEDS[split] + k for k in range(n)},
           "standin hands": {DECK_HAND_SEEDS[split] + k for k in range(n)},
           "font scenes": {FONT_SCENE_SEEDS[split], FONT_SCENE_SEEDS[split] + 1},
           "videos": set(VIDEO_SEEDS[split]["design"]) | {s for _, s in VIDEO_SEEDS[split]["standin"]
                                                          + VIDEO_SEEDS[split]["real"]},
           "paper decks": {PAPER_SEEDS[split]} | {PAPER_SEEDS[split] + 10 + k for k in range(PAPER_DECKS[split])},
           "scans": {SCAN_SEEDS[split]},
           "live scale": {LIVE_SCALE_SEEDS[split] + k for k in range(LIVE_SCALE_VIDEOS)}}
    if split == "tune":
        out |= {f"bench {name}": {seed} for name, seed in BENCH_SEEDS.items()}
    if split in WEBCAM_SEEDS:
        out["webcam videos"] = {WEBCAM_SEEDS[split] + k for k in range(WEBCAM_VIDEOS)}
    if split in FAMILY_SCENE_SEEDS:
        out["family scenes"] = {FAMILY_SCENE_SEEDS[split] + k for k in range(FAMILY_COUNT)}
    if split in REAL_SCENE_SEEDS:
        for off, what in ((0, "scenes"), (100, "hands"), (200, "grids"), (300, "held")):
            out[f"real {what}"] = {REAL_SCENE_SEEDS[split] + off + k for k in range(len(REAL_DECKS[split]))}
    if split in HELD_SCENE_SEEDS:
        out["held scenes"] = {HELD_SCENE_SEEDS[split]}
    if split in FAN_PROPERTY_SEEDS:
        out["fan properties"] = {FAN_PROPERTY_SEEDS[split]}
    if split in STRANGER_SEEDS:
        out["second camera"] = {STRANGER_SEEDS[split] + k for k in range(len(REAL_DECKS[split]))}
        out["second camera fonts"] = {STRANGER_SEEDS[split] + 50}
    return out


def seeds_of(split: str) -> set[int]:
    """Every seed ``split`` uses for scenes, hands and videos, deck offsets included."""
    return set().union(*seed_sets(split).values())


REAL_DECKS = {"tune": ("tu-sac-scans",), "test": ()}
"""Scans of real printed decks (a folder of ``CODE.png`` faces each, in the project's shared decks
folder, :func:`real_deck_folder`). A tuning deck chooses, zero-shot and enrolled; its faces never
train (:func:`sisepai.datasets.design.face_prints.refuse_tuning_faces` refuses them by content)."""
REAL_SCENE_SEEDS = {"tune": 7650}
"""Scenes of real deck k: seed + k; its finished hands: seed + 100 + k; its grid photos: seed + 200 + k;
its fans held in a hand and close heaps: seed + 300 + k."""
HELD_SCENE_SEEDS = {"tune": 7350}
FAN_PROPERTY_SEEDS = {"tune": 8800}
"""Fans held across the table, one property varied at a time (:mod:`sisepai.models.tuning.fan_properties`)."""
STRANGER_SEEDS = {"tune": 8700}
"""The second camera's scenes (:mod:`sisepai.datasets.second_camera`): real deck k's, seed + k;
the other generator's plain design in the split's fonts, seed + 50."""
"""Fans held in a hand and close heaps (:mod:`.held`) in the split's held-out fonts (:mod:`sisepai.models.tuning.choose`)."""
DECKS_ENV = DECKS
"""The environment variable naming the folder of real decks (default: ``../shared/decks`` beside the checkout)."""


def real_deck_folder(name: str) -> Path | None:
    """The folder of real deck ``name``, or ``None`` where this machine does not have it.

    >>> real_deck_folder("no-such-deck") is None
    True
    """
    root = Path(environment().decks or Path(__file__).resolve().parents[2].parent / "shared" / "decks")
    folder = root / name
    return folder if (folder / "GK.png").is_file() else None
