"""Table surfaces: procedural wood, felt and cloth, real photographs shipped by scikit-image, and
the photographs of a folder the user names (``dataset generate --photos``).

>>> import numpy as np
>>> background(np.random.default_rng(0), 64, 48).shape
(48, 64, 3)
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.planes import plus_plane

PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry", "hubble_deep_field",
          "camera", "brick", "grass", "gravel", "rough_wall", "cell", "moon", "page", "text", "retina")


@lru_cache(maxsize=32)
def _photo(name: str) -> np.ndarray | None:
    """One of :data:`PHOTOS` as RGB, decoded from scikit-image's data folder with Pillow (the pixels
    ``skimage.data`` gives, without importing ``skimage.io`` and SciPy: half a second a worker)."""
    folder = _skimage_data_folder()
    if folder is None or name in FELT_INSTEAD:
        return None
    try:
        from PIL import Image

        with Image.open(folder / PHOTO_FILES[name]) as f:
            img = np.asarray(f)
    except Exception:  # noqa: BLE001 - a missing sample (or skimage) just means one fewer photo
        return None
    if img.ndim == 2:
        img = np.stack([img] * 3, -1)
    return np.ascontiguousarray(img[..., :3]).astype(np.uint8)


def _wood(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = np.array([rng.uniform(90, 200), rng.uniform(50, 130), rng.uniform(20, 80)], np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    warp = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 6) * 15
    grain = np.sin((v + warp) / rng.uniform(1, 2.5)) * 0.5 + 0.5
    streak = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7) * 0.15
    shade = 0.75 + 0.25 * grain + streak + 0.0 * u
    return np.clip(base * shade[..., None], 0, 255).astype(np.uint8)


def _felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    palette = [(30, 110, 50), (20, 60, 120), (120, 25, 30), (60, 60, 60), (150, 140, 120), (20, 20, 25)]
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32) * rng.uniform(0.7, 1.3)
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.6) * rng.uniform(3, 10)
    blotch = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 10) * 40
    return np.clip(base + (noise + blotch)[..., None], 0, 255).astype(np.uint8)


def _cloth(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    c1 = rng.uniform(40, 230, 3).astype(np.float32)
    c2 = rng.uniform(40, 230, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(1.5, 10)
    pattern = int(rng.integers(3))
    if pattern == 0:  # gingham
        m = ((np.sin(xx / period) > 0).astype(np.float32) + (np.sin(yy / period) > 0)) / 2
    elif pattern == 1:  # stripes
        m = (np.sin((xx + yy * rng.uniform(-1, 1)) / period) > 0).astype(np.float32)
    else:  # weave
        m = (np.sin(xx * 1.2) * np.sin(yy * 1.2) * 0.5 + 0.5)
    img = c1 * m[..., None] + c2 * (1 - m[..., None])
    img += cv2.GaussianBlur(rng.normal(0, 8, (h, w)).astype(np.float32), (0, 0), 1)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


PHOTO_FILES = {"astronaut": "astronaut.png", "coffee": "coffee.png", "chelsea": "chelsea.png",
               "rocket": "rocket.jpg", "immunohistochemistry": "ihc.png", "hubble_deep_field": "hubble_deep_field.jpg",
               "camera": "camera.png", "brick": "brick.png", "grass": "grass.png", "gravel": "gravel.png",
               "rough_wall": "rough-wall.png", "cell": "cell.png", "moon": "moon.png", "page": "page.png",
               "text": "text.png", "retina": "retina.jpg"}
"""The file of each of :data:`PHOTOS` in scikit-image's data folder (some are fetched on demand only)."""

FELT_INSTEAD = frozenset({"rough_wall"})
"""Photos drawn as felt: ``skimage.data`` has no loader for this file, so generated scenes have
always had felt where it was drawn, and every seed keeps giving the same scenes."""


@lru_cache(maxsize=1)
def _shipped_photos() -> tuple[str, ...]:
    """The names of :data:`PHOTOS` whose files scikit-image ships here, found without decoding any:
    a worker decodes only the photos its scenes draw (decoding all 16 took a second a worker)."""
    folder = _skimage_data_folder()
    return tuple(n for n in PHOTOS if (folder / PHOTO_FILES[n]).is_file()) if folder else ()


