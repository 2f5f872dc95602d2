"""The live WebSocket: binary JPEG frames in, ``TableState`` JSON (with events and advice) out.

Each connection is its own :class:`~sisepai.vision.session.VideoSession`, the pipeline ``sisepai
watch`` runs: its own tracker, table, still readings and deck palette. What lies on the table when
the page connects comes as one ``table`` event. Frames that arrive while one is being processed
are dropped, not queued: the client always sees the newest table. A stream belongs to one table
of the club (``table=NAME``, default the service's ``--table``); each state names it.
"""

from __future__ import annotations

import asyncio
import json
import time

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from sisepai.engine.errors import SisepaiError

from ..server import WS_MAX_MESSAGE
from ..store import check_table_name
from ..work import PoolFull

router = APIRouter()


@router.websocket("/api/live")
async def live(ws: WebSocket) -> None:
    from sisepai.vision.assistant import TableAssistant
    from sisepai.vision.images import ImageError, decode_image
    from sisepai.vision.session import VideoSession

    await ws.accept()
    app = ws.app
    recognizer = app.state.recognizer
    if recognizer is None:
        await ws.send_json({"type": "error", "detail": "the recognition model is not loaded"})
        await ws.close(code=1011)
        return
    if ws.query_params.get("deck"):
        from .vision import deck_recognizer

        try:
            recognizer = await deck_recognizer(app, ws.query_params["deck"][:40])
        except HTTPException as exc:
            await ws.send_json({"type": "error", "detail": exc.detail})
            await ws.close(code=1008)
            return
    table = ws.query_params.get("table") or app.state.settings.table
    try:
        table = check_table_name(table)
    except SisepaiError:
        table = None
    if table is None or not await run_in_threadpool(app.state.ledger.has_table, table):
        shown = (ws.query_params.get("table") or "")[:40] if table is None else table
        await ws.send_json({"type": "error", "detail": f"no table named {shown!r} (open it first: POST /api/tables)"})
        await ws.close(code=1008)
        return
    hand = ws.query_params.get("hand") or None
    seat = ws.query_params.get("seat", "S")
    try:
        assistant = TableAssistant(hand=hand, user_seat=seat)
    except ValueError as exc:
        await ws.send_json({"type": "error", "detail": str(exc)})
        await ws.close(code=1008)
        return
    session = VideoSession(recognizer, assistant)
    clock = getattr(app.state, "clock", time.perf_counter)
    pool = app.state.pool
    # the socket itself refuses messages past WS_MAX_MESSAGE; a smaller upload limit is answered here
    frame_limit = min(int(app.state.settings.max_upload_mb * 1024 * 1024), WS_MAX_MESSAGE)

    def command(text: str) -> str | None:
        """A text message: ``{"hand": "GK GA ...", "seat": "S"}``; the error to send back, if any."""
        try:
            cmd = json.loads(text) if len(text) <= 4096 else None
        except ValueError:
            cmd = None
        if not isinstance(cmd, dict) or not isinstance(cmd.get("hand", ""), (str, type(None))):
            return 'commands are JSON like {"hand": "GK GA GE ...", "seat": "S"}, under 4 KB'
        if "hand" in cmd:
            try:
                assistant.set_hand(cmd["hand"] or None, str(cmd.get("seat", seat))[:8])
            except ValueError as exc:
                return str(exc)[:300]
        return None
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
                    detail = command(msg.get("text") or "")
                    if detail:
                        await ws.send_json({"type": "error", "detail": detail})
                    continue
                if len(data) > frame_limit:
                    await ws.send_json({"type": "error", "detail": f"frame over {frame_limit // 1_000_000} MB: dropped"})
                    continue
                if latest["frame"] is not None:
                    latest["dropped"] += 1  # still busy with the previous frame: drop the older one
                latest["frame"] = data
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
            t = clock() - start

            def work(frame: bytes):
                return session.step(decode_image(frame, "frame"), t)

            try:
                state, events = await pool.run(work, data)
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
                   "events": [e.to_json() for e in events], "ms": round(result.ms, 1), "dropped": latest["dropped"], "table": table}
            try:
                await ws.send_json(msg)
            except (WebSocketDisconnect, RuntimeError):
                break

    receiver = asyncio.create_task(receive())
    try:
        await process()
    finally:
        receiver.cancel()
