"""A bounded pool for the heavy work of a request: decoding images, recognition, scoring a photo.

The event loop never runs this work: it stays free for health checks, scoring and the live
socket. The pool takes ``workers`` jobs at once and queues at most ``queue`` more; past that, a
request is answered 503 with ``Retry-After`` at once instead of waiting behind everyone else.

Live streams share it fairly (:meth:`WorkPool.run_fair`): a stream that finds every worker busy
waits in line, one place per stream. A stream that floods frames cannot take a second place, so
six busy streams leave a seventh its turn instead of starving it; a stream that waits past
``FAIR_WAIT_S`` is told the server is busy. Each frame is priced by its pixels: a freed worker goes
to the waiting stream that has been served least for its price (start-time fair queuing), so a
stream of 4-megapixel frames gets a quarter of the turns of a stream of 1-megapixel ones, and
the longest-waiting stream wins a tie.

>>> import asyncio
>>> pool = WorkPool(workers=1, queue=0)
>>> asyncio.run(pool.run(sum, [1, 2, 3]))
6
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import collections
import functools
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from .refusals import Refusal

T = TypeVar("T")
"""What the work a pool runs gives back."""

RETRY_AFTER_S = 2
FAIR_WAIT_S = 2.0
"""The longest a live stream waits in line for a worker before it is told the server is busy."""


class PoolFull(Refusal):
    """Every worker is busy and the queue is full: 503, try again shortly."""

    def __init__(self) -> None:
        super().__init__(503, "busy", "busy: every recognition worker is taken; try again in a moment",
                         headers={"Retry-After": str(RETRY_AFTER_S)})


def default_workers() -> int:
    """Recognition workers: half the cores (at least one), so scoring keeps a core."""
    return max(1, (os.cpu_count() or 2) // 2)


class WorkPool:
    """``await pool.run(fn, *args)`` runs ``fn`` in a worker thread, or raises :class:`PoolFull`."""

    def __init__(self, workers: int | None = None, queue: int = 2):
        self.workers = workers or default_workers()
        self.capacity = self.workers + max(0, queue)
        self.in_flight = 0
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="sisepai-work")
        self._line: collections.deque[tuple[object, asyncio.Future, float]] = collections.deque()
        self._tags: dict[object, float] = {}  # a stream's virtual finish time (start-time fair queuing)
        self._clock = 0.0  # the virtual time: the start tag of the work last handed a worker

    @property
    def full(self) -> bool:
        return self.in_flight >= self.capacity

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.full or self._line:  # streams waiting in line come first
            raise PoolFull()
        self.in_flight += 1
        return await self._work(fn, *args, **kwargs)

    async def run_fair(self, owner: object, fn: Callable[..., T], *args: Any, wait: float = FAIR_WAIT_S,
                       cost: float = 1.0, **kwargs: Any) -> T:
        """Like :meth:`run`, for one of many streams: when every worker is busy, wait in line (one
        place per ``owner``) for up to ``wait`` seconds; :class:`PoolFull` after that, or when
        ``owner`` already has its place. ``cost`` prices the work (a frame's megapixels): a freed
        worker goes to the waiting owner whose turn comes first for its price."""
        if not self.full and not self._line:
            self.in_flight += 1
            self._charge(owner, cost)
            return await self._work(fn, *args, **kwargs)
        if any(o == owner for o, _, _ in self._line):
            raise PoolFull()
        loop = asyncio.get_running_loop()
        turn = loop.create_future()
        self._line.append((owner, turn, cost))
        timer = loop.call_later(wait, lambda: turn.done() or turn.set_result(False))
        try:
            granted = await turn  # True: a worker was handed over; False: waited too long
        except asyncio.CancelledError:  # the stream went away: a worker handed over meanwhile passes on
            if turn.done() and not turn.cancelled() and turn.result():
                self._hand_on()
            raise
        finally:
            timer.cancel()
        if not granted:
            self._line = collections.deque(e for e in self._line if e[1] is not turn)
            raise PoolFull()
        return await self._work(fn, *args, **kwargs)

    def _start_tag(self, owner: object) -> float:
        return max(self._tags.get(owner, 0.0), self._clock)

    def _charge(self, owner: object, cost: float) -> None:
        """``owner``'s work of ``cost`` is handed a worker: the virtual clock moves to its start."""
        self._clock = self._start_tag(owner)
        self._tags[owner] = self._clock + max(cost, 1e-6)
        if len(self._tags) > 256:  # an owner at or behind the clock counts as new: forget it
            self._tags = {o: tag for o, tag in self._tags.items() if tag > self._clock}

    async def _work(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` on a worker already counted in ``in_flight``, then hand the worker on."""
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))
        finally:
            self._hand_on()

    def _hand_on(self) -> None:
        self._line = collections.deque(e for e in self._line if not e[1].done())  # gone or timed out
        if self._line:
            # the worker passes to the owner served least for its price; the longest-waiting in a tie
            best = min(range(len(self._line)), key=lambda k: (self._start_tag(self._line[k][0]) + self._line[k][2], k))
            owner, turn, cost = self._line[best]
            del self._line[best]
            self._charge(owner, cost)
            turn.set_result(True)
            return
        self.in_flight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
