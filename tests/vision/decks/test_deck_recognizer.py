"""One place builds the recogniser of an enrolled deck, for the CLI and the service alike."""

import json
import shutil

import pytest

from sisepai.engine.errors import SisepaiError
from sisepai.vision.decks.recognizer import deck_recognizer
from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS
from tests.homes import own_home


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path)))
    deck = tmp_path / "decks" / "family"
    deck.mkdir(parents=True)
    shutil.copyfile(DEFAULT_WEIGHTS, deck / "reader.pt")
    (deck / "deck.json").write_text(json.dumps({"name": "family"}))
    return tmp_path


@pytest.mark.model
def test_a_decks_recogniser_shares_the_loaded_one_but_for_its_reader(home, recognizer):
    rec = deck_recognizer("family", base=recognizer)
    assert rec.detector is recognizer.detector and rec.reader is not recognizer.reader
    assert (rec.min_confidence, rec.profile) == (recognizer.min_confidence, recognizer.profile)
    assert deck_recognizer(None, base=recognizer) is recognizer
    with pytest.raises(SisepaiError, match="no deck named 'other'"):
        deck_recognizer("other", base=recognizer)
    with pytest.raises(SisepaiError, match="a deck or a reader"):
        deck_recognizer("family", reader=DEFAULT_WEIGHTS)
