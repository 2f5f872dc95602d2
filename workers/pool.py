"""Worker processes that are safe to start at any moment: every pool in the project comes from here.

A process forked after OpenCV or torch has started its thread pool inherits locks held by threads
that do not exist in the child; its first OpenCV call (``cv2.setNumThreads``) can then wait for
ever. That is how ``sisepai deck add`` hung when the faces had been cut and trimmed before the
scene workers started. The workers here are *spawned*: each starts a fresh interpreter, imports
what it needs and holds no inherited lock, whatever the parent did before.

>>> with worker_pool(2) as pool:
...     list(pool.map(abs, [-1, -2, 3]))
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator

START_METHOD = "spawn"
"""How worker processes start: never ``fork`` (see the module's docstring)."""


def single_thread_opencv() -> None:
    """A worker's initializer: one OpenCV thread per process, so N workers use N cores."""
    import cv2

    cv2.setNumThreads(1)


@contextmanager
def worker_pool(workers: int, initializer: Callable[..., Any] | None = single_thread_opencv,
                initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` spawned processes, each running ``initializer(*initargs)`` first.

    ``initializer`` and the jobs must be importable module-level functions, and their arguments
    picklable, as the ``spawn`` start method needs. When the block ends with an error (Ctrl-C,
    SIGTERM turned into one), the jobs not started are dropped and the workers are stopped at
    once, instead of the pool finishing every queued job first.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    pool = ProcessPoolExecutor(workers, mp_context=mp.get_context(START_METHOD), initializer=initializer,
                               initargs=initargs)
    try:
        yield pool
    except BaseException:
        processes = list((pool._processes or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            p.terminate()
        for p in processes:
            p.join(5)
        raise
    else:
        pool.shutdown(wait=True)
