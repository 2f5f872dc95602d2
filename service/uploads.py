"""Uploaded images: their type and size checked, then decoded in a worker with clear refusals."""

from __future__ import annotations

from fastapi import UploadFile

from sisepai.vision.recognition.images import ImageError, ImageTooLargeError, decode_image, image_format

from .refusals import Refusal
from .settings import Settings


async def read_upload(file: UploadFile, settings: Settings) -> tuple[bytes, str]:
    """An uploaded image's bytes and a name for messages, its size checked (the :mod:`.guards`
    middleware has already bounded the whole body) and its format told from its bytes, whatever
    content type the client gave: 415 for anything but JPEG, PNG, WebP or BMP."""

    limit = int(settings.max_upload_mb * 1024 * 1024)
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise Refusal(413, "upload_too_large", f"image larger than {settings.max_upload_mb:g} MB",
                      mb=settings.max_upload_mb)
    name = (file.filename or "upload")[:80]
    if not data:
        raise Refusal(422, "empty_file", f"{name}: empty file")
    try:
        image_format(data, name)
    except ImageError as exc:
        raise Refusal(415, "image_format", str(exc)) from None
    return data, name


def decode_or_refuse(data: bytes, name: str):
    """:func:`~sisepai.vision.recognition.images.decode_image` in a worker: 413 for an image past the
    pixel limit (known from its header, before decoding), 422 for one that cannot be read."""

    try:
        return decode_image(data, name)
    except ImageTooLargeError as exc:
        raise Refusal(413, "image_pixels", str(exc)) from None
    except ImageError as exc:
        raise Refusal(422, "image_unreadable", str(exc)) from None
