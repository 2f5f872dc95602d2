"""The ledger of a table, or of a club's tables (``/api/tables``). Writes need the token
(``SISEPAI_TOKEN``) when the service listens beyond localhost."""

from __future__ import annotations

import itertools
import re
import urllib.parse

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from sisepai.ledger.deal_records import MAX_PLAYERS
from sisepai.ledger.roster import manage
from sisepai.ledger.store import DEFAULT_TABLE, PLAYERS_PAGE, NotLastDeal, check_table_name

from ..deps import LedgerDep, SettingsDep, Writer
from ..refusals import Refusal
from ..rules import network_rules
from ..schemas import (
    DealRecorded,
    DealRequest,
    LedgerAnswer,
    MergeRequest,
    NameAnswer,
    PlayerRequest,
    PlayersPage,
    RenameRequest,
    RosterChange,
    TableRequest,
    TablesAnswer,
    UndoAnswer,
)

LAST_DEALS = 200
"""A ledger answer lists at most this many of a table's last deals (the totals count them all)."""

router = APIRouter(prefix="/api/ledger", tags=["ledger"])


TableName = Query(DEFAULT_TABLE, max_length=40, description="the table (room) of the club")


@router.get("", summary="A table's players, last deals and running totals, and the club's totals")
def get_ledger(ledger: LedgerDep, table: str = TableName,
               last: int = Query(LAST_DEALS, ge=1, le=LAST_DEALS, description="how many of the last deals")) -> LedgerAnswer:
    return ledger.view(check_table_name(table), last)


@router.post("/players", summary="Add a player to the club", dependencies=[Writer])
def add_player(body: PlayerRequest, ledger: LedgerDep) -> NameAnswer:
    return ledger.add_player(body.name)


@router.post("/players/rename", summary="Rename a player; every deal and total is kept", dependencies=[Writer],
             responses={404: {"description": "no such player"}, 409: {"description": "the new name is taken"}})
def rename_player(body: RenameRequest, ledger: LedgerDep) -> RosterChange:
    return manage(ledger, "player", "rename", body.name, to=body.to)


@router.post("/players/merge", summary="Merge two names of one person: `name`'s deals and totals move to `into`",
             dependencies=[Writer], responses={404: {"description": "no such player"},
                                               409: {"description": "the two played in one deal, or `into` is retired"}})
def merge_player(body: MergeRequest, ledger: LedgerDep) -> RosterChange:
    return manage(ledger, "player", "merge", body.name, into=body.into)


@router.post("/players/retire", summary="Retire a player: the history stays; the name written again brings them back",
             dependencies=[Writer], responses={404: {"description": "no such player"}})
def retire_player(body: PlayerRequest, ledger: LedgerDep) -> RosterChange:
    return manage(ledger, "player", "retire", body.name)


@router.post("/players/delete", summary="Delete a player who has no deals (one with deals is retired instead)",
             dependencies=[Writer], responses={404: {"description": "no such player"},
                                               409: {"description": "the player has deals"}})
def delete_player(body: PlayerRequest, ledger: LedgerDep) -> RosterChange:
    return manage(ledger, "player", "delete", body.name)


@router.post("/deals", summary="Record a deal at a table (by hand or from an auto-scored hand)", dependencies=[Writer])
def add_deal(body: DealRequest, ledger: LedgerDep) -> DealRecorded:
    network_rules(body.rules)  # a preset name, refused in the service's words otherwise
    return ledger.add_deal(body.winner, body.points, body.players, body.discarder, body.rules,
                           "auto" if body.cards else "manual", body.cards, body.note, table=body.table)


@router.post("/undo", summary="Undo the last deal of a table", dependencies=[Writer])
def undo(ledger: LedgerDep, table: str = TableName,
         deal: int | None = Query(None, ge=1, le=2**62, description="the id of the deal to undo: refused (409) "
                                  "when it is no longer the table's last")) -> UndoAnswer:
    try:
        removed = ledger.undo(check_table_name(table), deal)
    except NotLastDeal as exc:
        raise Refusal(409, "not_last_deal", str(exc), **exc.params) from None
    if removed is None:
        raise Refusal(404, "table_no_deals", f"table {table!r} has no deals", table=table)
    return {"removed": removed}


