"""The measurement log: append-only, and every published record is what it derives."""

import json
from pathlib import Path

from sisepai.models.evaluation.records import LOG, RESULTS, published, read_log, write_record

ROOT = Path(__file__).resolve().parent.parent


def test_every_published_record_is_what_the_log_publishes():
    entries = read_log(RESULTS)
    files = sorted(p for p in RESULTS.glob("*.json"))
    assert files and entries
    for path in files:
        assert json.loads(path.read_text()) == published(path.stem, entries), f"{path.name} is not what {LOG} publishes"


def test_the_log_only_grows(tmp_path):
    write_record("demo", "python demo.py", {"f1": 0.8}, split="test", models={"reader": "a"}, folder=tmp_path)
    before = (tmp_path / LOG).read_bytes()
    write_record("demo", "python demo.py", {"f1": 0.9}, split="test", models={"reader": "a"}, folder=tmp_path)
    write_record("demo", "python demo.py", {"f1": 0.7}, split="test", models={"reader": "b"}, folder=tmp_path)
    after = (tmp_path / LOG).read_bytes()
    assert after.startswith(before) and len(read_log(tmp_path)) == 3
    # a new model version publishes its own first measurement; the old one's first stays in the log
    assert json.loads((tmp_path / "demo.json").read_text())["figures"] == {"f1": 0.7}
    write_record("bench", "python bench.py", {"ms": 10.0}, split="none", models={}, folder=tmp_path)
    write_record("bench", "python bench.py", {"ms": 12.0}, split="none", models={}, folder=tmp_path)
    assert json.loads((tmp_path / "bench.json").read_text())["figures"] == {"ms": 12.0}  # a benchmark: the latest


def test_a_key_names_the_thread_setting_not_a_moment_of_the_load(monkeypatch):
    """Threads chosen by the load are named so: sampling the load when the record is written would
    give the same run two keys on a busy and a quiet moment (and let the test split be read again)."""
    from sisepai.models.evaluation.records import measurement_key
    from sisepai.vision.recognition.runtime import THREADS_ENV

    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert measurement_key({}, runtime="torch", commit_id="c")["threads"] == "by load"
    monkeypatch.setenv(THREADS_ENV, "1")
    assert measurement_key({}, runtime="torch", commit_id="c")["threads"] == 1


def test_every_record_names_what_it_read(tmp_path):
    """A measurement says whether it read tuning data, test data or none; each caller names it."""
    import ast
    from pathlib import Path

    import pytest

    with pytest.raises(ValueError, match="names its split"):
        write_record("demo", "python demo.py", {"f1": 0.8}, split="train", models={}, folder=tmp_path)
    root = Path(__file__).resolve().parents[1]
    calls = []
    for path in [*(root / "benchmarks").glob("*.py"), *(root / "models").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "write_record":
                calls.append((path.name, {k.arg for k in node.keywords}))
    assert len(calls) >= 15
    assert not [name for name, keywords in calls if "split" not in keywords]
