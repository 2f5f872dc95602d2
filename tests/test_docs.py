"""The README is a front page, its links and the docs' links lead somewhere, and every number in
its performance table names a committed record."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _links(path: Path) -> list[str]:
    return [m for m in re.findall(r"\]\(([^)#\s]+)", path.read_text()) if "://" not in m]


def test_the_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    assert "make run" in readme and "make test" in readme
    assert len(list((ROOT / "docs").glob("*.md"))) >= 4 and (ROOT / "docs" / "rules.md").is_file()


def test_every_relative_link_resolves():
    for page in [ROOT / "README.md", ROOT / "models" / "MODEL_CARD.md", *(ROOT / "docs").glob("*.md")]:
        for link in _links(page):
            assert (page.parent / link).exists(), f"{page.relative_to(ROOT)}: {link}"


def _performance_tables() -> list[str]:
    """The README's performance table, and the recorded table of docs/performance.md."""
    readme = (ROOT / "README.md").read_text()
    full = (ROOT / "docs" / "performance.md").read_text()
    return [readme[readme.index("## Performance"):].split("\n## ")[0], full[full.index("## Recorded"):].split("\n## ")[0]]


def test_each_performance_row_names_a_record_with_its_commit_and_machine():
    for table in _performance_tables():
        rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| what")]
        assert rows
        for row in rows:
            record = re.search(r"`(benchmarks/results/[\w.-]+\.json)`", row)
            assert record, row
            data = json.loads((ROOT / record[1]).read_text())
            assert data["commit"] and data["machine"]["cores"] and "models" in data


def _raw_numbers(value) -> list[float]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in _raw_numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _raw_numbers(v)]
    return [float(value)] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def _numbers(value) -> set[float]:
    return {round(v, 3) for v in _raw_numbers(value)}


def _in_record(number: str, unit: str, figures: list[float]) -> bool:
    """A table's number with decimals is a figure of the record at the precision shown: as it is,
    as a percentage (``%``) or, for seconds shown as minutes (``min``), divided by 60."""
    places = len(number.split(".")[1])
    x = float(number)
    scale = {"%": 100.0, "min": 1 / 60}.get(unit, 1.0)
    return any(abs(round(v * s, places) - x) < 1e-9 for v in figures for s in {1.0, scale})


def test_the_performance_table_agrees_with_its_records():
    rows = [r for table in _performance_tables() for r in table.splitlines() if "benchmarks/results/" in r]
    for row in rows:
        record = json.loads((ROOT / re.search(r"`(benchmarks/results/[\w.-]+\.json)`", row)[1]).read_text())
        known, figures = _numbers(record["figures"]), _raw_numbers(record["figures"])
        result = re.sub(r"\(always saying[^)]*\)", "", row.split("|")[2])  # a baseline, not a measurement
        for number in re.findall(r"(?<![\w.])0\.\d{3}(?!\d)", result):
            assert float(number) in known, f"{number} is not in {row.split('|')[3].strip()}: {row}"
        # every other number with decimals (times, rates, sizes) is a figure of the record too
        for number, unit in re.findall(r"(?<![\w.,])(\d+\.\d+)(?!\d)\s*(%|min)?", result):
            assert _in_record(number, unit, figures), f"{number}{unit} is not in {row.split('|')[3].strip()}: {row}"


def test_a_readme_row_measured_with_earlier_models_names_them():
    """The README's numbers are today's: a row whose record measured a detector or reader other
    than the shipped one says "earlier models" and names each by its hash."""
    from sisepai.vision.recognition.detector import DEFAULT_WEIGHTS as DETECTOR
    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS as READER
    from sisepai.vision.recognition.runtime import file_hash

    shipped = {"detector": file_hash(DETECTOR), "reader": file_hash(READER)}
    readme = _performance_tables()[0]
    checked = 0
    for row in (r for r in readme.splitlines() if "benchmarks/results/" in r):
        record = json.loads((ROOT / re.search(r"`(benchmarks/results/[\w.-]+\.json)`", row)[1]).read_text())
        models = record.get("models") or {}
        models = models.get("shipped+shipped", models)  # a choose record names each pair it read
        earlier = {k: v for k, v in models.items() if k in shipped and v != shipped[k]}
        if earlier:
            assert "earlier models" in row and all(h in row for h in earlier.values()), (earlier, row[:120])
        checked += 1
    assert checked >= 10


def test_the_model_cards_figures_agree_with_their_records():
    """A sentence of the model card that cites a record quotes that record: each time in ms and
    each model hash it gives is in one of the records it cites."""
    card = (ROOT / "models" / "MODEL_CARD.md").read_text()
    checked = 0
    for sentence in re.split(r"(?<=[a-z)`])\.\s", card.replace("\n", " ")):
        cited = re.findall(r"`(benchmarks/results/[\w.-]+\.json)`", sentence)
        if not cited:
            continue
        records = [json.loads((ROOT / c).read_text()) for c in cited]
        figures = [v for r in records for v in _raw_numbers(r["figures"])]
        hashes = {h for r in records for v in (r.get("models") or {}).values()
                  for h in (v.values() if isinstance(v, dict) else [v])}  # choose records name models per pair
        for number in re.findall(r"(?<![\w.,])(\d+\.\d+) ms", sentence):
            assert _in_record(number, "", figures), f"{number} ms is not in {', '.join(cited)}: {sentence[:200]}"
            checked += 1
        for h in re.findall(r"\b[0-9a-f]{16}\b", sentence):
            assert h in hashes, f"model {h} is not the one {', '.join(cited)} measured: {sentence[:200]}"
    assert checked >= 3


def test_the_first_sessions_pictures_ship():
    readme = (ROOT / "README.md").read_text()
    session = readme[readme.index("## A first session"):]
    named = re.findall(r"\b(examples/[\w.-]+\.jpg)", session[:session.index("```", session.index("```") + 3)])
    assert len(named) >= 2 and all((ROOT / n).is_file() for n in named), named
