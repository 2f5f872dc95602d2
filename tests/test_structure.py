"""The code's shape: vision split by job, routes that declare what they use, no import back up a layer."""

import re
from pathlib import Path

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]


def test_vision_is_split_into_rooms_by_job():
    vision = ROOT / "vision"
    subpackages = [p for p in vision.iterdir() if (p / "__init__.py").is_file()]
    assert {p.name for p in subpackages} >= {"recognition", "live", "hand", "decks"}
    assert len(list(vision.glob("*.py"))) <= 8
    tests = ROOT / "tests" / "vision"
    assert {p.name for p in tests.iterdir() if (p / "__init__.py").is_file()} <= {p.name for p in subpackages}
    assert not list(tests.glob("test_*.py"))  # the tests mirror the rooms


def test_models_is_split_into_rooms_by_job():
    models = ROOT / "models"
    subpackages = {p.name for p in models.iterdir() if (p / "__init__.py").is_file()}
    assert subpackages == {"training", "evaluation", "tuning", "enrolment"}
    assert sorted(p.name for p in models.glob("*.py")) == ["__init__.py", "cli.py"]  # `sisepai train`: the rooms' front door
    tests = ROOT / "tests" / "models"
    assert {p.name for p in tests.iterdir() if p.is_dir() and (p / "__init__.py").is_file()} <= subpackages
    assert not list(tests.glob("test_*.py"))  # the tests mirror the rooms


def test_routes_take_what_they_use_as_dependencies():
    for path in (ROOT / "service" / "routes").glob("*.py"):
        text = path.read_text()
        assert "app.state" not in text, path.name
        assert not re.search(r"^from \.(decks|engine|gof|ledger|live|vision) import", text, re.M), path.name


def test_a_test_may_replace_the_model_through_dependency_overrides(tmp_path):
    from sisepai.service.deps import get_recognizer
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    app = create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False))
    app.dependency_overrides[get_recognizer] = lambda: object()
    with TestClient(app) as c:
        assert c.get("/api/health").json()["model"] is True


LAYERS = {
    "engine": {"engine"},
    "workers": {"workers"},
    "faces": {"engine", "faces"},
    "vision": {"engine", "faces", "vision"},
    "datasets": {"engine", "workers", "faces", "datasets"},
    "models": {"engine", "workers", "faces", "vision", "datasets", "models"},
    "ledger": {"engine", "ledger"},
    "service": {"engine", "faces", "vision", "ledger", "service"},
}
"""What each package may import: the engine is a leaf, and so are the worker processes the generator
and training start; the card facts (a deck's faces, the card's
geometry) use only the engine; vision and the generator use those two and never each other;
training uses all; the ledger (deals, totals, the roster, its databases) uses only the engine; the
service uses the engine, the card facts, vision and the ledger, never the generator or the
training code."""


