"""The served process under slow, idle and compressing clients: every socket bounded in time and size."""

import json
import socket
import time

import httpx
import pytest

from tests.service_process import free_port, serve_process, wait_until_up


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    proc = serve_process(str(tmp_path_factory.mktemp("db") / "ledger.sqlite"), port)
    try:
        wait_until_up(port, proc)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes | None = None) -> float:
    """Seconds until the server closes ``sock`` (sending ``trickle`` each second meanwhile)."""
    sock.settimeout(1.0)
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        try:
            if trickle:
                sock.sendall(trickle)
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except socket.timeout:
            continue
        except OSError:
            return time.monotonic() - start
    raise AssertionError(f"still open after {seconds} s")


def _silent(port: int) -> float:
    with socket.create_connection(("127.0.0.1", port)) as s:
        return _closed_within(s, 60)


def _endless_headers(port: int) -> float:
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        return _closed_within(s, 60, trickle=b"X-Slow: 1\r\n")


def _stalled_body(port: int) -> float:
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 60000\r\n\r\n{")
        return _closed_within(s, 30)  # declared 60 KB, sent one byte: closed well before the whole-body deadline


@pytest.fixture(scope="module")
def slow_clients(server):
    """The three slow clients, side by side (each waits out one of the server's deadlines of about
    10 s): the seconds until the server closed each, or the error that says it did not."""
    from concurrent.futures import ThreadPoolExecutor

    def outcome(client):
        try:
            return client(server)
        except AssertionError as exc:
            return exc

    with ThreadPoolExecutor(3) as threads:
        runs = {name: threads.submit(outcome, client)
                for name, client in (("silent", _silent), ("headers", _endless_headers), ("body", _stalled_body))}
        return {name: run.result() for name, run in runs.items()}


def test_a_socket_that_sends_nothing_is_closed(slow_clients):
    assert isinstance(slow_clients["silent"], float), slow_clients["silent"]  # an error: still open after 60 s


def test_headers_that_never_end_are_closed(slow_clients):
    assert isinstance(slow_clients["headers"], float), slow_clients["headers"]


def test_many_idle_sockets_do_not_stop_health(server):
    idle = [socket.create_connection(("127.0.0.1", server)) for _ in range(300)]
    try:
        # every request is answered while the idle sockets stay open; the timeout only guards against a hang
        answers = [httpx.get(f"http://127.0.0.1:{server}/api/health", timeout=30).status_code for _ in range(10)]
        assert answers == [200] * 10
    finally:
        for s in idle:
            s.close()


def _slow_sockets(port: int, n: int, source: str) -> list[socket.socket]:
    """``n`` sockets from ``source`` that each send half a request's headers and then wait."""
    held = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        try:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        except OSError:
            pass  # already closed by the server: that address holds too many
        held.append(s)
    return held


def _still_open(sockets: list[socket.socket]) -> int:
    import select

    def closed(s: socket.socket) -> bool:
        """Closed by the server: its answer (a 503 to a socket past the cap) read, then the end."""
        s.setblocking(False)
        try:
            while (data := s.recv(65536)) != b"":
                if not data.startswith(b"HTTP/1.1 503") and b"HTTP/" in data:
                    return False
        except BlockingIOError:
            return False  # nothing more to read, and not closed
        except OSError:
            return True  # reset by the server
        return True

    readable = select.select(sockets, [], [], 0.5)[0]  # a closed socket reads as readable
    return len(sockets) - sum(1 for s in readable if closed(s))


@pytest.mark.parametrize("source", ["127.0.0.2", "127.0.0.1"], ids=["another address", "the same address"])
def test_one_address_with_600_slow_sockets_does_not_lock_out_a_client(server, source):
    """600 half-sent requests from one address: that address keeps at most 32 of them open and
    every health probe is answered 200, whether the probe comes from another address or the same."""
    from sisepai.service.server import PER_CLIENT_CONNECTIONS, REFUSED_LINGER_S

    slow = _slow_sockets(server, 600, source)
    try:
        answers = [httpx.get(f"http://127.0.0.1:{server}/api/health", timeout=30).status_code for _ in range(40)]
        assert answers == [200] * 40
        time.sleep(REFUSED_LINGER_S + 1)  # the sockets past the cap were answered 503, then closed
        assert _still_open(slow) <= PER_CLIENT_CONNECTIONS
    finally:
        for s in slow:
            s.close()


def test_the_live_socket_offers_no_compression(server):
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server}/api/live", origin=f"http://127.0.0.1:{server}",
                 compression="deflate") as ws:
        assert not ws.protocol.extensions  # per-message deflate refused: no inflation bombs


def test_a_body_that_stops_arriving_is_closed(slow_clients):
    assert isinstance(slow_clients["body"], float), slow_clients["body"]


def test_whole_headers_past_the_cap_are_refused(server):
    big = {f"X-Pad-{k}": "x" * 1000 for k in range(120)}  # 120 KB of headers, sent at once
    r = httpx.get(f"http://127.0.0.1:{server}/api/health", headers=big, timeout=30)
    assert r.status_code == 431 and "16 KB" in r.json()["detail"]
    assert httpx.get(f"http://127.0.0.1:{server}/api/health", timeout=30).status_code == 200


def test_headers_past_the_cap_that_arrive_in_pieces_are_refused_the_same(server):
    """On a busy machine headers arrive in pieces and overflow the server's buffer before they end:
    they are refused 431 with the same code as whole ones, not a bare 400."""
    import select

    request = (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               + b"".join(b"X-Pad-%d: %s\r\n" % (k, b"x" * 1000) for k in range(120)) + b"\r\n")
    answer = b""
    with socket.create_connection(("127.0.0.1", server), timeout=30) as s:
        for start in range(0, len(request), 2000):
            if select.select([s], [], [], 0.02)[0]:
                break  # answered already: stop sending
            try:
                s.sendall(request[start:start + 2000])
            except OSError:
                break
        try:
            while chunk := s.recv(4096):
                answer += chunk
        except OSError:
            pass
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431"), answer[:200]
    assert json.loads(body)["code"] == "headers_too_large"


def test_fifty_uploads_at_once_from_one_address_each_get_an_answer(server):
    """More uploads at once than one address may hold connections: every one is answered (served,
    or 503 with Retry-After), none reset with no answer."""
    import threading

    body = b"\xff\xd8\xff" + b"\0" * 300_000  # a JPEG's first bytes, then a large broken body
    results: list = []

    def upload():
        try:
            r = httpx.post(f"http://127.0.0.1:{server}/api/recognize", files={"file": ("x.jpg", body, "image/jpeg")},
                           timeout=60)
            results.append((r.status_code, r.headers.get("retry-after")))
        except httpx.HTTPError as exc:
            results.append((type(exc).__name__, None))

    threads = [threading.Thread(target=upload) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert len(results) == 50
    from collections import Counter
    assert all(isinstance(code, int) for code, _ in results), Counter(c for c, _ in results)
    assert all(retry for code, retry in results if code == 503)
