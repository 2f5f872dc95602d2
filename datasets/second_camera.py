"""Scenes from a second camera: labelled pictures made by a generator written apart from the
project's (``../shared/stranger/``), for judging only.

A recogniser that reads only the pictures of the generator it was trained on reads another's
worse; these scenes keep that difference in view. They are never trained on, nor crops of them,
and their layouts and camera are not copied into the project's generator.

:func:`write_stranger_scenes` runs that generator into a folder of its own, then writes its
scenes as one of this project's datasets (``images/val``, ``annotations/val``), so every tool that
reads a dataset (:func:`sisepai.models.evaluation.evaluate.evaluate_recognizer`, the shipping rule) reads them as it reads
the project's own:

- a card the other generator calls ``required`` (a reader could name it) is ``labelled``;
- a face-up card it does not require is ``optional``: read right, it is neither found nor false;
- its ``fan`` scenes are the ``fan`` layout, its ``hand`` scenes ``hand``, its ``table`` ``table``.

>>> card = {"card": "GA", "polygon": [[0, 0], [10, 0], [10, 40], [0, 40]], "head_visible": 0.2, "required": False}
>>> as_project_card(card)["optional"], as_project_card(card)["labelled"]
(True, False)
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from sisepai.engine.cards import CARD_CODES
from sisepai.engine.environment import STRANGER, environment
from sisepai.engine.errors import SisepaiError

STRANGER_ENV = STRANGER
"""The environment variable naming the second camera's folder (default: ``../shared/stranger``
beside the checkout)."""
KINDS_AS_LAYOUTS = {"table": "table", "fan": "fan", "hand": "hand"}
"""The other generator's scene kinds, as this project's layouts."""


def stranger_folder() -> Path | None:
    """The second camera's generator folder, or ``None`` where this machine does not have it.

    >>> folder = stranger_folder()
    >>> folder is None or (folder / "scenes.py").is_file()
    True
    """
    root = Path(environment().stranger or Path(__file__).resolve().parents[1].parent / "shared" / "stranger")
    return root if (root / "scenes.py").is_file() else None


def as_project_card(card: dict) -> dict:
    """One of the other generator's cards as a card of this project's annotations."""
    code = card["card"]
    face_up = code in CARD_CODES
    required = bool(card.get("required")) and face_up
    return {"card": code if face_up else "back", "class_id": CARD_CODES.index(code) if face_up else -1,
            "face_up": face_up, "corners": [[float(x), float(y)] for x, y in card["polygon"]],
            "labelled": required, "optional": face_up and not required,
            "head_visible": float(card.get("head_visible", 0.0)), "zone": "stranger", "meld": None}


def convert(raw: Path, out: Path) -> int:
    """The other generator's scenes in ``raw`` written as this project's dataset in ``out``;
    returns how many scenes."""
    (out / "images" / "val").mkdir(parents=True, exist_ok=True)
    (out / "annotations" / "val").mkdir(parents=True, exist_ok=True)
    n = 0
    for label in sorted(raw.glob("*.json")):
        rec = json.loads(label.read_text())
        name = label.stem
        shutil.copyfile(raw / rec["image"], out / "images" / "val" / f"{name}.jpg")
        project = {"image": f"images/val/{name}.jpg", "layout": KINDS_AS_LAYOUTS[rec["kind"]], "split": "val",
                   "generator": "stranger", "cards": [as_project_card(c) for c in rec["cards"]]}
        for key in ("hand", "best_points_seesek"):
            if key in rec:
                project[key] = rec[key]
        (out / "annotations" / "val" / f"{name}.json").write_text(json.dumps(project))
        n += 1
    return n


def write_stranger_scenes(out: Path, n: int, seed: int, faces: Path | None = None,
                          fonts: list[str] | None = None) -> Path:
    """``n`` scenes of the second camera with ``seed`` in ``out`` (made once and kept): the cards
    are the scans in ``faces``, or the other generator's plain design printed in ``fonts``."""
    done = out / "dataset.json"
    if done.is_file() and json.loads(done.read_text()).get("n") == n:
        return out
    folder = stranger_folder()
    if folder is None:
        raise SisepaiError(f"the second camera's generator is not on this machine (set {STRANGER_ENV})")
    out = out.resolve()
    raw = out.with_name(out.name + ".raw")
    shutil.rmtree(raw, ignore_errors=True)
    cmd = [sys.executable, str(folder / "scenes.py"), str(raw), "--n", str(n), "--seed", str(seed)]
    if faces is not None:
        cmd += ["--faces", str(Path(faces).resolve())]
    if fonts:
        cmd += ["--fonts", ",".join(fonts)]
    made = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    if made.returncode != 0:
        raise SisepaiError(f"the second camera's generator failed: {made.stderr.strip().splitlines()[-1:]}")
    if not any(raw.glob("*.json")):
        raise SisepaiError(f"the second camera's generator wrote no scenes into {raw}")
    shutil.rmtree(out, ignore_errors=True)
    count = convert(raw, out)
    shutil.rmtree(raw, ignore_errors=True)
    done.write_text(json.dumps({"generator": "stranger", "n": count, "seed": seed,
                                "faces": faces.name if faces else None,
                                "fonts": [Path(f).name for f in fonts or []]}) + "\n")
    return out
