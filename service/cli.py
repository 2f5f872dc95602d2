"""``sisepai serve``: the web app and API, with the shipped model and an embedded SQLite ledger."""

from __future__ import annotations

import argparse

from sisepai.engine.errors import SisepaiError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start the web app and API (the camera assistant in a browser)",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Serve the browser app and the REST/WebSocket API.",
                       epilog="""environment: SISEPAI_HOST, SISEPAI_PORT, SISEPAI_DB, SISEPAI_TOKEN (needed for ledger
writes when listening beyond localhost), SISEPAI_MAX_UPLOAD_MB, SISEPAI_CORS_ORIGINS (comma-separated).
examples:
  sisepai serve                       # http://127.0.0.1:8000
  SISEPAI_TOKEN=secret sisepai serve --host 0.0.0.0 --port 8080 --db ~/games.sqlite""")
    p.add_argument("--host", default=None, help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default 8000)")
    p.add_argument("--db", default=None, help="the ledger's SQLite file")
    p.add_argument("--no-model", action="store_true", help="start without the recognition model")
    p.add_argument("--deck", metavar="NAME", default=None,
                   help="read an enrolled deck by default (sisepai deck list); the page can pick another")
    p.set_defaults(func=_serve)


def _serve(args) -> int:
    try:
        import uvicorn
    except ModuleNotFoundError:
        raise SisepaiError("sisepai serve needs the service extra: pip install 'sisepai[service]'") from None
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    settings = Settings.from_env(host=args.host, port=args.port, db=args.db, deck=args.deck)
    if settings.deck:
        from sisepai.vision.decks import deck_info

        deck_info(settings.deck)  # an unknown deck fails here, with the known ones named
    if args.no_model:
        settings.load_model = False
    if not settings.local_only and not settings.token:
        print("sisepai serve: listening beyond localhost without SISEPAI_TOKEN: ledger writes are closed")
    app = create_app(settings)
    print(f"sisepai: open http://{settings.host if settings.host != '0.0.0.0' else '127.0.0.1'}:{settings.port}/ "
          f"(ledger: {settings.db})", flush=True)
    try:
        uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning")
    except OSError as exc:
        raise SisepaiError(f"cannot listen on {settings.host}:{settings.port}: {exc}") from None
    return 0
