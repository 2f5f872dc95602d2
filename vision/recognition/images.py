"""Images in: files and uploads decoded to BGR, with every bad one refused in one clear line
(missing, corrupt, empty, or too large, the size read from the header before any pixel is).

>>> import cv2
>>> decode_image(cv2.imencode(".png", np.zeros((20, 30, 3), np.uint8))[1].tobytes()).shape
(20, 30, 3)
>>> decode_image(b"", "hand.jpg")
Traceback (most recent call last):
ImageError: hand.jpg: empty file
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np

MAX_PIXELS = 40_000_000
"""Larger images are refused (a 40-megapixel frame is far beyond any camera we read)."""
MAX_ASPECT = 12.0
"""A picture longer than this many times its width (either way) is refused: no camera or
scanner makes one, and a single card is at most 1:6.5."""
FORMATS = {"jpeg": "JPEG", "png": "PNG", "webp": "WebP", "bmp": "BMP"}
"""The only formats decoded; the format is told from the bytes (:func:`image_format`), never from a
name or a client's content type."""
_OTHER_FORMATS = ((b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"), (b"GIF8", "GIF"), (b"\x00\x00\x00\x0cjP  ", "JPEG 2000"),
                  (b"\xffO\xffQ", "JPEG 2000"), (b"\x00\x00\x00", "HEIF or AVIF"), (b"P1", "PNM"), (b"P2", "PNM"),
                  (b"P3", "PNM"), (b"P4", "PNM"), (b"P5", "PNM"), (b"P6", "PNM"), (b"%PDF", "PDF"), (b"<", "SVG or HTML"))


class ImageError(ValueError):
    """An image that cannot be read: missing, corrupt, empty or too large."""


class ImageTooLargeError(ImageError):
    """An image whose header declares more than :data:`MAX_PIXELS` pixels: refused before decoding."""


def check_image(image: np.ndarray | None, name: str = "image") -> np.ndarray:
    """A BGR uint8 image, or :class:`ImageError` saying what is wrong with it."""
    if image is None:
        raise ImageError(f"{name}: cannot decode the image (missing, corrupt or not an image)")
    if image.ndim == 2:
        import cv2

        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4) or min(image.shape[:2]) < 16:
        raise ImageError(f"{name}: not a usable picture (shape {image.shape})")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise ImageError(f"{name}: {image.shape[1]}x{image.shape[0]} is too large (limit {MAX_PIXELS // 1_000_000} MP)")
    if image.shape[2] == 4:
        image = image[..., :3]
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(image)


MAX_FILE_BYTES = 80_000_000
"""Larger image files are refused before they are read."""


