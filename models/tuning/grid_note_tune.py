"""Choose how sure the shipped reader must be before a cut grid's cell gets a note
(:data:`sisepai.vision.decks.grid.NOTE_CONFIDENCE`), on tuning grids only.

Each tuning deck (the stand-in tuning decks and the real tuning deck) is photographed in its
grid on every kind of table (:func:`sisepai.datasets.scenes.grid_photo.grid_photo`): laid right, and
laid with two cards swapped (what a note is for). Each cut is read once; every rule and threshold is then applied to the same readings: a note
on a grid laid right is a false doubt, a wrong cell with no note a missed one. The choice: the
fewest false doubts, then the most wrong cells caught.

``python -m sisepai.models.tuning.grid_note_tune`` prints the table; ``--out FILE`` keeps it (JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sisepai.datasets.design.splits import REAL_DECKS, REAL_SCENE_SEEDS, STANDIN_DECKS, real_deck_folder
from sisepai.datasets.design.standin import standin_deck
from sisepai.datasets.scenes.grid_photo import TABLE_KINDS, grid_photo
from sisepai.faces.deck import DeckError, DeckFaces
from sisepai.vision.decks.grid import cell_is_doubtful, cell_readings, cut_grid
from sisepai.vision.recognition.recognize import Recognizer

THRESHOLDS = (0.8, 0.9, 0.95, 0.97, 0.99, 0.995)
SWAPS = (("GP", "GK"), ("YR", "YH"), ("WC", "RC"))
"""The cards swapped in the grids laid wrong, one pair a deck: a kind for a kind of the same suit,
and a suit for a suit."""


def tuning_decks() -> dict:
    """The tuning split's decks as faces: the stand-in tuning decks and the real tuning decks here."""

    decks = {f"standin-{k}": standin_deck(k, "tune") for k in range(STANDIN_DECKS["tune"])}
    for name in REAL_DECKS["tune"]:
        folder = real_deck_folder(name)
        if folder is not None:
            decks[name] = DeckFaces.load(folder)
    return decks


def cut_readings(deck, table: str, seed: int, recognizer, swap: tuple[str, str] | None = None) -> dict | None:
    """Each cell's reading in a cut of ``deck``'s grid photographed on ``table``, with the faces of
    ``swap`` exchanged; None when the cut fails."""

    faces = dict(deck.faces)
    if swap:
        faces[swap[0]], faces[swap[1]] = deck.faces[swap[1]], deck.faces[swap[0]]
    photo = grid_photo(DeckFaces(faces), table, seed=seed)
    try:
        cut = cut_grid([photo.image], recognizer)
    except DeckError:
        return None
    return cell_readings([photo.image], cut.outlines, recognizer)


RULES = ("kind", "swap")
"""When a cell read surely as another kind gets a note: ``kind``, always (the rule before);
``swap``, only when that kind's own cell does not read as it either
(:func:`sisepai.vision.decks.grid.cell_is_doubtful`)."""


def noted(read: dict, code: str, threshold: float, rule: str) -> bool:
    """Whether ``code``'s cell gets a note under ``rule`` (see :data:`RULES`)."""

    got, sure = read[code]
    return got != code and sure >= threshold if rule == "kind" else cell_is_doubtful(read, code, threshold)


def sweep(seed: int | None = None, progress=print) -> dict:
    """Every rule and threshold: false doubts (grids laid right), and wrong cells caught (two cards
    swapped)."""

    seed = REAL_SCENE_SEEDS["tune"] + 200 if seed is None else seed  # the tuning decks' grid photos (splits)
    recognizer = Recognizer.load()
    right, wrong = [], []
    for (name, deck), swap in zip(tuning_decks().items(), SWAPS * 3):
        for table in TABLE_KINDS:
            progress(f"grid-note-tune: {name} on {table}")
            laid = cut_readings(deck, table, seed, recognizer)
            if laid is not None:
                right.append(laid)
            swapped = cut_readings(deck, table, seed, recognizer, swap=swap)
            if swapped is not None:
                wrong.append((swapped, swap))
    rows = []
    for rule in RULES:
        for th in THRESHOLDS:
            false = sum(noted(read, code, th, rule) for read in right for code in read)
            cells = sum(len(bad) for _, bad in wrong)
            caught = sum(noted(read, c, th, rule) for read, bad in wrong for c in bad if c in read)
            rows.append({"rule": rule, "threshold": th, "false_doubts": false, "grids": len(right),
                         "caught": caught, "wrong_cells": cells})
    # the fewest false doubts, then the most wrong cells caught, then the lower threshold
    chosen = min(rows, key=lambda r: (r["false_doubts"], -r["caught"], r["threshold"]))
    return {"seed": seed, "rows": rows, "chosen": {"rule": chosen["rule"], "threshold": chosen["threshold"]}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.grid_note_tune", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None, help="the grid photos' seed (default: the tuning split's)")
    p.add_argument("--out", type=Path, help="write the table here (JSON)")
    args = p.parse_args(argv)
    out = sweep(args.seed)
    for r in out["rows"]:
        print(f"{r['rule']:12s} note at {r['threshold']:<6} false doubts {r['false_doubts']:3d} on {r['grids']} grids "
              f"laid right; wrong cells caught {r['caught']} of {r['wrong_cells']}")
    print(f"chosen: {out['chosen']}")
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
