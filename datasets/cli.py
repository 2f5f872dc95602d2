"""``sisepai dataset``: generate, preview and count synthetic labelled scenes.

This module imports only the standard library at load time, so ``sisepai --help`` stays fast
and works without the vision extra; each command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sisepai.engine.errors import SisepaiError

EPILOG = """\
examples:
  sisepai dataset generate --out data/cards --n 2000 --seed 1 --workers 2
  sisepai dataset generate --out data/test --n 300 --seed 99 --fonts holdout --val 0
  sisepai dataset generate --out part3 --n 10000 --seed 1 --shard 3/8   # one of 8 machines
  sisepai dataset preview data/cards --out sheet.png
  sisepai dataset stats data/cards

The same seed gives byte-identical files whatever the worker count or sharding: scene i depends
only on (seed, i) and the options. --shard K/N makes scene i when i mod N == K-1.
"""


def require_vision() -> None:
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
        import PIL  # noqa: F401
    except ModuleNotFoundError as exc:
        raise SisepaiError(f"this command needs the vision extra ({exc.name} is missing): "
                           "pip install 'sisepai[vision]'") from None


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, got {text!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (64 to 8192 a side)")
    return w, h


def _shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"shard must look like 3/8, got {text!r}") from None
    if not (n >= 1 and 1 <= k <= n):
        raise argparse.ArgumentTypeError(f"shard {k}/{n}: K must be 1 to N")
    return k, n


def _layouts(text: str) -> tuple[str, ...]:
    from sisepai.datasets.scene import LAYOUTS

    names = tuple(x.strip() for x in text.split(",") if x.strip())
    bad = [x for x in names if x not in LAYOUTS]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown layout(s) {', '.join(bad) or text!r}; choose from {', '.join(LAYOUTS)}")
    return names


def register(sub: argparse._SubParsersAction) -> None:
    ds = sub.add_parser("dataset", help="generate labelled synthetic scenes (YOLO OBB + JSON ground truth)",
                        description="Synthetic labelled Four Color Cards scenes.", epilog=EPILOG,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    dsub = ds.add_subparsers(dest="dataset_command", metavar="COMMAND", parser_class=sub._parser_class)
    ds.set_defaults(func=lambda args: (ds.print_help(), 2)[1])

    p = dsub.add_parser("generate", help="render N scenes into an ultralytics OBB dataset",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("--out", required=True, type=Path, metavar="DIR")
    p.add_argument("--n", type=int, required=True, metavar="N", help="number of scenes (indices 0..N-1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=0, metavar="W", help="processes (default: all cores)")
    p.add_argument("--layouts", type=_layouts, default=("table", "fan", "hand"), metavar="LIST",
                   help="comma-separated: table, fan, hand (default all)")
    p.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH")
    p.add_argument("--val", type=float, default=0.1, metavar="FRACTION", help="share of scenes in val (default 0.1)")
    p.add_argument("--shard", type=_shard, default=(1, 1), metavar="K/N")
    p.add_argument("--crops", action="store_true", help="also export straightened card-end crops (64x64 PNG)")
    p.add_argument("--fonts", choices=("train", "holdout", "honest", "all"), default="train",
                   help="font families to draw from: train (default), holdout, or honest (the held-out faces "
                        "that are no near-copy of a training face), for testing")
    p.add_argument("--deck-faces", type=Path, default=None, metavar="DIR",
                   help="lay a real deck's face images (GK.png ... RP.png, J.png) instead of generated styles")
    p.add_argument("--max-tilt", type=float, default=45.0, metavar="DEG", help="largest camera tilt (default 45)")
    p.set_defaults(func=_generate)

    p = dsub.add_parser("preview", help="draw the labels of some scenes on a contact sheet (PNG)")
    p.add_argument("dir", type=Path, metavar="DIR")
    p.add_argument("--out", type=Path, default=None, metavar="PNG", help="default: DIR/preview.png")
    p.add_argument("--n", type=int, default=12, help="scenes on the sheet (default 12)")
    p.add_argument("--layout", default=None, help="only scenes of this layout")
    p.set_defaults(func=_preview)

    p = dsub.add_parser("stats", help="counts per class, layout and visibility")
    p.add_argument("dir", type=Path, metavar="DIR")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_stats)


def _generate(args) -> int:
    require_vision()
    import os
    from concurrent.futures import ProcessPoolExecutor

    from sisepai.datasets.export import GenerateOptions, generate_one, prepare_folders
    from sisepai.engine.progress import Progress

    if args.n < 1:
        raise SisepaiError("--n must be at least 1")
    if not 0.0 <= args.val <= 1.0:
        raise SisepaiError("--val must be between 0 and 1")
    k, n_shards = args.shard
    indices = [i for i in range(args.n) if i % n_shards == k - 1]
    deck_faces = None
    if args.deck_faces is not None:
        from sisepai.datasets.deck_faces import DeckFaces

        DeckFaces.load(args.deck_faces)  # checked here, so a bad folder fails before any worker starts
        deck_faces = str(args.deck_faces.resolve())
    opts = GenerateOptions(seed=args.seed, size=args.size, layouts=args.layouts, val=args.val, crops=args.crops,
                           font_split=args.fonts, max_tilt=args.max_tilt, deck_faces=deck_faces)
    out: Path = args.out
    try:
        prepare_folders(out)
    except OSError as exc:
        raise SisepaiError(f"cannot write to {out}: {exc}") from None
    workers = args.workers or os.cpu_count() or 1
    bar = Progress(len(indices), "scenes")
    summary = {"train": 0, "val": 0, "labelled": 0, "crops": 0}
    if workers == 1:
        results = (generate_one(out, i, opts) for i in indices)
        for r in results:
            _tally(summary, r)
            bar.update()
    else:
        with ProcessPoolExecutor(workers, initializer=_init_worker) as pool:
            for r in pool.map(generate_one, [out] * len(indices), indices, [opts] * len(indices), chunksize=4):
                _tally(summary, r)
                bar.update()
    bar.close()
    print(f"wrote {len(indices)} scenes to {out} ({summary['train']} train, {summary['val']} val), "
          f"{summary['labelled']} labelled cards" + (f", {summary['crops']} crops" if args.crops else ""))
    return 0


def _init_worker() -> None:
    import cv2

    cv2.setNumThreads(1)


def _tally(summary: dict, r: dict) -> None:
    summary[r["split"]] += 1
    summary["labelled"] += r["labelled"]
    summary["crops"] += r["crops"]


def _load_records(folder: Path) -> list[dict]:
    if not (folder / "data.yaml").is_file():
        raise SisepaiError(f"{folder} is not a sisepai dataset (no data.yaml); make one with: sisepai dataset generate")
    records = []
    for path in sorted((folder / "annotations").glob("*/*.json")):
        try:
            records.append(json.loads(path.read_text()))
        except json.JSONDecodeError as exc:
            raise SisepaiError(f"{path} is not valid JSON: {exc}") from None
    if not records:
        raise SisepaiError(f"{folder} holds no scenes")
    return records


def _preview(args) -> int:
    require_vision()
    from sisepai.datasets.preview import contact_sheet

    records = _load_records(args.dir)
    if args.layout:
        records = [r for r in records if r["layout"] == args.layout]
    out = args.out or args.dir / "preview.png"
    contact_sheet(args.dir, records[: args.n], out)
    print(f"wrote {out}")
    return 0


def _stats(args) -> int:
    from collections import Counter

    records = _load_records(args.dir)
    per_class, per_layout, vis, fonts = Counter(), Counter(), Counter(), Counter()
    labelled = hidden = 0
    for r in records:
        per_layout[r["layout"]] += 1
        fonts[r["deck"]["font"]] += 1
        for c in r["cards"]:
            if not c["face_up"]:
                per_class["back"] += 1
                continue
            bucket = min(int(c["char_visible"] * 10), 9) / 10
            vis[f"{bucket:.1f}-{bucket + 0.1:.1f}"] += 1
            if c["labelled"]:
                per_class[c["card"]] += 1
                labelled += 1
            else:
                hidden += 1
    stats = {"scenes": len(records), "layouts": dict(per_layout), "labelled_cards": labelled,
             "unlabelled_face_up_cards": hidden, "per_class": dict(sorted(per_class.items())),
             "char_visible_histogram": dict(sorted(vis.items())), "fonts": dict(fonts.most_common())}
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
        return 0
    print(f"{len(records)} scenes: " + ", ".join(f"{k} {v}" for k, v in sorted(per_layout.items())))
    print(f"{labelled} labelled cards, {hidden} face-up cards left unlabelled (character under half visible)")
    print("per class: " + "  ".join(f"{k} {v}" for k, v in sorted(per_class.items())))
    print("character visibility: " + "  ".join(f"{k}: {v}" for k, v in sorted(vis.items())))
    print(f"{len(fonts)} font families")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(2)
