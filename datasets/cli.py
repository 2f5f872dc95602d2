"""``sisepai dataset``: generate, preview and count synthetic labelled scenes.

This module imports only the standard library at load time, so ``sisepai --help`` stays fast
and works without the vision extra; each command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from sisepai.datasets.export.dataset_card import dataset_stats, write_card
from sisepai.datasets.export.formats import SPLITS, check_formats, merge, scene_records, write_formats
from sisepai.engine.arguments import number_in
from sisepai.engine.errors import SisepaiError
from sisepai.engine.extras import require_vision
from sisepai.engine.progress import Progress
from sisepai.workers.pool import worker_pool

EPILOG = """\
examples:
  sisepai dataset generate --out data/cards --n 2000 --seed 1 --workers 2
  sisepai dataset generate --out data/test --n 300 --seed 99 --fonts holdout --val 0
  sisepai dataset generate --out part3 --n 10000 --seed 1 --shard 3/8   # one of 8 machines
  sisepai dataset flat --out data/flat --n 200 --seed 4   # grid photos and scanned sheets
  sisepai dataset preview data/cards --out sheet.png
  sisepai dataset stats data/cards

The same seed gives byte-identical files whatever the worker count or sharding: scene i depends
only on (seed, i) and the options. --shard K/N makes scene i when i mod N == K-1.
"""


PRINTED_CHOICES = {"auto": None, "on": True, "off": False}
"""``--printed`` -> :attr:`~.export.GenerateOptions.printed`."""
FAMILY_NAMES = ("vietnamese", "taiwanese", "singapore")
"""``--family``'s choices: :data:`sisepai.datasets.design.families.FAMILIES`, named here so that ``--help``
needs no OpenCV (``tests/datasets/design/test_families.py`` checks the two agree)."""
FREE_DESIGN = "free"
"""``--family free``: every deck a free design (:mod:`sisepai.datasets.design.free_designs`)."""


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


def _names(text: str, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    """A comma-separated list of ``known`` names, or a one-line error naming the unknown ones.

    >>> _names("a, b", ("a", "b", "c"), "letter")
    ('a', 'b')
    """
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    bad = [x for x in names if x not in known]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown {what}(s) {', '.join(bad) or text!r}; choose from {', '.join(known)}")
    return names


def _layouts(text: str) -> tuple[str, ...]:
    from sisepai.datasets.scenes.scene import ALL_LAYOUTS  # lazy: NumPy, OpenCV, Pillow

    return _names(text, ALL_LAYOUTS, "layout")


def _scripts(text: str) -> tuple[str, ...]:
    from sisepai.datasets.design.scripts import ALL_SCRIPTS  # lazy: NumPy, OpenCV

    return _names(text, ALL_SCRIPTS, "script")


_share = number_in(float, 0.0, 1.0, "{text!r} is not a number", "{text} is not a share between 0 and 1")


def register(sub: argparse._SubParsersAction) -> None:
    ds = sub.add_parser("dataset", help="generate labelled synthetic scenes (YOLO OBB, COCO, Hugging Face), merge shards",
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
                   help="comma-separated: table, fan, hand, heap (default table,fan,hand)")
    p.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH")
    p.add_argument("--val", type=float, default=0.1, metavar="FRACTION", help="share of scenes in val (default 0.1)")
    p.add_argument("--shard", type=_shard, default=(1, 1), metavar="K/N")
    p.add_argument("--crops", action="store_true", help="also export straightened card-end crops (64x64 PNG)")
    p.add_argument("--force", action="store_true",
                   help="write even when the dataset's estimated size (about 0.15 MB a 1280x720 scene, 0.3 MB more "
                        "with --crops) is more than the disk has free")
    p.add_argument("--fonts", choices=("train", "holdout", "honest", "all"), default="train",
                   help="font families to draw from: train (default), holdout, or honest (the held-out faces "
                        "that are no near-copy of a training face), for testing")
    p.add_argument("--deck-faces", type=Path, default=None, metavar="DIR",
                   help="lay a real deck's face images (GK.png ... RP.png, J.png) instead of generated styles")
    p.add_argument("--max-tilt", type=float, default=45.0, metavar="DEG", help="largest camera tilt (default 45)")
    p.add_argument("--printed", choices=("auto", "on", "off"), default="auto",
                   help="printed-deck traits (printed papers, inner borders, a word between the ends, brush "
                        "strokes, print flaws): auto (default) draws them for the training fonts only; off "
                        "gives the plain generated styles, e.g. to replay them beside printed ones in training")
    p.add_argument("--family", choices=(*FAMILY_NAMES, FREE_DESIGN), default=None,
                   help="make every deck a printing of this family (printed traits on, in any --fonts), e.g. "
                        "to see how a model reads Taiwanese-style decks, or free: every deck a design beyond "
                        "the families, each trait drawn on its own; default: half the printed decks belong "
                        "to a family drawn at random, and some of the rest are free designs")
    p.add_argument("--without-family", choices=FAMILY_NAMES, default=None, metavar="FAMILY",
                   help="draw no deck of this family: a training set that leaves one family out, so a candidate "
                        "can be measured on a printing it never saw (python -m sisepai.models.tuning.choose "
                        "--left-out FAMILY)")
    p.add_argument("--photos", type=Path, default=None, metavar="DIR",
                   help="a folder of photographs (JPEG, PNG; subfolders too) that a quarter of the tables may be, "
                        "besides scikit-image's samples: real surfaces the detector learns to ignore, e.g. "
                        "/usr/share/backgrounds/mate/nature after apt-get install mate-backgrounds")
    p.add_argument("--scripts", type=_scripts, default=None, metavar="LIST",
                   help="the scripts a printed deck beyond the families may be drawn in, comma-separated: round, "
                        "clerical, seal (the default three), nib (a broad pen's thick and thin), flared (thin "
                        "strokes with heavy ends); see datasets/design/scripts.py")
    p.add_argument("--script-share", type=_share, default=None, metavar="P",
                   help="the share of those decks drawn in one of --scripts (default 0.35)")
    p.add_argument("--format", default="yolo-obb", metavar="LIST",
                   help="label formats, comma-separated: yolo-obb (ultralytics OBB labels, the default), coco "
                        "(annotations/instances_{train,val}.json), hf (a Hugging Face imagefolder: "
                        "images/{train,val}/metadata.jsonl). The JSON ground truth and a dataset card "
                        "(README.md) are always written")
    p.set_defaults(func=_generate)

    p = dsub.add_parser("merge", help="join the shards of one generation (--shard K/N) into one dataset",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        epilog="""example, three machines then one:
  sisepai dataset generate --out part1 --n 30000 --seed 1 --shard 1/3 --format coco
  sisepai dataset generate --out part2 --n 30000 --seed 1 --shard 2/3 --format coco
  sisepai dataset generate --out part3 --n 30000 --seed 1 --shard 3/3 --format coco
  sisepai dataset merge data/cards part1 part2 part3
