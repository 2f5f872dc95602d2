"""The real tuning deck as the generator draws it: scenes of every layout, grid photos and videos."""

import numpy as np
import pytest

from sisepai.datasets.design.deck_faces import printed_face
from sisepai.datasets.design.splits import REAL_DECKS, REAL_SCENE_SEEDS, VIDEO_SEEDS, real_deck_folder
from sisepai.faces.deck import DeckFaces


@pytest.fixture(scope="module")
def deck() -> DeckFaces:
    folder = real_deck_folder(REAL_DECKS["tune"][0])
    if folder is None:
        pytest.skip("the real tuning deck is not on this machine")
    return DeckFaces.load(folder)


@pytest.mark.parametrize("layout", ["table", "fan", "hand", "heap"])
def test_scenes_of_every_layout_lay_the_real_faces(deck, layout):
    from sisepai.datasets.scenes.scene import make_scene

    scene = make_scene(REAL_SCENE_SEEDS["tune"], 0, layout=layout, size=(640, 360), deck=deck)
    assert scene.style.aspect == deck.aspect
    assert sum(c["labelled"] for c in scene.cards) >= 3


def test_a_video_plays_the_real_faces(deck):
    from sisepai.datasets.video.game import TurnVideo

    video = TurnVideo(seed=VIDEO_SEEDS["tune"]["real"][0][1], cards=10, seconds=12, fps=2, size=(640, 360), deck=deck)
    assert video.style.aspect == deck.aspect
    face = video.faces["GK"].image[..., :3].astype(np.float32)
    scan = printed_face(deck, "GK", video.face_w).image[..., :3].astype(np.float32)
    assert np.abs(face - scan).mean() < 12  # the scan, a little brighter or darker per copy
    assert len(video.events) >= 1


def test_grid_photos_of_the_real_deck_on_every_table(deck):
    from sisepai.datasets.scenes.grid_photo import TABLE_KINDS, grid_photo

    for table in TABLE_KINDS:
        photo = grid_photo(deck, table, seed=REAL_SCENE_SEEDS["tune"] + 200, size=(800, 600))
        assert len(photo.outlines) == 28 and photo.image.shape == (600, 800, 3)
