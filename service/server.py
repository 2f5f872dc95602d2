"""How ``sisepai serve`` runs uvicorn: every socket and message bounded in size and time.

uvicorn's own settings do most of it: no per-message compression on the live WebSocket (a
9.7 KB message that inflates to 10 MB costs the server the 10 MB), a frame of at most
:data:`WS_MAX_MESSAGE`, at most :data:`WS_MAX_QUEUE` messages queued per socket, idle keep-alive
connections closed, a cap on headers' size and on concurrent connections. What uvicorn lacks is a
deadline for a request to arrive: a socket that sends nothing, headers that never end, or a body
that trickles in would hold a file descriptor for ever (1,100 such sockets stopped the server),
and one address could take every one of the server's slots. :class:`BoundedH11Protocol` closes
them, and lets one address hold at most :data:`PER_CLIENT_CONNECTIONS` connections: past it, that
address's oldest idle connection is closed (the newest, when none is idle), so a client with
600 slow sockets holds 32 and everyone else is served. At start, the open-file limit is raised as far as the
system allows, and a repeated error (``accept()`` out of file descriptors) is logged once a
second, not once per failure.

>>> options = uvicorn_options()
>>> options["ws_per_message_deflate"], options["ws_max_queue"], options["http"].__name__
(False, 2, 'BoundedH11Protocol')
"""

from __future__ import annotations

import logging
import time

from uvicorn.protocols.http.h11_impl import H11Protocol

WS_MAX_MESSAGE = 2 * 1024 * 1024
"""The largest WebSocket message (a camera frame as JPEG is 100-400 KB)."""
WS_MAX_QUEUE = 2
"""Messages a WebSocket may have queued before the server stops reading from it."""
HEADERS_TIMEOUT_S = 10.0
"""A request's headers must arrive within this time of the connection (or of the last answer)."""
BODY_TIMEOUT_S = 60.0
"""A request's body must arrive within this time of its headers (a 12 MB photo at 200 KB/s)."""
BODY_STALL_S = 10.0
"""A body that stops arriving for this long is given up (a client that declares 60 KB, sends one
byte and then nothing)."""
KEEP_ALIVE_S = 5
"""An idle keep-alive connection is closed after this time."""
MAX_HEADERS = 16 * 1024
"""The most bytes of an unfinished request the server buffers (headers that never end); whole
headers past 16 KB are refused by :class:`sisepai.service.guards.Guard` (431)."""
MAX_CONNECTIONS = 512
"""Connections and requests at once; past it, new requests are answered 503."""
PER_CLIENT_CONNECTIONS = 32
"""Connections one address may hold (a browser opens about six)."""
CHECK_EVERY_S = 1.0

_HELD: dict[tuple, dict] = {}
"""(server address, client host) -> that client's open connections, oldest first."""


class BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with deadlines: headers within :data:`HEADERS_TIMEOUT_S`,
    a body within :data:`BODY_TIMEOUT_S` and with no pause longer than :data:`BODY_STALL_S`, else
    the connection is closed."""

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._state = None
        self._since = self._last_data = self.loop.time()
        self._watch = self.loop.call_later(CHECK_EVERY_S, self._check)
        self._peer = (self.server, self.client[0]) if self.client else None
        if self._peer is not None:
            self._admit()

    def _admit(self) -> None:
        """Count this connection against its address; past :data:`PER_CLIENT_CONNECTIONS`, close
        the address's oldest idle connection, or this one when none is idle."""
        held = _HELD.setdefault(self._peer, {})
        for gone in [p for p in held if p.transport is None or p.transport.is_closing()]:
            del held[gone]
        held[self] = None
        if len(held) <= PER_CLIENT_CONNECTIONS:
            return
        victim = next((p for p in held if p is not self and p._idle()), self)
        del held[victim]
        victim.transport.close()

    def _idle(self) -> bool:
        """No request in progress and still HTTP (a WebSocket is never evicted here)."""
        transport = self.transport
        return (transport is not None and transport.get_protocol() is self
                and (self.cycle is None or self.cycle.response_complete))

    def _release(self) -> None:
        held = _HELD.get(self._peer) if getattr(self, "_peer", None) is not None else None
        if held is not None:
            held.pop(self, None)
            if not held:
                _HELD.pop(self._peer, None)

    def data_received(self, data: bytes) -> None:
        self._last_data = self.loop.time()
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        """Headers past :data:`MAX_HEADERS` that arrive in pieces overflow h11's buffer before they
        end: answer them 431, as :class:`~sisepai.service.guards.Guard` answers whole ones, not 400."""
        if len(self.conn.trailing_data[0]) <= MAX_HEADERS:
            return super().send_400_response(msg)
        import json

        import h11

        from .refusals import body_of  # lazy: FastAPI

        body = json.dumps(body_of(f"request headers over {MAX_HEADERS // 1024} KB", "headers_too_large",
                                  {"kb": MAX_HEADERS // 1024})).encode()
        for event in (h11.Response(status_code=431, reason=b"Request Header Fields Too Large",
                                   headers=[(b"content-type", b"application/json"), (b"connection", b"close"),
                                            (b"content-length", str(len(body)).encode())]),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def connection_lost(self, exc) -> None:
        if getattr(self, "_watch", None) is not None:
            self._watch.cancel()
            self._watch = None
        self._release()
        super().connection_lost(exc)

    def _check(self) -> None:
        self._watch = None
        transport = self.transport
        if transport is None or transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket (which has its own pings and limits)
        now = self.loop.time()
        cycle = self.cycle
        state = (id(cycle), None if cycle is None else (cycle.response_complete, cycle.more_body))
        if state != self._state:
            self._state, self._since = state, now
        waiting = now - self._since
        between_requests = cycle is None or cycle.response_complete
        if between_requests and waiting > HEADERS_TIMEOUT_S:
            transport.close()  # nothing sent, or headers that never end
            return
        if not between_requests and cycle.more_body and (waiting > BODY_TIMEOUT_S
                                                          or now - self._last_data > BODY_STALL_S):
            transport.close()  # a body that trickles in, or stops
            return
        self._watch = self.loop.call_later(CHECK_EVERY_S, self._check)


class OncePerSecond(logging.Filter):
    """Lets one record of each message through a second: a failure repeated at every accept()
    fills no disk."""

    def __init__(self) -> None:
        super().__init__()
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{record.msg}"
        now = time.monotonic()
        if now - self._last.get(key, -1e9) < 1.0:
            return False
        self._last[key] = now
        if len(self._last) > 1000:
            self._last.clear()
        return True


def raise_open_file_limit() -> int | None:
    """Raise this process's soft open-file limit to its hard limit; the new limit (None where
    the platform has none)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return soft


def quiet_ws_deprecation() -> None:
    """uvicorn's ``websockets`` protocol warns that it is deprecated; it is chosen on purpose: the
    newer ``websockets-sansio`` protocol ignores ``ws_max_queue`` and queues without a bound."""
    import warnings

    warnings.filterwarnings("ignore", message=r"The `websockets` implementation is deprecated")


def quiet_repeated_errors() -> None:
    """Install :class:`OncePerSecond` on the loggers a flood of failed connections writes to."""
    for name in ("asyncio", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OncePerSecond) for f in logger.filters):
            logger.addFilter(OncePerSecond())


def uvicorn_options() -> dict:
    """The keyword arguments of ``uvicorn.run`` that bound sockets and messages."""
    quiet_ws_deprecation()
    return {"http": BoundedH11Protocol, "ws": "websockets", "ws_max_size": WS_MAX_MESSAGE,
            "ws_max_queue": WS_MAX_QUEUE, "ws_per_message_deflate": False, "timeout_keep_alive": KEEP_ALIVE_S,
            "h11_max_incomplete_event_size": MAX_HEADERS, "limit_concurrency": MAX_CONNECTIONS}
