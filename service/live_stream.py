"""One live connection: options in, frames in, states out (the ``/api/live`` route runs one).

A :class:`LiveStream` opens its :class:`~sisepai.vision.live.session.VideoSession` from
:class:`~sisepai.vision.live.options.LiveOptions` (the query's, or a first JSON message's), keeps
the newest frame while one is being read, shares the work pool fairly with the other streams,
and answers every frame: a state, "busy", or an error.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Callable

from fastapi import HTTPException, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from sisepai.engine.errors import SisepaiError
from sisepai.ledger.store import Ledger, check_table_name
from sisepai.vision.live.options import CHANGEABLE, FIELDS, LiveOptions, LiveOptionsError
from sisepai.vision.recognition.images import ImageError, decode_image, image_size

from .deck_readers import DeckReaders
from .live_messages import LiveBusy, LiveError, LiveMessage, LiveState
from .refusals import body_of, http_body
from .server import WS_MAX_MESSAGE
from .settings import Settings
from .work import PoolFull, WorkPool

LIVE_MAX_PIXELS = 4_200_000
"""A live frame past this many pixels (a 2688x1520 frame; 1080p is 2.1 MP) is refused before it is
decoded: a stream's frames are many, so each is held to what a webcam sends."""
QUERY_FIELDS = ("rules", "hand", "seat", "claimed", "deck", "table", "lang")
"""Options the socket's query may carry; zones come only in a JSON message."""


