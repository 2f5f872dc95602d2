"""The live WebSocket: binary JPEG frames in, ``TableState`` JSON (with events and advice) out.

Each connection is its own session (its own tracker, table and deck palette). Frames that arrive while one is
being processed are dropped, not queued: the client always sees the newest table.
"""

from __future__ import annotations

import asyncio
import json
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

router = APIRouter()


@router.websocket("/api/live")
async def live(ws: WebSocket) -> None:
    from sisepai.vision.assistant import TableAssistant
    from sisepai.vision.palette import SuitPalette
    from sisepai.vision.recognize import ImageError, decode_image

    await ws.accept()
    app = ws.app
    recognizer = app.state.recognizer
    if recognizer is None:
        await ws.send_json({"type": "error", "detail": "the recognition model is not loaded"})
        await ws.close(code=1011)
        return
    if ws.query_params.get("deck"):
        from fastapi import HTTPException

        from .vision import deck_recognizer

        try:
            recognizer = await deck_recognizer(app, ws.query_params["deck"][:40])
        except HTTPException as exc:
            await ws.send_json({"type": "error", "detail": exc.detail})
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
    palette = SuitPalette()  # this session's deck colours, learned frame by frame
    latest: dict = {"frame": None, "dropped": 0}
    wake = asyncio.Event()
    start = time.perf_counter()
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
                    text = msg.get("text") or ""
                    if text.startswith("{"):
                        cmd = json.loads(text)
                        if cmd.get("hand") is not None:
                            try:
                                assistant.__init__(hand=cmd["hand"] or None, user_seat=cmd.get("seat", seat))
                            except ValueError as exc:
                                await ws.send_json({"type": "error", "detail": str(exc)})
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
            t = time.perf_counter() - start
            try:
                image = decode_image(data, "frame")
            except ImageError as exc:
                await ws.send_json({"type": "error", "detail": str(exc)})
                continue
            result = await run_in_threadpool(recognizer.recognize, image, False, palette)
            h, w = image.shape[:2]
            state, events = assistant.process(result.detections, t, w, h, backs=len(result.backs))
            msg = {"type": "state", **state.to_json(), "detections": result.detections.to_cards(),
                   "events": events, "ms": round(result.ms, 1), "dropped": latest["dropped"]}
            try:
                await ws.send_json(msg)
            except (WebSocketDisconnect, RuntimeError):
                break

    receiver = asyncio.create_task(receive())
    try:
        await process()
    finally:
        receiver.cancel()
