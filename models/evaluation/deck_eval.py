"""Measure the recogniser on decks it never saw: zero-shot, and after enrolling each deck.

For each stand-in deck (:mod:`sisepai.datasets.design.standin`: test decks in the honest held-out fonts,
tuning decks in the other held-out fonts, drawn with other papers and traits than training's code
draws, though only the face is held out by look):

1. its faces are written as ``sisepai deck add`` takes them (``CODE.png``);
2. scenes of that deck are generated (tables, fans, finished hands; a seed enrolment never uses);
3. the deck is enrolled from its faces (:func:`sisepai.models.enrolment.enrol.adapt_reader`);
4. the recogniser reads the scenes with the shipped reader (zero-shot) and with the deck's reader
   (enrolled): F1 per layout, finished hands read exactly, and end-crop reading per rank.

Also measured: zero-shot F1 on generated scenes in the honest held-out fonts (generated styles).

``python -m sisepai.models.evaluation.deck_eval WORKDIR --split tune`` chooses; ``--split test`` measures once:
with the default sizes it writes ``benchmarks/results/deck_eval.json``, kept once per model version
(a candidate ``--detector`` or ``--reader`` gets ``deck_eval.candidate-HASH.json`` instead), and
``models/deck_metrics.json`` with each deck's numbers. Every step is kept in WORKDIR and skipped when done.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.splits import (
    DECK_HAND_SEEDS,
    DECK_SCENE_SEEDS,
    FONT_SCENE_SEEDS,
    REAL_DECKS,
    REAL_SCENE_SEEDS,
    real_deck_folder,
)
from sisepai.datasets.design.standin import TEST_DECKS, TUNE_DECKS, standin_deck
from sisepai.datasets.export.writer import CROP_MIN_VISIBLE, GenerateOptions, end_crop, generate_one, prepare_folders
from sisepai.datasets.scenes.grid_photo import TABLE_KINDS, grid_photo
from sisepai.faces.deck import DeckError, DeckFaces
from sisepai.vision.decks.grid import cut_grid
from sisepai.vision.recognition.matching import f1_score
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS
from sisepai.vision.recognition.reader_net import INPUT, build_reader
from sisepai.vision.recognition.recognize import Recognizer

from ..enrolment.enrol import DEFAULT_STEPS, EnrolOptions, accuracy, adapt_reader, peak_memory_mb
from .evaluate import evaluate_recognizer
from .hand_eval import detections_of, evaluate_hands
from .records import add_again_option, at_defaults, begin_test, file_hash, shipped_models, write_record

SCENE_SEED = DECK_SCENE_SEEDS["test"]
"""Scenes of stand-in deck k: seed SCENE_SEED + k, or + 50 for tuning (``datasets.design.splits``; enrolment uses seeds 0 and 1)."""
HONEST_SEED = FONT_SCENE_SEEDS["test"]
HAND_SEED = DECK_HAND_SEEDS["test"]
"""Finished hands of stand-in deck k: seed HAND_SEED + k (+ 50 for tuning); only hands showing every card are scored."""
METRICS = Path(__file__).resolve().parents[1] / "deck_metrics.json"
MEASURE_ENROL_STEPS = DEFAULT_STEPS
"""Enrolment fine-tune steps when measuring: ``deck add``'s, fixed so that a loaded machine does not
change the enrolled numbers."""


def write_scenes(faces: Path | None, out: Path, n: int, seed: int, font_split: str = "train",
                 layouts: tuple[str, ...] = ("table", "fan", "hand"), family: str | None = None) -> Path:
    """``n`` scenes (all in ``val``) of the deck in ``faces``, or of generated styles in ``font_split``
    (each a printing of ``family`` when one is named)."""

    if (out / "done").exists():
        return out
    prepare_folders(out)
    opts = GenerateOptions(seed=seed, val=1.0, deck_faces=str(faces) if faces else None, font_split=font_split,
                           layouts=layouts, family=family)
    for i in range(n):
        generate_one(out, i, opts)
    (out / "done").write_text("ok\n")
    return out


def crop_reading(reader_weights: Path, dataset: Path) -> dict:
    """The reader alone on the ground-truth end crops of ``dataset`` (ends at least half visible),
    overall and per rank, as :func:`sisepai.models.enrolment.enrol.accuracy`."""
    import torch

    images, labels = [], []
    for ann in sorted((dataset / "annotations" / "val").glob("*.json")):
        rec = json.loads(ann.read_text())
        img = cv2.imread(str(dataset / rec["image"]))[..., ::-1]
        for card in rec["cards"]:
            if card["face_up"]:
                for end in card["ends"]:
                    if end["visible"] >= CROP_MIN_VISIBLE:
                        images.append(cv2.resize(end_crop(img, end["corners"]), (INPUT, INPUT), interpolation=cv2.INTER_AREA))
                        labels.append(card["class_id"])
    state = torch.load(reader_weights, map_location="cpu", weights_only=False)
    model = build_reader(len(state["classes"]), state.get("arch", "v1"))
    model.load_state_dict(state["state_dict"])
    return accuracy(model, np.stack(images), np.asarray(labels))


def _sum_layouts(results: list[dict]) -> dict:
    """Per-layout F1 of several evaluations added up (tp, fp, fn summed), and finished hands exact."""

    tot = defaultdict(lambda: [0, 0, 0])
    hands, exact = 0, 0
    for r in results:
        for layout, s in r["layouts"].items():
            for k, key in enumerate(("tp", "fp", "fn")):
                tot[layout][k] += s[key]
                tot["all"][k] += s[key]
        hands += r["finished_hands"]
        exact += round(r["finished_hand_exact_match"] * r["finished_hands"])
    out = {layout: f1_score(*v) for layout, v in sorted(tot.items())}
    out["finished_hand_exact_match"] = round(exact / max(hands, 1), 4)
    return out


def _model_tag(detector: Path | None) -> str:
    """A suffix that keeps cached readings of a candidate model (a detector or a reader) apart from
    the shipped one's.

    >>> _model_tag(None)
    ''
    """
    return f".{detector.stem}-{zlib.crc32(str(detector.resolve()).encode()):08x}" if detector else ""


def _steps_tag(opts: EnrolOptions) -> str:
    """A suffix that keeps the readers enrolled (and the readings cached with them) at one number of
    steps apart from those at another: a cached reader is never taken for one enrolled otherwise.

    >>> _steps_tag(EnrolOptions(steps=480)), _steps_tag(EnrolOptions(minutes=2.0))
    ('-480steps', '-2.0min')
    """
    return f"-{opts.minutes}min" if opts.minutes > 0 else f"-{opts.steps}steps"


def run(work: Path, split: str, scenes: int, opts=None, label: str = "", hand_scenes: int = 200,
        detector: Path | None = None, reader: Path | None = None) -> dict:
    """Enrol and measure every stand-in deck of ``split``; the summary (also written to WORK).

    ``detector`` (default: the shipped one) is the detector of both readings, zero-shot and
    enrolled, so a candidate detector is chosen on both. ``reader`` (default: the shipped one) is
    the general reader: it reads zero-shot, and each deck is enrolled from it."""

    opts = opts or EnrolOptions()
    base = reader or DEFAULT_WEIGHTS
    general = Recognizer.load(detector, reader_weights=base)

    # the finished hands' readings are cached per detector and general reader
    tag = _model_tag(detector) + _model_tag(reader)

    zero, enrolled, per_deck = [], [], {}
    hands_zero, hands_enrolled = [], []
    crops_zero, crops_enrolled = [], []
    for k in range(TEST_DECKS if split == "test" else TUNE_DECKS):
        name = f"{split}-{k}"
        faces = work / "faces" / name
        if not faces.is_dir():
            standin_deck(k, split).save(faces)
        data = write_scenes(faces, work / "scenes" / name, scenes, SCENE_SEED + k + (50 if split == "tune" else 0))
        weights = work / f"readers{label}{_model_tag(reader)}{_steps_tag(opts)}" / f"{name}.pt"
        report_file = weights.with_suffix(".json")
        if not weights.exists():
            weights.parent.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            report = adapt_reader(DeckFaces.load(faces), base, weights, opts)
            report["enrol_seconds"] = round(time.perf_counter() - t0, 1)
            report["peak_memory_mb"] = peak_memory_mb()
            report_file.write_text(json.dumps(report, indent=1))
        report = json.loads(report_file.read_text())
        z = evaluate_recognizer(general, data)
        adapted = Recognizer.load(detector, reader_weights=weights)
        e = evaluate_recognizer(adapted, data)
        zero.append(z)
        enrolled.append(e)
        cz, ce = crop_reading(base, data), crop_reading(weights, data)
        crops_zero.append(cz)
        crops_enrolled.append(ce)
        hands = write_scenes(faces, work / "hands" / name, hand_scenes, HAND_SEED + k + (50 if split == "tune" else 0),
                             layouts=("hand",))
        hz = detections_of(general, hands, work / "hands" / f"{name}{tag}.zero.pkl")
        he = detections_of(adapted, hands, work / "hands" / f"{name}{label}{tag}{_steps_tag(opts)}.enrolled.pkl")
        hands_zero += hz
        hands_enrolled += he
        per_deck[name] = {"zero_shot": _sum_layouts([z]), "enrolled": _sum_layouts([e]),
                          "finished_hands_zero_shot": evaluate_hands(hz), "finished_hands_enrolled": evaluate_hands(he),
                          "crops_zero_shot": cz, "crops_enrolled": ce,
                          "enrol_seconds": report.get("enrol_seconds"), "peak_memory_mb": report.get("peak_memory_mb"),
                          "ms_median_enrolled": e["ms_median"]}
        print(name, json.dumps(per_deck[name]), flush=True)

    def pooled(parts: list[dict]) -> dict:
        n = sum(p["n"] for p in parts)
        ranks = defaultdict(list)
        for p in parts:
            for r, v in p["by_rank"].items():
                ranks[r].append(v)
        return {"accuracy": round(sum(p["accuracy"] * p["n"] for p in parts) / max(n, 1), 4), "n": n,
                "by_rank": {r: round(float(np.mean(v)), 4) for r, v in ranks.items()}}

    summary = {"split": split, "decks": len(per_deck), "scenes_per_deck": scenes,
               "detector": str(detector) if detector else "shipped",
               "reader": str(reader) if reader else "shipped",
               "zero_shot": _sum_layouts(zero), "enrolled": _sum_layouts(enrolled),
               "crops_zero_shot": pooled(crops_zero), "crops_enrolled": pooled(crops_enrolled),
               "enrol_seconds_max": max(d["enrol_seconds"] or 0 for d in per_deck.values()),
               "peak_memory_mb_max": max(d["peak_memory_mb"] or 0 for d in per_deck.values()),
               "finished_hands_zero_shot": evaluate_hands(hands_zero),
               "finished_hands_enrolled": evaluate_hands(hands_enrolled),
               "per_deck": per_deck}
    return summary


def _layouts_with_misses(result: dict) -> dict:
    """Per-layout F1, recall and where the missed cards were lost (``detector`` or ``reader``)."""
    out = {layout: {"f1": s["f1"], "recall": s["recall"], "precision": s["precision"], "cards": s["tp"] + s["fn"],
                    "misses": s["misses"]} for layout, s in result["layouts"].items()}
    out["all"] = {"f1": result["overall"]["f1"], "recall": result["overall"]["recall"],
                  "precision": result["overall"]["precision"]}
    return out


def grid_cuts(deck, seed: int, recognizer) -> dict:
    """``deck cut`` on photos of ``deck``'s grid on every kind of table: whether the cut is whole
    with every face in its cell, how far the outlines are off (card widths) and how many doubts it
    notes (each one a false doubt, as the grid is laid right)."""

    out = {}
    for table in TABLE_KINDS:
        photo = grid_photo(deck, table, seed=seed)
        try:
            cut = cut_grid([photo.image], recognizer)
        except DeckError as exc:
            out[table] = {"whole": False, "problem": str(exc)[:200]}
            continue
        width = float(np.median([np.linalg.norm(o[1] - o[0]) for o in photo.outlines.values()]))
        off = max(float(np.linalg.norm(box.mean(0) - photo.outlines[code].mean(0))) / width
                  for code, (_, box) in cut.outlines.items())
        out[table] = {"whole": len(cut) == len(photo.outlines) and off < 0.5, "worst_offset": round(off, 3),
                      "doubts": len(cut.notes), "finder": cut.finder}
    out["whole"] = sum(v["whole"] for v in out.values())
    out["doubts"] = sum(v.get("doubts", 0) for k, v in out.items() if isinstance(v, dict))
    return out


def real_decks(work: Path, split: str, scenes: int, opts=None, hand_scenes: int = 100,
               detector: Path | None = None, reader: Path | None = None) -> dict:
    """Every real printed deck of ``split`` (:data:`sisepai.datasets.design.splits.REAL_DECKS`) found on this
    machine, zero-shot and enrolled from its own scans: F1, recall and the missed cards' source
    (detector or reader) per layout, and finished hands read exactly; ``{}`` where none is here."""

    opts = opts or EnrolOptions(steps=MEASURE_ENROL_STEPS)
    base = reader or DEFAULT_WEIGHTS
    tag = _model_tag(detector) + _model_tag(reader)
    out = {}
    for k, name in enumerate(REAL_DECKS.get(split, ())):
        folder = real_deck_folder(name)
        if folder is None:
            continue
        seed = REAL_SCENE_SEEDS[split] + k
        data = write_scenes(folder, work / "scenes" / f"real-{name}", scenes, seed, layouts=("table", "fan", "hand", "heap"))
        hands = write_scenes(folder, work / "hands" / f"real-{name}", hand_scenes, seed + 100, layouts=("hand",))
        weights = work / f"readers{_model_tag(reader)}{_steps_tag(opts)}" / f"real-{name}.pt"
        if not weights.exists():
            weights.parent.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            report = adapt_reader(DeckFaces.load(folder), base, weights, opts)
            report["enrol_seconds"] = round(time.perf_counter() - t0, 1)
            weights.with_suffix(".json").write_text(json.dumps(report, indent=1))
        general = Recognizer.load(detector, reader_weights=base)
        adapted = Recognizer.load(detector, reader_weights=weights)
        z, e = evaluate_recognizer(general, data), evaluate_recognizer(adapted, data)
        hz = detections_of(general, hands, work / "hands" / f"real-{name}{tag}.zero.pkl")
        he = detections_of(adapted, hands, work / "hands" / f"real-{name}{tag}{_steps_tag(opts)}.enrolled.pkl")
        grids = grid_cuts(DeckFaces.load(folder), seed + 200, general)
        out[name] = {"scenes": scenes, "zero_shot": _layouts_with_misses(z), "enrolled": _layouts_with_misses(e),
                     "grid_photos": grids,
                     "finished_hands_zero_shot": evaluate_hands(hz), "finished_hands_enrolled": evaluate_hands(he),
                     "top_misreads_zero_shot": z["top_misreads"], "ms_median_zero_shot": z["ms_median"]}
        print(f"real-{name}", json.dumps(out[name]), flush=True)
    return out


def honest_zero_shot(work: Path, scenes: int, detector: Path | None = None, fonts: str = "honest",
                     reader: Path | None = None) -> dict:
    """Zero-shot F1 of the recogniser (the shipped one, or a candidate ``detector`` or ``reader``) on
    generated styles in held-out fonts: ``honest`` (the test faces) or ``tune`` (the others)."""

    general = Recognizer.load(detector, reader_weights=reader)
    seed = FONT_SCENE_SEEDS["test" if fonts == "honest" else "tune"]
    tag = _model_tag(detector) + _model_tag(reader)
    data = write_scenes(None, work / "scenes" / fonts, scenes, seed, font_split=fonts)
    r = evaluate_recognizer(general, data)
    hands = write_scenes(None, work / "hands" / fonts, scenes, seed + 1, font_split=fonts, layouts=("hand",))
    return {**_sum_layouts([r]), "scenes": scenes, "ms_median": r["ms_median"],
            "finished_hands": evaluate_hands(detections_of(general, hands, work / "hands" / f"{fonts}{tag}.zero.pkl"))}


def _record_of(base: str, detector: Path | None, reader: Path | None) -> tuple[str, dict[str, str]]:
    """A record's name and the hashes of the models it measures: the shipped ones, but for a
    candidate ``detector`` or ``reader``, whose measurement has a record of its own so that it never
    replaces the shipped models'.

    >>> _record_of("deck_eval", None, None)[0]
    'deck_eval'
    """

    candidates = {"detector": detector, "reader": reader}
    models = shipped_models() | {part: file_hash(path) for part, path in candidates.items() if path}
    name = base + "".join(f".candidate-{file_hash(path)[:8]}" for path in candidates.values() if path)
    return name, models


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.evaluation.deck_eval", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path, help="a folder for faces, scenes and adapted readers")
    p.add_argument("--split", choices=("tune", "test"), default="tune")
    p.add_argument("--scenes", type=int, default=60, help="scenes per deck (default 60)")
    p.add_argument("--honest-scenes", type=int, default=300)
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="an enrolment option other than its default, e.g. minutes=6 or colour_jitter=4,0.1,0.06")
    p.add_argument("--label", default="", help="a suffix for the readers folder, to compare settings")
    p.add_argument("--detector", type=Path, metavar="PT", help="a candidate detector to read with (default: the shipped one)")
    p.add_argument("--reader", type=Path, metavar="PT",
                   help="a candidate general reader: it reads zero-shot and each deck is enrolled from it")
    p.add_argument("--hand-scenes", type=int, default=200, help="finished-hand scenes per deck (default 200)")
    p.add_argument("--real-scenes", type=int, default=120, help="scenes of each real tuning deck (default 120)")
    p.add_argument("--real-hand-scenes", type=int, default=100, help="finished hands of each real tuning deck (default 100)")
    p.add_argument("--only-real", action="store_true", help="measure the real tuning decks only (with --split tune)")

    add_again_option(p)
    args = p.parse_args(argv)

    # a fixed number of enrolment steps (what 4 minutes give on a quiet 2-core machine), so that
    # other work on the machine does not change the enrolled numbers
    opts = EnrolOptions(steps=MEASURE_ENROL_STEPS)
    for item in args.set:
        key, _, value = item.partition("=")
        default = getattr(opts, key)
        setattr(opts, key, tuple(float(v) for v in value.split(",")) if isinstance(default, tuple) else type(default)(value))
    if args.only_real:
        if args.split != "tune":
            p.error("--only-real measures the real tuning decks: use it with --split tune")
        summary = {"real_decks": real_decks(args.work, "tune", args.real_scenes, opts, args.real_hand_scenes,
                                            args.detector, args.reader)}
        candidates = "".join("-" + m.stem for m in (args.detector, args.reader) if m)
        out = args.work / f"summary-real{args.label}{candidates}.json"
        out.write_text(json.dumps(summary, indent=1) + "\n")
        print(json.dumps(summary, indent=1))
        if summary["real_decks"] and at_defaults(p, args, ("real_scenes", "real_hand_scenes", "set")):
            # the real tuning deck's numbers the model card and README quote; a candidate's apart
            name, models = _record_of("real_deck_tune", args.detector, args.reader)
            write_record(name, "python -m sisepai.models.evaluation.deck_eval WORK --split tune --only-real", summary,
                         split="tune", models=models, options={"real_scenes": args.real_scenes,
                                                                "real_hand_scenes": args.real_hand_scenes,
                                                                "enrol": vars(opts)})
        return 0
    key = None
    if args.split == "test":
        name, models = _record_of("deck_eval", args.detector, args.reader)
        seeds = {"scenes": DECK_SCENE_SEEDS["test"], "hands": DECK_HAND_SEEDS["test"], "fonts": FONT_SCENE_SEEDS["test"]}
        key = begin_test(name, models, seeds, args.again)
    summary = run(args.work, args.split, args.scenes, opts, args.label, args.hand_scenes, args.detector, args.reader)
    if args.split == "test":
        summary["honest_zero_shot"] = honest_zero_shot(args.work, args.honest_scenes, args.detector, reader=args.reader)
        name, models = _record_of("deck_eval", args.detector, args.reader)
        if not at_defaults(p, args, ("scenes", "hand_scenes", "honest_scenes", "set")):
            print("not recorded: the test record is made with the default sizes and enrolment options")
        else:
            record = write_record(name, "python -m sisepai.models.evaluation.deck_eval WORK --split test", {
                k: v for k, v in summary.items() if k not in ("per_deck", "split", "detector")}, split="test",
                models=models, options={"scenes": args.scenes, "hand_scenes": args.hand_scenes, "enrol": vars(opts)},
                key=key, again=args.again)
            if name == "deck_eval" and json.loads(record.read_text())["figures"] == json.loads(json.dumps(
                    {k: v for k, v in summary.items() if k not in ("per_deck", "split", "detector")})):
                METRICS.write_text(json.dumps(summary, indent=1) + "\n")  # the model card's numbers: the first measurement
    else:  # generated styles in the held-out fonts that are no test face, and the real tuning decks
        summary["tune_fonts_zero_shot"] = honest_zero_shot(args.work, args.honest_scenes, args.detector, "tune", args.reader)
        summary["real_decks"] = real_decks(args.work, "tune", args.real_scenes, opts, args.real_hand_scenes,
                                           args.detector, args.reader)
    candidates = "".join("-" + m.stem for m in (args.detector, args.reader) if m)
    out = args.work / f"summary-{args.split}{args.label}{candidates}.json"
    out.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_deck"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
