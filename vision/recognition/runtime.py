"""Where the detector runs: PyTorch, or the same weights exported to OpenVINO or ONNX Runtime.

Training stays in PyTorch. For inference the detector's weights may be exported, offline, with the
exporter ultralytics ships (:func:`exported_detector`): once per weights file, into a cache folder
named by the weights' hash, so a change of weights makes a new export and an old one is never
used for new weights. ultralytics reads the export as it reads the ``.pt`` file (the same letterbox,
NMS and output), so only the network's arithmetic changes.

The runtime is one setting (``SISEPAI_RUNTIME``, or ``runtime=`` where a detector is loaded):
``auto`` (the default) takes the first of :data:`PREFERENCE` whose package is installed, which is
PyTorch where nothing else is. ``openvino-int8`` runs the detector in 8-bit integers: a model
quantized offline and shipped beside the weights (:data:`QUANTIZED`), about half the detection time
of 32-bit OpenVINO and a little less accurate, so it is asked for by name. ``benchmarks/runtime_bench.py``
measures them side by side, speed and readings.

>>> resolve("torch")
'torch'
>>> resolve("tensorflow")
Traceback (most recent call last):
...
sisepai.engine.errors.SisepaiError: unknown runtime 'tensorflow' (one of auto, torch, openvino, openvino-int8, onnx)
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import time
import warnings
from functools import partial
from pathlib import Path

from sisepai.engine.environment import RUNTIME, THREADS, environment, home
from sisepai.engine.errors import SisepaiError
from sisepai.vision.recognition.yolo_env import yolo

RUNTIMES = ("torch", "openvino", "openvino-int8", "onnx")
PREFERENCE = ("openvino", "torch")
"""What ``auto`` takes, the first installed: OpenVINO where it is, else PyTorch. OpenVINO is the
fastest that reads the same: F1 within 0.003 of PyTorch's on the tuning scenes
(``benchmarks/results/runtime_bench.json``) and the same announcements on the tuning videos but
one card taken away a tenth of a second later and one false card fewer
(``benchmarks/results/runtime_events.json``). ONNX Runtime is there to be asked for."""
PACKAGES = {"torch": "torch", "openvino": "openvino", "openvino-int8": "openvino", "onnx": "onnxruntime"}
"""The package each runtime needs at inference."""
FORMATS = {"openvino": "openvino", "onnx": "onnx"}
"""ultralytics' export format of each runtime but PyTorch."""
ENV = RUNTIME
THREADS_ENV = THREADS
"""How many threads inference uses, whatever the runtime (a whole number of at least 1)."""


def inference_threads(setting: str | None = None, cores: int | None = None, others: float | None = None) -> int:
    """The threads inference uses (PyTorch's, OpenVINO's or ONNX Runtime's): ``SISEPAI_THREADS``
    when set, else as many as the cores other programs leave free (:func:`threads_for_load`;
    ``others``: how many cores they keep busy, measured now with :class:`CoreShare` when not given).

    >>> inference_threads(cores=2, others=0.0), inference_threads(cores=2, others=1.0), inference_threads("3", cores=2)
    (2, 1, 3)
    >>> inference_threads("none", cores=2)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: SISEPAI_THREADS must be a whole number of at least 1, not 'none'
    """
    setting = environment().threads if setting is None else setting
    if setting:
        if not setting.strip().isdigit() or int(setting) < 1:
            raise SisepaiError(f"{THREADS_ENV} must be a whole number of at least 1, not {setting[:12]!r}")
        return int(setting)
    cores = cores or _cores()
    if others is None:
        others = CoreShare().others(wait=STARTUP_SAMPLE_S)
    return threads_for_load(cores, others)


def threads_for_load(cores: int, others: float) -> int:
    """Inference threads for a machine of ``cores`` cores of which other programs keep ``others``
    busy: every core they leave (a core counted busy from 0.5 of it on), at least one, at most
    eight. A player's machine is often busy with something: on 2 cores with both busy, PyTorch on
    two threads took 662 ms to detect a frame against one's 147, OpenVINO 211 ms against 105
    (``benchmarks/busy_bench.py``); on a quiet machine two threads are 1.5x as fast as one.

    >>> threads_for_load(2, 0.1), threads_for_load(2, 0.7), threads_for_load(2, 2.0), threads_for_load(16, 0.0)
    (2, 1, 1, 8)
    """
    return max(1, min(8, cores - int(round(max(others, 0.0) + 1e-9))))


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


