"""What the test decks hold out *after the camera*: the distances the network could see.

Training's scenes pass through a camera (:mod:`sisepai.datasets.scenes.camera`) whose exposure and white
balance scale each colour. A test paper held out by its printed colour may still be a colour
training's frames show once the camera has tinted a training paper. This measures, for the test
split's decks:

- **far papers** (:mod:`sisepai.datasets.design.far_papers`, the paper decks of ``paper_eval``): each
  paper's least ΔE00 to a training paper of its suit as printed, and after training's camera
  (:func:`~sisepai.datasets.design.far_papers.least_delta_e_after_camera`);
- **stand-in decks' papers** (:func:`sisepai.datasets.design.standin.standin_style`): the same two
  distances;
- **stand-in decks' proportions**: each deck's aspect against training's range (1:3 to 1:6.5),
  which a camera's tilt only widens.

The faces (fonts) are held out by ink overlap, measured on the faces themselves, before the camera
(``tests/datasets/design/test_standin.py`` on the rule, :mod:`sisepai.datasets.design.font_overlap`); blur and a
small size bring any two faces nearer, so no claim is made for them after the camera.

    python -m sisepai.models.evaluation.held_out_eval [--split test]

writes ``benchmarks/results/held_out.json`` (the tuning split: ``--split tune``, printed only).
"""

from __future__ import annotations

import argparse
import json
import sys

from sisepai.datasets.design.far_papers import SUITS, distances, far_papers, least_delta_e_after_camera
from sisepai.datasets.design.render import ASPECTS
from sisepai.datasets.design.splits import PAPER_DECKS, PAPER_SEEDS, STANDIN_DECKS
from sisepai.datasets.design.standin import standin_style
from sisepai.datasets.scenes.scene import GENERATOR_VERSION

from .records import add_again_option, begin_test, write_record


def measure(split: str = "test") -> dict:
    """The distances of ``split``'s held-out papers and proportions, as printed and after the camera.

    >>> out = measure("tune")
    >>> out["far_papers"]["least_after_camera"] < out["far_papers"]["least_printed"]
    True
    """

    def papers(colours: list[tuple[str, tuple[int, int, int]]]) -> dict:
        printed = [distances(rgb)[suit] for suit, rgb in colours]
        after = [least_delta_e_after_camera(rgb, suit) for suit, rgb in colours]
        by_suit = {s: round(max(a for (suit, _), a in zip(colours, after) if suit == s), 2)
                   for s in SUITS if any(suit == s for suit, _ in colours)}
        return {"colours": len(colours), "least_printed": round(min(printed), 2),
                "least_after_camera": round(min(after), 2), "most_after_camera": round(max(after), 2),
                "most_after_camera_by_suit": by_suit}

    far = [(s, rgb) for s in SUITS for rgb in far_papers(s, PAPER_DECKS[split], PAPER_SEEDS[split])]
    styles = [standin_style(k, split)[0] for k in range(STANDIN_DECKS[split])]
    standin = [(s, tuple(int(c) for c in style.palette[s])) for style in styles for s in SUITS]
    aspects = [round(style.aspect, 2) for style in styles]
    return {"far_papers": papers(far), "standin_papers": papers(standin),
            "standin_aspects": {"decks": aspects, "inside_training": all(ASPECTS[0] <= a <= ASPECTS[1] for a in aspects)}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.evaluation.held_out_eval", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", choices=("tune", "test"), default="tune", help="whose decks (default tune; test only on purpose)")

    add_again_option(p)
    args = p.parse_args(argv)
    models = {"generator": GENERATOR_VERSION}
    key = begin_test("held_out", models, None, args.again) if args.split == "test" else None
    figures = measure(args.split)
    if args.split == "test":
        write_record("held_out", "python -m sisepai.models.evaluation.held_out_eval", figures, split="test",
                     models=models, key=key, again=args.again)
    print(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