@router.get("/players", summary="A page of players with their totals, at a table or club-wide, by name")
def players(ledger: LedgerDep, table: str | None = Query(None, max_length=40),
            offset: int = Query(0, ge=0, le=MAX_PLAYERS), limit: int = Query(PLAYERS_PAGE, ge=1, le=PLAYERS_PAGE)) -> PlayersPage:
    return ledger.players_page(None if table is None else check_table_name(table), offset, limit)


@router.get("/export.csv", summary="The ledger as CSV (one table's, or the whole club's), streamed",
            response_class=StreamingResponse)
def export_csv(ledger: LedgerDep, table: str | None = Query(None, max_length=40)) -> StreamingResponse:
    table = None if table is None else check_table_name(table)
    lines = ledger.iter_csv(table)
    first = next(lines)  # an unknown table is refused here, before the answer starts
    return StreamingResponse(itertools.chain([first], lines), media_type="text/csv; charset=utf-8",
                             headers={"Content-Disposition": csv_disposition(table)})


def csv_disposition(table: str | None) -> str:
    """The download's file name, after its table: plain letters for old browsers, and the exact
    name as RFC 6266 gives it (``filename*``).

    >>> csv_disposition("桌子1")
    "attachment; filename=sisepai-ledger-1.csv; filename*=UTF-8''sisepai-ledger-%E6%A1%8C%E5%AD%901.csv"
    >>> csv_disposition(None)
    'attachment; filename=sisepai-ledger.csv'
    """
    if table is None:
        return "attachment; filename=sisepai-ledger.csv"
    plain = re.sub(r"[^A-Za-z0-9_.-]+", "-", table).strip("-") or "table"
    exact = urllib.parse.quote(f"sisepai-ledger-{table}.csv", safe="")
    return f"attachment; filename=sisepai-ledger-{plain}.csv; filename*=UTF-8''{exact}"


tables = APIRouter(prefix="/api/tables", tags=["ledger"])


@tables.get("", summary="The club's tables (rooms), each with its number of deals")
def list_tables(ledger: LedgerDep, settings: SettingsDep) -> TablesAnswer:
    return {"default": settings.table, "tables": ledger.tables()}


@tables.post("", summary="Open a table, or open a retired one again (a write: the token rule applies)",
             dependencies=[Writer])
def open_table(body: TableRequest, ledger: LedgerDep) -> NameAnswer:
    return ledger.add_table(body.name)


@tables.post("/rename", summary="Rename a table; its deals and totals are kept", dependencies=[Writer],
             responses={404: {"description": "no such table"}, 409: {"description": "the name is taken, or the table "
                                                                     "is the default one"}})
def rename_table(body: RenameRequest, ledger: LedgerDep, settings: SettingsDep) -> RosterChange:
    return manage(ledger, "table", "rename", body.name, to=body.to, keep=settings.table)


@tables.post("/merge", summary="Merge a table into another: its deals and totals move there", dependencies=[Writer],
             responses={404: {"description": "no such table"},
                        409: {"description": "the default table stays, or `into` is retired"}})
def merge_table(body: MergeRequest, ledger: LedgerDep, settings: SettingsDep) -> RosterChange:
    return manage(ledger, "table", "merge", body.name, into=body.into, keep=settings.table)


@tables.post("/retire", summary="Retire a table: its history stays, no deal is recorded there until it is opened "
             "again", dependencies=[Writer], responses={404: {"description": "no such table"},
                                                        409: {"description": "the default table stays"}})
def retire_table(body: TableRequest, ledger: LedgerDep, settings: SettingsDep) -> RosterChange:
    return manage(ledger, "table", "retire", body.name, keep=settings.table)


@tables.post("/delete", summary="Delete a table with no deals (one with deals is retired instead)",
             dependencies=[Writer], responses={404: {"description": "no such table"},
                                               409: {"description": "the table has deals, or is the default one"}})
def delete_table(body: TableRequest, ledger: LedgerDep, settings: SettingsDep) -> RosterChange:
    return manage(ledger, "table", "delete", body.name, keep=settings.table)
