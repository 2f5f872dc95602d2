"""Table surfaces: a folder of photographs joins scikit-image's, and without one nothing changes."""

import cv2
import numpy as np

from sisepai.datasets.scenes import backgrounds
from sisepai.datasets.scenes.backgrounds import background, folder_photos


def _photo_folder(tmp_path, n: int = 3):
    rng = np.random.default_rng(0)
    for k in range(n):
        # a distinct flat colour each, so a table drawn from it is recognisable
        img = np.full((300, 500, 3), (40 + 60 * k, 200 - 50 * k, 90), np.uint8)
        img[::7] = rng.integers(0, 255, 3)
        cv2.imwrite(str(tmp_path / f"p{k}.png"), img)
    cv2.imwrite(str(tmp_path / "wood.JPG"), np.full((60, 80, 3), 128, np.uint8))
    (tmp_path / "notes.txt").write_text("not a photo")
    return tmp_path


def _photo_seeds(n: int) -> list[int]:
    """Seeds whose random surface is a photo (drawn the way :func:`background` draws it)."""
    seeds = []
    for s in range(500):
        kinds = list(backgrounds.KINDS)
        if str(np.random.default_rng(s).choice(kinds, p=[0.3, 0.3, 0.15, 0.25])) == "photo":
            seeds.append(s)
        if len(seeds) == n:
            return seeds
    raise AssertionError("too few photo seeds")


def test_a_folder_lists_its_photos_sorted_and_nothing_else(tmp_path):
    folder = _photo_folder(tmp_path)
    names = folder_photos(str(folder))
    assert [n.rsplit("/", 1)[1] for n in names] == ["p0.png", "p1.png", "p2.png", "wood.JPG"]
    assert folder_photos(str(tmp_path / "missing")) == ()


def test_photo_tables_draw_from_the_folder_too(tmp_path):
    folder = str(_photo_folder(tmp_path))
    colours = set()
    for s in _photo_seeds(40):
        img = background(np.random.default_rng(s), 160, 90, photos=folder)
        assert img.shape == (90, 160, 3) and img.dtype == np.uint8
        centre = tuple(int(v) for v in np.median(img.reshape(-1, 3), axis=0))
        colours.add(centre)
    # RGB of the three files' flat colours (written as BGR)
    drawn = {c for c in colours if c in {(90, 200, 40), (90, 150, 100), (90, 100, 160)}}
    assert len(drawn) == 3


def test_without_a_folder_every_table_stays_as_it_was(tmp_path):
    folder = str(_photo_folder(tmp_path))
    for s in range(30):
        plain = background(np.random.default_rng(s), 96, 54)
        assert np.array_equal(plain, background(np.random.default_rng(s), 96, 54, photos=None))
        kinds = list(backgrounds.KINDS)
        if str(np.random.default_rng(s).choice(kinds, p=[0.3, 0.3, 0.15, 0.25])) != "photo":
            # a folder changes only the photo tables
            assert np.array_equal(plain, background(np.random.default_rng(s), 96, 54, photos=folder))
