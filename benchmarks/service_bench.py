"""Service load on loopback: 8 scoring clients and a health probe, first alone, then with 2 clients
recognising photos (POST /api/recognize) at the same time, then with 2 live WebSocket streams.

Reports scoring requests a second and p95, health p95, and what the recognising clients got
(answers, and 503 "busy" answers from the bounded worker pool).
"""

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

from sisepai.datasets.design.splits import BENCH_SEEDS, FONTS
from sisepai.datasets.scenes.scene import make_scene

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
DURATION = float(os.environ.get("BENCH_SECONDS", "20"))


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


async def health(client, url, stop, lat):
    while time.perf_counter() < stop:
        t = time.perf_counter()
        await client.get(url)
        lat.append((time.perf_counter() - t) * 1000)
        await asyncio.sleep(0.05)


async def recogniser(client, url, photos, stop, counts):
    k = 0
    while time.perf_counter() < stop:
        r = await client.post(url, files={"file": ("table.jpg", photos[k % len(photos)], "image/jpeg")})
        counts[r.status_code] = counts.get(r.status_code, 0) + 1
        if r.status_code == 503:
            await asyncio.sleep(float(r.headers.get("retry-after", "1")) / 4)
        k += 1


async def stream(url, frames, stop, counts, i):
    async with websockets.connect(url, max_size=2**24) as ws:
        k = 0
        while time.perf_counter() < stop:
            await ws.send(frames[k % len(frames)])
            json.loads(await ws.recv())
            counts[i] += 1
            k += 1


async def phase(port, photos, recognising: int, streams: int) -> tuple[str, dict]:
    base = f"http://127.0.0.1:{port}"
    stop = time.perf_counter() + DURATION
    lat, hl, errors, rec_counts, frames = [], [], [], {}, [0] * streams
    # the health probe has its own connection, as a monitor would: sharing the scorers' pool
    # measures the client's queue for a connection, not the server
    async with httpx.AsyncClient(timeout=60) as client, httpx.AsyncClient(timeout=60) as probe:
        tasks = [scorer(client, base + "/api/score", stop, lat, errors) for _ in range(8)]
        tasks.append(health(probe, base + "/api/health", stop, hl))
        tasks += [recogniser(client, base + "/api/recognize", photos, stop, rec_counts) for _ in range(recognising)]
        tasks += [stream(f"ws://127.0.0.1:{port}/api/live", photos, stop, frames, i) for i in range(streams)]
        await asyncio.gather(*tasks)
    load = "alone" if not recognising and not streams else \
        f"+ {recognising} recognising" if recognising else f"+ {streams} live streams"
    extra = ""
    if recognising:
        extra = f"; recognitions {rec_counts.get(200, 0) / DURATION:.1f}/s, {rec_counts.get(503, 0)} busy (503)"
    if streams:
        extra = "; " + ", ".join(f"{f / DURATION:.1f}" for f in frames) + " frames/s per stream"
    figures = {"requests_per_second": round(len(lat) / DURATION), "p95_ms": round(float(np.percentile(lat, 95)), 1),
               "health_p95_ms": round(float(np.percentile(hl, 95)), 1), "errors": len(errors),
               "recognitions_per_second": round(rec_counts.get(200, 0) / DURATION, 2), "busy_503": rec_counts.get(503, 0),
               "frames_per_second_per_stream": [round(f / DURATION, 2) for f in frames]}
    return (f"service 8 scoring clients {load:<16} {len(lat) / DURATION:>6,.0f} req/s, p95 "
            f"{np.percentile(lat, 95):.1f} ms; health p95 {np.percentile(hl, 95):.1f} ms; {len(errors)} errors{extra}",
            {load.strip(): figures})


async def main(port):
    photos = []
    for i in range(6):
        scene = make_scene(BENCH_SEEDS["service_bench"], i, "table", font_split=FONTS["tune"])
        ok, buf = cv2.imencode(".jpg", scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 85])
        photos.append(buf.tobytes())
    async with httpx.AsyncClient(timeout=60) as client:  # warm up: the first scores build the engine's tables
        for _ in range(20):
            await client.post(f"http://127.0.0.1:{port}/api/score", json={"cards": WIN})
        await client.post(f"http://127.0.0.1:{port}/api/recognize", files={"file": ("t.jpg", photos[0], "image/jpeg")})
    figures = {}
    for recognising, streams in ((0, 0), (2, 0), (0, 2)):
        line, part = await phase(port, photos, recognising, streams)
        print(line, flush=True)
        figures.update(part)
    from sisepai.models.evaluation.records import write_record

    write_record("service_bench", "python benchmarks/service_bench.py", figures, split="tune",
                 options={"scoring_clients": 8, "seconds": DURATION})


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
