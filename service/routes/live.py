"""The live WebSocket: binary JPEG frames in, ``TableState`` JSON (with events and advice) out.

Each connection is its own :class:`~sisepai.vision.live.session.VideoSession`, the pipeline ``sisepai
watch`` runs: its own tracker, table, still readings and deck palette. What lies on the table when
the page connects comes as one ``table`` event. Frames that arrive while one is being processed
are dropped, not queued: the client always sees the newest table. A stream belongs to one table
of the club (``table=NAME``, default the service's ``--table``); each state names it.

The session is opened from :class:`~sisepai.vision.live.options.LiveOptions`, the same value
``sisepai watch`` fills from its arguments: the query (``rules``, ``hand``, ``seat``, ``claimed``,
``deck``, ``table``) or a first JSON message (those, and ``zones``). Options that cannot be used
get an error message and the connection stays: the next options message may open the session.
Once open, a JSON message changes the hand, the seat or the claimed score.
"""

from __future__ import annotations

import asyncio
import json
import time

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from sisepai.engine.errors import SisepaiError

from ..deck_readers import DeckReaders
from ..deps import ClockDep, LedgerDep, PoolDep, RecognizerDep, SettingsDep
from ..server import WS_MAX_MESSAGE
from ..store import check_table_name
from ..work import PoolFull

router = APIRouter()


QUERY_FIELDS = ("rules", "hand", "seat", "claimed", "deck", "table", "lang")
"""Options the socket's query may carry; zones come only in a JSON message."""


@router.websocket("/api/live")
async def live(ws: WebSocket, settings: SettingsDep, ledger: LedgerDep, pool: PoolDep, clock: ClockDep,
               recognizer: RecognizerDep, readers: Annotated[DeckReaders, Depends()]) -> None:
    from sisepai.vision.recognition.images import ImageError, decode_image
    from sisepai.vision.live.announce import announce
    from sisepai.vision.live.options import CHANGEABLE, FIELDS, LiveOptions, LiveOptionsError

    await ws.accept()
    if recognizer is None:
        await ws.send_json({"type": "error", "detail": "the recognition model is not loaded"})
        await ws.close(code=1011)
        return
    live_state: dict = {"session": None, "table": None, "options": LiveOptions(table=settings.table)}

    async def open_session(values: dict) -> str | None:
        """Start the session from options (the query's, or a first message's); the error, if any.
        A refused start keeps the connection: the next options message may fix it."""
        try:
            opts = LiveOptions.from_mapping(values, base=live_state["options"])
        except LiveOptionsError as exc:
            return str(exc)[:300]
        try:
            table = check_table_name(opts.table or settings.table)
        except SisepaiError:
            return f"table: no table named {(opts.table or '')[:40]!r}"
        if not await run_in_threadpool(ledger.has_table, table):
            return f"no table named {table!r} (open it first: POST /api/tables)"
        try:
            deck_reader = await readers(opts.deck)
        except HTTPException as exc:
            return f"deck: {exc.detail}"
        live_state.update(session=opts.session(deck_reader), table=table, options=opts)
        return None

    def change(values: dict) -> str | None:
        """A running session's change of hand, seat or claimed score; the error, if any."""
        try:
            opts = LiveOptions.from_mapping(values, base=live_state["options"], allowed=CHANGEABLE)
            opts.apply_to(live_state["session"].assistant)
        except (LiveOptionsError, SisepaiError, ValueError) as exc:
            return str(exc)[:300]
        live_state["options"] = opts
        return None

    query = {k: ws.query_params[k] for k in QUERY_FIELDS if k in ws.query_params}
    error = await open_session(query)
    if error:
        await ws.send_json({"type": "error", "detail": error})
    # the socket itself refuses messages past WS_MAX_MESSAGE; a smaller upload limit is answered here
    frame_limit = min(int(settings.max_upload_mb * 1024 * 1024), WS_MAX_MESSAGE)

    async def command(text: str) -> str | None:
        """A text message: live options as JSON, ``{"hand": "GK GA ...", "seat": "S"}``; before
        the session has started, any of the options. The error to send back, if any."""
        try:
            cmd = json.loads(text) if len(text) <= 4096 else None
        except ValueError:
            cmd = None
        if not isinstance(cmd, dict):
            return f'options are JSON under 4 KB, like {{"hand": "GK GA GE ...", "seat": "S"}} (fields: {", ".join(FIELDS)})'
        if live_state["session"] is None:
            return await open_session(cmd)
        return change(cmd)
    latest: dict = {"frame": None, "dropped": 0}
    wake = asyncio.Event()
    start = clock()
    closed = False

    async def receive() -> None:
        nonlocal closed
        try:
            while True:
                msg = await ws.receive()
                if msg.get("type") == "websocket.disconnect":
                    break
                data = msg.get("bytes")
                if data is None:
                    detail = await command(msg.get("text") or "")
                    if detail:
                        await ws.send_json({"type": "error", "detail": detail})
                    continue
                if len(data) > frame_limit:
                    await ws.send_json({"type": "error", "detail": f"frame over {frame_limit // 1_000_000} MB: dropped"})
                    continue
                if latest["frame"] is not None:
                    latest["dropped"] += 1  # still busy with the previous frame: drop the older one
                latest["frame"], latest["at"] = data, time.perf_counter()
                wake.set()
        except WebSocketDisconnect:
            pass
        finally:
            closed = True
            wake.set()

    async def process() -> None:
        while not closed:
            await wake.wait()
            wake.clear()
            data, latest["frame"] = latest["frame"], None
            if data is None:
                continue
            session = live_state["session"]
            if session is None:  # options refused: every frame still gets an answer
                await ws.send_json({"type": "error", "detail": "no live session: send valid options first"})
                continue
            t = clock() - start
            arrived = latest.get("at", time.perf_counter())

            def work(frame: bytes):
                # how late the frame is when its work begins: waiting for the socket and for a worker
                return session.step(decode_image(frame, "frame"), t, latest["dropped"], time.perf_counter() - arrived)

            try:
                state, events = await pool.run_fair(session, work, data)
            except ImageError as exc:
                await ws.send_json({"type": "error", "detail": str(exc)})
                continue
            except PoolFull:  # every worker busy with uploads: skip this frame, and say so
                latest["dropped"] += 1
                try:
                    await ws.send_json({"type": "busy", "detail": "the server is busy: frame skipped",
                                        "dropped": latest["dropped"]})
                except (WebSocketDisconnect, RuntimeError):
                    break
                continue
            result = session.last
            msg = {"type": "state", **state.to_json(), "detections": result.detections.to_cards(),
                   "events": [{**e.to_json(), "text": announce(e, live_state["options"].lang)} for e in events], "ms": round(result.ms, 1), "dropped": latest["dropped"], "table": live_state["table"]}
            try:
                await ws.send_json(msg)
            except (WebSocketDisconnect, RuntimeError):
                break

    receiver = asyncio.create_task(receive())
    try:
        await process()
    finally:
        receiver.cancel()
