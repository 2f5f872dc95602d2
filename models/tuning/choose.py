"""Choose between the shipped models and candidates on tuning data only, side by side in one run.

Every combination of detector and reader (the shipped ones, each candidate, each candidate pair)
reads the same tuning scenes, zero-shot:

- ``real-NAME``: each real printed tuning deck (:data:`sisepai.datasets.design.splits.REAL_DECKS`) laid in
  tables, fans, finished hands and heaps;
- ``tune-fonts``: generated styles in the tuning fonts;
- ``standin-K``: each stand-in tuning deck;
- ``family-NAME``: generated decks of each printed family (:mod:`sisepai.datasets.design.families`) in
  the tuning fonts, so that a model is chosen on more than the one real deck's style;
- ``held-real-NAME`` and ``held-tune-fonts``: fans held in a hand and close heaps
  (:mod:`sisepai.datasets.scenes.held`) of each real tuning deck and in the tuning fonts;
- ``camera2-real-NAME`` and ``camera2-tune-fonts``: the second camera's scenes
  (:mod:`sisepai.datasets.second_camera`, a generator written apart from the project's) of
  each real tuning deck and of its own plain design in the tuning fonts, where this machine has
  that generator. Their fans are reported apart like every set's.

For each set it prints F1, the fans' recall with each miss's source (detector or reader), and the
difference from the shipped models with a 95% interval from a paired bootstrap over scenes.

**The shipping rule** (:func:`verdict`): a candidate ships when its mean F1 over every set (each
a printed style) rises with a paired 95% interval wholly above 0, and no single set's interval
lies wholly below -:data:`SET_FLOOR`. It says SHIP or KEEP, and why.

A reading setting of the shipped models is a candidate too (``--setting one_colour_per_suit=false``:
a field of :class:`~sisepai.vision.recognition.profile.ReadingProfile`), judged by the same rule.

``python -m sisepai.models.tuning.choose WORK --reader runs/rd/reader.pt`` writes ``WORK/choose.json``. Each
model pair reads each set once: its readings are kept in ``WORK/readings`` by the models' hashes
(remove that folder after changing the recogniser's code).

>>> verdict((0.02, 0.008, 0.03), {"real-a": (0.01, -0.002, 0.02), "family-b": (-0.004, -0.012, 0.003)})
(True, [])
>>> verdict((0.02, 0.008, 0.03), {"real-a": (0.01, -0.002, 0.02), "family-b": (-0.02, -0.03, -0.012)})
(False, ['family-b worse: -0.020 (95% -0.030 to -0.012), wholly below -0.01'])
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields as dataclass_fields
from pathlib import Path

import numpy as np

from sisepai.datasets.design.families import FAMILIES
from sisepai.datasets.design.font_splits import fonts_of
from sisepai.datasets.design.splits import (
    DECK_SCENE_SEEDS,
    FAMILY_SCENE_SEEDS,
    FONT_SCENE_SEEDS,
    HELD_SCENE_SEEDS,
    REAL_DECKS,
    REAL_SCENE_SEEDS,
    STANDIN_DECKS,
    STRANGER_SEEDS,
    real_deck_folder,
)
from sisepai.datasets.design.standin import standin_deck
from sisepai.datasets.second_camera import stranger_folder, write_stranger_scenes
from sisepai.engine.progress import Progress
from sisepai.vision.recognition.profile import STILL_PROFILE, ReadingProfile
from sisepai.vision.recognition.runtime import RUNTIMES, resolve

from ..evaluation.deck_eval import write_scenes
from ..evaluation.evaluate import evaluate_recognizer
from ..evaluation.records import require_clean_tree, write_record
from .candidates import Candidate, candidates_of
from .round_start import begin_round, round_start, round_start_models

SET_FLOOR = 0.01
"""The shipping rule refuses a candidate when one set's 95% interval lies wholly below -SET_FLOOR."""
BOOTSTRAP_DRAWS = 2000


