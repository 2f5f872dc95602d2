"""``sisepai.engine``'s public names: each loads from its module on first use, and what type
checkers see (the ``TYPE_CHECKING`` imports) is the same list."""

import ast
import importlib
from pathlib import Path

import sisepai.engine as engine


def _checked_names() -> set[str]:
    tree = ast.parse(Path(engine.__file__).read_text())
    guard = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING")
    return {a.name for node in guard.body if isinstance(node, ast.ImportFrom) for a in node.names}


def test_type_checkers_see_every_lazy_name_and_no_other():
    assert _checked_names() == set(engine._HOME)


def test_every_public_name_is_its_modules_own():
    for name in engine.__all__:
        module = engine._HOME.get(name, "claims")
        assert getattr(engine, name) is getattr(importlib.import_module(f"sisepai.engine.{module}"), name), name
