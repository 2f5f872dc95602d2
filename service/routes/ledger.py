"""The game-night ledger. Writes need the token (``SISEPAI_TOKEN``) when the service listens
beyond localhost."""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import PlainTextResponse

from ..rules import network_rules
from ..schemas import DealRequest, PlayerRequest

router = APIRouter(prefix="/api/ledger", tags=["ledger"])


def check_token(request: Request, token: str | None) -> None:
    settings = request.app.state.settings
    if settings.token:
        if not token or not hmac.compare_digest(token.encode("utf-8", "replace"), settings.token.encode("utf-8")):
            raise HTTPException(401, "ledger writes need the token: send it as the X-Sisepai-Token header")
    elif not settings.local_only:
        raise HTTPException(403, "ledger writes are closed: the service listens beyond localhost and no "
                                 "SISEPAI_TOKEN is set")


@router.get("", summary="Players, deals and running totals")
def get_ledger(request: Request) -> dict:
    ledger = request.app.state.ledger
    return {"players": ledger.players(), "deals": ledger.deals(), "totals": ledger.totals()}


@router.post("/players", summary="Add a player")
def add_player(body: PlayerRequest, request: Request, x_sisepai_token: str | None = Header(None)) -> dict:
    check_token(request, x_sisepai_token)
    return request.app.state.ledger.add_player(body.name)


@router.post("/deals", summary="Record a deal (by hand or from an auto-scored hand)")
def add_deal(body: DealRequest, request: Request, x_sisepai_token: str | None = Header(None)) -> dict:
    check_token(request, x_sisepai_token)
    network_rules(body.rules)  # a preset name
    return request.app.state.ledger.add_deal(body.winner, body.points, body.players, body.discarder, body.rules,
                                             "auto" if body.cards else "manual", body.cards, body.note)


@router.post("/undo", summary="Undo the last deal")
def undo(request: Request, x_sisepai_token: str | None = Header(None)) -> dict:
    check_token(request, x_sisepai_token)
    removed = request.app.state.ledger.undo()
    if removed is None:
        raise HTTPException(404, "the ledger is empty")
    return {"removed": removed}


@router.get("/export.csv", summary="The ledger as CSV", response_class=PlainTextResponse)
def export_csv(request: Request) -> PlainTextResponse:
    return PlainTextResponse(request.app.state.ledger.to_csv(), media_type="text/csv",
                             headers={"Content-Disposition": "attachment; filename=sisepai-ledger.csv"})