The result is byte-identical to generating the 30000 scenes on one machine.""")
    p.add_argument("out", type=Path, metavar="OUT")
    p.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR")
    p.set_defaults(func=_merge)

    p = dsub.add_parser("flat", help="grid photos and scanned sheets of generated decks, labelled for the detector",
                        description="Flat pictures of generated training decks: phone photos of the enrolment grid "
                        "on eight kinds of table, and flatbed scans of 3-14 cards. The detector learns to find every "
                        "card there, and none in a table's pattern or on a scanner bed's margin.")
    p.add_argument("--out", type=Path, required=True, metavar="DIR")
    p.add_argument("--n", type=int, required=True, metavar="N", help="pictures (half grids, half sheets)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--val", type=float, default=0.05, metavar="FRACTION", help="share in val (default 0.05)")
    p.add_argument("--workers", type=int, default=0, metavar="W", help="processes (default: all cores)")
    p.set_defaults(func=_flat)

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

    from sisepai.datasets.export.writer import (  # lazy: NumPy, OpenCV, Pillow
        GenerateOptions,
        generate_one,
        prepare_folders,
    )

    check_count(args.n)
    if args.family and args.family == args.without_family:
        raise SisepaiError(f"--family {args.family} and --without-family {args.without_family} contradict each other")
    if not 0.0 <= args.val <= 1.0:
        raise SisepaiError("--val must be between 0 and 1")
    k, n_shards = args.shard
    indices = range(k - 1, args.n, n_shards)  # this shard's scenes, never listed whole
    deck_faces = None
    if args.deck_faces is not None:
        from sisepai.faces.deck import DeckFaces  # lazy: NumPy, OpenCV

        DeckFaces.load(args.deck_faces)  # checked here, so a bad folder fails before any worker starts
        deck_faces = str(args.deck_faces.resolve())

    photos = None
    if args.photos is not None:
        from sisepai.datasets.scenes.backgrounds import PHOTO_SUFFIXES, folder_photos  # lazy: NumPy, OpenCV

        photos = str(args.photos.resolve())
        if not folder_photos(photos):
            raise SisepaiError(f"--photos {args.photos}: no {', '.join(PHOTO_SUFFIXES)} files in that folder")
    formats = check_formats(args.format)
    check_disk(args.out, estimate_bytes(len(indices), args.size, args.crops), args.force)
    opts = GenerateOptions(seed=args.seed, size=args.size, layouts=args.layouts, val=args.val, crops=args.crops,
                           font_split=args.fonts, max_tilt=args.max_tilt, deck_faces=deck_faces,
                           yolo="yolo-obb" in formats, printed=PRINTED_CHOICES[args.printed],
                           family=args.family, without_family=args.without_family, photos=photos,
                           scripts=args.scripts, script_share=args.script_share)
    out: Path = args.out
    try:
        prepare_folders(out, yolo=opts.yolo)
    except OSError as exc:
        raise SisepaiError(f"cannot write to {out}: {exc}") from None
    meta = _meta(args, formats, deck_faces, photos)
    (out / "dataset.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    workers = args.workers or os.cpu_count() or 1
    bar = Progress(len(indices), "scenes")
    summary = {"train": 0, "val": 0, "labelled": 0, "crops": 0}
    if workers == 1:
        results = (generate_one(out, i, opts) for i in indices)
        for r in results:
            _tally(summary, r)
            bar.update()
    else:
        with worker_pool(workers) as pool:
            for start in range(0, len(indices), BATCH):  # a batch at a time: work handed out stays bounded
                part = indices[start:start + BATCH]
                for r in pool.map(generate_one, [out] * len(part), part, [opts] * len(part), chunksize=4):
                    _tally(summary, r)
                    bar.update()
    bar.close()
    print(f"wrote {len(indices)} scenes to {out} ({summary['train']} train, {summary['val']} val), "
          f"{summary['labelled']} labelled cards" + (f", {summary['crops']} crops" if args.crops else ""))
    if n_shards > 1:
        print(f"shard {k}/{n_shards}: join the shards with sisepai dataset merge OUT SHARD_DIR... "
              "(it writes the COCO, Hugging Face and card files of the whole dataset)")
        return 0
    _finish(out, meta)
    return 0


MAX_SCENES = 10_000_000
"""The most scenes one command makes (shard a larger set over machines: ``--shard``)."""
BATCH = 4096
"""Scenes handed to the workers at a time."""


SCENE_BYTES_PER_PIXEL = 0.16
"""A generated scene's JPEG, bytes per pixel (measured: 136 KB a 1280x720 scene)."""
SCENE_LABEL_BYTES = 14_000
"""A scene's annotation and label files (measured: 13 KB)."""
SCENE_CROP_BYTES = 280_000
"""A scene's card-end crops with ``--crops`` (measured: 269 KB a mixed scene)."""


