"""A ``SISEPAI_HOME`` of a test's own that shares the detector's exports with the whole run.

The detector runs from an export made once per weights under ``$SISEPAI_HOME/exports``
(:func:`sisepai.vision.recognition.runtime.exported_detector`). A test that gives a command a home
of its own (for its decks) links that folder to the run's, so each such test does not export the
same weights again; the tests of the export itself keep their own.
"""

from __future__ import annotations

from pathlib import Path

from sisepai.engine.environment import home

SHARED_EXPORTS = home() / "exports"
"""The run's own exports, as the home was before any test set ``SISEPAI_HOME``."""


def own_home(path: Path) -> Path:
    """``path``, made, with its ``exports`` the run's shared folder; returned for use inline.

    >>> import tempfile; h = own_home(Path(tempfile.mkdtemp()) / "home")
    >>> (h / "exports").resolve() == SHARED_EXPORTS.resolve()
    True
    """
    path.mkdir(parents=True, exist_ok=True)
    SHARED_EXPORTS.mkdir(parents=True, exist_ok=True)
    link = path / "exports"
    if not link.exists():
        link.symlink_to(SHARED_EXPORTS, target_is_directory=True)
    return path
