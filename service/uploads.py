"""Uploaded images: their type and size checked, then decoded in a worker with clear refusals."""

from __future__ import annotations

from fastapi import HTTPException, UploadFile

from .settings import Settings

IMAGE_TYPES = {"image/jpeg", "image/png", "image/webp", "image/bmp", "image/jpg"}


async def read_upload(file: UploadFile, settings: Settings) -> tuple[bytes, str]:
    """An uploaded image's bytes and a name for messages, its type and size checked (the
    :mod:`.guards` middleware has already bounded the whole body)."""
    limit = int(settings.max_upload_mb * 1024 * 1024)
    if file.content_type not in IMAGE_TYPES:
        raise HTTPException(415, f"unsupported image type {str(file.content_type)[:40]!r}: send JPEG, PNG, WebP or BMP")
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise HTTPException(413, f"image larger than {settings.max_upload_mb:g} MB")
    return data, (file.filename or "upload")[:80]


def decode_or_refuse(data: bytes, name: str):
    """:func:`~sisepai.vision.recognition.images.decode_image` in a worker: 413 for an image past the
    pixel limit (known from its header, before decoding), 422 for one that cannot be read."""
    from sisepai.vision.recognition.images import ImageError, ImageTooLargeError, decode_image

    try:
        return decode_image(data, name)
    except ImageTooLargeError as exc:
        raise HTTPException(413, str(exc)) from None
    except ImageError as exc:
        raise HTTPException(422, str(exc)) from None
