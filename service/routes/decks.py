"""The "My deck" flow: photos of the grid in, cut faces out to check, then the adaptation by the
``sisepai deck add`` command in a process of its own, its progress polled.

1. ``POST /api/decks/cut``: one to four photos of the grid (multipart ``files``). The faces are
   cut (:mod:`sisepai.vision.decks.grid`) and kept as a draft; the answer shows them.
2. ``POST /api/decks`` ``{"draft", "name"}``: enrols the draft as ``name`` (a write: the ledger's
   token rule applies). One enrolment runs at a time, as ``sisepai deck add --progress lines`` on a
   temporary folder of the faces, so the service keeps answering and loads no training code; a
   second gets 409.
3. ``GET /api/decks/jobs/{job}``: ``{"fraction", "message", "done", "error", "name"}``.

Drafts and jobs are named by random ids; a deck is only ever a name (never a path).
"""

from __future__ import annotations

import asyncio
import base64
import secrets
import shutil
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from fastapi import APIRouter, File, UploadFile
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from sisepai.faces.deck import DeckError, DeckFaces
from sisepai.vision.decks.grid import cut_grid
from sisepai.vision.decks.store import deck_exists, deck_info, list_decks, new_faces_folder

from ..deps import DeckDraftsDep, DeckJobsDep, DeckRecognizersDep, PoolDep, RecognizerDep, SettingsDep, Writer
from ..enrol_jobs import EnrolJob
from ..refusals import Refusal
from ..schemas import CutAnswer, CutFace, DeckInfo, DecksAnswer, EnrolStarted, JobAnswer, JobsAnswer
from ..uploads import decode_or_refuse, read_upload

router = APIRouter(prefix="/api/decks", tags=["decks"])
MAX_PHOTOS = 4
ENROL_STEPS = 480
"""The reader's adaptation steps an enrolment request gets by default: ``deck add``'s
(:data:`sisepai.models.enrolment.enrol.DEFAULT_STEPS`, written out: the service imports no training code)."""
MAX_DRAFTS = 4
DRAFT_SECONDS = 3600


