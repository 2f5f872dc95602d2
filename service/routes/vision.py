"""Card recognition on uploaded images."""

from __future__ import annotations

from fastapi import APIRouter, File, HTTPException, Query, Request, UploadFile

router = APIRouter(prefix="/api", tags=["vision"])
IMAGE_TYPES = {"image/jpeg", "image/png", "image/webp", "image/bmp", "image/jpg"}


async def read_upload(request: Request, file: UploadFile) -> tuple[bytes, str]:
    """An uploaded image's bytes and a name for messages, its type and size checked (the
    :mod:`..guards` middleware has already bounded the whole body)."""
    settings = request.app.state.settings
    limit = int(settings.max_upload_mb * 1024 * 1024)
    if file.content_type not in IMAGE_TYPES:
        raise HTTPException(415, f"unsupported image type {str(file.content_type)[:40]!r}: send JPEG, PNG, WebP or BMP")
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise HTTPException(413, f"image larger than {settings.max_upload_mb:g} MB")
    return data, (file.filename or "upload")[:80]


def decode_or_refuse(data: bytes, name: str):
    """:func:`~sisepai.vision.images.decode_image` in a worker: 413 for an image past the
    pixel limit (known from its header, before decoding), 422 for one that cannot be read."""
    from sisepai.vision.images import ImageError, ImageTooLargeError, decode_image

    try:
        return decode_image(data, name)
    except ImageTooLargeError as exc:
        raise HTTPException(413, str(exc)) from None
    except ImageError as exc:
        raise HTTPException(422, str(exc)) from None


MAX_DECK_RECOGNIZERS = 4
"""Enrolled decks' readers kept loaded at once (each about 5 MB); the oldest is dropped."""


async def deck_recognizer(app, deck: str | None):
    """The recogniser for an enrolled ``deck`` (the service's default when None or empty): the
    shared detector with that deck's reader, loaded once in a worker thread. A deck name is only
    ever a name, never a path: :func:`sisepai.vision.decks.check_name` refuses anything else."""
    from starlette.concurrency import run_in_threadpool

    from sisepai.engine.errors import SisepaiError
    from sisepai.vision.decks import reader_weights

    base = app.state.recognizer
    if base is None:
        raise HTTPException(503, "the recognition model is not loaded: " + (app.state.model_error or "disabled"))
    if not deck:
        return base
    cache: dict = app.state.deck_recognizers
    if deck not in cache:
        try:
            weights = reader_weights(deck)
        except SisepaiError as exc:
            raise HTTPException(404, str(exc)[:200]) from None

        def load():
            import copy

            from sisepai.vision.reader import Reader

            rec = copy.copy(base)  # same detector and settings, this deck's reader
            rec.reader = Reader.load(weights)
            return rec

        rec = await run_in_threadpool(load)
        while len(cache) >= MAX_DECK_RECOGNIZERS:
            cache.pop(next(iter(cache)))
        cache[deck] = rec
    return cache[deck]


@router.post("/recognize", summary="Find and read every card in an image",
             description="A multipart `file` image. Returns `{cards: [...], width, height, ms}`. "
                         "503 with `Retry-After` when every recognition worker is busy.")
async def recognize(request: Request, file: UploadFile = File(...), deck: str | None = Query(None, max_length=40)) -> dict:
    data, name = await read_upload(request, file)
    rec = await deck_recognizer(request.app, deck)

    def work() -> dict:
        return rec.recognize(decode_or_refuse(data, name)).to_json()

    return await request.app.state.pool.run(work)


@router.post("/score-image", summary="Read and score a photographed finished hand",
             description="A multipart `file` image; `rules` is a preset name. 503 with `Retry-After` when "
                         "every recognition worker is busy.")
async def score_image(request: Request, file: UploadFile = File(...), rules: str = Query("seesek", max_length=40),
                      deck: str | None = Query(None, max_length=40),
                      claimed: int | None = Query(None, ge=0, le=1000)) -> dict:
    from sisepai.vision.scoring import score_detections

    from ..rules import network_rules

    preset = network_rules(rules)
    data, name = await read_upload(request, file)
    rec = await deck_recognizer(request.app, deck)

    def work() -> dict:
        result = rec.recognize(decode_or_refuse(data, name))
        return {"width": result.width, "height": result.height, "ms": round(result.ms, 1),
                **score_detections(result.detections, preset, 0, (result.width, result.height), claimed)}

    return await request.app.state.pool.run(work)