def scene_sets(work: Path, scenes: int, family_scenes: int, fresh: int = 0) -> dict[str, Path]:
    """The tuning scene sets (generated once into ``work`` and kept), by name. ``fresh`` moves every
    set's seeds by that much: the same sets drawn afresh, to confirm a late winner (:data:`FRESH_SEEDS`)."""

    tag = f"-fresh{fresh}" if fresh else ""
    sets: dict[str, Path] = {}
    for k, name in enumerate(REAL_DECKS["tune"]):
        folder = real_deck_folder(name)
        if folder is not None:
            sets[f"real-{name}"] = write_scenes(folder, work / f"real-{name}-{scenes}{tag}", scenes,
                                                REAL_SCENE_SEEDS["tune"] + k + fresh,
                                                layouts=("table", "fan", "hand", "heap"))
    sets["tune-fonts"] = write_scenes(None, work / f"tune-fonts-{scenes}{tag}", scenes, FONT_SCENE_SEEDS["tune"] + fresh,
                                      font_split="tune")
    for k in range(STANDIN_DECKS["tune"]):
        faces = work / "faces" / f"tune-{k}"
        if not faces.is_dir():
            standin_deck(k, "tune").save(faces)
        sets[f"standin-{k}"] = write_scenes(faces, work / f"standin-{k}-{scenes}{tag}", scenes,
                                            DECK_SCENE_SEEDS["tune"] + k + fresh)
    for k, family in enumerate(FAMILIES):
        sets[f"family-{family}"] = write_scenes(None, work / f"family-{family}-{family_scenes}{tag}", family_scenes,
                                                FAMILY_SCENE_SEEDS["tune"] + k + fresh, font_split="tune", family=family)
    for k, name in enumerate(REAL_DECKS["tune"]):
        folder = real_deck_folder(name)
        if folder is not None:
            sets[f"held-real-{name}"] = write_scenes(folder, work / f"held-real-{name}-{scenes}{tag}", scenes,
                                                     REAL_SCENE_SEEDS["tune"] + 300 + k + fresh, layouts=HELD_LAYOUTS)
    sets["held-tune-fonts"] = write_scenes(None, work / f"held-tune-fonts-{scenes}{tag}", scenes,
                                           HELD_SCENE_SEEDS["tune"] + fresh, font_split="tune", layouts=HELD_LAYOUTS)
    return sets | second_camera_sets(work, scenes, fresh)


FRESH_SEEDS = 100_000
"""``choose --fresh`` moves every tuning set's seeds by this much: far from every split's seeds
(:func:`sisepai.datasets.design.splits.seeds_of`), so the fresh sets are tuning data no one chose on."""


def second_camera_sets(work: Path, scenes: int, fresh: int = 0) -> dict[str, Path]:
    """The second camera's tuning sets (:mod:`~sisepai.datasets.second_camera`), by name: none
    where this machine lacks its generator."""
    if stranger_folder() is None:
        return {}
    tag = f"-fresh{fresh}" if fresh else ""
    sets = {}
    for k, name in enumerate(REAL_DECKS["tune"]):
        folder = real_deck_folder(name)
        if folder is not None:
            sets[f"camera2-real-{name}"] = write_stranger_scenes(work / f"camera2-real-{name}-{scenes}{tag}", scenes,
                                                                 STRANGER_SEEDS["tune"] + k + fresh, faces=folder)
    fonts = [str(f.path) for f in fonts_of("tune")]
    sets["camera2-tune-fonts"] = write_stranger_scenes(work / f"camera2-tune-fonts-{scenes}{tag}", scenes,
                                                       STRANGER_SEEDS["tune"] + 50 + fresh, fonts=fonts)
    return sets


HELD_LAYOUTS = ("held", "held", "heap")
"""The layouts of the held sets: two fans held in a hand to one close heap."""


def f1_of(rows: np.ndarray) -> float:
    """F1 of summed (tp, fp, fn) rows.

    >>> f1_of(np.array([[8, 1, 1], [2, 0, 0]]))
    0.9091
    """
    tp, fp, fn = rows.sum(0)
    return round(float(2 * tp / max(2 * tp + fp + fn, 1)), 4)


def paired_difference(base: np.ndarray, other: np.ndarray, draws: int = BOOTSTRAP_DRAWS,
                      seed: int = 0) -> tuple[float, float, float]:
    """``other``'s F1 less ``base``'s over the same scenes (rows of tp, fp, fn), with a 95% interval
    from resampling the scenes (both models keep the same resample).

    >>> a = np.array([[9, 1, 1]] * 20); b = np.array([[10, 0, 0]] * 20)
    >>> paired_difference(a, b)
    (0.1, 0.1, 0.1)
    """
    rng = np.random.default_rng(seed)
    diffs = []
    for _ in range(draws):
        pick = rng.integers(len(base), size=len(base))
        diffs.append(f1_of(other[pick]) - f1_of(base[pick]))
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return round(f1_of(other) - f1_of(base), 4), round(float(lo), 4), round(float(hi), 4)