def read_image_file(path: str | Path) -> bytes:
    """The bytes of an image file, or :class:`ImageError`: missing, a folder, a device or pipe, too
    large, unreadable.

    >>> read_image_file("/dev/null")
    Traceback (most recent call last):
    ImageError: /dev/null: not a regular file (a device, pipe or socket), not an image
    """
    p = Path(path)
    if not p.is_file():
        if p.is_dir():
            raise ImageError(f"{path}: a folder, not an image")
        if p.exists():  # a device, a fifo, a socket: reading it might never end
            raise ImageError(f"{path}: not a regular file (a device, pipe or socket), not an image")
        raise ImageError(f"{path}: no such file")
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise ImageError(f"{path}: file too large ({p.stat().st_size // 1_000_000} MB)")
        return p.read_bytes()
    except OSError as exc:
        raise ImageError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR, honouring EXIF orientation; :class:`ImageError` if unreadable."""
    return decode_image(read_image_file(path), str(path))


def image_format(data: bytes, name: str = "upload") -> str:
    """The format of an encoded image told from its first bytes: ``jpeg``, ``png``, ``webp`` or
    ``bmp``; anything else is :class:`ImageError`, before any decoder sees it.

    >>> image_format(b"\\x89PNG\\r\\n\\x1a\\n....")
    'png'
    >>> image_format(b"II*\\x00....", "scan.tif")
    Traceback (most recent call last):
    ImageError: scan.tif: a TIFF image; send JPEG, PNG, WebP or BMP
    """
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:2] == b"BM" and len(data) >= 26:
        return "bmp"
    kind = next((label for magic, label in _OTHER_FORMATS if data.startswith(magic)), None)
    what = f"a {kind} image" if kind else "not a JPEG, PNG, WebP or BMP image"
    raise ImageError(f"{name}: {what}; send JPEG, PNG, WebP or BMP" if kind else f"{name}: {what}")


def image_size(data: bytes, name: str = "upload") -> tuple[int, int]:
    """``(width, height)`` from an encoded image's header alone, nothing decoded.

    A 400 KB PNG can declare 30000 x 30000 pixels (an "image bomb"): its size is known, and
    refused, before a single pixel is allocated.

    >>> import cv2
    >>> image_size(cv2.imencode(".png", np.zeros((20, 30, 3), np.uint8))[1].tobytes())
    (30, 20)
    """

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                return im.size
    except Image.DecompressionBombError:
        raise ImageTooLargeError(f"{name}: declares too many pixels (limit {MAX_PIXELS // 1_000_000} MP)") from None
    except Exception:  # noqa: BLE001 - PIL raises many types on a damaged header
        raise ImageError(f"{name}: cannot read the image (corrupt, or not JPEG, PNG, WebP or BMP)") from None


MAX_JPEG_SCANS = 100
"""A JPEG with more scans is refused before decoding. A camera's progressive JPEG has about 10;
each scan re-reads the whole picture, so a 4000x4000 file of 20,000 tiny scans (682 KB) takes
tens of seconds to decode, and its decoding cannot be stopped."""


def jpeg_scans(data: bytes) -> int:
    """How many scans (start-of-scan markers) a JPEG holds, read from its markers without
    decoding; 0 for data that is not a JPEG.

    >>> import cv2
    >>> jpeg_scans(cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8))[1].tobytes())
    1
    >>> jpeg_scans(cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes()) > 1
    True
    """
    if data[:2] != b"\xff\xd8":
        return 0
    scans, pos, n = 0, 2, len(data)
    while pos + 4 <= n:
        if data[pos] != 0xFF:
            pos = data.find(b"\xff", pos)
            if pos < 0:
                break
            continue
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0xD9:  # end of image
            break
        if marker in (0x01, 0x00) or 0xD0 <= marker <= 0xD7:  # no length: stuffing, restart markers
            pos += 2
            continue
        length = int.from_bytes(data[pos + 2:pos + 4], "big")
        pos += 2 + length
        if marker == 0xDA:  # start of scan: skip its entropy-coded data to the next real marker
            scans += 1
            while True:
                pos = data.find(b"\xff", pos)
                if pos < 0 or pos + 1 >= n:
                    return scans
                nxt = data[pos + 1]
                if nxt == 0x00 or 0xD0 <= nxt <= 0xD7 or nxt == 0xFF:
                    pos += 1 if nxt == 0xFF else 2
                    continue
                break
    return scans


def decode_image(data: bytes, name: str = "upload", max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode an encoded JPEG, PNG, WebP or BMP image to BGR. Its first bytes and header are read
    first: another format is refused (:func:`image_format`), and so is a picture past
    ``max_pixels`` (:class:`ImageTooLargeError`) or of an aspect no camera makes
    (:data:`MAX_ASPECT`), before any large allocation."""
    import cv2

    if not data:
        raise ImageError(f"{name}: empty file")
    image_format(data, name)
    width, height = image_size(data, name)
    if width * height > max_pixels:
        limit = f"{max_pixels / 1_000_000:g} MP"
        raise ImageTooLargeError(f"{name}: {width}x{height} is too large (limit {limit})")
    if max(width, height) > MAX_ASPECT * max(min(width, height), 1):
        raise ImageError(f"{name}: {width}x{height} is not a photo or scan (longer than {MAX_ASPECT:g} times its width)")
    scans = jpeg_scans(data)
    if scans > MAX_JPEG_SCANS:
        raise ImageError(f"{name}: a JPEG of {scans} scans, which no camera makes (at most {MAX_JPEG_SCANS})")
    return check_image(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), name)
