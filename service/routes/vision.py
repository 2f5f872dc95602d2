"""Card recognition on uploaded images."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Query, UploadFile

from sisepai.vision.hand.scoring import score_detections

from ..deck_readers import DeckReaders
from ..deps import PoolDep, SettingsDep
from ..rules import network_rules
from ..schemas import HandAnswer, RecognizeAnswer
from ..uploads import decode_or_refuse, read_upload

router = APIRouter(prefix="/api", tags=["vision"])
Readers = Annotated[DeckReaders, Depends()]


@router.post("/recognize", summary="Find and read every card in an image",
             description="A multipart `file` image. "
                         "503 with `Retry-After` when every recognition worker is busy.")
async def recognize(settings: SettingsDep, pool: PoolDep, readers: Readers, file: UploadFile = File(...),
                    deck: str | None = Query(None, max_length=40)) -> RecognizeAnswer:
    data, name = await read_upload(file, settings)
    image = await pool.run(lambda: decode_or_refuse(data, name))  # a broken image is refused before any model loads
    rec = await readers(deck)

    def work() -> RecognizeAnswer:
        return RecognizeAnswer.from_recognition(rec.recognize(image))

    return await pool.run(work)


@router.post("/score-image", summary="Read and score a photographed finished hand",
             description="A multipart `file` image; `rules` is a preset name. 503 with `Retry-After` when "
                         "every recognition worker is busy.")
async def score_image(settings: SettingsDep, pool: PoolDep, readers: Readers, file: UploadFile = File(...),
                      rules: str = Query("seesek", max_length=40), deck: str | None = Query(None, max_length=40),
                      claimed: int | None = Query(None, ge=0, le=1000)) -> HandAnswer:
    preset = network_rules(rules)
    data, name = await read_upload(file, settings)
    image = await pool.run(lambda: decode_or_refuse(data, name))  # a broken image is refused before any model loads
    rec = await readers(deck)

    def work() -> HandAnswer:
        result = rec.recognize(image)
        return HandAnswer.from_reading(result, score_detections(result.detections, preset, 0,
                                                                (result.width, result.height), claimed))

    return await pool.run(work)
