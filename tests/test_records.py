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


class _Guarded(Exception):
    """Raised by a stand-in for the guard: the tool reached it before reading anything."""


TEST_READERS = {
    "sisepai.models.evaluation.deck_eval": ["WORK", "--split", "test", "--scenes", "1"],
    "sisepai.models.evaluation.held_out_eval": ["--split", "test"],
    "sisepai.models.evaluation.scan_eval": ["--split", "test", "--sheets", "1", "--singles", "1"],
    "sisepai.models.evaluation.paper_eval": ["WORK", "--split", "test", "--scenes", "1", "--no-enrol"],
    "benchmarks.live_scale": ["--split", "test", "--videos", "1"],
    "benchmarks.live_bench": None,  # its split and sizes come from the environment
}
"""Every tool that can read the test split, with a small, non-default run of it."""


def test_every_tool_that_can_read_test_data_goes_through_the_one_guard_first(tmp_path, monkeypatch):
    import importlib
    import re

    import pytest

    root = Path(__file__).resolve().parents[1]
    can_read = {f"{'sisepai.' if p.parts[len(root.parts)] != 'benchmarks' else ''}"
                f"{'.'.join(p.relative_to(root).with_suffix('').parts)}"
                for p in [*(root / "models").rglob("*.py"), *(root / "benchmarks").glob("*.py")]
                if re.search(r'choices=\("tune", "test"\)|SPLIT = os\.environ\.get\("LIVE_SPLIT"', p.read_text())}
    assert can_read == set(TEST_READERS), can_read ^ set(TEST_READERS)

    def guard(*args, **kwargs):
        raise _Guarded

    monkeypatch.setattr("sisepai.models.evaluation.records.begin_test", guard)
    monkeypatch.syspath_prepend(str(root))
    for name, argv in TEST_READERS.items():
        module = importlib.import_module(name)
        if hasattr(module, "begin_test"):
            monkeypatch.setattr(module, "begin_test", guard)
        if argv is None:
            monkeypatch.setattr(module, "SPLIT", "test")
            monkeypatch.setattr(module, "SIZES", [1])  # a subset reads the test split too
            with pytest.raises(_Guarded):
                module.main()
            continue
        with pytest.raises(_Guarded):
            module.main([str(tmp_path / a) if a == "WORK" else a for a in argv])


def test_a_read_is_keyed_on_what_was_read_not_how(tmp_path):
    import pytest

    from sisepai.engine.errors import SisepaiError
    from sisepai.models.evaluation.records import begin_test

    begin_test("demo", {"reader": "a"}, [1, 2], None, folder=tmp_path)
    with pytest.raises(SisepaiError, match="already"):  # the same data after another commit, runtime or threads
        begin_test("demo", {"reader": "a"}, [2], None, folder=tmp_path)
    begin_test("demo", {"reader": "b"}, [1, 2], None, folder=tmp_path)  # other models: a reading of their own
    begin_test("demo", {"reader": "a"}, [2], "the scenes were remade", folder=tmp_path)
    assert [e.get("again") for e in read_log(tmp_path)] == [None, None, "the scenes were remade"]
