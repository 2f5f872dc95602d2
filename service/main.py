"""``create_app()``: the FastAPI app. The model loads once, in ``lifespan``; the ledger opens there too.

>>> app = create_app(Settings(db=":memory:", load_model=False))
>>> sorted(p for p in app.openapi()["paths"] if p.startswith("/api/"))[:3]
['/api/advise', '/api/decks', '/api/decks/cut']
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles

from sisepai.engine.errors import SisepaiError
from sisepai.engine.words import CATALOGUES
from sisepai.ledger.db import DatabaseUnavailable
from sisepai.ledger.roster import RosterConflict
from sisepai.ledger.store import Ledger, UnknownTable
from sisepai.vision.decks.store import remove_stale_builds

from .deps import fill_state
from .guards import Guard
from .live_messages import add_to_openapi
from .plain_errors import plain_sentence
from .refusals import body_of, http_body
from .routes import decks, engine, gof, ledger, live, vision
from .settings import Settings

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("sisepai.service")


def load_recognizer(settings: Settings):
    """The shared recogniser the settings name (a deck's own reader and detector with ``--deck``);
    ``(recognizer, None)``, or ``(None, why)`` when it cannot load: the engine routes work without it."""
    try:
        from sisepai.vision.decks.recognizer import deck_recognizer  # lazy: NumPy, OpenCV

        reader = None if settings.deck else settings.reader
        return deck_recognizer(settings.deck, detector=settings.detector, reader=reader), None
    except Exception as exc:  # noqa: BLE001 - the engine routes still work without a model
        log.warning("model not loaded: %s", exc)
        return None, str(exc)


def add_error_handlers(app: FastAPI) -> None:
    """Every error a client may cause answers in one sentence, with the right status, and with a
    code and params the page says in its own language (:mod:`.refusals`); anything else is logged
    and answered "internal error", never with a trace."""
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(SisepaiError)
    async def _bad_input(request: Request, exc: SisepaiError):
        return JSONResponse(status_code=422, content=body_of(str(exc), exc.code, exc.params))

    @app.exception_handler(UnknownTable)
    async def _no_table(request: Request, exc: UnknownTable):
        return JSONResponse(status_code=404, content=body_of(str(exc), exc.code, exc.params))

    @app.exception_handler(RosterConflict)
    async def _roster_conflict(request: Request, exc: RosterConflict):
        return JSONResponse(status_code=409, content=body_of(str(exc), exc.code, exc.params))

    @app.exception_handler(DatabaseUnavailable)
    async def _no_database(request: Request, exc: DatabaseUnavailable):
        log.warning("%s", exc)
        return JSONResponse(status_code=503, content=body_of("the ledger database is unavailable; try again",
                                                             "database_unavailable", {}),
                            headers={"Retry-After": "2"})

    @app.exception_handler(StarletteHTTPException)
    async def _refused(request: Request, exc: StarletteHTTPException):
        return JSONResponse(status_code=exc.status_code, content=http_body(exc), headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        # one sentence for people; the list, as FastAPI gives it, for programs
        # (with the limits that were broken, so a page can say the sentence in its own language)
        errors = [{"loc": list(e.get("loc", [])), "msg": e.get("msg", ""), "type": e.get("type", ""),
                   "ctx": {k: v for k, v in (e.get("ctx") or {}).items() if isinstance(v, (int, float)) and not isinstance(v, bool)}}
                  for e in exc.errors()]
        return JSONResponse(status_code=422, content={**body_of(plain_sentence(exc.errors()), "invalid_field", {}),
                                                      "errors": errors})

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        log.exception("unhandled error on %s", request.url.path)
        return JSONResponse(status_code=500, content=body_of("internal error", "internal_error", {}))


def create_app(settings: Settings | None = None, recognizer=None) -> FastAPI:
    """The web app: the API, the page and its reference. ``recognizer``: one already loaded (else
    the settings' is loaded at start-up).

    >>> app = create_app(Settings(db=":memory:", load_model=False))
    >>> "/api/score" in app.openapi()["paths"]
    True
    """
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        app.state.ledger = Ledger(settings.db)
        app.state.ledger.add_table(settings.table)

        remove_stale_builds()  # what enrolments of a server that died left in the decks folder
        if recognizer is None and settings.load_model:
            app.state.recognizer, app.state.model_error = load_recognizer(settings)
        yield
        await app.state.deck_jobs.stop_all()
        app.state.ledger.close()
        app.state.pool.close()

    app = FastAPI(title="sisepai", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Four Color Cards (四色牌) and Gang of Four: scoring, advice, card recognition, "
                              "a live table assistant and a game-night ledger.")
    fill_state(app.state, settings, recognizer)
    app.add_middleware(Guard, upload_limit=int(settings.max_upload_mb * 1024 * 1024),
                       allowed_hosts=settings.allowed_hosts)
    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins), allow_methods=["*"],
                           allow_headers=["*"])
    add_error_handlers(app)
    add_to_openapi(app)  # the live socket's messages, which no route's answer lists
    routers = [m.router for m in (engine, vision, decks, ledger, gof, live)] + [ledger.tables]
    api_routes = [r for router in routers for r in router.routes if isinstance(r, APIRoute)]
    for router in routers:
        app.include_router(router)

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
                   include_in_schema=False)
    async def _no_such_api(request: Request, rest: str):
        """An API path no route answers with this method: 405 with the methods it takes (``Allow``),
        or 404; never the page's files. ``OPTIONS`` answers 204 with the route's own methods (HEAD
        wherever GET is taken, :class:`~.guards.Guards`)."""
        taken = {m for r in api_routes if r.path_regex.match(request.url.path) for m in r.methods}
        allowed = sorted(taken | ({"HEAD"} if "GET" in taken else set()) | ({"OPTIONS"} if taken else set()))
        if allowed and request.method == "OPTIONS":
            return Response(status_code=204, headers={"Allow": ", ".join(allowed)})
        if allowed:
            return JSONResponse(status_code=405, headers={"Allow": ", ".join(allowed)},
                                content=body_of(f"{request.method} is not taken here; use {' or '.join(allowed)}",
                                                "method_not_allowed", {"allowed": ", ".join(allowed)}))
        return JSONResponse(status_code=404, content=body_of(f"no API at {request.url.path}", None, None))

    @app.options("/{rest:path}", include_in_schema=False)
    async def _page_options(rest: str) -> Response:
        """``OPTIONS`` on the page's paths: 204 with what they take, as on the API's (docs/api.md)."""
        return Response(status_code=204, headers={"Allow": "GET, HEAD, OPTIONS"})

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:  # the API reference, served from here (no CDN), built from /openapi.json
        return FileResponse(STATIC / "api.html")

    app.mount("/i18n", StaticFiles(directory=str(CATALOGUES)), name="i18n")  # the words' one home, the engine's
    app.mount("/", StaticFiles(directory=str(STATIC), html=True), name="static")
    return app