def mean_difference(pairs: dict[str, tuple[np.ndarray, np.ndarray]], draws: int = BOOTSTRAP_DRAWS,
                    seed: int = 0) -> tuple[float, float, float]:
    """The candidate's mean F1 over every set less the shipped models', with a 95% interval from
    resampling each set's scenes (``pairs``: set -> (shipped rows, candidate rows) of tp, fp, fn;
    both models keep the same resample).

    >>> a = np.array([[9, 1, 1]] * 20); b = np.array([[10, 0, 0]] * 20)
    >>> mean_difference({"x": (a, b), "y": (a, a)})
    (0.05, 0.05, 0.05)
    """
    rng = np.random.default_rng(seed)
    point = float(np.mean([f1_of(o) - f1_of(b) for b, o in pairs.values()]))
    means = []
    for _ in range(draws):
        diffs = []
        for base, other in pairs.values():
            pick = rng.integers(len(base), size=len(base))
            diffs.append(f1_of(other[pick]) - f1_of(base[pick]))
        means.append(np.mean(diffs))
    lo, hi = np.percentile(means, [2.5, 97.5])
    return round(point, 4), round(float(lo), 4), round(float(hi), 4)


def verdict(mean: tuple[float, float, float], differences: dict[str, tuple[float, float, float]],
            left_out: str | None = None) -> tuple[bool, list[str]]:
    """Whether a candidate ships (the shipping rule): its mean F1 over the sets (``mean``:
    difference, low, high) rises with the interval wholly above 0, and no set's interval
    (``differences``: set -> difference, low, high) lies wholly below -:data:`SET_FLOOR`; the set
    of a family ``left_out`` of the candidate's training (a printing it never saw) may not lie
    wholly below 0 at all. The reasons it does not ship.

    >>> verdict((0.02, 0.008, 0.03), {"family-singapore": (-0.006, -0.009, -0.001)}, left_out="family-singapore")
    (False, ['family-singapore, left out of training, worse: -0.006 (95% -0.009 to -0.001), wholly below 0'])
    """
    reasons = []
    diff, lo, hi = mean
    if lo <= 0:
        reasons.append(f"mean F1 {diff:+.3f} (95% {lo:+.3f} to {hi:+.3f}): the interval is not above 0")
    if left_out in differences and differences[left_out][2] < 0:
        d, low, high = differences[left_out]
        reasons.append(f"{left_out}, left out of training, worse: {d:+.3f} (95% {low:+.3f} to {high:+.3f}), wholly below 0")
    reasons += sets_below({k: v for k, v in differences.items() if k != left_out}, "worse")
    return not reasons, reasons


def sets_below(differences: dict[str, tuple[float, float, float]], what: str) -> list[str]:
    """The sets whose change's interval (``differences``: set -> difference, low, high) lies wholly
    below -:data:`SET_FLOOR`, each said as ``"SET WHAT: ..."``.

    >>> sets_below({"x": (-0.2, -0.25, -0.15), "y": (0.0, -0.02, 0.02)}, "worse")
    ['x worse: -0.200 (95% -0.250 to -0.150), wholly below -0.01']
    """
    return [f"{name} {what}: {d:+.3f} (95% {low:+.3f} to {high:+.3f}), wholly below -{SET_FLOOR:g}"
            for name, (d, low, high) in differences.items() if high < -SET_FLOOR]


def measure(recognizer, data: Path) -> dict:
    """One model combination on one scene set: F1 per layout, fans' recall and misses, each layout's
    failures (cards the detector missed, cards the reader misread, cards read twice), per-scene counts."""

    r = evaluate_recognizer(recognizer, data)
    fan = r["layouts"].get("fan")
    return {"f1": r["overall"]["f1"], "layouts": {k: v["f1"] for k, v in r["layouts"].items()},
            "fan_recall": fan["recall"] if fan else None, "fan_misses": fan["misses"] if fan else None,
            "failures": {k: {"detector_miss": v["misses"]["detector"], "reader_miss": v["misses"]["reader"],
                             "duplicate": v["fp_kinds"]["duplicate"], "cards": v["tp"] + v["fn"]}
                         for k, v in r["layouts"].items()},
            "top_misreads": dict(list(r["top_misreads"].items())[:6]),
            "suit_misreads": r["suit_misreads"], "cards_by_suit": r["cards_by_suit"],
            "rows": [[tp, fp, fn] for _, tp, fp, fn in r["per_scene"]]}


