"""The reference pages name everything there is: every route of the OpenAPI document in
docs/api.md, and every command and subcommand of ``sisepai`` in docs/cli.md."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(prefix + (name,))
                found += _commands(sub, prefix + (name,))
    return found


def test_every_route_is_in_the_api_page():
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    page = (DOCS / "api.md").read_text()
    spec = create_app(Settings(db=":memory:", load_model=False)).openapi()
    missing = [f"{method.upper()} {path}" for path, ops in spec["paths"].items() for method in ops
               if not re.search(re.escape(path) + r"(?![\w/])", page)]
    assert not missing, f"docs/api.md does not name: {', '.join(missing)}"
    for answer in ("409", "429", "405"):
        assert answer in page


def test_every_command_is_in_the_cli_page():
    from sisepai.engine.cli import _register_extras, build_parser

    _register_extras()
    page = (DOCS / "cli.md").read_text()
    missing = [" ".join(c) for c in _commands(build_parser())
               if not re.search(r"sisepai\s+" + r"[^\n]*?".join(re.escape(w) for w in c) + r"(?![\w-])", page)]
    assert not missing, f"docs/cli.md does not name: {', '.join(missing)}"