@lru_cache(maxsize=1)
def _skimage_data_folder() -> Path | None:
    """scikit-image's data folder, found without importing scikit-image; ``None`` without it."""

    spec = importlib.util.find_spec("skimage")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "data"


def _photo_bg(rng: np.random.Generator, w: int, h: int, photos: str | None = None) -> np.ndarray:
    names = list(_shipped_photos()) + (list(folder_photos(photos)) if photos else [])
    if not names:
        return _felt(rng, w, h)
    name = names[int(rng.integers(len(names)))]
    img = _folder_photo(name) if name not in PHOTO_FILES else _photo(name)
    if img is None:
        return _felt(rng, w, h)
    ph, pw = img.shape[:2]
    scale = max(w / pw, h / ph) * rng.uniform(1.0, 1.6)
    img = cv2.resize(img, (int(pw * scale) + 1, int(ph * scale) + 1), interpolation=cv2.INTER_LINEAR)
    y0 = int(rng.integers(0, img.shape[0] - h + 1))
    x0 = int(rng.integers(0, img.shape[1] - w + 1))
    return np.ascontiguousarray(img[y0:y0 + h, x0:x0 + w])


def _plastic(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A smooth plastic or laminate table top: one colour, a broad soft sheen, faint speckle."""
    base = rng.uniform(30, 235, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    sheen = np.exp(-(((xx - cx) / (w * rng.uniform(0.3, 0.8))) ** 2 + ((yy - cy) / (h * rng.uniform(0.3, 0.8))) ** 2))
    img = base + (sheen * rng.uniform(10, 60))[..., None]
    img += cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.5)[..., None] * rng.uniform(1, 4)
    return np.clip(img, 0, 255).astype(np.uint8)


KINDS = {"wood": _wood, "felt": _felt, "cloth": _cloth, "photo": _photo_bg}
"""The surfaces a scene draws by default, in its fixed shares."""
SURFACES = {**KINDS, "plastic": _plastic}
"""Every surface the generator knows; heaps name theirs (wood, felt, cloth or plastic)."""


def background(rng: np.random.Generator, w: int, h: int, kind: str | None = None,
               photos: str | None = None) -> np.ndarray:
    """A ``h x w`` RGB table surface of a random (or given) kind.

    Procedural surfaces are drawn at a quarter of the size and enlarged (their large-scale
    structure is smooth), then given fine grain at full size: this keeps scenes fast. ``photos``
    names a folder of photographs (JPEG or PNG, e.g. a wallpaper package's) that a photo surface
    draws from besides scikit-image's.
    """
    kind = kind or str(rng.choice(list(KINDS), p=[0.3, 0.3, 0.15, 0.25]))
    if kind == "photo":
        return _photo_bg(rng, w, h, photos)
    small = SURFACES[kind](rng, max(8, w // 4), max(8, h // 4))
    img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    grain = rng.standard_normal((h, w), dtype=np.float32) * rng.uniform(2, 8)
    return np.clip(plus_plane(img.astype(np.float32), grain), 0, 255).astype(np.uint8)


PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
"""The files of a photo folder that a scene may lay as its table."""
PHOTO_MAX_SIDE = 2048
"""A folder's photo is shrunk to this longest side once decoded (a 5K wallpaper is 90 MB of pixels)."""


@lru_cache(maxsize=8)
def folder_photos(folder: str) -> tuple[str, ...]:
    """The photographs of ``folder`` (and its subfolders), sorted: the same list on every machine
    that has the same files.

    >>> folder_photos("/nonexistent")
    ()
    """
    root = Path(folder)
    if not root.is_dir():
        return ()
    return tuple(sorted(str(p) for p in root.rglob("*") if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file()))


@lru_cache(maxsize=8)
def _folder_photo(path: str) -> np.ndarray | None:
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        return None
    scale = PHOTO_MAX_SIDE / max(img.shape[:2])
    if scale < 1:
        img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img[..., ::-1])
