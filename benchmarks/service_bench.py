"""Service load: 8 concurrent clients scoring for 30 s and 2 live WebSocket streams, on loopback."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import httpx
import numpy as np
import websockets

from sisepai.datasets.scene import make_scene

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
DURATION = float(os.environ.get("BENCH_SECONDS", "30"))


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


async def scorer(client, url, stop, lat, errors):
    while time.perf_counter() < stop:
        t = time.perf_counter()
        try:
            r = await client.post(url, json={"cards": WIN})
            if r.status_code != 200 or r.json()["points"] != 11:
                errors.append(r.status_code)
        except Exception as exc:  # noqa: BLE001
            errors.append(str(exc))
        lat.append((time.perf_counter() - t) * 1000)


async def stream(url, frames, stop, counts, errors, i):
    async with websockets.connect(url, max_size=2**24) as ws:
        k = 0
        while time.perf_counter() < stop:
            await ws.send(frames[k % len(frames)])
            msg = json.loads(await ws.recv())
            if msg.get("type") != "state":
                errors.append(msg)
            counts[i] += 1
            k += 1


async def main(port):
    frames = []
    for i in range(6):
        ok, buf = cv2.imencode(".jpg", make_scene(77, i, "table").image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
        frames.append(buf.tobytes())
    base = f"http://127.0.0.1:{port}"
    stop = time.perf_counter() + DURATION
    lat, errors, counts = [], [], [0, 0]
    async with httpx.AsyncClient(timeout=30) as client:
        tasks = [scorer(client, base + "/api/score", stop, lat, errors) for _ in range(8)]
        tasks += [stream(f"ws://127.0.0.1:{port}/api/live", frames, stop, counts, errors, i) for i in range(2)]
        await asyncio.gather(*tasks)
    print(f"service 8 scoring clients + 2 live streams, {DURATION:.0f} s: {len(lat) / DURATION:,.0f} req/s, "
          f"p50 {np.percentile(lat, 50):.1f} ms, p95 {np.percentile(lat, 95):.1f} ms; "
          f"{counts[0] / DURATION:.1f} and {counts[1] / DURATION:.1f} frames/s per stream; {len(errors)} errors")


port = free_port()
with tempfile.TemporaryDirectory() as tmp:
    env = {**os.environ, "SISEPAI_DB": str(Path(tmp) / "l.sqlite")}
    server = subprocess.Popen([str(Path(sys.executable).with_name("sisepai")), "serve", "--port", str(port)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health").json()["model"]:
                break
        except Exception:  # noqa: BLE001
            pass
        time.sleep(0.25)
    try:
        asyncio.run(main(port))
    finally:
        server.terminate()
        server.wait()
