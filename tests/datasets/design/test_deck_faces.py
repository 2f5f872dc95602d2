"""A deck's face images: loading, checking, and laying them in generated scenes."""

import cv2
import numpy as np
import pytest

from sisepai.datasets.design.standin import standin_deck
from sisepai.datasets.scenes.scene import make_scene
from sisepai.faces.deck import FACE_CODES, DeckError, DeckFaces


@pytest.fixture(scope="module")
def deck():
    return standin_deck(1, "tune", width=60)


def test_folder_round_trip_turns_landscape_faces_upright(tmp_path, deck):
    deck.save(tmp_path)
    landscape = np.ascontiguousarray(np.rot90(cv2.imread(str(tmp_path / "GK.png"))))
    cv2.imwrite(str(tmp_path / "GK.png"), landscape)  # a scan saved sideways
    loaded = DeckFaces.load(tmp_path)
    assert loaded.codes == deck.codes
    assert loaded.faces["GK"].shape == deck.faces["GK"].shape
    assert abs(loaded.aspect - deck.aspect) < 0.05


def test_missing_faces_are_named(tmp_path, deck):
    deck.save(tmp_path)
    (tmp_path / "WP.png").unlink()
    (tmp_path / "RC.png").unlink()
    with pytest.raises(DeckError, match="no face image for WP, RC"):
        DeckFaces.load(tmp_path)


@pytest.mark.parametrize("content, message", [(b"", "empty"), (b"not an image at all", "not an image")])
def test_unreadable_face_is_named(tmp_path, deck, content, message):
    deck.save(tmp_path)
    (tmp_path / "YH.png").write_bytes(content)
    with pytest.raises(DeckError, match=f"YH.png: .*{message}"):
        DeckFaces.load(tmp_path)


def test_a_square_picture_is_not_a_card():
    faces = {c: np.full((200, 40, 3), 200, np.uint8) for c in FACE_CODES}
    faces["GA"] = np.full((100, 100, 3), 200, np.uint8)
    with pytest.raises(DeckError, match="GA: a 100x100 picture is not one long, narrow card"):
        DeckFaces(faces)


def test_scene_lays_the_decks_own_faces(deck):
    scene = make_scene(3, 0, layout="table", plain=True, deck=deck)
    assert len(scene.labelled()) >= 10
    # every labelled card's middle has the deck's paper colour of its suit, not a generated one
    papers = {s: np.float32(deck.faces[f"{s}K"][5, deck.faces["GK"].shape[1] // 2]) for s in "GWYR"}
    hits, checked = 0, 0
    for card in scene.labelled():
        if card["card"] == "J" or card["visible"] < 0.95:
            continue
        c = np.float32(card["corners"])
        x, y = np.round(c[0] + (c[1] - c[0]) * 0.5 + (c[3] - c[0]) * 0.03).astype(int)
        pixel = scene.image[y, x].astype(np.float32)
        nearest = min(papers, key=lambda s: np.linalg.norm(papers[s] - pixel))
        hits += nearest == card["card"][0]
        checked += 1
    assert checked >= 8 and hits >= 0.9 * checked


def test_faces_may_be_named_by_their_characters(tmp_path, deck):
    deck.save(tmp_path)
    (tmp_path / "YH.png").rename(tmp_path / "Y傌.png")
    (tmp_path / "GK.png").rename(tmp_path / "gk.PNG")
    assert DeckFaces.load(tmp_path).codes == deck.codes