class EnrolRequest(BaseModel):
    draft: str = Field(..., max_length=64)
    name: str = Field(..., min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    steps: int = Field(ENROL_STEPS, ge=5, le=5000, description="adaptation steps: the same deck reader however busy the server")
    minutes: float | None = Field(None, ge=0.05, le=30, description="a time budget instead of steps")
    replace: bool = Field(False, description="replace an enrolled deck of this name (otherwise such a request gets 409)")
    quick: bool = Field(False, description="adapt the reader only (about 5 minutes); otherwise the detector too "
                                           "(at most 10 minutes on a 2-core server)")


@router.get("", summary="The enrolled decks the recogniser can read",
            description="`{default, decks: [{name, aspect, has_joker, created, check}]}` (`check`: F1 on whole "
                        "scenes kept aside, before and after enrolment, each layout, the weakest); pass `deck=NAME` to "
                        "`/api/recognize`, `/api/score-image` or `/api/live` to read one.")
async def decks(settings: SettingsDep) -> DecksAnswer:
    return DecksAnswer(default=settings.deck, decks=[DeckInfo.from_deck_json(deck_info(n)) for n in list_decks()])


def _thumbnail(face_rgb: np.ndarray, height: int = 160) -> str:
    h, w = face_rgb.shape[:2]
    small = cv2.resize(face_rgb, (max(8, round(w * height / h)), height), interpolation=cv2.INTER_AREA)
    ok, png = cv2.imencode(".png", small[..., ::-1])
    return "data:image/png;base64," + base64.b64encode(png.tobytes()).decode()


def _fresh(drafts: dict) -> dict:
    """``drafts`` without those older than :data:`DRAFT_SECONDS`."""
    now = time.time()
    for key in [k for k, (t, _) in drafts.items() if now - t > DRAFT_SECONDS]:
        del drafts[key]
    return drafts


@router.post("/cut", summary="Cut a deck's faces from photos of its grid (needs the token beyond localhost)",
             dependencies=[Writer],
             description="Multipart `files`: 1 to 4 photos of one card of each kind laid in rows G W Y R, "
                         "columns K A E R H C P (and a joker alone in a fifth row), on a plain table. "
                         "Returns `{draft, notes, faces: [{code, image}]}` to check before enrolling; "
                         "`notes`: one line per cell to look at; `note_codes`: the same as a code and its params, "
                         "for a page that says them in its own language.")
async def cut(settings: SettingsDep, pool: PoolDep, recognizer: RecognizerDep, drafts: DeckDraftsDep,
              files: list[UploadFile] = File(...)) -> CutAnswer:
    if not 1 <= len(files) <= MAX_PHOTOS:
        raise Refusal(422, "grid_photos", f"send 1 to {MAX_PHOTOS} photos of the grid", max=MAX_PHOTOS)
    uploads = [await read_upload(f, settings) for f in files]
    # recognizer: None while the model loads, then the colour finder alone cuts

    def work():
        images = [decode_or_refuse(data, name) for data, name in uploads]
        try:
            grid = cut_grid(images, recognizer, "auto" if recognizer is not None else "colour")
            return DeckFaces(grid), grid.notes
        except DeckError as exc:
            raise Refusal(422, exc.code, str(exc), **exc.params) from None

    faces, notes = await pool.run(work)
    drafts = _fresh(drafts)
    while len(drafts) >= MAX_DRAFTS:
        drafts.pop(next(iter(drafts)))
    draft = secrets.token_hex(8)
    drafts[draft] = (time.time(), faces)
    return CutAnswer.from_notes(draft, notes, [CutFace(code=c, image=_thumbnail(faces.faces[c])) for c in faces.codes])


def enrol_command(name: str, folder: Path, steps: int = ENROL_STEPS, minutes: float | None = None,
                  replace: bool = False, quick: bool = False) -> list[str]:
    """The command line that enrols the faces in ``folder`` as ``name``: the service runs the
    ``sisepai deck add`` command in a process of its own and imports no training code itself.
    An enrolled deck of that name is replaced only when ``replace`` says so; ``quick`` adapts the
    reader only.

    The faces in ``folder`` are the page's cut, saved once: ``--as-cut`` takes them as they are.

    >>> enrol_command("fam", Path("/tmp/f"))[-9:]
    ['deck', 'add', 'fam', '/tmp/f', '--as-cut', '--steps', '480', '--progress', 'lines']
    >>> enrol_command("fam", Path("/tmp/f"), minutes=0.5, replace=True)[-5:-2]
    ['--force', '--minutes', '0.5']
    >>> enrol_command("fam", Path("/tmp/f"), quick=True)[-5:-2]
    ['--quick', '--steps', '480']
    """
    budget = ["--minutes", str(minutes)] if minutes else ["--steps", str(steps)]
    return [sys.executable, "-m", "sisepai.engine.cli", "deck", "add", name, str(folder), "--as-cut",
            *(["--force"] if replace else []), *(["--quick"] if quick else []), *budget, "--progress", "lines"]


async def _follow(job: EnrolJob, process: asyncio.subprocess.Process, folder: Path) -> None:
    """Read the enrolment's progress until it exits, then mark the job done or failed."""
    try:
        while True:
            try:
                raw = await process.stderr.readline()
            except ValueError:  # a line past the stream's limit: skip it
                continue
            if not raw:
                break
            job.read_progress(raw.decode("utf-8", "replace"))
        job.ended(await process.wait())
    finally:
        job.process = None
        await run_in_threadpool(shutil.rmtree, folder, True)


@router.post("", summary="Enrol a cut deck (a write: needs the token beyond localhost)", dependencies=[Writer])
async def enrol(body: EnrolRequest, drafts: DeckDraftsDep, jobs: DeckJobsDep) -> EnrolStarted:
    drafts = _fresh(drafts)
    if body.draft not in drafts:
        raise Refusal(404, "no_draft", "no such draft (cut the faces again)")
    running = jobs.running()
    if running is not None:
        raise Refusal(409, "enrolment_running", f"deck {running.name!r} is being enrolled; try again when it is done",
                      name=running.name)

    if not body.replace and deck_exists(body.name):
        raise Refusal(409, "deck_exists", f"a deck named {body.name!r} is enrolled already: replace it, or choose "
                      "another name", name=body.name)
    # the slot is taken here, before any await: a second request sees this job
    job = EnrolJob(body.name)
    jobs.add(job)
    faces = drafts[body.draft][1]
    try:
        folder = await run_in_threadpool(new_faces_folder)
        await run_in_threadpool(faces.save, folder)
        process = await asyncio.create_subprocess_exec(
            *enrol_command(body.name, folder, body.steps, body.minutes, body.replace, body.quick), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    except OSError as exc:
        job.error = f"could not start the enrolment: {exc}"
        raise Refusal(503, "enrol_start_failed", job.error) from None
    job.process = process
    job.task = asyncio.create_task(_follow(job, process, folder))  # kept, so it is not collected
    return EnrolStarted(job=job.id, name=body.name)


@router.get("/jobs", summary="The enrolments of this server: the running one and the last finished ones")
async def list_jobs(jobs: DeckJobsDep) -> JobsAnswer:
    return JobsAnswer(jobs=[j.public() for j in reversed(list(jobs.values()))])


@router.get("/jobs/{job}", summary="The progress of an enrolment")
async def job_status(job: str, jobs: DeckJobsDep, loaded: DeckRecognizersDep) -> JobAnswer:
    state = jobs.find(job)
    if state is None:
        raise Refusal(404, "no_job", "no such job")
    if state.done:
        loaded.pop(state.name, None)  # a replaced deck loads afresh
    return state.public(with_id=False)


@router.delete("/jobs/{job}", summary="Cancel a running enrolment (a write); the deck is not saved",
               dependencies=[Writer])
async def cancel_job(job: str, jobs: DeckJobsDep) -> JobAnswer:
    state = jobs.find(job)
    if state is None:
        raise Refusal(404, "no_job", "no such job")
    process = state.process
    if not state.running or process is None:
        raise Refusal(409, "job_ended", "that enrolment has ended already")
    state.cancelled = True
    if process.returncode is None:
        process.terminate()  # deck add removes its half-built folder on SIGTERM
    task = state.task
    if task is not None:
        try:
            await asyncio.wait_for(asyncio.shield(task), 15)
        except asyncio.TimeoutError:
            process.kill()
    return state.public(with_id=False)