def estimate_bytes(scenes: int, size: tuple[int, int], crops: bool) -> int:
    """What ``scenes`` generated scenes of ``size`` take on disk, about.

    >>> round(estimate_bytes(1000, (1280, 720), crops=True) / 1e6)
    441
    """
    w, h = size
    return int(scenes * (SCENE_BYTES_PER_PIXEL * w * h + SCENE_LABEL_BYTES + (SCENE_CROP_BYTES if crops else 0)))


def check_writable(out: Path) -> None:
    """Refuse, in words, an output folder that cannot be made or written (before the disk is
    measured: a folder no one may write has no free space to speak of).

    >>> check_writable(Path("/proc/no-dataset-here"))
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: cannot write the dataset into /proc/no-dataset-here: /proc is not writable (...)
    """

    where = Path(out).resolve()
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        with tempfile.TemporaryFile(dir=where):  # nothing is left behind, written or refused
            pass
    except OSError as exc:
        raise SisepaiError(f"cannot write the dataset into {out}: {where} is not writable "
                           f"({exc.strerror or exc})") from None


def check_disk(out: Path, needed: int, force: bool = False) -> None:
    """Refuse, before anything is written, a dataset the disk under ``out`` cannot hold (with a
    tenth to spare); ``force`` writes anyway."""

    where = Path(out).resolve()
    while not where.exists() and where != where.parent:
        where = where.parent
    check_writable(out)
    free = shutil.disk_usage(where).free
    if needed * 1.1 > free and not force:
        raise SisepaiError(f"this dataset needs about {needed / 1e9:,.1f} GB and {where} has {free / 1e9:,.1f} GB free: "
                           "generate fewer scenes (or a --shard K/N per machine), or add --force to write anyway")


