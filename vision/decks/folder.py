"""An enrolled deck's folder: its format, and its build, whole or not at all.

Deck ``NAME`` lives in ``decks_dir() / NAME`` (:mod:`.store` finds and reads it):

- ``faces/CODE.png``: the deck's faces, as enrolled (:meth:`.faces.DeckFaces.save`);
- ``reader.pt``: the reader adapted to them, which recognition loads;
- ``detector.pt``: the detector adapted to them, when enrolment adapted one;
- ``deck.json``: :data:`DECK_FIELDS`, what ``deck list``, ``/api/decks`` and the recogniser read.

:func:`building` is the only writer: it builds the folder as ``.NAME.tmp-PID`` and moves it into
place whole, so a killed enrolment never leaves half a deck (:func:`.store.remove_stale_builds`
clears what it left).

>>> import tempfile
>>> from sisepai.engine.environment import home_at
>>> with home_at(tempfile.mkdtemp()):
...     with building("mine") as folder:
...         _ = (folder / "reader.pt").write_bytes(b"weights")
...         (folder / "scratch").mkdir()
...         write_deck_json(folder, {"name": "mine", "faces": ["GK"], "aspect": 4.2, "has_joker": False,
...                                  "created": "2026-12-03T12:00:00", "paper_colours": {}})
...     sorted(p.name for p in deck_path("mine").iterdir()), sorted(deck_info("mine"))
(['deck.json', 'reader.pt'], ['aspect', 'created', 'faces', 'has_joker', 'name'])
"""

from __future__ import annotations

import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sisepai.engine.errors import SisepaiError

from .store import check_name, deck_info, deck_path, decks_dir, remove_stale_builds  # noqa: F401 - deck_info: the example

DECK_FILE = "deck.json"
CONTENTS = ("faces", "reader.pt", "detector.pt", DECK_FILE)
"""Everything a deck folder holds; anything else a build made (its scratch files) is left out."""
DECK_FIELDS = ("name", "created", "faces", "aspect", "has_joker", "reading_before", "reading_after", "held_aside",
               "scene_check", "enrol_seconds", "peak_memory_mb")
"""What ``deck.json`` keeps: the fields something reads after enrolment (``deck list`` and
``/api/decks`` the first five and the readings; the deck benchmark the time and memory)."""


def check_new_deck(name: str, force: bool = False) -> None:
    """A :class:`SisepaiError` unless ``name`` is a safe deck name not taken (or ``force``)."""
    check_name(name)
    if deck_path(name).exists() and not force:
        raise SisepaiError(f"a deck named {name!r} exists: choose another name, or --force to replace it",
                           code="deck_exists", name=name)


def write_deck_json(folder: Path, info: dict) -> None:
    """Write ``info``'s :data:`DECK_FIELDS` (the rest is left out) as ``folder/deck.json``."""
    kept = {k: info[k] for k in DECK_FIELDS if k in info}
    (Path(folder) / DECK_FILE).write_text(json.dumps(kept, indent=1) + "\n")


def build_folder(name: str, pid: int | None = None) -> Path:
    """The hidden folder process ``pid`` (default: this one) builds deck ``name`` in.

    >>> build_folder("family", 42).name
    '.family.tmp-42'
    """
    return decks_dir() / f".{name}.tmp-{os.getpid() if pid is None else pid}"


@contextmanager
def building(name: str, force: bool = False) -> Iterator[Path]:
    """A fresh hidden folder to build deck ``name`` in; when the block ends without an error, the
    folder (only :data:`CONTENTS`) replaces any deck of that name at once. On an error, or a kill,
    nothing changes. ``force`` allows replacing an enrolled deck."""
    check_new_deck(name, force)
    decks_dir().mkdir(parents=True, exist_ok=True)
    remove_stale_builds()  # what a killed enrolment left
    tmp = build_folder(name)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        yield tmp
        if not (tmp / DECK_FILE).is_file():
            raise SisepaiError(f"deck {name!r}: the build wrote no {DECK_FILE}")
        for extra in (p for p in tmp.iterdir() if p.name not in CONTENTS):
            shutil.rmtree(extra) if extra.is_dir() else extra.unlink()
        final = deck_path(name)
        if final.exists():
            old = decks_dir() / f".{name}.tmp-{os.getpid()}-old"
            final.rename(old)  # out of the way in one step, then the new one in
            tmp.rename(final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
