"""What :mod:`.choose` judges: a candidate is a detector and a reader (``None``: the shipped one),
read one way: as they are, with one :class:`~sisepai.vision.recognition.profile.ReadingProfile`
setting changed, with the shipped detector in another runtime, or as the round's first models.

>>> Candidate().name, Candidate(reader=Path("runs/rd26/reader/best.pt")).name
('shipped+shipped', 'shipped+best')
>>> Candidate(setting=("nms_iou", 0.7)).name, Candidate(runtime="onnx").name
('shipped+shipped nms_iou=0.7', 'shipped+shipped runtime=onnx')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DEFAULT_DETECTOR
from sisepai.vision.recognition.detector import Detector
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as DEFAULT_READER
from sisepai.vision.recognition.reader import Reader
from sisepai.vision.recognition.recognize import Recognizer
from sisepai.vision.recognition.runtime import QUANTIZED, exported_detector, file_hash


@dataclass(frozen=True)
class Candidate:
    """Models and how they are read: at most one of ``setting``, ``runtime`` and ``round_start``."""

    detector: Path | None = None
    reader: Path | None = None
    setting: tuple[str, object] | None = None
    """A reading setting of these models: a ReadingProfile field and its value."""
    runtime: str | None = None
    """The shipped detector in this runtime (``openvino-int8`` ...)."""
    round_start: bool = False
    """The round's first models, read as they are: every candidate is measured against them too."""

    @property
    def name(self) -> str:
        """How the tables and the record name it."""
        det = self.detector
        name = f"{det.parent.parent.name}/{det.stem}" if det and self.reader is None else (det.stem if det else "shipped")
        name += f"+{self.reader.stem if self.reader else 'shipped'}"
        way = self.way
        return name + (" " + "=".join(map(str, next(iter(way.items())))).lower() if way else "")

    @property
    def way(self) -> dict | None:
        """How the models are read, as the record's ``setting`` says it (``None``: as they are)."""
        if self.runtime:
            return {"runtime": self.runtime}
        if self.round_start:
            return {"round": "start"}
        return dict([self.setting]) if self.setting else None

    def models(self) -> dict[str, str]:
        """The models' hashes, as records name them."""
        return {"detector": file_hash(self.detector or DEFAULT_DETECTOR), "reader": file_hash(self.reader or DEFAULT_READER)}

    def readings_name(self, default_runtime: str) -> str:
        """How its readings are named in the cache, the same for every set: the models' hashes and
        the way they are read (the shipped detector's readings are its runtime's)."""
        if self.runtime:
            tag = f"-runtime-{runtime_tag(self.runtime)}"
        else:
            tag = f"-{self.setting[0]}-{self.setting[1]}".lower() if self.setting else ""
            if self.detector is None and default_runtime != "openvino":
                tag += f"-runtime-{runtime_tag(default_runtime)}"
        models = self.models()
        return f"{models['detector']}-{models['reader']}{tag}"

    def recognizer(self) -> Recognizer:
        """The recogniser that reads as this candidate does."""
        if self.runtime:
            return Recognizer(Detector.load(DEFAULT_DETECTOR, runtime=self.runtime), Reader.load(DEFAULT_READER))
        recognizer = Recognizer.load(self.detector, reader_weights=self.reader)
        if self.setting:
            recognizer = recognizer.with_profile(replace(recognizer.profile, **dict([self.setting])))
        return recognizer


def candidates_of(detectors: list[Path], readers: list[Path], settings: list[tuple[str, object]],
                  runtimes: list[str], start: tuple[Path | None, Path | None]) -> list[Candidate]:
    """The shipped models first, the round's start (when it is no longer shipped), each detector
    and reader alone, each pair, each setting and each runtime.

    >>> [c.name for c in candidates_of([], [Path("a/rd.pt")], [], ["onnx"], (None, None))]
    ['shipped+shipped', 'shipped+rd', 'shipped+shipped runtime=onnx']
    """
    out = [Candidate()] + ([Candidate(*start, round_start=True)] if any(start) else [])
    out += [Candidate(detector=d) for d in detectors] + [Candidate(reader=r) for r in readers]
    out += [Candidate(d, r) for d in detectors for r in readers] + [Candidate(setting=s) for s in settings]
    return out + [Candidate(runtime=r) for r in runtimes]


def runtime_tag(runtime: str) -> str:
    """How a runtime's readings of the shipped detector are named in the cache: the 8-bit model is
    made offline and may be made again from the same weights (other calibration, other layers kept
    in 32 bits), so its own file's hash is part of the name; the other runtimes are exported from
    the weights alone.

    >>> runtime_tag("openvino")
    'openvino'
    """
    if runtime != QUANTIZED:
        return runtime
    model = exported_detector(DEFAULT_DETECTOR, QUANTIZED)
    return f"{runtime}-{file_hash(model / (DEFAULT_DETECTOR.stem + '.bin'))}"
