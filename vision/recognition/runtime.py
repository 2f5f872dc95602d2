"""Where the detector runs: PyTorch, or the same weights exported to OpenVINO or ONNX Runtime.

Training stays in PyTorch. For inference the detector's weights may be exported, offline, with the
exporter ultralytics ships (:func:`exported_detector`): once per weights file, into a cache folder
named by the weights' hash, so a change of weights makes a new export and an old one is never
used for new weights. ultralytics reads the export as it reads the ``.pt`` file (the same letterbox,
NMS and output), so only the network's arithmetic changes.

The runtime is one setting (``SISEPAI_RUNTIME``, or ``runtime=`` where a detector is loaded):
``auto`` (the default) takes the first of :data:`PREFERENCE` whose package is installed, which is
PyTorch where nothing else is. ``benchmarks/runtime_bench.py`` measures them side by side, speed
and readings.

>>> resolve("torch")
'torch'
>>> resolve("tensorflow")
Traceback (most recent call last):
...
sisepai.engine.errors.SisepaiError: unknown runtime 'tensorflow' (one of auto, torch, openvino, onnx)
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import warnings
from pathlib import Path

from sisepai.engine.errors import SisepaiError

RUNTIMES = ("torch", "openvino", "onnx", "openvino-int8")
PREFERENCE = ("openvino", "torch")
"""What ``auto`` takes, the first installed: OpenVINO where it is, else PyTorch. OpenVINO is the
fastest that reads the same: F1 within 0.003 of PyTorch's on the tuning scenes
(``benchmarks/results/runtime_bench.json``) and the same announcements on the tuning videos but
one card taken away a tenth of a second later and one false card fewer
(``benchmarks/results/runtime_events.json``). ONNX Runtime is there to be asked for."""
PACKAGES = {"torch": "torch", "openvino": "openvino", "onnx": "onnxruntime", "openvino-int8": "openvino"}
"""The package each runtime needs at inference."""
FORMATS = {"openvino": "openvino", "onnx": "onnx"}
"""ultralytics' export format of each runtime but PyTorch."""
ENV = "SISEPAI_RUNTIME"


THREADS_ENV = "SISEPAI_THREADS"
"""How many threads inference uses, whatever the runtime (a whole number of at least 1)."""


def inference_threads(setting: str | None = None, cores: int | None = None) -> int:
    """The threads inference uses (PyTorch's, OpenVINO's or ONNX Runtime's): ``SISEPAI_THREADS``
    when set, else one fewer than the cores (at least one, at most eight). A player's machine is
    always busy with something: on 2 cores with both busy, PyTorch on two threads took 662 ms to
    detect a frame against one's 147, and ``watch`` found 17 of 28 cards against 26; OpenVINO on
    two threads took 236 ms against one's 125 (``benchmarks/busy_bench.py``, each run in
    ``benchmarks/results/log.jsonl``). Quiet, one thread costs about 20 ms a looked-at frame.

    >>> inference_threads(cores=2), inference_threads(cores=16), inference_threads("3", cores=2)
    (1, 8, 3)
    >>> inference_threads("none", cores=2)
    Traceback (most recent call last):
    ...
    sisepai.engine.errors.SisepaiError: SISEPAI_THREADS must be a whole number of at least 1, not 'none'
    """
    setting = os.environ.get(THREADS_ENV) if setting is None else setting
    if setting:
        if not setting.strip().isdigit() or int(setting) < 1:
            raise SisepaiError(f"{THREADS_ENV} must be a whole number of at least 1, not {setting[:12]!r}")
        return int(setting)
    cores = cores or os.cpu_count() or 1
    return max(1, min(8, cores - 1))


def installed(runtime: str) -> bool:
    """Whether ``runtime``'s package is installed (found, not imported)."""
    return importlib.util.find_spec(PACKAGES[runtime]) is not None


def _setting(setting: str | None) -> str:
    """The runtime asked for: ``setting``, else ``$SISEPAI_RUNTIME``, else ``auto``."""
    return (setting or os.environ.get(ENV) or "auto").lower()


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
    from sisepai.vision.decks.store import home

    return home() / "exports"


def file_hash(path: Path) -> str:
    """The first 16 hex digits of a file's SHA-256: how exports and measurement records name a
    version of a model's weights."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


INT8_HASH_FILE = "weights_hash.txt"
"""In an 8-bit export's folder: the hash of the weights it was made from."""


def int8_folder(weights: Path) -> Path:
    """Where the 8-bit OpenVINO export of ``weights`` lies: beside them."""
    return weights.parent / f"{weights.stem}_int8_openvino_model"


def int8_detector(weights: Path) -> Path:
    """The 8-bit OpenVINO export of ``weights`` (``models/training/int8_export.py`` makes it, once,
    calibrated on training scenes); an export of other weights is never used."""
    folder = int8_folder(weights)
    made_from = folder / INT8_HASH_FILE
    if not made_from.is_file() or made_from.read_text().strip() != file_hash(weights):
        raise SisepaiError(f"no 8-bit export of {weights.name} (make it with: python -m "
                           "sisepai.models.training.int8_export --weights PATH)")
    return folder


def exported_detector(weights: Path, runtime: str, imgsz: int = 640, folder: Path | None = None) -> Path:
    """The detector ``weights`` exported for ``runtime`` (the path ultralytics loads), made once and
    kept under the weights' hash. The export is built in a temporary folder and moved into place
    whole, so a run stopped halfway leaves nothing that looks finished."""
    if runtime == "torch":
        return weights
    if runtime == "openvino-int8":
        return int8_detector(weights)
    folder = folder or exports_dir()
    key = f"{weights.stem}-{file_hash(weights)}-{imgsz}-{runtime}-dynamic"
    done = folder / key
    target = done / (f"{weights.stem}_openvino_model" if runtime == "openvino" else f"{weights.stem}.onnx")
    if target.exists():
        return target
    from sisepai.vision.recognition.yolo_env import yolo

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
        from functools import partial

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