def _import_graph() -> dict[str, set[str]]:
    """Every project module's imports of other project modules, those inside functions included."""
    import ast

    def name_of(path: Path) -> str:
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        return "sisepai." + ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    modules = {name_of(p): p for top in LAYERS for p in (ROOT / top).rglob("*.py") if "tools" not in p.parts}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join(base + [node.module]) if node.module else ".".join(base)
                found.add(module)
                found.update(f"{module}.{a.name}" for a in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def test_no_import_runs_back_up_a_layer():
    graph = _import_graph()
    assert len(graph) > 100
    wrong = [(m, d) for m, deps in graph.items() for d in deps if d.split(".")[1] not in LAYERS[m.split(".")[1]]]
    assert not wrong


def test_the_deck_has_one_home():
    """Only vision/decks/ writes a deck folder or builds a deck's recogniser; the service does not
    import the generator."""
    writers, builders = [], []
    for top in ("engine", "vision", "datasets", "models", "service"):
        for path in (ROOT / top).rglob("*.py"):
            text = path.read_text()
            rel = path.relative_to(ROOT).as_posix()
            if re.search(r'"deck\.json"|DECK_FILE|\.tmp-\{', text) and not rel.startswith("vision/decks/"):
                writers.append(rel)
            if re.search(r"reader_weights\(|detector_weights\(", text) and not rel.startswith("vision/decks/"):
                builders.append(rel)
            if rel.startswith("service/"):
                assert "sisepai.datasets" not in text, rel
    assert not writers, writers
    assert builders == ["models/enrolment/deck_cli.py"], builders  # its contact sheet reads the deck's faces


def test_the_live_table_is_in_parts_of_one_job_each():
    import ast

    counts = {}
    for path in (ROOT / "vision" / "live").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                counts[f"{path.stem}.{node.name}"] = sum(isinstance(n, ast.FunctionDef) for n in node.body)
    assert {"identity.TableCards", "identity.LostCards", "seats.SeatGeometry", "turns.TurnOrder", "pile.DrawPile",
            "assistant.TableAssistant"} <= set(counts)
    assert max(counts.values()) <= 15, {k: v for k, v in counts.items() if v > 15}


def test_no_modules_import_each_other_in_a_circle():
    graph = _import_graph()
    seen, on_path, circles = set(), [], []

    def visit(module: str) -> None:
        on_path.append(module)
        for dep in sorted(graph[module]):
            if dep in on_path:
                circles.append(on_path[on_path.index(dep):] + [dep])
            elif dep not in seen:
                visit(dep)
        on_path.pop()
        seen.add(module)

    for module in sorted(graph):
        if module not in seen:
            visit(module)
    assert not circles


def _rooms_used(package: str) -> dict[str, set[str]]:
    """Which subpackages ("rooms") of ``package`` each room imports, imports inside functions included."""
    rooms: dict[str, set[str]] = {}
    for module, deps in _import_graph().items():
        parts = module.split(".")
        if parts[:2] == ["sisepai", package] and len(parts) > 3:
            for dep in deps:
                dparts = dep.split(".")
                if dparts[:2] == ["sisepai", package] and len(dparts) > 3 and dparts[2] != parts[2]:
                    rooms.setdefault(parts[2], set()).add(dparts[2])
    return rooms


def _circles(uses: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of ``uses`` (a room's imports of other rooms), as the rooms along it."""
    found = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(uses.get(path[-1], ())):
            if nxt == path[0]:
                found.append(path + [nxt])
            elif nxt not in path and nxt > path[0]:
                walk(path + [nxt])

    for start in sorted(uses):
        walk([start])
    return found


def test_the_rooms_of_vision_models_and_datasets_do_not_import_each_other_in_a_circle():
    """Between the subpackages of vision, of models and of datasets imports run one way (decks and
    live use recognition; tuning uses evaluation, which uses enrolment, which uses training; the
    generator's scenes, videos and exports use its faces; `sisepai train` and `sisepai dataset`
    stand above the rooms in each cli.py); a fact two rooms need lives below both."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]  # the check sees a circle
    for package in ("vision", "models", "datasets"):
        rooms = _rooms_used(package)
        assert len(rooms) >= 3, package
        assert not _circles(rooms), (package, _circles(rooms))


def _own_modules() -> list[Path]:
    return [p for top in LAYERS for p in (ROOT / top).rglob("*.py") if "tools" not in p.parts]


MAX_MODULE_LINES = 500
"""The most lines a module of the product may have: one a reader holds in the head."""


def test_no_module_is_longer_than_one_holds_in_the_head():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in _own_modules()}
    assert len(sizes) > 100
    assert not {k: v for k, v in sizes.items() if v > MAX_MODULE_LINES}


def test_the_environment_is_read_and_written_in_one_module():
    """Every setting from the environment goes through ``engine/environment.py``; elsewhere only
    a child process is handed a copy (``{**os.environ, ...}``)."""
    reads = re.compile(r"os\.environ(?!\s*,\s*\*\*|\s*\})|os\.getenv|os\.putenv|os\.unsetenv")
    found = [(p.relative_to(ROOT).as_posix(), n) for p in _own_modules() if p.name != "environment.py"
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if reads.search(line.replace("{**os.environ", ""))]
    assert not found, found


MAX_IMPORTS_IN_FUNCTIONS = 100
"""The most imports of the project's own modules made inside functions: each loads a heavy library
(OpenCV, NumPy, Pillow, FastAPI) that the light module it sits in (a command's, a route's) must not
load when imported, and says so in a comment on its line."""


def _imports_in_functions() -> list[tuple[str, int, str]]:
    """``(file, line, text)`` of every import of a project module made inside a function."""
    import ast

    found = []
    for path in _own_modules():
        text = path.read_text()
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                own = (isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("sisepai"))
                       or isinstance(node, ast.Import) and any(a.name.startswith("sisepai") for a in node.names))
                if own:
                    found.append((path.relative_to(ROOT).as_posix(), node.lineno, lines[node.lineno - 1]))
    return sorted(set(found))


def test_imports_sit_at_the_top_but_for_heavy_libraries_each_with_its_reason():
    inside = _imports_in_functions()
    assert 0 < len(inside) <= MAX_IMPORTS_IN_FUNCTIONS, len(inside)
    assert not [f"{f}:{n}" for f, n, line in inside if "#" not in line]


def test_every_answer_is_built_from_a_schema_in_the_openapi_document(tmp_path):
    """Each JSON route answers with a named schema (not a bare object), and the live socket's
    messages are listed among the schemas."""
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    doc = create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False)).openapi()
    bare = []
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            content = op["responses"].get("200", {}).get("content", {})
            if "application/json" in content:
                schema = content["application/json"]["schema"]
                if "$ref" not in schema and "$ref" not in schema.get("items", {}):
                    bare.append(f"{method.upper()} {path}")
    assert not bare, bare
    assert {"LiveState", "LiveBusy", "LiveError", "LiveEvent"} <= set(doc["components"]["schemas"])
