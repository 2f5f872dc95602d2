"""The detector's runtimes on the tuning videos: does the live table announce the same events?

``benchmarks/runtime_bench.py`` compares the runtimes on stills (speed, outlines, F1). A runtime
becomes the default only when the live assistant also says the same with it. Each tuning video of
:func:`~sisepai.models.tuning.live_tune.tuning_videos` (generated decks in the tuning fonts, the
tuning stand-in decks and the real tuning deck where this machine has it, 30 and 60 cards in view)
is read every frame by each runtime's recogniser, as ``sisepai watch --every-frame`` reads it, and
the shipped assistant is replayed over those readings. For each runtime: card_shown recall within
1.5 s against the videos' truth, false card_shown events, and how many videos gave exactly
PyTorch's announcements. Tuning data only: no test font, deck or seed.

    python -m sisepai.models.tuning.runtime_events WORK [--runtimes torch,openvino] [--cards 30,60]

The readings are cached in ``WORK/readings/RUNTIME/``; the figures go to the measurement log
(``benchmarks/results/runtime_events.json``, or ``runtime_events_REFERENCE.json`` when the first
runtime is not PyTorch).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sisepai.engine.errors import SisepaiError
from sisepai.vision.recognition.detector import Detector
from sisepai.vision.recognition.reader import Reader
from sisepai.vision.recognition.recognize import Recognizer
from sisepai.vision.recognition.runtime import resolve

from ..evaluation.live_eval import match_events
from ..evaluation.records import write_record
from .live_tune import CARDS, readings, replay, shipped_thresholds, tuning_videos


def announced(events: list[dict]) -> set[tuple]:
    """What a player hears of ``events``: each announcement's kind, card or cards, seat and time
    to a tenth of a second (the table snapshots, with their outlines to the pixel, left out).

    >>> sorted(announced([{"type": "card_shown", "card": "RK", "seat": "N", "t": 3.04, "id": 7},
    ...                   {"type": "table", "cards": [], "t": 3.0}]))
    [('card_shown', 'RK', 'N', 3.0)]
    """
    return {(e["type"], str(e.get("card") or e.get("cards")), e.get("seat"), round(e["t"], 1))
            for e in events if e["type"] != "table"}


def compare(work: Path, runtimes: tuple[str, ...] = ("torch", "openvino"), cards: tuple[int, ...] = CARDS,
            progress=print) -> dict:
    """Each runtime's events on every tuning video, scored and set beside the first runtime's.

    Returns ``{"videos": [...], "runtimes": {name: {"found", "truth", "recall", "false",
    "same_events", "events_differing"}}}``; ``same_events`` counts the videos whose announcements
    (:func:`announced`) are exactly the first runtime's, ``events_differing`` the announcements
    made by one and not the other.
    """

    videos = list(tuning_videos(work, cards))
    thresholds = shipped_thresholds()
    reader = Reader.load()
    events: dict[str, dict[str, list[dict]]] = {}
    for runtime in runtimes:
        recognizer = Recognizer(Detector.load(runtime=runtime), reader)
        events[runtime] = {}
        for name, video, _ in videos:
            progress(f"runtime-events: {runtime} reads {name} (every frame)")
            frames = readings(video, work / "readings" / runtime / f"{name}.pkl", recognizer)
            events[runtime][name] = replay(frames, *thresholds)
    first = runtimes[0]
    out = {"videos": [name for name, _, _ in videos], "runtimes": {}}
    for runtime in runtimes:
        found = truth_n = false = same = differing = 0
        for name, _, truth in videos:
            said = events[runtime][name]
            score = match_events(truth, said)
            found, truth_n, false = found + score.found, truth_n + score.truth, false + score.false
            mine, theirs = announced(said), announced(events[first][name])
            same += mine == theirs
            differing += len(mine ^ theirs)
        out["runtimes"][runtime] = {"found": found, "truth": truth_n, "recall": round(found / max(truth_n, 1), 4),
                                    "false": false, "same_events": f"{same}/{len(videos)}",
                                    "events_differing": differing}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.tuning.runtime_events", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path, help="a folder for the tuning videos and each runtime's readings")
    p.add_argument("--runtimes", default="torch,openvino",
                   help="runtimes to compare, the first the reference (default torch,openvino)")
    p.add_argument("--cards", default=",".join(map(str, CARDS)), help="cards in view, e.g. 30,60 (default)")
    args = p.parse_args(argv)

    try:
        runtimes = tuple(resolve(r.strip()) for r in args.runtimes.split(",") if r.strip())
        cards = tuple(int(c) for c in args.cards.split(","))
    except (SisepaiError, ValueError) as exc:
        p.error(str(exc).splitlines()[0])
    out = compare(args.work, runtimes, cards, progress=lambda m: print(m, file=sys.stderr, flush=True))

    name = "runtime_events" if runtimes[0] == "torch" else f"runtime_events_{runtimes[0]}"  # the reference's name
    write_record(name.replace("-", "_"), f"python -m sisepai.models.tuning.runtime_events WORK --runtimes {','.join(runtimes)}",
                 out["runtimes"],
                 split="tune", options={"runtimes": list(runtimes), "cards": list(cards), "videos": out["videos"]})
    print(json.dumps(out["runtimes"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
