"""Card recognition on uploaded images."""

from __future__ import annotations

from fastapi import APIRouter, File, HTTPException, Query, Request, UploadFile

from sisepai.engine.rules import resolve_rules

router = APIRouter(prefix="/api", tags=["vision"])
IMAGE_TYPES = {"image/jpeg", "image/png", "image/webp", "image/bmp", "image/jpg"}


async def read_upload(request: Request, file: UploadFile):
    from sisepai.vision.recognize import ImageError, decode_image

    settings = request.app.state.settings
    limit = int(settings.max_upload_mb * 1024 * 1024)
    if file.content_type not in IMAGE_TYPES:
        raise HTTPException(415, f"unsupported image type {file.content_type!r}: send JPEG, PNG, WebP or BMP")
    data = await file.read(limit + 1)
    if len(data) > limit:
        raise HTTPException(413, f"image larger than {settings.max_upload_mb:g} MB")
    try:
        return decode_image(data, file.filename or "upload")
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
             description="A multipart `file` image. Returns `{cards: [...], width, height, ms}`.")
async def recognize(request: Request, file: UploadFile = File(...), deck: str | None = Query(None, max_length=40)) -> dict:
    from starlette.concurrency import run_in_threadpool

    image = await read_upload(request, file)
    rec = await deck_recognizer(request.app, deck)
    result = await run_in_threadpool(rec.recognize, image)
    return result.to_json()


@router.post("/score-image", summary="Read and score a photographed finished hand")
async def score_image(request: Request, file: UploadFile = File(...), rules: str = Query("seesek"),
                      deck: str | None = Query(None, max_length=40),
                      claimed: int | None = Query(None, ge=0, le=1000)) -> dict:
    from starlette.concurrency import run_in_threadpool

    from sisepai.vision.scoring import score_detections

    image = await read_upload(request, file)
    rec = await deck_recognizer(request.app, deck)
    result = await run_in_threadpool(rec.recognize, image)
    return {"width": result.width, "height": result.height, "ms": round(result.ms, 1),
            **await run_in_threadpool(score_detections, result.detections, resolve_rules(rules), 0,
                                      (result.width, result.height), claimed)}
