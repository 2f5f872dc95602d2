"""`sisepai watch` on a busy machine: the tuning videos (60 s, 1280x720, 10 fps, 30 cards in view),
watched as a user runs it (keeping the video's clock), on a quiet machine and with one and with
every core kept busy by other processes, with inference fixed on every core (at most 8), fixed on
one thread, or the default: threads chosen by the machine's load when the run starts and again as
it changes (:func:`sisepai.vision.recognition.runtime.inference_threads`,
:class:`~sisepai.vision.recognition.runtime.ThreadFollower`). Each setting's detection time is also
given as a ratio to the default's in the same load, side by side in one run.

For each setting: card_shown recall with a 95% Wilson interval (card and seat within 1.5 s),
false card_shown events, the share of frames skipped and the detector's milliseconds per frame
looked at. Tuning videos only: this chooses a default. BUSY_VIDEOS=N takes the first N of them
(default 2; the videos are made once into BUSY_WORK, default the system's temp folder).
"""

import io
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def wilson(found: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share ``found`` of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = found / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 3), round(centre + half, 3))


def main() -> None:
    from sisepai.models.evaluation.live_eval import match_events
    from sisepai.models.evaluation.records import write_record
    from sisepai.models.tuning.live_tune import tuning_videos
    from sisepai.vision.live.camera import open_source
    from sisepai.vision.live.session import VideoSession
    from sisepai.vision.live.watch import watch
    from sisepai.vision.recognition.recognize import Recognizer
    from sisepai.vision.recognition.runtime import THREADS_ENV, inference_threads

    work = Path(os.environ.get("BUSY_WORK") or Path(tempfile.gettempdir()) / "sisepai-busy-bench")
    videos = list(tuning_videos(work, (30,)))[: int(os.environ.get("BUSY_VIDEOS", "2"))]
    cores = os.cpu_count() or 1
    threads = {"by load (default)": None, "every core": max(1, min(8, cores)), "one thread": 1}
    recognizer = Recognizer.load()
    figures = {}
    for busy in (0, 1, cores):  # other programs, each keeping a core busy
        loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
        time.sleep(1.0)
        try:
            base_ms = None
            for label, fixed in threads.items():
                if fixed is None:
                    os.environ.pop(THREADS_ENV, None)
                else:
                    os.environ[THREADS_ENV] = str(fixed)  # a fixed setting: watch does not follow the load
                n = inference_threads()
                recognizer.detector.set_threads(n)  # the detector's runtime, and PyTorch's reader
                found = truth = false = frames = skipped = looked = 0
                detect = 0.0
                for _, video, events in videos:
                    out = io.StringIO()
                    session = VideoSession(recognizer)
                    summary = watch(open_source(str(video)), session, out=out, as_json=True)
                    said = [json.loads(line) for line in out.getvalue().splitlines()]
                    score = match_events([e for e in events if e.get("type", "card_shown") == "card_shown"], said)
                    found, truth, false = found + score.found, truth + score.truth, false + score.false
                    frames += summary["source_frames"]
                    skipped += summary["skipped"]
                    looked += summary["looked"]
                    detect += summary["parts"]["detect"]
                key = f"busy {busy}, {label}" + (f" ({n} threads)" if fixed else f" (started on {n})")
                detect_ms = round(1000 * detect / max(looked, 1), 1)
                base_ms = base_ms or detect_ms
                figures[key] = {"busy_cores": busy, "threads": n, "follows_load": fixed is None, "found": found,
                                "cards": truth, "recall": round(found / max(truth, 1), 3),
                                "recall_95": wilson(found, truth), "false": false,
                                "skipped_share": round(skipped / max(frames, 1), 3), "detect_ms": detect_ms,
                                "detect_time_vs_default": round(detect_ms / max(base_ms, 1e-9), 2)}
                print(f"busy   {key:34} recall {found}/{truth} {figures[key]['recall_95']}  false {false}  "
                      f"skipped {figures[key]['skipped_share']:.0%}  detect {figures[key]['detect_ms']:.0f} ms", flush=True)
        finally:
            os.environ.pop(THREADS_ENV, None)
            for p in loops:
                p.kill()
                p.wait()
    write_record("busy_bench", "python benchmarks/busy_bench.py", figures, split="tune",
                 options={"videos": [name for name, _, _ in videos], "cores": cores,
                          "runtime": recognizer.detector.runtime})


if __name__ == "__main__":
    sys.exit(main())
