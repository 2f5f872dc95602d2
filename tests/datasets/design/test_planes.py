"""The plane helpers give the bits of the NumPy broadcasts they replace, so scenes stay the same."""

import cv2
import numpy as np
import pytest

from sisepai.datasets.design.planes import plus_channels, plus_plane, times_channels, times_plane


@pytest.fixture(params=[1, 2])
def threads(request):
    before = cv2.getNumThreads()
    cv2.setNumThreads(request.param)  # the generator's workers run OpenCV on one thread
    yield request.param
    cv2.setNumThreads(before)


def _picture(rng: np.random.Generator, channels: int = 3) -> np.ndarray:
    return rng.uniform(-20, 300, (97, 131, channels)).astype(np.float32)


def test_each_helper_gives_the_broadcasts_bits(threads):
    rng = np.random.default_rng(threads)
    img = _picture(rng)
    plane = rng.standard_normal((97, 131), dtype=np.float32) * np.float32(3.7)
    gains = np.float32(1.13) * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    assert np.array_equal(times_plane(img, plane), img * plane[..., None])
    assert np.array_equal(plus_plane(img, plane), img + plane[..., None])
    assert np.array_equal(times_channels(img, gains), img * gains)
    assert np.array_equal(plus_channels(img, np.float32([200, 17, 3])), np.float32([200, 17, 3]) + img)


def test_in_place_and_four_channels():
    rng = np.random.default_rng(4)
    img = _picture(rng, 4)
    plane = rng.uniform(0, 2, (97, 131)).astype(np.float32)
    want = img * plane[..., None]
    got = times_plane(img, plane, out=img)
    assert got is img or np.shares_memory(got, img)
    assert np.array_equal(img, want)
    assert np.array_equal(times_channels(img, np.float32([1, 2, 3, 4])), want * np.float32([1, 2, 3, 4]))