class LiveStream:
    """The live pipeline of one WebSocket (see the module)."""

    def __init__(self, ws: WebSocket, settings: Settings, ledger: Ledger, pool: WorkPool,
                 clock: Callable[[], float], readers: DeckReaders):
        self.ws, self.settings, self.ledger, self.pool, self.clock, self.readers = ws, settings, ledger, pool, clock, readers
        self.session = None
        self.table: str | None = None
        self.options = LiveOptions(table=settings.table)
        # the socket itself refuses messages past WS_MAX_MESSAGE; a smaller upload limit is answered here
        self.frame_limit = min(int(settings.max_upload_mb * 1024 * 1024), WS_MAX_MESSAGE)
        self.frame: bytes | None = None  # the newest frame not yet taken up
        self.arrived = 0.0
        self.dropped = 0
        self.wake = asyncio.Event()
        self.closed = False
        self.start = 0.0
        self.frames_read = 0

    async def run(self) -> None:
        query = {k: self.ws.query_params[k] for k in QUERY_FIELDS if k in self.ws.query_params}
        error = await self.open_session(query)
        if error:
            await self.send(LiveError(**error))
        self.start = self.clock()
        receiver = asyncio.create_task(self.receive())
        try:
            await self.process()
        finally:
            receiver.cancel()

    async def send(self, message: LiveMessage) -> bool:
        """Send ``message``; False once the client has gone."""
        try:
            await self.ws.send_json(message.to_json())
            return True
        except (WebSocketDisconnect, RuntimeError):
            return False

    # --- options ------------------------------------------------------------------------------

    async def open_session(self, values: dict) -> dict | None:
        """Start the session from options; the error (:func:`~.refusals.body_of`), if any. A
        refused start keeps the connection: the next options message may fix it."""

        try:
            opts = LiveOptions.from_mapping(values, base=self.options)
        except LiveOptionsError as exc:
            return body_of(str(exc)[:300], exc.code, exc.params)
        try:
            table = check_table_name(opts.table or self.settings.table)
        except SisepaiError:
            return body_of(f"table: no table named {(opts.table or '')[:40]!r}", "unknown_table",
                           {"table": opts.table or ""})
        if not await run_in_threadpool(self.ledger.has_table, table):
            return body_of(f"no table named {table!r} (open it first: POST /api/tables)", "unknown_table",
                           {"table": table})
        try:
            reader = await self.readers(opts.deck)
        except HTTPException as exc:
            body = http_body(exc)
            return {**body, "detail": f"deck: {body['detail']}"}
        self.session, self.table, self.options = opts.session(reader), table, opts
        return None

    def change(self, values: dict) -> dict | None:
        """A running session's change of hand, seat, claimed score or language; the error, if any."""

        try:
            opts = LiveOptions.from_mapping(values, base=self.options, allowed=CHANGEABLE)
            opts.apply_to(self.session.assistant)
        except (LiveOptionsError, SisepaiError) as exc:
            return body_of(str(exc)[:300], exc.code, exc.params)
        except ValueError as exc:
            return body_of(str(exc)[:300], "live_options", {})
        self.options = opts
        return None

    async def command(self, text: str) -> dict | None:
        """A text message: live options as JSON (before the session has started, any of them).
        The error to send back, if any."""

        try:
            cmd = json.loads(text) if len(text) <= 4096 else None
        except ValueError:
            cmd = None
        if not isinstance(cmd, dict):
            return body_of(f'options are JSON under 4 KB, like {{"hand": "GK GA GE ...", "seat": "S"}} '
                           f'(fields: {", ".join(FIELDS)})', "live_options", {})
        if self.session is None or not self.frames_read:  # before the first frame, any option (zones too)
            return await self.open_session(cmd)
        return self.change(cmd)

    # --- frames -------------------------------------------------------------------------------

    async def receive(self) -> None:
        """Take messages in: options, and frames (only the newest waits). A stream is held by its
        frames: one that sends no frame for ``live_idle_s`` is closed, whatever else it sends (a
        message every few seconds would otherwise hold a slot for ever)."""
        last_frame = time.monotonic()
        try:
            while True:
                left = self.settings.live_idle_s - (time.monotonic() - last_frame)
                try:
                    if left <= 0:
                        raise asyncio.TimeoutError
                    msg = await asyncio.wait_for(self.ws.receive(), left)
                except asyncio.TimeoutError:  # an idle socket would hold a slot for ever
                    await self.send(LiveError(**body_of(
                        f"no frame for {self.settings.live_idle_s:g} s: closing this live stream", "live_idle",
                        {"seconds": self.settings.live_idle_s})))
                    await self.ws.close(code=1001)
                    break
                if msg.get("type") == "websocket.disconnect":
                    break
                data = msg.get("bytes")
                if data is None:
                    error = await self.command(msg.get("text") or "")
                    if error:
                        await self.send(LiveError(**error))
                    continue
                if len(data) > self.frame_limit:
                    await self.send(LiveError(**body_of(f"frame over {self.frame_limit // 1_000_000} MB: dropped",
                                                        "frame_too_large", {"mb": self.frame_limit // 1_000_000})))
                    continue
                last_frame = time.monotonic()
                if self.frame is not None:
                    self.dropped += 1  # still busy with the previous frame: drop the older one
                self.frame, self.arrived = data, time.perf_counter()
                self.wake.set()
        except WebSocketDisconnect:
            pass
        finally:
            self.closed = True
            self.wake.set()

    async def process(self) -> None:
        """Read the newest frame, one at a time, and answer it."""

        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            data, self.frame = self.frame, None
            if data is None:
                continue
            session = self.session
            if session is None:  # options refused: every frame still gets an answer
                await self.send(LiveError(**body_of("no live session: send valid options first", "no_session", {})))
                continue
            t, arrived, dropped = self.clock() - self.start, self.arrived, self.dropped

            def work(frame: bytes):
                # how late the frame is when its work begins: waiting for the socket and for a worker
                return session.step(decode_image(frame, "frame", LIVE_MAX_PIXELS), t, dropped, time.perf_counter() - arrived)

            try:
                width, height = image_size(data, "frame")  # the header alone: a frame's price is its pixels
                state, events, result = await self.pool.run_fair(session, work, data, cost=width * height / 1e6)
            except ImageError as exc:
                await self.send(LiveError(**body_of(str(exc), "frame_unreadable", {})))
                continue
            except PoolFull:  # every worker busy: skip this frame, and say so
                self.dropped += 1
                if not await self.send(LiveBusy(**body_of("the server is busy: frame skipped", "busy", {}),
                                                dropped=self.dropped)):
                    break
                continue
            self.frames_read += 1
            lang = self.options.lang
            if not await self.send(LiveState.from_step(state, events, result, lang, self.dropped, self.table)):
                break
