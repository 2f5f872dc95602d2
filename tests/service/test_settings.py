"""Settings written once: each default in the dataclass, the environment read through one table."""

from dataclasses import fields

from sisepai.service.settings import ENVIRONMENT, Settings


def test_the_environment_overrides_and_an_empty_variable_keeps_the_default(monkeypatch, tmp_path):
    monkeypatch.setenv("SISEPAI_HOME", str(tmp_path))
    monkeypatch.delenv("SISEPAI_DB", raising=False)
    monkeypatch.setenv("SISEPAI_PORT", "")
    monkeypatch.setenv("SISEPAI_CORS_ORIGINS", "https://a.example,https://b.example")
    monkeypatch.setenv("SISEPAI_LOAD_MODEL", "0")
    s = Settings.from_env(table="patio")
    assert s.db == str(tmp_path / "ledger.sqlite")  # the ledger lives in sisepai's home, with the decks
    assert s.port == Settings().port and s.load_model is False and s.table == "patio"
    assert s.cors_origins == ("https://a.example", "https://b.example")
    assert set(ENVIRONMENT) <= {f.name for f in fields(Settings)}
