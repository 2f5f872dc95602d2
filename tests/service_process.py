"""``sisepai serve`` as a process of its own, for tests and benchmarks that kill it or run several.

Used as::

    proc = serve_process("ledger.sqlite", 8123)
    wait_until_up(8123, proc)
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_process(db: str, port: int, table: str | None = None) -> subprocess.Popen:
    """``sisepai serve --no-model`` on ``port`` with the ledger ``db`` (its errors on stderr)."""
    cmd = [sys.executable, "-m", "sisepai.engine.cli", "serve", "--no-model", "--port", str(port), "--db", db]
    return subprocess.Popen(cmd + (["--table", table] if table else []), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def wait_until_up(port: int, proc: subprocess.Popen, seconds: float = 90.0) -> None:
    """Return once the service answers ``/api/health``; RuntimeError if it stops or never does."""
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the service process stopped: {proc.stderr.read()[-500:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"the service did not answer on port {port} within {seconds:.0f} s")