STARTUP_SAMPLE_S = 0.25
"""How long a run looks at the machine's load before it chooses its threads."""
FOLLOW_EVERY_S = 3.0
"""How often a long run (``watch``) looks at the load again (:class:`ThreadFollower`)."""


class CoreShare:
    """How many cores other programs keep busy: the whole machine's busy time (``/proc/stat``) less
    this process's own (``/proc/self/stat``), between two looks. Where ``/proc`` is missing (not
    Linux) it says one core, the old default of leaving one free."""

    def __init__(self) -> None:
        self._last = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float] | None:
        try:
            with open("/proc/stat") as f:
                fields = [float(x) for x in f.readline().split()[1:]]
            with open("/proc/self/stat") as f:
                mine = f.read().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            return None
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
        return sum(fields), sum(fields) - idle, float(mine[11]) + float(mine[12])  # total, busy, own utime+stime

    def others(self, wait: float = 0.0) -> float:
        """Cores kept busy by other programs since the last look (after waiting ``wait`` seconds)."""
        if wait:
            time.sleep(wait)
        now = self._sample()
        last, self._last = self._last, now
        if now is None or last is None or now[0] <= last[0]:
            return 1.0
        total, busy, own = (a - b for a, b in zip(now, last))
        cores = _cores()
        return max(0.0, (busy - own) / total * cores)


class ThreadFollower:
    """Follows the machine's load in a long run: every :data:`FOLLOW_EVERY_S` seconds it looks at
    what other programs use and, when the threads that leaves differ, gives them to ``apply`` (a
    detector's ``set_threads``). ``SISEPAI_THREADS`` fixes the threads and turns it off."""

    def __init__(self, apply, threads: int, every: float = FOLLOW_EVERY_S, clock=time.monotonic) -> None:
        self.apply, self.threads, self.every, self.clock = apply, threads, every, clock
        self.share = CoreShare()
        self.next = clock() + every
        self.fixed = bool(environment().threads)

    def tick(self) -> int:
        """Look again when it is time; the threads in use."""
        if self.fixed or self.clock() < self.next:
            return self.threads
        self.next = self.clock() + self.every
        wanted = threads_for_load(_cores(), self.share.others())
        if wanted != self.threads:
            self.apply(wanted)
            self.threads = wanted
        return self.threads


def installed(runtime: str) -> bool:
    """Whether ``runtime``'s package is installed (found, not imported)."""
    return importlib.util.find_spec(PACKAGES[runtime]) is not None


def _setting(setting: str | None) -> str:
    """The runtime asked for: ``setting``, else ``$SISEPAI_RUNTIME``, else ``auto``."""
    return (setting or environment().runtime or "auto").lower()


def resolve(setting: str | None = None) -> str:
    """The runtime a setting names: ``auto`` (or nothing, or ``$SISEPAI_RUNTIME``) picks the first
    installed of :data:`PREFERENCE`; a runtime named outright must be installed."""
    setting = _setting(setting)
    if setting == "auto":
        return next(r for r in PREFERENCE if installed(r))
    if setting not in RUNTIMES:
        raise SisepaiError(f"unknown runtime {setting!r} (one of auto, {', '.join(RUNTIMES)})")
    if not installed(setting):
        raise SisepaiError(f"runtime {setting!r} needs the package {PACKAGES[setting]!r}: pip install {PACKAGES[setting]}")
    return setting


def is_named(setting: str | None = None) -> bool:
    """Whether a runtime was asked for by name (the argument, else ``$SISEPAI_RUNTIME``), not ``auto``.

    >>> is_named("openvino"), is_named("auto")
    (True, False)
    """
    return _setting(setting) != "auto"


def exports_dir() -> Path:
    """The cache of exported detectors: ``$SISEPAI_HOME/exports``."""

    return home() / "exports"


def file_hash(path: Path) -> str:
    """The first 16 hex digits of a file's SHA-256: how exports and measurement records name a
    version of a model's weights."""

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


QUANTIZED = "openvino-int8"
"""The runtime of the detector in 8-bit integers: an OpenVINO model quantized offline from the
weights (``python -m sisepai.models.training.quantize_detector``) and kept beside them, never made
at run time (it needs training pictures to calibrate)."""


class NoQuantizedModel(SisepaiError):
    """The weights have no 8-bit model beside them."""


