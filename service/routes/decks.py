"""The "My deck" flow: photos of the grid in, cut faces out to check, then the adaptation in a
process of its own, its progress polled.

1. ``POST /api/decks/cut``: one to four photos of the grid (multipart ``files``). The faces are
   cut (:mod:`sisepai.vision.deck_grid`) and kept as a draft; the answer shows them.
2. ``POST /api/decks`` ``{"draft", "name"}``: enrols the draft as ``name`` (a write: the ledger's
   token rule applies). One enrolment runs at a time, in a separate process, so the service keeps
   answering; a second gets 409.
3. ``GET /api/decks/jobs/{job}``: ``{"fraction", "message", "done", "error", "name"}``.

Drafts and jobs are named by random ids; a deck is only ever a name (never a path).
"""

from __future__ import annotations

import base64
import multiprocessing as mp
import secrets
import time

import cv2
import numpy as np
from fastapi import APIRouter, File, Header, HTTPException, Request, UploadFile
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from .ledger import check_token
from .vision import decode_or_refuse, read_upload

router = APIRouter(prefix="/api/decks", tags=["decks"])
MAX_PHOTOS = 4
MAX_DRAFTS = 4
DRAFT_SECONDS = 3600


class EnrolRequest(BaseModel):
    draft: str = Field(..., max_length=64)
    name: str = Field(..., min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    minutes: float = Field(4.0, ge=0.05, le=30)


@router.get("", summary="The enrolled decks the recogniser can read",
            description="`{default, decks: [{name, aspect, has_joker, created}]}`; pass `deck=NAME` to "
                        "`/api/recognize`, `/api/score-image` or `/api/live` to read one.")
async def decks(request: Request) -> dict:
    from sisepai.vision.decks import deck_info, list_decks

    keep = ("name", "aspect", "has_joker", "created")
    return {"default": request.app.state.settings.deck,
            "decks": [{k: v for k, v in deck_info(n).items() if k in keep} for n in list_decks()]}


def _thumbnail(face_rgb: np.ndarray, height: int = 160) -> str:
    h, w = face_rgb.shape[:2]
    small = cv2.resize(face_rgb, (max(8, round(w * height / h)), height), interpolation=cv2.INTER_AREA)
    ok, png = cv2.imencode(".png", small[..., ::-1])
    return "data:image/png;base64," + base64.b64encode(png.tobytes()).decode()


def _drafts(app) -> dict:
    if not hasattr(app.state, "deck_drafts"):
        app.state.deck_drafts = {}
    now = time.time()
    for key in [k for k, (t, _) in app.state.deck_drafts.items() if now - t > DRAFT_SECONDS]:
        del app.state.deck_drafts[key]
    return app.state.deck_drafts


@router.post("/cut", summary="Cut a deck's faces from photos of its grid",
             description="Multipart `files`: 1 to 4 photos of one card of each kind laid in rows G W Y R, "
                         "columns K A E R H C P (and a joker alone in a fifth row), on a plain table. "
                         "Returns `{draft, faces: [{code, image}]}` to check before enrolling.")
async def cut(request: Request, files: list[UploadFile] = File(...)) -> dict:
    from sisepai.datasets.deck_faces import DeckError, DeckFaces
    from sisepai.vision.deck_grid import cut_grid

    if not 1 <= len(files) <= MAX_PHOTOS:
        raise HTTPException(422, f"send 1 to {MAX_PHOTOS} photos of the grid")
    uploads = [await read_upload(request, f) for f in files]

    def work() -> DeckFaces:
        images = [decode_or_refuse(data, name) for data, name in uploads]
        try:
            return DeckFaces(cut_grid(images))
        except DeckError as exc:
            raise HTTPException(422, str(exc)) from None

    faces = await request.app.state.pool.run(work)
    drafts = _drafts(request.app)
    while len(drafts) >= MAX_DRAFTS:
        drafts.pop(next(iter(drafts)))
    draft = secrets.token_hex(8)
    drafts[draft] = (time.time(), faces)
    return {"draft": draft, "faces": [{"code": c, "image": _thumbnail(faces.faces[c])} for c in faces.codes]}


def _enrol_job(faces: dict, name: str, minutes: float, queue) -> None:
    """The child process: enrol, reporting progress to ``queue``."""
    from sisepai.datasets.deck_faces import DeckFaces
    from sisepai.models.deck_cli import enrol
    from sisepai.models.enrol import EnrolOptions

    try:
        enrol(name, DeckFaces(faces), EnrolOptions(minutes=minutes), lambda f, m: queue.put((f, m)), force=True)
        queue.put((1.0, "done"))
    except Exception as exc:  # noqa: BLE001 - reported to the page, one line
        queue.put((-1.0, str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__))


@router.post("", summary="Enrol a cut deck (a write: needs the token beyond localhost)")
async def enrol(body: EnrolRequest, request: Request, x_sisepai_token: str | None = Header(None)) -> dict:
    check_token(request, x_sisepai_token)
    app = request.app
    drafts = _drafts(app)
    if body.draft not in drafts:
        raise HTTPException(404, "no such draft (cut the faces again)")
    job = getattr(app.state, "deck_job", None)
    if job is not None and job["process"].is_alive():
        raise HTTPException(409, f"deck {job['name']!r} is being enrolled; try again when it is done")
    faces = drafts[body.draft][1].faces
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    process = ctx.Process(target=_enrol_job, args=(faces, body.name, body.minutes, queue), daemon=False)
    await run_in_threadpool(process.start)
    job_id = secrets.token_hex(8)
    app.state.deck_job = {"id": job_id, "name": body.name, "process": process, "queue": queue,
                          "fraction": 0.0, "message": "starting", "error": None}
    return {"job": job_id, "name": body.name}


@router.get("/jobs/{job}", summary="The progress of an enrolment")
async def job_status(job: str, request: Request) -> dict:
    state = getattr(request.app.state, "deck_job", None)
    if state is None or not secrets.compare_digest(state["id"], job[:64]):
        raise HTTPException(404, "no such job")
    while True:
        try:
            fraction, message = state["queue"].get_nowait()
        except Exception:  # noqa: BLE001 - queue.Empty, or the queue closed
            break
        if fraction < 0:
            state["error"] = message
        else:
            state["fraction"], state["message"] = fraction, message
    done = state["fraction"] >= 1.0 and state["message"] == "done"
    if not done and state["error"] is None and not state["process"].is_alive():
        state["error"] = "the enrolment stopped unexpectedly"
    if done:
        request.app.state.deck_recognizers.pop(state["name"], None)  # a replaced deck loads afresh
    return {"name": state["name"], "fraction": round(state["fraction"], 3), "message": state["message"],
            "done": done, "error": state["error"]}