def red_as_yellow(result: dict) -> float | None:
    """The share of a set's red cards read as yellow (the orange-for-red miss); None for readings
    made before the suits were counted.

    >>> red_as_yellow({"suit_misreads": {"R->Y": 3, "G->W": 1}, "cards_by_suit": {"R": 150, "G": 150}})
    0.02
    """
    if "cards_by_suit" not in result:
        return None
    return round(result["suit_misreads"].get("R->Y", 0) / max(result["cards_by_suit"].get("R", 0), 1), 4)


def profile_setting(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` as a :class:`~sisepai.vision.recognition.profile.ReadingProfile` field and its
    value (of the field's own type).

    >>> profile_setting("one_colour_per_suit=false"), profile_setting("covered_sure=0.3")
    (('one_colour_per_suit', False), ('covered_sure', 0.3))
    """
    name, _, value = text.partition("=")
    fields = {f.name: f for f in dataclass_fields(ReadingProfile)}
    if name not in fields or not value:
        raise argparse.ArgumentTypeError(f"{text!r}: give NAME=VALUE, NAME one of {', '.join(fields)}")
    default = getattr(STILL_PROFILE, name)
    if isinstance(default, bool):
        if value.lower() not in ("true", "false"):
            raise argparse.ArgumentTypeError(f"{name} is true or false, not {value!r}")
        return name, value.lower() == "true"
    if isinstance(default, (int, float)):
        try:
            return name, type(default)(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} is a number, not {value!r}") from None
    raise argparse.ArgumentTypeError(f"{name} cannot be set from the command line")


def scenes_generator(folder: Path) -> str:
    """The generator version that made a scene set (its first scene's record says it): a set is made
    once and kept, so one made by an older generator says so in the records that read it.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); (d / "annotations" / "val").mkdir(parents=True)
    >>> _ = (d / "annotations" / "val" / "000000.json").write_text('{"generator": "1.9"}')
    >>> scenes_generator(d)
    '1.9'
    """
    first = min((folder / "annotations" / "val").glob("*.json"), default=None)
    return json.loads(first.read_text()).get("generator", "unknown") if first else "unknown"


def record_command(args: argparse.Namespace) -> str:
    """The command a record names: every option that changes what was measured.

    >>> record_command(argparse.Namespace(detector=[], reader=[Path("rd.pt")], setting=[], runtime=[],
    ...                                   left_out="vietnamese"))
    'python -m sisepai.models.tuning.choose WORK --reader rd.pt --left-out vietnamese'
    """
    return ("python -m sisepai.models.tuning.choose WORK " + " ".join(
        f"--{kind} {p}" for kind in ("detector", "reader") for p in getattr(args, kind))
        + "".join(f" --setting {k}={v}".lower() for k, v in args.setting)
        + "".join(f" --runtime {r}" for r in args.runtime)
        + (f" --left-out {args.left_out}" if args.left_out else "")
        + (" --fresh" if getattr(args, "fresh", False) else ""))


def since_round_start(start: dict, candidate: dict) -> tuple[dict[str, tuple[float, float, float]], list[str]]:
    """Each set's change from the round's first models to a candidate (``start`` and ``candidate``:
    set -> reading), and the sets whose interval lies wholly below -:data:`SET_FLOOR`.

    >>> a = {"x": {"rows": [[9, 1, 1]] * 20}}; b = {"x": {"rows": [[7, 3, 3]] * 20}}
    >>> since_round_start(a, b)[1]
    ["x below the round's start: -0.200 (95% -0.200 to -0.200), wholly below -0.01"]
    """
    changes = {s: paired_difference(np.array(start[s]["rows"]), np.array(r["rows"])) for s, r in candidate.items()}
    return changes, sets_below(changes, "below the round's start")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.choose", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="example: python -m sisepai.models.tuning.choose out/choose --reader runs/rd18/reader/best.pt")
    p.add_argument("work", type=Path, help="a folder for the tuning scenes (made once, reused) and choose.json")
    p.add_argument("--detector", type=Path, action="append", default=[], metavar="PT", help="a candidate detector (repeatable)")
    p.add_argument("--reader", type=Path, action="append", default=[], metavar="PT", help="a candidate reader (repeatable)")
    p.add_argument("--scenes", type=int, default=60, help="scenes of each real deck, the tuning fonts and each stand-in deck (default 60)")
    p.add_argument("--family-scenes", type=int, default=40, help="scenes of each printed family (default 40)")
    p.add_argument("--left-out", choices=FAMILIES, default=None, metavar="FAMILY",
                   help="the family the candidates' training left out (dataset generate --without-family): its set "
                        "is a printing they never saw, and its interval may not lie wholly below 0")
    p.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE", type=profile_setting,
                   help="a candidate reading setting of the shipped models: a ReadingProfile field and its value, "
                        "e.g. one_colour_per_suit=false (repeatable)")
    p.add_argument("--fresh", action="store_true",
                   help=f"read every set drawn afresh (its seeds moved by {FRESH_SEEDS:,}): a late winner confirmed on "
                        "scenes no choice was made on")
    p.add_argument("--begin-round", metavar="COMMIT", default=None,
                   help="record that a new round begins with the models shipped at COMMIT (e.g. HEAD), and stop")
    p.add_argument("--runtime", action="append", default=[], metavar="NAME", choices=RUNTIMES,
                   help="a candidate runtime of the shipped detector, e.g. openvino-int8 (repeatable); the "
                        "shipped models are read with the default runtime")
    return p


def read_sets(candidates: list[Candidate], sets: dict[str, Path], work: Path) -> dict[str, dict]:
    """Every candidate's readings of every set, by candidate name: each pair of models reads each
    set once, whatever run asks again (``WORK/readings``)."""
    results: dict[str, dict] = {}
    default_runtime = resolve()
    bar = Progress(len(candidates) * len(sets), "scene sets read")
    for c in candidates:
        recognizer = None
        results[c.name] = {"detector": str(c.detector) if c.detector else None,
                           "reader": str(c.reader) if c.reader else None, "sets": {}, "setting": c.way}
        readings = c.readings_name(default_runtime)
        for set_name, data in sets.items():
            cache = work / "readings" / f"{readings}-{data.name}.json"
            if not cache.exists():
                recognizer = recognizer or c.recognizer()
                cache.parent.mkdir(exist_ok=True)
                cache.write_text(json.dumps(measure(recognizer, data)))
            results[c.name]["sets"][set_name] = json.loads(cache.read_text())
            bar.update(1)
    bar.close()
    return results


def judge(results: dict[str, dict], left_out: str | None) -> None:
    """The rule's verdict on each candidate, against the shipped models and the round's start."""
    shipped = next(iter(results.values()))
    first = next((r for r in results.values() if (r["setting"] or {}).get("round")), shipped)  # the round's start
    for res in list(results.values())[1:]:
        if res is first:
            continue
        pairs = {s: (np.array(shipped["sets"][s]["rows"]), np.array(r["rows"])) for s, r in res["sets"].items()}
        res["difference"] = {s: paired_difference(*pair) for s, pair in pairs.items()}
        res["mean_difference"] = mean_difference(pairs)
        res["ships"], res["why_not"] = verdict(res["mean_difference"], res["difference"],
                                               f"family-{left_out}" if left_out else None)
        if first is shipped:  # the round's first models are still shipped: the change is the difference
            res["since_round_start"] = res["difference"]
            continue
        res["since_round_start"], below = since_round_start(first["sets"], res["sets"])
        if below:
            res["ships"], res["why_not"] = False, res["why_not"] + below


def judged_on(work: Path, sets: dict[str, Path], reference: list[str]) -> int:
    """How many candidates and settings have read every one of ``sets`` (their readings kept in
    ``WORK/readings``), the ``reference`` readings (the shipped models, the round's start) left
    out: the count of choices made on these sets, which a late winner's luck is weighed against.

    >>> import tempfile
    >>> work = Path(tempfile.mkdtemp()); (work / "readings").mkdir()
    >>> for name in ("a-b-s1-60", "a-b-s2-60", "a-c-s1-60", "a-c-s2-60", "a-d-s1-60"):
    ...     _ = (work / "readings" / f"{name}.json").write_text("{}")
    >>> judged_on(work, {"one": Path("s1-60"), "two": Path("s2-60")}, ["a-b"])
    1
    """
    names = [p.name for p in (work / "readings").glob("*.json")]
    per_set = [{n[: -len(f"-{folder.name}.json")] for n in names if n.endswith(f"-{folder.name}.json")}
               for folder in sets.values()]
    return len(set.intersection(*per_set) - set(reference)) if per_set else 0


def write_outputs(args: argparse.Namespace, sets: dict[str, Path], results: dict[str, dict],
                  candidates: list[Candidate], judged: int) -> Path:
    """``WORK/choose.json`` and the ``choose_tune`` record (``judged``: :func:`judged_on`); the record's path."""
    (args.work / "choose.json").write_text(json.dumps({"sets": {k: str(v) for k, v in sets.items()}, "scenes": args.scenes,
                                                       "family_scenes": args.family_scenes, "results": results},
                                                      indent=1) + "\n")
    figures = {name: {"f1": {s: r["f1"] for s, r in res["sets"].items()},
                      "red_as_yellow": {s: red_as_yellow(r) for s, r in res["sets"].items()},
                      "layouts": {s: r["layouts"] for s, r in res["sets"].items()},
                      **({k: res[k] for k in ("difference", "mean_difference", "ships", "why_not", "since_round_start")}
                         if "ships" in res else {})}
               for name, res in results.items()}
    return write_record("choose_tune", record_command(args), figures, split="tune",
                        models={c.name: c.models() for c in candidates},
                        options={"scenes": args.scenes, "family_scenes": args.family_scenes, "sets": sorted(sets),
                                 "judged_on_these_sets": judged,
                                 **({"seeds": f"tuning seeds + {FRESH_SEEDS}"} if args.fresh else {}),
                                 "generator": sorted({scenes_generator(folder) for folder in sets.values()}),
                                 **({"left_out": args.left_out} if args.left_out else {}),
                                 **({"settings": {k: v for k, v in args.setting}} if args.setting else {}),
                                 **({"runtimes": args.runtime} if args.runtime else {})})


def print_table(results: dict[str, dict], names: list[str]) -> None:
    """Each candidate's F1 on each set, its change from the shipped models, and the verdict."""
    print(f"{'models':34s} " + " ".join(f"{s[:14]:>14s}" for s in names))
    for name, res in results.items():
        cells = []
        for s in names:
            d = res.get("difference", {}).get(s)
            cells.append(f"{res['sets'][s]['f1']:.3f}" + (f"({d[0]:+.3f})" if d else "       "))
        print(f"{name[:34]:34s} " + " ".join(f"{c:>14s}" for c in cells))
        rates = {s: red_as_yellow(res["sets"][s]) for s in names}
        if all(r is not None for r in rates.values()):
            print(f"{'':34s} red read as yellow: " + ", ".join(f"{s} {r:.1%}" for s, r in rates.items()))
        if "ships" in res:
            for s in names:
                d, lo, hi = res["difference"][s]
                print(f"{'':34s} {s:24s} {d:+.4f} (95% {lo:+.4f} to {hi:+.4f})")
            d, lo, hi = res["mean_difference"]
            print(f"{'':34s} {'mean over the sets':24s} {d:+.4f} (95% {lo:+.4f} to {hi:+.4f})")
            print(f"{'':34s} since the round's start ({(round_start() or {}).get('commit', 'shipped')}): " + ", ".join(
                f"{s} {d:+.3f} ({lo:+.3f} to {hi:+.3f})" for s, (d, lo, hi) in res["since_round_start"].items()))
            print(f"{'':34s} " + ("SHIP: the mean rises and no set falls wholly below -0.01" if res["ships"]
                                  else "KEEP: " + "; ".join(res["why_not"])))


def main(argv: list[str] | None = None) -> int:
    p = _parser()
    args = p.parse_args(argv)
    require_clean_tree()  # its record names a clean commit: refused before the readings, not after
    if args.begin_round:
        print(f"record: {begin_round(args.begin_round)}")
        return 0
    for path in args.detector + args.reader:
        if not path.is_file():
            p.error(f"no such model file: {path}")
    args.work.mkdir(parents=True, exist_ok=True)
    print("making the tuning scenes (once)...", flush=True)
    sets = scene_sets(args.work, args.scenes, args.family_scenes, FRESH_SEEDS if args.fresh else 0)
    candidates = candidates_of(args.detector, args.reader, args.setting, args.runtime, round_start_models(args.work))
    results = read_sets(candidates, sets, args.work)
    judge(results, args.left_out)
    runtime = resolve()
    judged = judged_on(args.work, sets, [c.readings_name(runtime) for c in candidates if c == Candidate() or c.round_start])
    print(f"record: {write_outputs(args, sets, results, candidates, judged)}")
    print_table(results, list(sets))
    print(f"{judged} candidates and settings have been judged on these sets "
          "(WORK/readings): a winner among many is confirmed with --fresh before it ships")
    print(f"wrote {args.work / 'choose.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
