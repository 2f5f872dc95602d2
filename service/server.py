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

import json
import logging
import struct
import time
import warnings

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
REFUSED_RETRY_S = 2
"""The ``Retry-After`` of a connection past :data:`PER_CLIENT_CONNECTIONS`."""
REFUSED_QUIET_S = 1.0
"""Such a connection is closed once its client has sent nothing for this long after its 503..."""
REFUSED_LINGER_S = 5.0
"""...or this long after it at most; what it sends meanwhile is read and dropped."""
CHECK_EVERY_S = 1.0

_HELD: dict[tuple, dict] = {}
"""(server address, client host) -> that client's open connections, oldest first."""


def _unread_bytes(transport) -> int:
    """Bytes a connection's client sent that the server has not read yet (``FIONREAD``); -1 where
    the system cannot tell.

    >>> _unread_bytes(None)
    -1
    """
    try:
        import fcntl  # not on Windows: there the connection counts as sending
        import termios

        fd = transport.get_extra_info("socket").fileno()
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
    except (ImportError, AttributeError, OSError, ValueError):
        return -1


class BoundedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with deadlines: headers within :data:`HEADERS_TIMEOUT_S`,
    a body within :data:`BODY_TIMEOUT_S` and with no pause longer than :data:`BODY_STALL_S`, else
    the connection is closed."""

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._state = None
        self._since = self._last_data = self.loop.time()
        self._got_data = self._refused = False
        self._watch = self.loop.call_later(CHECK_EVERY_S, self._check)
        self._peer = (self.server, self.client[0]) if self.client else None
        if self._peer is not None:
            self._admit(sending=False)

    def _admit(self, sending: bool) -> bool:
        """Count this connection against its address; whether it is let in.

        Past :data:`PER_CLIENT_CONNECTIONS`, the address's oldest connection doing nothing is
        closed to make room: one between requests, one stalled inside a request's headers, or one
        that has sent nothing at all, not even bytes the server has yet to read (:meth:`_idle`). A
        connection whose request is on its way is never cut off: when none can go, the newcomer is
        answered 503 with ``Retry-After`` once it sends (``sending``; :meth:`_refuse_busy`),
        never closed with no answer."""
        held = _HELD.setdefault(self._peer, {})
        for gone in [p for p in held if p.transport is None or p.transport.is_closing()]:
            del held[gone]
        held[self] = None
        if len(held) <= PER_CLIENT_CONNECTIONS:
            return True
        victim = next((p for p in held if p is not self and p._idle()), None)
        if victim is not None:
            del held[victim]
            victim.transport.close()  # doing nothing: its client opens another when it needs one
            return True
        if not sending:
            return True  # counted: decided when it sends
        del held[self]
        self._refuse_busy()
        return False

    def _refuse_busy(self) -> None:
        """Answer this connection 503 with ``Retry-After`` at once, and close it once the client
        had time to read it: what it sends meanwhile (an upload's body) is read and dropped, so
        the close is not a reset that loses the answer."""

        from .refusals import body_of  # lazy: FastAPI

        self._refused = True
        self.connections.discard(self)  # not counted against uvicorn's limit_concurrency while it lingers
        body = json.dumps(body_of(f"this address holds {PER_CLIENT_CONNECTIONS} connections already: try again "
                                  f"in {REFUSED_RETRY_S} s", "busy", {})).encode()
        head = (f"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: "
                f"{REFUSED_RETRY_S}\r\nconnection: close\r\ncontent-length: {len(body)}\r\n\r\n").encode()
        self.transport.write(head + body)
        self._refused_at = self.loop.time()
        self.loop.call_later(REFUSED_QUIET_S, self._close_refused)

    def _close_refused(self) -> None:
        """Close a refused connection once its client has been quiet for :data:`REFUSED_QUIET_S`
        (its request all sent: a close now loses nothing), or after :data:`REFUSED_LINGER_S`."""
        if self.transport is None or self.transport.is_closing():
            return
        now = self.loop.time()
        if now - self._last_data >= REFUSED_QUIET_S or now - self._refused_at >= REFUSED_LINGER_S:
            self.transport.close()
        else:
            self.loop.call_later(REFUSED_QUIET_S, self._close_refused)

    def _idle(self) -> bool:
        """No request in progress and still HTTP (a WebSocket is never evicted here): between two
        requests, stalled inside its request's headers, or silent: nothing sent, not even bytes
        waiting in the kernel for the server to read (a connection of a burst, opened before the
        server read its request, is not silent)."""
        transport = self.transport
        if transport is None or transport.get_protocol() is not self:
            return False
        if self.cycle is None:  # half a request's headers (a slow client), or nothing at all
            return self._got_data or _unread_bytes(transport) == 0
        return self.cycle.response_complete

    def _release(self) -> None:
        held = _HELD.get(self._peer) if getattr(self, "_peer", None) is not None else None
        if held is not None:
            held.pop(self, None)
            if not held:
                _HELD.pop(self._peer, None)

    def data_received(self, data: bytes) -> None:
        self._last_data = self.loop.time()
        if self._refused:
            return  # answered 503 already: the rest of its request is dropped until it closes
        if not self._got_data:
            self._got_data = True
            if self._peer is not None and not self._admit(sending=True):
                return
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        """Headers past :data:`MAX_HEADERS` that arrive in pieces overflow h11's buffer before they
        end: answer them 431, as :class:`~sisepai.service.guards.Guard` answers whole ones, not 400."""
        if len(self.conn.trailing_data[0]) <= MAX_HEADERS:
            return super().send_400_response(msg)

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