def check_count(n: int, what: str = "--n") -> None:
    """A clear error for a count of scenes or pictures that is not 1 to :data:`MAX_SCENES`.

    >>> check_count(99999999999999999999)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: --n is at most 10000000 scenes a command (give each machine a --shard K/N of a larger set)
    """
    if n < 1:
        raise SisepaiError(f"{what} must be at least 1")
    if n > MAX_SCENES:
        raise SisepaiError(f"{what} is at most {MAX_SCENES} scenes a command (give each machine a --shard K/N of a larger set)")


def _flat(args) -> int:
    require_vision()

    from sisepai.datasets.export.flat_photos import write_flat  # lazy: NumPy, OpenCV, Pillow

    check_count(args.n)
    if not 0.0 <= args.val <= 1.0:
        raise SisepaiError("--val must be between 0 and 1")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SisepaiError(f"cannot write to {args.out}: {exc}") from None
    indices = list(range(args.n))
    bar = Progress(args.n, "pictures")
    workers = args.workers or os.cpu_count() or 1
    kinds = [("grid", "sheet")[i % 2] for i in indices]
    if workers == 1:
        for i, kind in zip(indices, kinds):
            write_flat(args.out, i, args.seed, kind, args.val)
            bar.update()
    else:
        with worker_pool(workers) as pool:
            for _ in pool.map(write_flat, [args.out] * args.n, indices, [args.seed] * args.n, kinds,
                              [args.val] * args.n, chunksize=2):
                bar.update()
    bar.close()
    (args.out / "dataset.json").write_text(json.dumps(flat_meta(args.n, args.seed, args.val), indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.n} grid photos and scanned sheets to {args.out}")
    return 0


def flat_meta(n: int, seed: int, val: float) -> dict:
    """``dataset.json`` of a set of flat pictures: what made it. Its decks are generated styles
    (no real deck's faces), which training's check against the tuning decks reads here.

    >>> flat_meta(4, 1, 0.1)["deck_faces"] is None
    True
    """
    from sisepai.datasets.scenes.scene import GENERATOR_VERSION  # lazy: NumPy, OpenCV, Pillow

    return {"kind": "flat", "generator": GENERATOR_VERSION, "n": n, "seed": seed, "val": val, "deck_faces": None}


def _meta(args, formats: tuple[str, ...], deck_faces: str | None, photos: str | None) -> dict:
    """``dataset.json``: what made the dataset, the same for every shard of a generation."""
    from sisepai.datasets.scenes.scene import GENERATOR_VERSION  # lazy: NumPy, OpenCV, Pillow

    return {"generator": GENERATOR_VERSION, "n": args.n, "seed": args.seed, "layouts": list(args.layouts),
            "size": list(args.size), "val": args.val, "crops": bool(args.crops), "fonts": args.fonts,
            "max_tilt": args.max_tilt, "printed": args.printed, "family": args.family, "without_family": args.without_family, "formats": list(formats),
            **({"scripts": list(args.scripts)} if args.scripts else {}),
            **({"script_share": args.script_share} if args.script_share is not None else {}),
            "deck_faces": Path(deck_faces).name if deck_faces else None, "shard": list(args.shard),
            **({"photos": _photo_files(photos)} if photos else {}),
            **({"deck_prints": _deck_prints(deck_faces)} if deck_faces else {})}


def _photo_files(folder: str) -> list[str]:
    """The photographs a generation drew its photo tables from, by name under ``folder``."""
    from sisepai.datasets.scenes.backgrounds import folder_photos  # lazy: NumPy, OpenCV

    return [str(Path(p).relative_to(folder)) for p in folder_photos(folder)]


def _deck_prints(folder: str) -> dict[str, str]:
    """The prints of the faces a dataset lays (:mod:`.face_prints`): training refuses a tuning deck's by them."""
    from sisepai.datasets.design.face_prints import deck_prints, encode_prints  # lazy: NumPy, OpenCV
    from sisepai.faces.deck import DeckFaces  # lazy: NumPy, OpenCV

    return encode_prints(deck_prints(DeckFaces.load(folder).faces))


def _finish(out: Path, meta: dict) -> None:
    """The dataset-wide files: COCO and Hugging Face layouts, the card and its contact sheet."""

    records = {split: scene_records(out, split) for split in SPLITS}  # every scene's ground truth, read once
    write_formats(out, meta["formats"], records)
    write_card(out, meta, [r for split in SPLITS for r in records[split]])
    print(f"dataset card: {out / 'README.md'}")


def _merge(args) -> int:
    require_vision()

    for shard in args.shards:
        if not shard.is_dir():
            raise SisepaiError(f"{shard}: no such folder")
    if args.out.exists() and any(args.out.iterdir()):
        raise SisepaiError(f"{args.out} is not empty: merge into a new folder")
    meta = merge(args.out, args.shards)
    print(f"merged {len(args.shards)} shards into {args.out}: {meta['n']} scenes")
    _finish(args.out, meta)
    return 0


def _tally(summary: dict, r: dict) -> None:
    summary[r["split"]] += 1
    summary["labelled"] += r["labelled"]
    summary["crops"] += r["crops"]


def _load_records(folder: Path) -> list[dict]:
    if not (folder / "data.yaml").is_file() and not (folder / "dataset.json").is_file():
        raise SisepaiError(f"{folder} is not a sisepai dataset (no dataset.json or data.yaml); make one with: "
                           "sisepai dataset generate")
    records = []
    for path in sorted((folder / "annotations").glob("*/[0-9]*.json")):
        try:
            records.append(json.loads(path.read_text()))
        except json.JSONDecodeError as exc:
            raise SisepaiError(f"{path} is not valid JSON: {exc}") from None
    if not records:
        raise SisepaiError(f"{folder} holds no scenes")
    return records


def _preview(args) -> int:
    require_vision()
    from sisepai.datasets.export.preview import contact_sheet  # lazy: NumPy, OpenCV

    records = _load_records(args.dir)
    if args.layout:
        records = [r for r in records if r["layout"] == args.layout]
    out = args.out or args.dir / "preview.png"
    contact_sheet(args.dir, records[: args.n], out)
    print(f"wrote {out}")
    return 0


def _stats(args) -> int:
    stats = dataset_stats(_load_records(args.dir), args.dir)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
        return 0
    print(f"{stats['scenes']} scenes: " + ", ".join(f"{k} {v}" for k, v in stats["layouts"].items())
          + f"; {stats['disk_bytes'] / 1e6:,.1f} MB on disk")
    print(f"{stats['labelled_cards']} labelled cards, {stats['unlabelled_face_up_cards']} face-up cards left "
          "unlabelled (character under half visible)")
    print("per class: " + "  ".join(f"{k} {v}" for k, v in stats["per_class"].items()))
    print(f"class balance (rarest / commonest): {stats['class_balance']}")
    print("character visibility: " + "  ".join(f"{k}: {v}" for k, v in stats["char_visible_histogram"].items()))
    print(f"{len(stats['fonts'])} font families")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(2)
