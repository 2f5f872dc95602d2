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


def recognizer(request: Request):
    rec = request.app.state.recognizer
    if rec is None:
        raise HTTPException(503, "the recognition model is not loaded: " + (request.app.state.model_error or "disabled"))
    return rec


@router.post("/recognize", summary="Find and read every card in an image",
             description="A multipart `file` image. Returns `{cards: [...], width, height, ms}`.")
async def recognize(request: Request, file: UploadFile = File(...)) -> dict:
    image = await read_upload(request, file)
    result = recognizer(request).recognize(image)
    return result.to_json()


@router.post("/score-image", summary="Read and score a photographed finished hand")
async def score_image(request: Request, file: UploadFile = File(...), rules: str = Query("seesek")) -> dict:
    from sisepai.vision.scoring import score_detections

    image = await read_upload(request, file)
    result = recognizer(request).recognize(image)
    return {"width": result.width, "height": result.height, "ms": round(result.ms, 1),
            **score_detections(result.detections, resolve_rules(rules))}
