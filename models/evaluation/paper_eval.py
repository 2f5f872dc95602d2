"""Decks printed on papers outside training's palette: what an unusual paper alone costs the recogniser.

Each paper deck is a generated style in the training fonts with no printed-deck traits, drawn
twice with every other choice the same: once on its own papers (training's ranges) and once on
far papers (:mod:`sisepai.datasets.design.far_papers`: at least ΔE00 10 from every training paper of
the suit as printed, the only thing held out; training's camera tints its papers near them, see
:mod:`.held_out_eval`). The same scenes of both are read zero-shot; the difference in
F1 is the cost of the paper. Each far-paper deck is then enrolled from its faces, as
``sisepai deck add`` would (a fixed :data:`~.deck_eval.MEASURE_ENROL_STEPS` steps), and read again.

``--split test`` (the default) writes ``benchmarks/results/paper_eval.json`` once per model
version; ``--split tune`` draws other decks, papers and scenes (``datasets.design.splits.PAPER_SEEDS``).

Run: ``python -m sisepai.models.evaluation.paper_eval WORK [--split test] [--scenes 30] [--no-enrol]``; every step is
kept in WORK and skipped when done.

>>> own, far, colours = paper_decks(0, "tune", width=40)
>>> own.codes == far.codes, sorted(colours)
(True, ['G', 'R', 'W', 'Y'])
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from sisepai.datasets.design.far_papers import SUITS, distances, far_papers
from sisepai.datasets.design.render import DeckStyle
from sisepai.datasets.design.splits import PAPER_DECKS, PAPER_SEEDS
from sisepai.datasets.design.standin import scanned_face
from sisepai.engine.cards import CARD_CODES
from sisepai.faces.deck import DeckFaces
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS
from sisepai.vision.recognition.recognize import Recognizer

from ..enrolment.enrol import EnrolOptions, adapt_reader
from .deck_eval import MEASURE_ENROL_STEPS, _sum_layouts, write_scenes
from .evaluate import evaluate_recognizer
from .records import add_again_option, at_defaults, begin_test, write_record


def paper_decks(index: int, split: str = "test", width: int = 120):
    """Paper deck ``index`` of ``split``: its faces on its own papers, the same faces on far papers
    (two :class:`~sisepai.faces.deck.DeckFaces`), and the far papers by suit (RGB)."""

    seed = PAPER_SEEDS[split]
    style = DeckStyle.random(np.random.default_rng([seed, index]), "train", printed=False)
    far = {s: far_papers(s, PAPER_DECKS[split], seed)[index] for s in SUITS}

    def faces(deck_style: DeckStyle) -> DeckFaces:
        return DeckFaces({code: scanned_face(code, deck_style, width) for code in CARD_CODES})

    return faces(style), faces(replace(style, palette=style.palette | far)), far


def run(work: Path, split: str, scenes: int, enrol: bool = True) -> dict:
    """Read ``scenes`` scenes of every paper deck of ``split``, on its own and on far papers, and
    (``enrol``) the far-paper scenes again with the far-paper deck enrolled."""

    recognizer = Recognizer.load()
    own_results, far_results, enrolled_results, per_deck = [], [], [], {}
    for k in range(PAPER_DECKS[split]):
        name = f"{split}-{k}"
        own, far, colours = paper_decks(k, split)
        results = {}
        for kind, deck in (("own", own), ("far", far)):
            faces = work / "faces" / f"{name}-{kind}"
            if not faces.is_dir():
                deck.save(faces)
            # the same seed for both: the same scenes, cards and camera, only the papers differ
            data = write_scenes(faces, work / "scenes" / f"{name}-{kind}", scenes, PAPER_SEEDS[split] + 10 + k)
            results[kind] = evaluate_recognizer(recognizer, data)
        if enrol:
            weights = work / "readers" / f"{name}-far.pt"
            if not weights.exists():
                weights.parent.mkdir(parents=True, exist_ok=True)
                adapt_reader(DeckFaces.load(work / "faces" / f"{name}-far"), DEFAULT_WEIGHTS, weights,
                             EnrolOptions(steps=MEASURE_ENROL_STEPS))
            results["enrolled"] = evaluate_recognizer(Recognizer.load(reader_weights=weights),
                                                      work / "scenes" / f"{name}-far")
            enrolled_results.append(results["enrolled"])
        own_results.append(results["own"])
        far_results.append(results["far"])
        per_deck[name] = {"papers": {s: list(rgb) for s, rgb in colours.items()},
                          "least_delta_e_to_training": {s: round(distances(rgb)[s], 1) for s, rgb in colours.items()},
                          "own_papers": _sum_layouts([results["own"]]), "far_papers": _sum_layouts([results["far"]])}
        if enrol:
            per_deck[name]["far_papers_enrolled"] = _sum_layouts([results["enrolled"]])
        print(name, json.dumps(per_deck[name]), flush=True)
    return {"split": split, "decks": len(per_deck), "scenes_per_deck": scenes,
            "own_papers": _sum_layouts(own_results), "far_papers": _sum_layouts(far_results),
            **({"far_papers_enrolled": _sum_layouts(enrolled_results), "enrol_steps": MEASURE_ENROL_STEPS} if enrol else {}),
            "least_delta_e_to_training": min(v for d in per_deck.values() for v in d["least_delta_e_to_training"].values()),
            "per_deck": per_deck}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.evaluation.paper_eval", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path, help="a folder for the decks' faces and scenes (kept, and reused when run again)")
    p.add_argument("--split", choices=("tune", "test"), default="tune",
                   help="which decks, papers and scenes: tune (default) or test (read only on purpose; with the defaults, writes the record)")
    p.add_argument("--scenes", type=int, default=30, help="scenes a deck, each read on both papers (default 30)")
    p.add_argument("--no-enrol", action="store_true",
                   help="only zero-shot: skip enrolling the far-paper decks (about 5 minutes a deck on 2 cores)")

    add_again_option(p)
    args = p.parse_args(argv)
    if args.scenes < 1:
        p.error("--scenes must be at least 1")

    recorded = args.split == "test" and at_defaults(p, args, ("scenes", "no_enrol"))
    key = begin_test("paper_eval", None, PAPER_SEEDS["test"], args.again) if args.split == "test" else None  # any size reads it
    summary = run(args.work, args.split, args.scenes, enrol=not args.no_enrol)
    print(json.dumps({k: v for k, v in summary.items() if k != "per_deck"}, indent=1))
    if args.split == "test" and not recorded:
        print("not recorded: the test record is made with the default scenes, enrolment included")
    elif recorded:
        path = write_record("paper_eval", "python -m sisepai.models.evaluation.paper_eval WORK --split test",
                            {k: v for k, v in summary.items() if k != "split"}, split="test",
                            options={"scenes": args.scenes, "enrol": not args.no_enrol}, key=key, again=args.again)
        print(f"record: {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
