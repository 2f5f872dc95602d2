"""The detector in 8-bit integers for OpenVINO: post-training quantization with NNCF.

The detector's OpenVINO export (:func:`sisepai.vision.recognition.runtime.exported_detector`) is
quantized on pictures of generated *training* data (never tuning or test data), each letterboxed as
the detector sees it (:class:`~sisepai.vision.recognition.direct.DirectOpenVINO`), with full bias
correction. What stays in 32 bits (``--keep``): ``post``, the head's decoding after its last
convolutions (ultralytics' own recipe: the head's adds, subtractions, products and quotients, its
distribution focal loss and its sigmoid); ``ends`` (the default), that and the first convolution,
which sees the picture itself; ``head``, the whole head; ``head-ends``, the whole head and the first
convolution.

The result is written beside the weights, as
``DIR/detector-int8-HASH-640/detector_openvino_model/`` (HASH: the weights' own,
:func:`~sisepai.vision.recognition.runtime.quantized_detector` finds it), with the export's
metadata and ``quantized.json`` saying how it was made. The runtime ``openvino-int8`` reads it.

    python -m sisepai.models.training.quantize_detector --data data/mixed1711 data/held1701 data/heap1702 \
        data/sg1713 data/tw1712 data/plain1714

needs ``nncf`` (``pip install 'sisepai[train]'``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import time
from pathlib import Path

from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS
from sisepai.vision.recognition.direct import DirectOpenVINO
from sisepai.vision.recognition.runtime import exported_detector, file_hash, quantized_folder

HEAD = "__module.model.22"
DECODING = (rf"{HEAD}/.*/Add", rf"{HEAD}/.*/Sub.*", rf"{HEAD}/.*/Mul.*", rf"{HEAD}/.*/Div.*", rf"{HEAD}\.dfl.*")
"""The head's decoding after its last convolutions: its adds, subtractions, products and
quotients and its distribution focal loss (ultralytics' own recipe keeps them in 32 bits)."""
WHOLE_HEAD = (rf"{HEAD}[./].*",)
FIRST_CONVOLUTION = (r"__module\.model\.0[./].*",)
"""The first convolution, which sees the picture itself."""
KEEPS = {"ends": DECODING + FIRST_CONVOLUTION, "post": DECODING, "head": WHOLE_HEAD,
         "head-ends": WHOLE_HEAD + FIRST_CONVOLUTION}
"""What each ``--keep`` holds in 32 bits (name patterns of the OpenVINO graph's operations), with
every sigmoid: ``ends`` (the default) the decoding and the first convolution, ``post`` the
decoding, ``head`` the whole head, ``head-ends`` the whole head and the first convolution."""


def calibration_pictures(folders: list[Path], count: int) -> list[Path]:
    """``count`` training pictures spread evenly over ``folders`` (their ``images/train``)."""
    pictures = [sorted((f / "images" / "train").glob("*.jpg")) for f in folders]
    if not any(pictures):
        raise SystemExit(f"no training pictures in {', '.join(map(str, folders))} (images/train/*.jpg)")
    per = -(-count // len(folders))
    chosen = []
    for found in pictures:
        step = max(1, len(found) // per)
        chosen += found[::step][:per]
    return chosen[:count]


def ignored_scope(keep: str):
    """What stays in 32 bits (:data:`KEEPS`), as NNCF's ignored scope."""
    import nncf

    return nncf.IgnoredScope(patterns=list(KEEPS[keep]), types=["Sigmoid"], validate=False)


def quantize(weights: Path, folders: list[Path], out_dir: Path, count: int = 600, keep: str = "ends",
             imgsz: int = 640) -> Path:
    """Quantize ``weights``' OpenVINO export on ``count`` pictures of ``folders``; the new model's folder."""
    import cv2
    import nncf
    import openvino as ov

    exported = exported_detector(weights, "openvino", imgsz)
    network = DirectOpenVINO(exported, imgsz, 1)
    pictures = calibration_pictures(folders, count)
    data = nncf.Dataset(pictures, lambda p: network._input(cv2.imread(str(p)))[0].copy())
    t0 = time.perf_counter()
    model = nncf.quantize(network.network, data, preset=nncf.QuantizationPreset.MIXED, subset_size=len(pictures),
                          ignored_scope=ignored_scope(keep), fast_bias_correction=False)
    target = quantized_folder(weights, imgsz, out_dir)
    tmp = target.with_name(target.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model_dir = tmp / exported.name
    model_dir.mkdir(parents=True)
    ov.save_model(model, str(model_dir / f"{weights.stem}.xml"))
    metadata = (exported / "metadata.yaml").read_text()  # without the training machine's paths
    (model_dir / "metadata.yaml").write_text(re.sub(r"(?m)^description: .*$", "description: sisepai's card detector "
                                                    "(YOLOv8n-obb), in 8-bit integers", metadata))
    (tmp / "quantized.json").write_text(json.dumps({
        "weights": weights.name, "weights_hash": file_hash(weights), "imgsz": imgsz, "keep_32_bit": keep,
        "calibration": [f"{p.parent.parent.parent.name}/{p.name}" for p in pictures],
        "nncf": nncf.__version__, "openvino": ov.__version__, "seconds": round(time.perf_counter() - t0, 1)}, indent=1) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)
    return target


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sisepai.models.training.quantize_detector",
                                description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="example: python -m sisepai.models.training.quantize_detector --data data/mixed1711 data/held1701")
    p.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS, help="the detector (default: the shipped one)")
    p.add_argument("--data", type=Path, nargs="+", required=True, metavar="DIR",
                   help="generated training datasets whose pictures calibrate (never tuning or test data)")
    p.add_argument("--count", type=int, default=600, help="calibration pictures (default 600)")
    p.add_argument("--keep", choices=KEEPS, default="ends",
                   help="what stays in 32 bits (default: the first convolution and the head's decoding)")
    p.add_argument("--out", type=Path, default=None, metavar="DIR", help="where to write (default: beside the weights)")
    args = p.parse_args(argv)
    if not args.weights.is_file():
        p.error(f"no such detector: {args.weights}")
    target = quantize(args.weights, args.data, args.out or args.weights.parent, args.count, args.keep)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
