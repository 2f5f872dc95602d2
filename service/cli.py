"""``sisepai serve``: the web app and API, with the shipped model and a ledger: an embedded SQLite
file by default, or a club's PostgreSQL server (``--db postgresql://...``)."""

from __future__ import annotations

import argparse
import secrets
import socket
from pathlib import Path

from sisepai.engine.environment import home
from sisepai.engine.errors import SisepaiError
from sisepai.ledger.db import redact
from sisepai.ledger.store import Ledger
from sisepai.service.settings import Settings
from sisepai.service.tls import self_signed_certificate
from sisepai.vision.decks.store import deck_info


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start the web app and API (the camera assistant in a browser)",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Serve the browser app and the REST/WebSocket API.",
                       epilog="""environment: SISEPAI_HOST, SISEPAI_PORT, SISEPAI_DB, SISEPAI_TABLE, SISEPAI_TOKEN (needed for ledger
writes when listening beyond localhost), SISEPAI_MAX_UPLOAD_MB, SISEPAI_CORS_ORIGINS (comma-separated).
examples:
  sisepai serve                       # http://127.0.0.1:8000
  sisepai serve --host 0.0.0.0 --https --new-token   # phones on the LAN: https://IP:8000/, a fresh token printed
  SISEPAI_TOKEN="$(cat ~/.sisepai-token)" sisepai serve --host 0.0.0.0 --port 8080 --db ~/games.sqlite
  a club, one process per table, one ledger (README, "Running a club"):
  SISEPAI_TOKEN="$(cat ~/.sisepai-token)" sisepai serve --host 0.0.0.0 --https --port 8001 --table "table 1" \
      --db postgresql://sisepai@db.local:5432/club
A token has at least 16 ASCII characters, 8 of them different, no blank at either end, and is not easy to guess
(zxcvbn's score at least 3); `sisepai token` or --new-token makes one (keep it in a file for the next start).
The page asks for the token once and keeps it in the browser. Five wrong tokens from one address,
then it waits 1 s, 2 s, 4 s ... (at most 5 min) and is answered 429 meanwhile. Requests from pages on other sites,
and Host names other than localhost, IP addresses and --allow-host names, are refused.""")
    p.add_argument("--host", default=None, help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default 8000)")
    p.add_argument("--db", default=None, metavar="FILE|URL",
                   help="the ledger: a SQLite file (default ~/.local/share/sisepai/ledger.sqlite), or a club's "
                        "PostgreSQL server, postgresql://user@host:port/dbname (the password from ~/.pgpass or PGPASSWORD)")
    p.add_argument("--table", default=None, metavar="NAME",
                   help="the table (room) this service's page starts on, opened if new (default: main)")
    p.add_argument("--no-model", action="store_true", help="start without the recognition model")
    p.add_argument("--deck", metavar="NAME", default=None,
                   help="read an enrolled deck by default (sisepai deck list); the page can pick another")
    p.add_argument("--https", action="store_true",
                   help="serve over HTTPS so phones on the LAN may use their camera (a self-signed certificate "
                        "is made on first run unless --certfile/--keyfile are given)")
    p.add_argument("--certfile", type=Path, default=None, help="PEM certificate for --https")
    p.add_argument("--keyfile", type=Path, default=None, help="PEM private key for --https")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name the page may be opened by, besides localhost and IP addresses "
                        "(repeatable; e.g. a name your LAN's DNS gives this machine)")
    p.add_argument("--new-token", action="store_true",
                   help="make a random token for this run and print it (instead of SISEPAI_TOKEN)")
    p.add_argument("--workers", type=int, default=None,
                   help="recognition workers (default: half the cores); more requests wait in a short "
                        "queue, then get 503 with Retry-After")
    p.set_defaults(func=_serve)
    t = sub.add_parser("token", help="print a new random token for SISEPAI_TOKEN",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Print a new random token (32 URL-safe characters from Python's secrets) to guard "
                                   "the ledger's writes.",
                       epilog="""examples:
  sisepai token > ~/.sisepai-token && chmod 600 ~/.sisepai-token
  SISEPAI_TOKEN="$(cat ~/.sisepai-token)" sisepai serve --host 0.0.0.0 --https""")
    t.set_defaults(func=lambda args: print(new_token()) or 0)


def _serve(args) -> int:
    try:
        import uvicorn
    except ModuleNotFoundError:
        raise SisepaiError("sisepai serve needs the service extra: pip install 'sisepai[service]'") from None
    from sisepai.service.main import create_app  # lazy: FastAPI

    settings = Settings.from_env(host=args.host, port=args.port, db=args.db, deck=args.deck, workers=args.workers,
                                 **({"table": args.table} if args.table is not None else {}))
    settings.allowed_hosts = tuple(settings.allowed_hosts) + tuple(args.allow_host)
    if args.new_token:
        if settings.token:
            raise SisepaiError("give SISEPAI_TOKEN or --new-token, not both")
        settings.token = new_token()
        print(f"sisepai: the token for this run: {settings.token}", flush=True)
    elif settings.token:
        problem = weak_token(settings.token)
        if problem:
            raise SisepaiError(f"SISEPAI_TOKEN {problem} (`sisepai token` makes a strong one)")
    if args.workers is not None and args.workers < 1:
        raise SisepaiError("--workers must be at least 1")
    if settings.allowed_hosts and not settings.token:
        raise SisepaiError("behind a reverse proxy (--allow-host), anyone the proxy forwards could write to the "
                           "ledger: set a token first (SISEPAI_TOKEN=... sisepai serve ...)")
    tls = {}
    if args.https or args.certfile or args.keyfile:
        if bool(args.certfile) != bool(args.keyfile):
            raise SisepaiError("give both --certfile and --keyfile, or neither (a self-signed certificate)")
        if args.certfile:
            for f in (args.certfile, args.keyfile):
                if not f.is_file():
                    raise SisepaiError(f"{f}: no such file")
            cert, key = args.certfile, args.keyfile
        else:
            cert, key = self_signed_certificate(home() / "tls")
            print(f"sisepai: self-signed certificate {cert} (browsers warn once; accept it on each phone)")
        tls = {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
    if settings.deck:
        deck_info(settings.deck)  # an unknown deck fails here, with the known ones named
    if args.no_model:
        settings.load_model = False

    ledger = Ledger(settings.db, pool=1)  # an unreachable database or a bad file fails here, in one line
    ledger.add_table(settings.table)
    ledger.close()
    if not settings.local_only and not settings.token:
        print("sisepai serve: listening beyond localhost without SISEPAI_TOKEN: ledger writes are closed")
    app = create_app(settings)
    scheme = "https" if tls else "http"
    print(f"sisepai: open {scheme}://{settings.host if settings.host != '0.0.0.0' else '127.0.0.1'}:{settings.port}/ "
          f"(ledger: {redact(settings.db)}, table {settings.table!r})", flush=True)
    if settings.host in ("0.0.0.0", "::"):
        for address in lan_addresses():
            print(f"sisepai: on this network (a phone, another computer): {scheme}://{address}:{settings.port}/", flush=True)
    if not tls and not settings.local_only and not settings.allowed_hosts:
        print("sisepai: over plain http, phones get no camera (not a secure page): add --https")
    from sisepai.service.server import quiet_repeated_errors, raise_open_file_limit, uvicorn_options  # lazy: uvicorn

    raise_open_file_limit()
    quiet_repeated_errors()
    try:
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", **uvicorn_options(), **tls)
    except OSError as exc:
        raise SisepaiError(f"cannot listen on {settings.host}:{settings.port}: {exc}") from None
    return 0


MIN_TOKEN_CHARS = 16
MIN_TOKEN_KINDS = 8
"""A token needs this many different characters: ``aaaaaaaaaaaaaaaa`` is 16 characters but one guess."""


MIN_TOKEN_SCORE = 3
"""The least zxcvbn score (0-4) a token may have: 3 is "safely unguessable: moderate protection
from an offline slow-hash scenario" (10^8 guesses or more), far beyond what the five-tries wait lets
an online guesser try."""


def weak_token(token: str) -> str | None:
    """Why ``token`` is too weak to guard the ledger, or None when it is fine: too short, blank or
    edged with blanks (a client's header loses them, so it could never match), not ASCII (a header
    carries bytes a browser and the server decode differently), too few different characters, or
    easy to guess by zxcvbn's estimate (words, keyboard rows, dates: :data:`MIN_TOKEN_SCORE`).

    >>> weak_token("ñandú-Zorro-4817-xy")
    "holds 'ñ', not ASCII: a browser sends a header's bytes as Latin-1, so it could never match; use letters, digits, - and _"
    >>> weak_token("qwertyuiopasdfgh"), weak_token("Password12345678")  # doctest: +ELLIPSIS
    ('is easy to guess (zxcvbn rates it 1 of 4, ...', 'is easy to guess (zxcvbn rates it 1 of 4, ...')

    >>> weak_token("Xq7-vB2_pL9sK4wZ"), weak_token(" " * 16), weak_token("aaaaaaaaaaaaaaaa")
    (None, 'is blank', 'has 1 different characters: use at least 8')
    >>> weak_token("Xq7-vB2_pL9sK4wZ "), weak_token("short")
    ('starts or ends with a blank, which no client can send', 'has 5 characters: use at least 16')
    >>> weak_token("0123456789abcdef")
    'is mostly a run of neighbouring characters (abcdefgh..., 12345678...): one of the first guesses'
    >>> all(weak_token(new_token()) is None for _ in range(200))
    True
    """
    if not token.strip():
        return "is blank"
    if token != token.strip():
        return "starts or ends with a blank, which no client can send"
    odd = next((ch for ch in token if not (32 < ord(ch) < 127)), None)
    if odd is not None:
        return (f"holds {odd!r}, not ASCII: a browser sends a header's bytes as Latin-1, so it could never match; "
                "use letters, digits, - and _")
    if len(token) < MIN_TOKEN_CHARS:
        return f"has {len(token)} characters: use at least {MIN_TOKEN_CHARS}"
    if len(set(token)) < MIN_TOKEN_KINDS:
        return f"has {len(set(token))} different characters: use at least {MIN_TOKEN_KINDS}"
    steps = [ord(b) - ord(a) for a, b in zip(token, token[1:])]
    if sum(abs(d) == 1 for d in steps) * 2 >= len(steps):
        return "is mostly a run of neighbouring characters (abcdefgh..., 12345678...): one of the first guesses"
    from zxcvbn import zxcvbn  # lazy: only a serve with a token of its own asks

    rated = zxcvbn(token[:100])
    if rated["score"] < MIN_TOKEN_SCORE:
        hint = (rated.get("feedback") or {}).get("warning") or "its parts are common"
        return f"is easy to guess (zxcvbn rates it {rated['score']} of 4, at least {MIN_TOKEN_SCORE} needed: {hint})"
    return None


def new_token() -> str:
    """A random token of 32 URL-safe characters (192 bits), easy to paste into a phone.

    >>> len(new_token()), new_token() != new_token()
    (32, True)
    """

    return secrets.token_urlsafe(24)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (not loopback), found without sending
    anything: the address the system would send from towards a private and a public network.

    >>> all(not a.startswith("127.") for a in lan_addresses())
    True
    """

    found = []
    for probe in ("10.255.255.255", "192.168.255.255", "8.8.8.8"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))  # a UDP "connection" sends no packet: it only picks a route
                address = s.getsockname()[0]
        except OSError:
            continue
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found
