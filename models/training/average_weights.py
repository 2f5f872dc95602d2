"""Two readers' weights averaged: ``(1 - share) * base + share * tuned``, layer by layer (the
weight-space ensemble of Wortsman et al., "Robust fine-tuning of zero-shot models", CVPR 2022).
A fine-tune that learned something new but lost some of what the base read well often keeps most
of both at a share between 0 and 1. Everything but the weights (classes, colour, calibration
crops) is the tuned reader's.

    python -m sisepai.models.training.average_weights vision/weights/reader.pt runs/rd26/reader/reader.pt \\
        --share 0.5 --out runs/rd26w50/reader/reader.pt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sisepai.engine.arguments import number_in


def averaged(base: dict, tuned: dict, share: float) -> dict:
    """``tuned``'s checkpoint with every floating-point tensor of its ``state_dict`` moved back
    toward ``base``'s: ``(1 - share) * base + share * tuned`` (counters such as batch norm's
    ``num_batches_tracked`` stay the tuned reader's).

    >>> import torch
    >>> a = {"arch": "v2", "state_dict": {"w": torch.zeros(2), "n": torch.tensor(3)}}
    >>> b = {"arch": "v2", "state_dict": {"w": torch.ones(2), "n": torch.tensor(5)}}
    >>> out = averaged(a, b, 0.25)["state_dict"]
    >>> out["w"].tolist(), int(out["n"])
    ([0.25, 0.25], 5)
    """
    if base.get("arch") != tuned.get("arch") or set(base["state_dict"]) != set(tuned["state_dict"]):
        raise SystemExit("the two readers are not the same network: their weights cannot be averaged")
    state = {k: (1 - share) * base["state_dict"][k] + share * v if v.is_floating_point() else v
             for k, v in tuned["state_dict"].items()}
    return {**tuned, "state_dict": state, "averaged": {"share": share}}


def main(argv: list[str] | None = None) -> int:
    import torch

    p = argparse.ArgumentParser(prog="python -m sisepai.models.training.average_weights",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("base", type=Path, help="the reader fine-tuning started from")
    p.add_argument("tuned", type=Path, help="the fine-tuned reader")
    p.add_argument("--share", type=number_in(float, 0.0, 1.0, "{text!r} is not a number", "{text} is not between 0 and 1"),
                   default=0.5, help="the tuned reader's share (default 0.5)")
    p.add_argument("--out", type=Path, required=True, help="where the averaged reader is written")
    args = p.parse_args(argv)
    for path in (args.base, args.tuned):
        if not path.is_file():
            p.error(f"no such reader: {path}")
    out = averaged(torch.load(args.base, map_location="cpu", weights_only=False),
                   torch.load(args.tuned, map_location="cpu", weights_only=False), args.share)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(out, args.out)
    print(f"wrote {args.out}: {1 - args.share:g} x {args.base} + {args.share:g} x {args.tuned}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
