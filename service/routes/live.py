"""The live WebSocket: binary JPEG frames in, ``TableState`` JSON (with events and advice) out.

Each connection is its own :class:`~sisepai.vision.live.session.VideoSession`, the pipeline ``sisepai
watch`` runs: its own tracker, table, still readings and deck palette. What lies on the table when
the page connects comes as one ``table`` event. Frames that arrive while one is being processed
are dropped, not queued: the client always sees the newest table. A stream belongs to one table
of the club (``table=NAME``, default the service's ``--table``); each state names it.

The session is opened from :class:`~sisepai.vision.live.options.LiveOptions`, the same value
``sisepai watch`` fills from its arguments: the query (``rules``, ``hand``, ``seat``, ``claimed``,
``deck``, ``table``), and any JSON message sent before the first frame (those, and ``zones``).
Options that cannot be used get an error message and the connection stays: the next options
message may open the session. Once a frame has been read, a JSON message changes the hand, the
seat or the claimed score. A stream that sends nothing for 30 s is closed (code 1001), and a
client (one machine, or one network: :func:`~sisepai.service.deps.client_key`) holds at most 4
streams.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, WebSocket

from ..deck_readers import DeckReaders
from ..deps import ClockDep, LedgerDep, PoolDep, RecognizerDep, SettingsDep, StreamSlotsDep, client_key
from ..live_messages import LiveError
from ..live_stream import LiveStream
from ..refusals import body_of

router = APIRouter()


@router.websocket("/api/live")
async def live(ws: WebSocket, settings: SettingsDep, ledger: LedgerDep, pool: PoolDep, clock: ClockDep,
               recognizer: RecognizerDep, readers: Annotated[DeckReaders, Depends()], slots: StreamSlotsDep) -> None:
    await ws.accept()
    if recognizer is None:
        await ws.send_json(LiveError(**body_of("the recognition model is not loaded", "model_not_loaded", {})).to_json())
        await ws.close(code=1011)
        return
    client = client_key(ws.client.host if ws.client else None)
    if not slots.take(client):
        await ws.send_json(LiveError(**body_of(f"too many live streams (at most {slots.per_client} a client, "
                                               f"{slots.total} in all): close one and try again", "live_slots",
                                               {"per_client": slots.per_client, "total": slots.total})).to_json())
        await ws.close(code=1013)  # try again later
        return
    try:
        await LiveStream(ws, settings, ledger, pool, clock, readers).run()
    finally:
        slots.give_back(client)
