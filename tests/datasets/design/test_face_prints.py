"""Face prints keep the real tuning deck out of training: by its look, whatever it is called."""

import json
import shutil

import cv2
import numpy as np
import pytest

from sisepai.datasets.design.face_prints import (
    deck_prints,
    decode_prints,
    encode_prints,
    face_print,
    matches,
    refuse_tuning_faces,
    tuning_deck_prints,
    tuning_faces_in,
)
from sisepai.datasets.design.splits import real_deck_folder
from sisepai.engine.errors import SisepaiError
from sisepai.faces.deck import DeckFaces


@pytest.fixture(scope="module")
def real_deck() -> DeckFaces:
    folder = real_deck_folder("tu-sac-scans")
    if folder is None:
        pytest.skip("the real tuning deck is not on this machine")
    return DeckFaces.load(folder)


def test_a_copy_of_a_face_matches_and_the_decks_other_cards_do_not(real_deck):
    prints = deck_prints(real_deck.faces)
    for code, face in real_deck.faces.items():
        h, w = face.shape[:2]
        copy = cv2.resize(face, (w * 3 // 2, h * 3 // 2))  # rescaled,
        ok, jpg = cv2.imencode(".jpg", copy, [cv2.IMWRITE_JPEG_QUALITY, 70])  # re-encoded,
        copy = cv2.imdecode(jpg, cv2.IMREAD_COLOR)
        copy = np.clip(copy.astype(np.float32) * 1.1 + 8, 0, 255).astype(np.uint8)  # brighter,
        assert matches(prints[code], face_print(copy[::-1, ::-1])), code  # and turned end over end
        others = [c for c in prints if c != code and c[0] == code[0]]  # the same paper, another character
        assert not any(matches(prints[code], prints[c]) for c in others), code


def test_prints_survive_dataset_json(real_deck):
    prints = deck_prints(real_deck.faces)
    back = decode_prints(json.loads(json.dumps(encode_prints(prints))))
    assert all(matches(prints[c], back[c]) for c in prints)


def test_generated_training_decks_are_no_tuning_deck(real_deck):
    from sisepai.datasets.design.render import DeckStyle, render_face
    from sisepai.engine.cards import CARD_CODES

    tuning = tuning_deck_prints()
    rng = np.random.default_rng(0)
    for _ in range(20):
        style = DeckStyle.random(rng)
        faces = {c: render_face(c, style, 90, rng).image[..., :3] for c in CARD_CODES[:-1]}
        assert tuning_faces_in(deck_prints(faces), tuning) == []


def test_training_refuses_a_dataset_drawn_with_the_tuning_deck_under_another_name(real_deck, tmp_path):
    from sisepai.engine.cli import main

    renamed = tmp_path / "my-family-deck"
    renamed.mkdir()
    for code, face in real_deck.faces.items():  # new file names and sizes: only the look is the same
        cv2.imwrite(str(renamed / f"{code.lower()}.jpg"), cv2.resize(face, None, fx=1.25, fy=1.25)[..., ::-1])
    data = tmp_path / "scenes"
    assert main(["dataset", "generate", "--out", str(data), "--n", "2", "--workers", "1", "--deck-faces",
                 str(renamed), "--size", "320x180"]) == 0
    with pytest.raises(SisepaiError, match="tuning deck"):
        refuse_tuning_faces([data])
    shutil.copytree(data, tmp_path / "innocent-name")
    assert main(["train", "--data", str(tmp_path / "innocent-name"), "--only", "detector",
                 "--runs", str(tmp_path / "runs")]) == 2
    assert not (tmp_path / "runs" / "detector").exists()  # refused before any training started


def test_the_check_fails_closed(tmp_path, monkeypatch):
    """A dataset that cannot be checked is refused, not let through."""
    unreadable = tmp_path / "no-meta"
    unreadable.mkdir()
    with pytest.raises(SisepaiError, match="dataset.json cannot be read"):
        refuse_tuning_faces([unreadable], tuning={"deck": {}})
    laid = tmp_path / "laid"
    laid.mkdir()
    (laid / "dataset.json").write_text(json.dumps({"deck_faces": "family", "deck_prints": {"GK": "AAAA"}}))
    with pytest.raises(SisepaiError, match="no tuning deck is on this machine"):
        refuse_tuning_faces([laid], tuning={})
    styles = tmp_path / "styles"
    styles.mkdir()
    (styles / "dataset.json").write_text(json.dumps({"deck_faces": None}))
    refuse_tuning_faces([styles], tuning={})  # generated styles only: nothing to check
    # a tuning deck that is on this machine but cannot be read stops training
    broken = tmp_path / "decks" / "tu-sac-scans"
    broken.mkdir(parents=True)
    (broken / "GK.png").write_bytes(b"not a picture")
    monkeypatch.setenv("SISEPAI_DECKS", str(tmp_path / "decks"))
    with pytest.raises(SisepaiError, match="cannot be read to check"):
        refuse_tuning_faces([styles])


def test_flat_pictures_say_they_lay_no_real_deck(tmp_path):
    from sisepai.engine.cli import main

    out = tmp_path / "flat"
    assert main(["dataset", "flat", "--out", str(out), "--n", "2", "--workers", "1"]) == 0
    refuse_tuning_faces([out], tuning={})
