"""The service's shared parts as FastAPI dependencies: routes declare what they use
(``ledger: LedgerDep``) instead of reaching into the app, and tests may swap any of them with
``app.dependency_overrides``.

Everything here lives on the app from :func:`~.main.create_app`: the settings, the work pool, the
ledger and the recogniser (loaded in its lifespan), the enrolled decks' recognisers, the My deck
drafts and jobs.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> app = FastAPI()
>>> app.state.settings = Settings(db=":memory:", load_model=False)
>>> @app.get("/table")
... def table(settings: SettingsDep) -> str:
...     return settings.table
>>> TestClient(app).get("/table").json()
'main'
"""

from __future__ import annotations

import hmac
import ipaddress
import math
import time
from typing import Annotated, Callable

from fastapi import Depends, Header
from starlette.requests import HTTPConnection, Request

from sisepai.faces.deck import DeckFaces
from sisepai.ledger.store import Ledger
from sisepai.vision.recognition.recognize import Recognizer

from .enrol_jobs import EnrolJobs
from .refusals import Refusal
from .settings import Settings
from .token_tries import TokenTries
from .work import WorkPool


def get_settings(conn: HTTPConnection) -> Settings:
    return conn.app.state.settings


def get_ledger(conn: HTTPConnection) -> Ledger:
    return conn.app.state.ledger


def get_pool(conn: HTTPConnection) -> WorkPool:
    return conn.app.state.pool


def get_recognizer(conn: HTTPConnection) -> Recognizer | None:
    """The shared recogniser, or None while it is not loaded (see :func:`get_model_error`)."""
    return conn.app.state.recognizer


def get_model_error(conn: HTTPConnection) -> str | None:
    return conn.app.state.model_error


def get_clock(conn: HTTPConnection) -> Callable[[], float]:
    """The live streams' clock (a test may give the app its own)."""
    return conn.app.state.clock


def get_deck_recognizers(conn: HTTPConnection) -> dict[str, Recognizer]:
    """Enrolled decks' recognisers, by deck name, loaded on first use."""
    return conn.app.state.deck_recognizers


def get_deck_drafts(conn: HTTPConnection) -> dict[str, tuple[float, DeckFaces]]:
    """Decks cut in the My deck flow, not yet enrolled: draft id -> (time, faces)."""
    return conn.app.state.deck_drafts


def get_deck_jobs(conn: HTTPConnection) -> EnrolJobs:
    """The enrolments of this server: job id -> :class:`~.enrol_jobs.EnrolJob`."""
    return conn.app.state.deck_jobs


MAX_STREAMS = 16
"""Live streams the service follows at once, from every client together."""
MAX_STREAMS_PER_CLIENT = 4
"""Live streams one client (:func:`client_key`) may hold at once."""


def client_key(host: str | None) -> str:
    """Whom a connection's slots count against: one machine or network, not one address. Every
    loopback address is the one local machine, an IPv4 client its /24 network and an IPv6 client
    its /64, since one client owns many addresses there.

    >>> client_key("127.0.0.1") == client_key("127.0.0.7") == client_key("::1")
    True
    >>> client_key("192.168.1.20") == client_key("192.168.1.99"), client_key("192.168.2.20") == client_key("192.168.1.20")
    (True, False)
    >>> client_key("2001:db8::1") == client_key("2001:db8::ffff")
    True
    """

    try:
        ip = ipaddress.ip_address(host or "")
    except ValueError:
        return host or "?"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class StreamSlots:
    """Counts live streams, in all and per client; ``take`` refuses past the limits.

    >>> slots = StreamSlots(total=2, per_client=1)
    >>> slots.take("a"), slots.take("a"), slots.take("b"), slots.take("c")
    (True, False, True, False)
    >>> slots.give_back("a"); slots.take("c")
    True
    """

    def __init__(self, total: int = MAX_STREAMS, per_client: int = MAX_STREAMS_PER_CLIENT):
        self.total, self.per_client = total, per_client
        self.held: dict[str, int] = {}

    def take(self, client: str) -> bool:
        if sum(self.held.values()) >= self.total or self.held.get(client, 0) >= self.per_client:
            return False
        self.held[client] = self.held.get(client, 0) + 1
        return True

    def give_back(self, client: str) -> None:
        left = self.held.get(client, 0) - 1
        if left > 0:
            self.held[client] = left
        else:
            self.held.pop(client, None)


