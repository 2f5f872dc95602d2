"""What the service checks before a request reaches a route: its size, its host, where it comes
from, and the headers every answer carries.

One pure ASGI middleware, :class:`Guard`, so nothing is parsed before it has looked:

- **Body size.** A ``Content-Length`` past the route's limit gets 413 at once; a body sent
  without one is counted as it streams and cut off at the limit. Image uploads may carry
  ``max_upload_mb``; every other body :data:`JSON_LIMIT` bytes.
- **Trusted hosts.** The ``Host`` header must be ``localhost``, an IP address, or a name given
  with ``--allow-host``: a page on another domain that resolves to this machine (DNS rebinding)
  is refused.
- **Same-origin writes.** A ``POST`` (or any write) from a browser page on another origin is
  refused (its ``Origin`` or ``Sec-Fetch-Site`` says so), even a ``no-cors`` one. Programs that
  send no ``Origin`` (curl, scripts) are unaffected; ledger writes still need the token.
- **Headers.** A Content-Security-Policy that allows only this origin's scripts and styles,
  ``nosniff``, no framing and no referrer.

>>> host_allowed("localhost:8000", ()), host_allowed("192.168.1.20:8000", ()), host_allowed("evil.example", ())
(True, True, False)
>>> same_origin("http://localhost:8000", "localhost:8000"), same_origin("https://evil.example", "localhost:8000")
(True, False)
"""

from __future__ import annotations

import ipaddress
import json
from typing import Iterable
from urllib.parse import urlsplit

from .refusals import Refusal, body_of

JSON_LIMIT = 64 * 1024
"""Largest JSON (or other non-upload) body, in bytes: a 21-card hand is under 100."""
UPLOAD_PATHS = {"/api/recognize": 1, "/api/score-image": 1, "/api/decks/cut": 4}
"""Routes that take images, and how many images at most."""
UPLOAD_OVERHEAD = 64 * 1024
"""Multipart framing allowed on top of the image limit."""
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "media-src 'self' blob: mediastream:; connect-src 'self'; object-src 'none'; "
       "base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


def _split_host(host: str) -> str:
    """The name part of a ``Host`` header (``[::1]:8000`` -> ``::1``); empty when the header is
    not a host with an optional numeric port (``[::1]evil.example``, ``localhost:abc``).

    >>> _split_host("[::1]:8000"), _split_host("Localhost:8000"), _split_host("[::1]evil.example"), _split_host("localhost:abc")
    ('::1', 'localhost', '', '')
    """
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        rest = host[end + 1:] if end > 0 else None
        if rest is None or (rest and not (rest[0] == ":" and rest[1:].isdigit())):
            return ""
        return host[1:end]
    if host.count(":") == 1:
        name, port = host.split(":")
        return name if port.isdigit() else ""
    return host


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """Whether a ``Host`` header names this machine: localhost, an IP literal, or an allowed name."""
    name = _split_host(host)
    if not name:
        return False
    if name in ("localhost", "testserver") or name.endswith(".localhost") or name in {a.lower() for a in allowed}:
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def same_origin(origin: str, host: str) -> bool:
    """Whether an ``Origin`` header names the same host and port as the ``Host`` header."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    default = {"http": "80", "https": "443"}[parts.scheme]

    def norm(netloc: str) -> tuple[str, str]:
        netloc = netloc.lower()
        name = _split_host(netloc)
        port = netloc.rsplit(":", 1)[1] if netloc.rsplit(":", 1)[-1].isdigit() and not netloc.endswith("]") else default
        return name, port

    return norm(parts.netloc) == norm(host)


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


async def _refuse(send, status: int, detail: str, code: str, **params: int) -> None:
    body = json.dumps(body_of(detail, code, params)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})


class BodyTooLarge(Refusal):
    """Raised from ``receive`` once a streamed body passes its limit: an HTTP exception, so a
    route that is parsing the body answers 413 rather than a parse error."""

    def __init__(self, limit: int):
        super().__init__(413, "body_too_large", f"request body over {limit // 1024} KB", kb=limit // 1024)


MAX_HEADER_BYTES = 16 * 1024
"""A request's headers, all together, may hold at most this many bytes (431 past it). The server
caps what it buffers of an unfinished request too (:data:`sisepai.service.server.MAX_HEADERS`);
headers that arrive whole in one read pass that cap, and are refused here."""


def _headers_only(send):
    """``send`` with every body left empty: a HEAD request's answer."""
    async def wrapped(message):
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return wrapped


class Guard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app, upload_limit: int, allowed_hosts: Iterable[str] = ()):
        self.app = app
        self.upload_limit = upload_limit
        self.allowed_hosts = tuple(allowed_hosts)

    def limit_for(self, path: str) -> int:
        images = UPLOAD_PATHS.get(path)
        return images * self.upload_limit + UPLOAD_OVERHEAD if images else JSON_LIMIT

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if scope["type"] == "http" and scope["method"] == "HEAD":
            # HEAD answers as GET does wherever GET works, headers only (FastAPI's routes take GET alone)
            scope, send = {**scope, "method": "GET"}, _headers_only(send)
        if sum(len(k) + len(v) + 4 for k, v in scope.get("headers", ())) > MAX_HEADER_BYTES:
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1009})
            return await _refuse(send, 431, f"request headers over {MAX_HEADER_BYTES // 1024} KB", "headers_too_large",
                                 kb=MAX_HEADER_BYTES // 1024)
        host = _header(scope, b"host") or ""
        if not host_allowed(host, self.allowed_hosts):
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1008})
            return await _refuse(send, 400, "unknown Host: open the page by IP address or localhost, or start "
                                            "the server with --allow-host NAME", "unknown_host")
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if origin is not None and not same_origin(origin, host):
                return await send({"type": "websocket.close", "code": 1008})
            return await self.app(scope, receive, send)
        if scope["method"] in WRITE_METHODS:
            origin = _header(scope, b"origin")
            site = _header(scope, b"sec-fetch-site")
            if (origin is not None and not same_origin(origin, host)) or site in ("cross-site", "same-site"):
                return await _refuse(send, 403, "cross-site write refused: send writes from this service's own page",
                                     "cross_site")
        limit = self.limit_for(scope["path"])
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit():
                return await _refuse(send, 400, "bad Content-Length", "bad_request")
            if int(length) > limit:
                return await _refuse(send, 413, f"request body over {limit // 1024} KB", "body_too_large", kb=limit // 1024)
        received = 0
        started = False

        async def counted_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def send_with_headers(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message, headers=[*message.get("headers", []), *SECURITY_HEADERS])
            await send(message)

        try:
            await self.app(scope, counted_receive, send_with_headers)
        except BodyTooLarge:
            if not started:
                await _refuse(send, 413, f"request body over {limit // 1024} KB", "body_too_large", kb=limit // 1024)
