"""Where enrolled decks live, and what the recogniser loads for one.

Each deck is a folder ``$SISEPAI_HOME/decks/NAME`` (without ``SISEPAI_HOME``, the platform's user
data folder: ``~/.local/share/sisepai`` on Linux, ``~/Library/Application Support/sisepai`` on
macOS, ``%APPDATA%\\sisepai`` on Windows) holding:

- ``faces/CODE.png``: the faces as cut and straightened;
- ``reader.pt``: the reader adapted to the deck (same format as the shipped ``reader.pt``);
- ``detector.pt``, when enrolled with ``--adapt-detector``: the detector adapted to the deck;
- ``deck.json``: what enrolment measured and learned (aspect, paper colours, time, accuracy).

A deck folder appears whole or not at all: enrolment builds it under a hidden temporary name and
renames it at the end.

>>> import tempfile
>>> from sisepai.engine.environment import home_at
>>> with home_at(tempfile.mkdtemp()):
...     list_decks()
[]
>>> check_name("my deck")
Traceback (most recent call last):
...
sisepai.engine.errors.SisepaiError: deck names are 1 to 40 letters, digits, '-' or '_', not 'my deck'
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from sisepai.engine.environment import home
from sisepai.engine.errors import SisepaiError

NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")


def decks_dir() -> Path:
    return home() / "decks"


TMP_PATTERN = re.compile(r"\.(?P<name>[A-Za-z0-9_-]{1,40})\.tmp-(?P<pid>[0-9]+)(?:-old)?|\.faces-(?P<server>[0-9]+)-[A-Za-z0-9_]+")
"""A deck being built: ``.NAME.tmp-PID`` in the decks folder, by process PID; or the faces a
server (PID) handed to one: ``.faces-PID-XXXX``."""


def new_faces_folder() -> Path:
    """A new folder in the decks folder for faces on their way to ``deck add`` (the service's
    My deck): ``.faces-PID-XXXX``, which :func:`remove_stale_builds` removes once PID is gone."""

    decks_dir().mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".faces-{os.getpid()}-", dir=decks_dir()))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: leave its folder alone
    return True


def remove_stale_builds() -> list[str]:
    """Delete the half-built deck folders of enrolments whose process is gone (killed, or the
    machine stopped); returns their names. A build still running is left alone.

    >>> import tempfile
    >>> from sisepai.engine.environment import home_at
    >>> with home_at(tempfile.mkdtemp()):
    ...     (decks_dir() / ".mine.tmp-999999999").mkdir(parents=True)
    ...     remove_stale_builds()
    ['.mine.tmp-999999999']
    """
    folder = decks_dir()
    if not folder.is_dir():
        return []
    removed = []
    for p in sorted(folder.iterdir()):
        m = TMP_PATTERN.fullmatch(p.name)
        if m and p.is_dir() and not _alive(int(m["pid"] or m["server"])):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
    return removed


def check_name(name: str) -> str:
    """``name`` when it is a safe deck name (it becomes a folder name), else a :class:`SisepaiError`."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise SisepaiError(f"deck names are 1 to 40 letters, digits, '-' or '_', not {name!r}", code="deck_name")
    return name


def deck_path(name: str) -> Path:
    return decks_dir() / check_name(name)


def deck_exists(name: str) -> bool:
    """Whether a deck of this (safe) name is enrolled.

    >>> deck_exists("no-such-deck-here")
    False
    """
    return (deck_path(name) / "reader.pt").is_file()


def list_decks() -> list[str]:
    """The enrolled decks' names, sorted (half-built temporary folders are not decks)."""
    folder = decks_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.is_dir() and NAME_PATTERN.fullmatch(p.name) and (p / "reader.pt").is_file())


def deck_info(name: str) -> dict:
    """The deck's ``deck.json``; a :class:`SisepaiError` naming the known decks when there is none."""
    path = deck_path(name)
    if not (path / "reader.pt").is_file():
        known = ", ".join(list_decks()) or "none yet; add one with: sisepai deck add NAME FACES_DIR"
        raise SisepaiError(f"no deck named {name!r} (decks: {known})", code="unknown_deck", name=name)
    info_file = path / "deck.json"
    return json.loads(info_file.read_text()) if info_file.is_file() else {"name": name}


def reader_weights(name: str) -> Path:
    """The deck's adapted reader weights (checked to exist)."""
    deck_info(name)
    return deck_path(name) / "reader.pt"


def detector_weights(name: str) -> Path | None:
    """The deck's adapted detector, or None when it was enrolled without one (the shipped one reads it)."""
    deck_info(name)
    path = deck_path(name) / "detector.pt"
    return path if path.is_file() else None


def remove_deck(name: str) -> None:
    """Delete an enrolled deck."""
    deck_info(name)
    shutil.rmtree(deck_path(name))
