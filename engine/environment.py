"""Every setting sisepai takes from the environment, read in this one module.

The rest of sisepai asks :func:`environment` for an :class:`Environment` and never reads
``os.environ`` itself; the only writes are :func:`hand_to_ultralytics` (ultralytics reads its
settings from the environment when it is imported), :func:`scratch_for_torch` (PyTorch's
compile cache and every child process's temporary files in one folder) and :func:`home_at` (a
home of one's own, for a doctest or a benchmark). A child process is handed
``{**os.environ, ...}`` where it is started. ``tests/test_structure.py`` checks that no other
module reads or writes the environment.

>>> env = Environment.read({"SISEPAI_HOME": "/tmp/sisepai-home", "SISEPAI_THREADS": "2"})
>>> str(env.home), env.threads, env.runtime
('/tmp/sisepai-home', '2', None)
>>> Environment.read({"SISEPAI_PORT": "8100", "SISEPAI_TOKEN": ""}).service
{'SISEPAI_PORT': '8100'}
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

THREADS = "SISEPAI_THREADS"
"""Inference threads, fixed (otherwise they follow the machine's load)."""
RUNTIME = "SISEPAI_RUNTIME"
"""The detector's runtime: auto, openvino, onnx or torch."""
DECKS = "SISEPAI_DECKS"
"""The folder of real decks' scans (default ``../shared/decks`` beside the checkout)."""
STRANGER = "SISEPAI_STRANGER"
"""The second camera's generator (default ``../shared/stranger`` beside the checkout)."""
SERVICE_PREFIX = "SISEPAI_"
"""The service's settings (``SISEPAI_HOST``, ``SISEPAI_DB`` ...): their names and parsing are
the service's settings module's (``ENVIRONMENT``)."""


def _data_home(env: Mapping[str, str]) -> Path:
    """``$SISEPAI_HOME``, or the platform's user data folder for sisepai."""
    if env.get("SISEPAI_HOME"):
        return Path(env["SISEPAI_HOME"]).expanduser()
    if sys.platform == "win32":
        return Path(env.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "sisepai"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "sisepai"
    return Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "sisepai"


@dataclass(frozen=True)
class Environment:
    """The settings the environment gives, as text where a caller parses them (an empty variable
    is unset)."""

    home: Path
    """Where sisepai keeps its own files: enrolled decks, exported detectors, the certificate."""
    threads: str | None = None
    runtime: str | None = None
    decks: str | None = None
    stranger: str | None = None
    display: str | None = None
    """``$DISPLAY``: whether a window can be shown (``watch --show``)."""
    service: dict[str, str] = field(default_factory=dict)
    """Every other non-empty ``SISEPAI_*`` variable, by name, for the service's settings."""

    @classmethod
    def read(cls, env: Mapping[str, str] | None = None) -> "Environment":
        """The settings of ``env`` (default: this process's environment)."""
        env = os.environ if env is None else env
        own = {THREADS, RUNTIME, DECKS, STRANGER, "SISEPAI_HOME"}
        return cls(home=_data_home(env), threads=env.get(THREADS) or None, runtime=env.get(RUNTIME) or None,
                   decks=env.get(DECKS) or None, stranger=env.get(STRANGER) or None,
                   display=env.get("DISPLAY") or None,
                   service={k: v for k, v in env.items() if k.startswith(SERVICE_PREFIX) and v and k not in own})


def environment() -> Environment:
    """This process's settings, as the environment gives them now.

    >>> environment().home.name
    'sisepai'
    """
    return Environment.read()


def home() -> Path:
    """Where sisepai keeps its own files (:attr:`Environment.home`)."""
    return environment().home


@contextmanager
def _set_for_a_while(values: dict[str, str]) -> Iterator[None]:
    """Within it, the environment holds ``values``; afterwards each variable is as it was."""
    saved = {k: os.environ.get(k) for k in values}
    try:
        os.environ.update(values)
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextmanager
def home_at(folder: str | Path) -> Iterator[Path]:
    """Within it, sisepai keeps its files in ``folder`` (``SISEPAI_HOME``), this process and the
    children it starts; e.g. a doctest's own empty home.

    >>> with home_at("/tmp/sisepai-home"):
    ...     str(home())
    '/tmp/sisepai-home'
    """
    with _set_for_a_while({"SISEPAI_HOME": str(folder)}):
        yield Path(folder)


ULTRALYTICS_CONFIG = Path(__file__).resolve().parents[1] / "vision" / ".ultralytics"
"""ultralytics' settings folder when ``YOLO_CONFIG_DIR`` names none: inside the project, never the user's."""


def hand_to_ultralytics() -> None:
    """Set ultralytics' own settings, which it reads from the environment when imported: offline,
    no installs, quiet, and its settings folder in the project unless one is named."""
    os.environ["YOLO_OFFLINE"] = "true"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ.setdefault("YOLO_VERBOSE", "false")
    if "YOLO_CONFIG_DIR" not in os.environ:
        ULTRALYTICS_CONFIG.mkdir(parents=True, exist_ok=True)
        os.environ["YOLO_CONFIG_DIR"] = str(ULTRALYTICS_CONFIG)


@contextmanager
def scratch_for_torch(folder: Path) -> Iterator[None]:
    """Within it, the temporary files of this process, its child processes and PyTorch's compile
    cache go to ``folder``; afterwards the environment is as it was.

    >>> import tempfile
    >>> with scratch_for_torch(Path("/tmp")):
    ...     tempfile.gettempdir()
    '/tmp'
    """

    try:
        with _set_for_a_while({"TMPDIR": str(folder), "TORCHINDUCTOR_CACHE_DIR": str(folder)}):
            tempfile.tempdir = None  # read TMPDIR again
            yield
    finally:
        tempfile.tempdir = None