def quantized_folder(weights: Path, imgsz: int = 640, folder: Path | None = None) -> Path:
    """Where the 8-bit model of ``weights`` lives: beside them (or in ``folder``), named by their hash.

    >>> import tempfile; weights = Path(tempfile.mkdtemp()) / "detector.pt"; _ = weights.write_bytes(b"x")
    >>> quantized_folder(weights).name
    'detector-int8-2d711642b726b044-640'
    """
    return (folder or weights.parent) / f"{weights.stem}-int8-{file_hash(weights)}-{imgsz}"


def exported_detector(weights: Path, runtime: str, imgsz: int = 640, folder: Path | None = None) -> Path:
    """The detector ``weights`` exported for ``runtime`` (the path ultralytics loads), made once and
    kept under the weights' hash. The export is built in a temporary folder and moved into place
    whole, so a run stopped halfway leaves nothing that looks finished. The 8-bit model
    (:data:`QUANTIZED`) is never made here: a :class:`NoQuantizedModel` says when there is none."""
    if runtime == "torch":
        return weights
    if runtime == QUANTIZED:
        target = quantized_folder(weights, imgsz) / f"{weights.stem}_openvino_model"
        if not (target / f"{weights.stem}.xml").is_file():
            raise NoQuantizedModel(f"{weights.name} has no 8-bit model beside it; make one with: python -m "
                                   "sisepai.models.training.quantize_detector --weights " + str(weights) + " --data DIR")
        return target
    folder = folder or exports_dir()
    key = f"{weights.stem}-{file_hash(weights)}-{imgsz}-{runtime}-dynamic"
    done = folder / key
    target = done / (f"{weights.stem}_openvino_model" if runtime == "openvino" else f"{weights.stem}.onnx")
    if target.exists():
        return target

    folder.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=folder))
    try:
        shutil.copyfile(weights, work / weights.name)
        model = yolo()(str(work / weights.name), task="obb")
        # dynamic input shapes: ultralytics then pads a frame only to the stride, as it does for the
        # .pt weights (a fixed 640x640 input pads a 16:9 frame far more, and reads it a little otherwise)
        with warnings.catch_warnings():  # the tracer's deprecation notices are not the user's business
            warnings.simplefilter("ignore")
            model.export(format=FORMATS[runtime], imgsz=imgsz, dynamic=True, device="cpu", verbose=False)
        (work / weights.name).unlink()
        if not (work / target.name).exists():
            raise RuntimeError(f"the {runtime} export of {weights} left no {target.name}")
        try:
            os.replace(work, done)
        except OSError:  # another process finished the same export first
            if not target.exists():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def limit_threads(model, threads: int, exported: Path | None) -> None:
    """Run an ultralytics ``model`` loaded from ``exported`` (:func:`exported_detector`), after its
    first prediction set it up, on at most ``threads`` threads, whatever its runtime. PyTorch's
    setting is process-wide, while OpenVINO and ONNX Runtime each compile their network for every
    core unless told, which on a busy machine contends as PyTorch's second thread did
    (:func:`inference_threads`); compiling again needs the export's path."""
    import torch

    torch.set_num_threads(threads)
    backend = getattr(getattr(getattr(model, "predictor", None), "model", None), "backend", None)
    if exported is None and (hasattr(backend, "ov_compiled_model") or hasattr(backend, "session")):
        raise ValueError("an exported detector's threads are set from its export: pass its path")
    if hasattr(backend, "ov_compiled_model"):  # OpenVINO: compile again with a thread count

        compile_model = backend.compile_model
        # full 32-bit arithmetic, as PyTorch's: on a CPU with bfloat16 units OpenVINO would otherwise
        # compute in bfloat16, faster but reading borderline cards otherwise
        config = {**compile_model.keywords.get("config", {}), "INFERENCE_NUM_THREADS": threads,
                  "INFERENCE_PRECISION_HINT": "f32"}
        backend.compile_model = partial(compile_model.func, *compile_model.args,
                                        **{**compile_model.keywords, "config": config})
        xml = exported if exported.suffix == ".xml" else next(exported.glob("*.xml"))
        core = backend.ov.Core()
        backend.ov_compiled_model = backend.compile_model(core.read_model(model=str(xml), weights=xml.with_suffix(".bin")))
    elif hasattr(backend, "session"):  # ONNX Runtime: a session with a thread count
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        backend.session = onnxruntime.InferenceSession(str(exported), options,
                                                       providers=backend.session.get_providers())

