"""The detector in 8-bit integers for OpenVINO (``SISEPAI_RUNTIME=openvino-int8``), made from the
shipped weights with ultralytics' own exporter and NNCF, calibrated on generated scenes in the
training fonts (:data:`sisepai.datasets.splits.INT8_CALIBRATION_SEED`: no tuning or test scene).

    python -m sisepai.models.training.int8_export [--weights PT] [--scenes 80]

writes ``detector_int8_openvino_model/`` beside the weights, with ``weights_hash.txt`` naming the
weights it came from (:func:`sisepai.vision.recognition.runtime.int8_detector` uses it only for
those). The export reads a frame letterboxed to a fixed 640x640, where the 32-bit export pads a
frame only to the stride.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import warnings
from pathlib import Path


def export_int8(weights: Path, scenes: int = 80, progress=print) -> Path:
    """The 8-bit export of ``weights`` (see the module), made in a temporary folder and moved into
    place whole; returns its folder."""
    from sisepai.datasets.splits import INT8_CALIBRATION_SEED
    from sisepai.vision.recognition.runtime import INT8_HASH_FILE, file_hash, int8_folder
    from sisepai.vision.recognition.yolo_env import yolo

    from ..evaluation.deck_eval import write_scenes

    target = int8_folder(weights)
    work = Path(tempfile.mkdtemp(prefix="sisepai-int8-"))
    try:
        progress(f"int8: {scenes} calibration scenes in the training fonts")
        data = write_scenes(None, work / "calibration", scenes, INT8_CALIBRATION_SEED, font_split="train")
        shutil.copyfile(weights, work / weights.name)
        progress("int8: exporting (NNCF calibration)")
        with warnings.catch_warnings():  # the tracer's and NNCF's notices are not the user's business
            warnings.simplefilter("ignore")
            yolo()(str(work / weights.name), task="obb").export(
                format="openvino", int8=True, data=str(data / "data.yaml"), imgsz=640, device="cpu",
                verbose=False, fraction=1.0)
        made = work / f"{weights.stem}_int8_openvino_model"
        if not made.is_dir():
            raise RuntimeError(f"the export left no {made.name}")
        (made / INT8_HASH_FILE).write_text(file_hash(weights) + "\n")
        without_paths(made / "metadata.yaml")
        if target.exists():
            shutil.rmtree(target)
        shutil.move(str(made), target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def without_paths(metadata: Path) -> None:
    """Take the training and calibration folders of the machine that made the export out of
    ultralytics' ``metadata.yaml`` (they name nothing the export needs, and a shipped file names no
    machine's paths).

    >>> import tempfile
    >>> m = Path(tempfile.mkdtemp()) / "metadata.yaml"
    >>> _ = m.write_text("description: Ultralytics YOLOv8n-obb model trained on /srv/data/data.yaml\\nargs:\\n  data: /tmp/x/calibration/data.yaml\\n  batch: 1\\n")
    >>> without_paths(m); print(m.read_text())
    description: Ultralytics YOLOv8n-obb model (sisepai's card detector)
    args:
      data: calibration/data.yaml
      batch: 1
    <BLANKLINE>
    """
    import re

    text = metadata.read_text()
    text = re.sub(r"(?m)^(description: Ultralytics \S+ model).*$", r"\1 (sisepai's card detector)", text)
    text = re.sub(r"(?m)^(\s+data: ).*/(calibration/data\.yaml)$", r"\1\2", text)
    metadata.write_text(text)


def main(argv: list[str] | None = None) -> int:
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS

    p = argparse.ArgumentParser(prog="python -m sisepai.models.training.int8_export", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS, help="the detector's .pt (default: the shipped one)")
    p.add_argument("--scenes", type=int, default=80, help="calibration scenes (default 80)")
    args = p.parse_args(argv)
    if not args.weights.is_file():
        p.error(f"no such weights: {args.weights}")
    print(export_int8(args.weights, args.scenes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
