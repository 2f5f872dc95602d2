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
