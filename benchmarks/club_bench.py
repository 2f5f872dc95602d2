"""A club's ledger under load: 4 service processes (`sisepai serve --no-model`), one table each,
sharing one PostgreSQL server (started here, in a temporary folder), with 8 clients per process
writing deals and reading the table's ledger for 30 s. Then the same clients against one process
on the embedded SQLite file, for comparison.

Reports deals written a second, reads a second, p95 of each, errors, and lost writes: deals a
client got an answer for that are not in the ledger afterwards (aim: 0).

    python benchmarks/club_bench.py            # BENCH_SECONDS=30 by default
"""

import asyncio
import json
import os
import random
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.postgres: the throwaway server

from sisepai.ledger.store import Ledger  # noqa: E402
from tests.postgres import NoPostgres, TemporaryPostgres  # noqa: E402
from tests.service_process import free_port, serve_process, wait_until_up  # noqa: E402

DURATION = float(os.environ.get("BENCH_SECONDS", "30"))
PROCESSES, CLIENTS = 4, 8
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


class Connection:
    """A lean keep-alive HTTP/1.1 connection (a load generator as light as ``wrk``'s: httpx spent
    two thirds of a core here, and on 2 cores the clients then measured themselves)."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n\r\n").encode()
        self.writer.write(head + data)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def client(port: int, table: str, stop: float, seed: int, out: dict) -> None:
    rng = random.Random(seed)
    conn = Connection(port)
    query = urllib.parse.quote(table)
    while time.perf_counter() < stop:
        t = time.perf_counter()
        try:
            if rng.random() < 0.25:
                status, body = await conn.request("GET", f"/api/ledger?table={query}&last=20")
                kind = "read"
            else:
                w, d = rng.sample(PLAYERS, 2)
                status, body = await conn.request("POST", "/api/ledger/deals", {
                    "players": PLAYERS, "winner": w, "points": rng.randint(1, 30), "discarder": d, "table": table})
                kind = "write"
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
            out["errors"].append(f"{type(exc).__name__}: {exc}"[:120])
            conn.close()
            conn = Connection(port)
            continue
        out[kind].append((time.perf_counter() - t) * 1000)
        if status != 200:
            out["errors"].append(f"{status}: {body[:100]!r}")
        elif kind == "write":
            out["acked"].append(json.loads(body)["id"])
    conn.close()


async def load(ports: list[int], tables: list[str]) -> dict:
    out = {"read": [], "write": [], "errors": [], "acked": []}
    stop = time.perf_counter() + DURATION
    await asyncio.gather(*[client(port, table, stop, 100 * i + k, out)
                           for i, (port, table) in enumerate(zip(ports, tables)) for k in range(CLIENTS)])
    return out


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))] if values else float("nan")


def run(db: str, processes: int) -> dict:
    ports, tables = [free_port() for _ in range(processes)], [f"table {k + 1}" for k in range(processes)]
    procs = []
    try:
        for port, table in zip(ports, tables):
            procs.append(serve_process(db, port, table))
            wait_until_up(port, procs[-1])  # one at a time: the first migrates the database
        out = asyncio.run(load(ports, tables))
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=30)
    ledger = Ledger(db, pool=1)
    stored = {d["id"] for t in tables for d in ledger.deals(t)}
    balanced = (all(sum(ledger.totals(t).values()) == 0 for t in tables) and sum(ledger.totals().values()) == 0
                and not ledger.check())
    ledger.close()
    if out["errors"]:
        from collections import Counter

        print("club: errors:", dict(Counter(out["errors"]).most_common(3)))
    return {"deals_per_s": len(out["write"]) / DURATION, "reads_per_s": len(out["read"]) / DURATION,
            "write_p95_ms": p95(out["write"]), "read_p95_ms": p95(out["read"]), "errors": len(out["errors"]),
            "lost": len(set(out["acked"]) - stored), "acked": len(out["acked"]), "balanced": balanced}


def show(name: str, r: dict) -> None:
    print(f"club: {name}: {r['deals_per_s']:.0f} deals/s (p95 {r['write_p95_ms']:.0f} ms), {r['reads_per_s']:.0f} "
          f"reads/s (p95 {r['read_p95_ms']:.0f} ms), {r['errors']} errors, lost writes {r['lost']} of "
          f"{r['acked']} acknowledged, totals sum to zero and agree with the payments: {r['balanced']}")


def main() -> None:
    from sisepai.models.evaluation.records import write_record

    figures = {}
    try:
        with TemporaryPostgres() as url:
            figures["postgresql"] = run(url, PROCESSES)
            show(f"{PROCESSES} processes x {CLIENTS} clients, one PostgreSQL, {DURATION:.0f} s", figures["postgresql"])
    except NoPostgres as exc:
        print(f"club: skipped, no PostgreSQL: {exc}")
    with tempfile.TemporaryDirectory() as tmp:
        figures["sqlite"] = run(str(Path(tmp) / "ledger.sqlite"), 1)
        show(f"1 process x {CLIENTS} clients, SQLite, {DURATION:.0f} s", figures["sqlite"])
    write_record("club_bench", "python benchmarks/club_bench.py", figures, split="none", models={},
                 options={"processes": PROCESSES, "clients": CLIENTS, "seconds": DURATION})


if __name__ == "__main__":
    main()
