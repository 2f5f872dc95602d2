"""A bounded pool for the heavy work of a request: decoding images, recognition, scoring a photo.

The event loop never runs this work: it stays free for health checks, scoring and the live
socket. The pool takes ``workers`` jobs at once and queues at most ``queue`` more; past that, a
request is answered 503 with ``Retry-After`` at once instead of waiting behind everyone else.

>>> import asyncio
>>> pool = WorkPool(workers=1, queue=0)
>>> asyncio.run(pool.run(sum, [1, 2, 3]))
6
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import functools
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from fastapi import HTTPException

RETRY_AFTER_S = 2


class PoolFull(HTTPException):
    """Every worker is busy and the queue is full: 503, try again shortly."""

    def __init__(self) -> None:
        super().__init__(503, "busy: every recognition worker is taken; try again in a moment",
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

    @property
    def full(self) -> bool:
        return self.in_flight >= self.capacity

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.full:
            raise PoolFull()
        self.in_flight += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))
        finally:
            self.in_flight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