def get_stream_slots(conn: HTTPConnection) -> StreamSlots:
    return conn.app.state.stream_slots


SettingsDep = Annotated[Settings, Depends(get_settings)]
StreamSlotsDep = Annotated[StreamSlots, Depends(get_stream_slots)]
LedgerDep = Annotated[Ledger, Depends(get_ledger)]
PoolDep = Annotated[WorkPool, Depends(get_pool)]
RecognizerDep = Annotated[Recognizer | None, Depends(get_recognizer)]
ModelErrorDep = Annotated[str | None, Depends(get_model_error)]
ClockDep = Annotated[Callable[[], float], Depends(get_clock)]
DeckRecognizersDep = Annotated[dict[str, Recognizer], Depends(get_deck_recognizers)]
DeckDraftsDep = Annotated[dict[str, tuple[float, DeckFaces]], Depends(get_deck_drafts)]
DeckJobsDep = Annotated[EnrolJobs, Depends(get_deck_jobs)]


def get_token_tries(conn: HTTPConnection) -> TokenTries:
    return conn.app.state.token_tries


def fill_state(state, settings: Settings, recognizer: Recognizer | None = None) -> None:
    """Everything the app shares between requests, set in this one place when the app is made (the
    ledger and the recogniser are opened at start-up, into the places made here). A test may give
    the app its own ``clock`` afterwards: the live streams and the token tries both read it."""
    state.settings = settings
    state.pool = WorkPool(settings.workers, settings.queue)
    state.clock = time.monotonic
    state.ledger = None  # opened at start-up
    state.recognizer, state.model_error = recognizer, None
    state.deck_recognizers = {}  # deck name -> Recognizer sharing the detector, loaded on first use
    state.deck_drafts = {}  # draft id -> (time, faces): decks cut in the My deck flow, not yet enrolled
    state.deck_jobs = EnrolJobs()
    state.stream_slots = StreamSlots()
    state.token_tries = TokenTries(lambda: state.clock())


def check_token(settings: Settings, token: str | None, tries: TokenTries | None = None, address: str = "?") -> None:
    """401 without the right token where one is set; 403 for writes beyond localhost with none set;
    429 while ``address`` waits after too many wrong tokens (:mod:`~sisepai.service.token_tries`)."""
    if settings.token:
        wait = tries.wait_left(address) if tries is not None else 0.0
        if wait > 0:
            raise _too_many(wait)
        if not token or not hmac.compare_digest(token.encode("utf-8", "replace"), settings.token.encode("utf-8")):
            if tries is not None and token:
                wait = tries.failed(address)
                if wait > 0:
                    raise _too_many(wait)
            raise Refusal(401, "token_needed", "ledger writes need the token: send it as the X-Sisepai-Token header")
        if tries is not None:
            tries.succeeded(address)
    elif not settings.local_only:
        raise Refusal(403, "writes_closed", "ledger writes are closed: the service listens beyond localhost and no "
                                 "SISEPAI_TOKEN is set")


def _too_many(wait: float) -> Refusal:
    seconds = max(1, math.ceil(wait))
    return Refusal(429, "token_wait", f"too many wrong tokens from this network: try again in {seconds} s",
                   headers={"Retry-After": str(seconds)}, seconds=seconds)


def require_token(request: Request, settings: SettingsDep,
                  x_sisepai_token: Annotated[str | None, Header()] = None) -> None:
    """A write route's dependency: the token rule of :func:`check_token`, counted per client as its
    live slots are (:func:`client_key`: loopback as one, an IPv4 /24, an IPv6 /64), so that one
    machine's many addresses share one count."""
    address = client_key(request.client.host if request.client else None)
    check_token(settings, x_sisepai_token, get_token_tries(request), address)


Writer = Depends(require_token)
"""``dependencies=[Writer]`` on a route that writes."""
