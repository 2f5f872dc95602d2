"""The service against hostile and careless clients: each test fails without its guard."""

import struct
import threading
import zlib

import cv2
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sisepai.service.main import create_app
from sisepai.service.settings import Settings

from .test_api import READY, CountingRecognizer, jpeg

THIRTY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC GA GE WA WE YA YE RA RE GR GH"


class BlockingRecognizer(CountingRecognizer):
    """Holds each recognition until ``release`` is set, to fill the worker pool on purpose."""

    def __init__(self):
        super().__init__()
        self.release = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()

    def recognize(self, image, zoom_out=True, memory=None):
        self.started.set()
        self.release.wait(10)
        self.finished.set()
        return super().recognize(image, zoom_out, memory)


def client(tmp_path, recognizer=None, **kw):
    """A client of the app with a stand-in recogniser, given as FastAPI's dependency override."""
    from sisepai.service.deps import get_model_error, get_recognizer

    app = create_app(Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False, **kw))
    fake = recognizer or CountingRecognizer()
    app.dependency_overrides[get_recognizer] = lambda: fake
    app.dependency_overrides[get_model_error] = lambda: None
    return TestClient(app)


def png_bomb(width: int, height: int) -> bytes:
    """A tiny PNG whose header declares ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")


def test_a_hand_over_the_rules_size_gets_422_at_once(tmp_path, monkeypatch):
    import sisepai.engine.advice as advice_module

    monkeypatch.setattr(advice_module, "distance_counts", lambda *a, **k: pytest.fail("searched before refusing"))
    with client(tmp_path) as c:
        r = c.post("/api/advise", json={"cards": THIRTY})
        assert r.status_code == 422 and "at most 21" in r.json()["detail"]


def test_recognition_runs_in_a_bounded_pool_and_health_stays_quick(tmp_path):
    rec = BlockingRecognizer()
    with client(tmp_path, rec, workers=1, queue=0) as c:
        first = {}
        worker = threading.Thread(target=lambda: first.update(r=c.post("/api/recognize", files={"file": ("a.jpg", jpeg(), "image/jpeg")})))
        worker.start()
        assert rec.started.wait(5)
        # answered while the recognition is still held: the event loop is free while one runs
        assert c.get("/api/health").status_code == 200
        assert c.post("/api/score", json={"cards": READY + " YK"}).json()["winning"]
        assert not rec.finished.is_set()
        busy = c.post("/api/recognize", files={"file": ("b.jpg", jpeg(), "image/jpeg")})
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2"
        rec.release.set()
        worker.join(10)
        assert first["r"].status_code == 200


@pytest.mark.parametrize("side", [20_000, 30_000])
def test_an_image_bomb_is_refused_from_its_header(tmp_path, side, monkeypatch):
    rec = CountingRecognizer()
    with client(tmp_path, rec) as c:
        with monkeypatch.context() as patch:  # refused from its header, before any decoding
            patch.setattr(cv2, "imdecode", lambda *a: pytest.fail("the bomb was decoded"))
            r = c.post("/api/recognize", files={"file": ("bomb.png", png_bomb(side, side), "image/png")})
        assert r.status_code == 413 and ("too many pixels" in r.json()["detail"] or "too large" in r.json()["detail"])
        assert rec.calls == 0
        medium = c.post("/api/recognize", files={"file": ("m.png", png_bomb(8000, 8000), "image/png")})
        assert medium.status_code == 413 and "8000x8000" in medium.json()["detail"]


def test_an_image_bomb_over_the_websocket_is_an_error_message(tmp_path):
    with client(tmp_path) as c, c.websocket_connect("/api/live") as ws:
        ws.send_bytes(png_bomb(30_000, 30_000))
        assert ws.receive_json()["type"] == "error"
        ws.send_bytes(jpeg())
        assert ws.receive_json()["type"] == "state"  # the connection carries on


def test_bodies_are_limited_before_they_are_read(tmp_path):
    with client(tmp_path, max_upload_mb=1) as c:
        big = c.post("/api/recognize", files={"file": ("big.jpg", b"\xff" * 3_000_000, "image/jpeg")})
        assert big.status_code == 413
        r = c.post("/api/score", content=b"{" + b" " * 100_000 + b"}", headers={"content-type": "application/json"})
        assert r.status_code == 413
        r = c.post("/api/score", json={"cards": "GK " * 2000})
        assert r.status_code == 422  # every string has a maximum length
        r = c.post("/api/ledger/deals", json={"players": ["Ann", "Bo"], "winner": "Ann", "points": 1,
                                              "rules": "seesek", "cards": "GK" * 5000})
        assert r.status_code == 422 and c.get("/api/ledger").json()["deals"] == []


def test_rules_over_the_network_are_never_a_path(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('preset = "seesek"\nadmin_password = "x"\n')
    with client(tmp_path) as c:
        for rules in (str(secret), str(tmp_path), "/etc/passwd.toml"):
            r = c.post("/api/score", json={"cards": READY + " YK", "rules": rules})
            assert r.status_code == 422 and "preset name" in r.json()["detail"] and "admin" not in r.text
        r = c.post("/api/score", json={"cards": READY + " YK", "rules": {"preset": "seesek", "points": {"joker": 5}}})
        assert r.status_code == 200 and r.json()["points"] == 13  # inline overrides still work


def test_the_csv_export_defuses_formulas(tmp_path):
    with client(tmp_path) as c:
        for name in ("=cmd|' /C calc'!A0", "@SUM(A1)", "+1+1", "-2"):
            assert c.post("/api/ledger/deals", json={"players": [name, "Bo"], "winner": name, "points": 3}).status_code == 200
        csv = c.get("/api/ledger/export.csv").text
        assert "'=cmd" in csv and "'@SUM" in csv and "'+1+1" in csv and "'-2" in csv
        assert "\n=cmd" not in csv and ",=cmd" not in csv


def test_cross_site_writes_and_foreign_hosts_are_refused(tmp_path):
    with client(tmp_path) as c:
        c.post("/api/ledger/deals", json={"players": ["Ann", "Bo"], "winner": "Ann", "points": 3})
        evil = c.post("/api/ledger/undo", headers={"Origin": "https://evil.example"})
        assert evil.status_code == 403 and len(c.get("/api/ledger").json()["deals"]) == 1
        assert c.post("/api/ledger/undo", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        assert c.post("/api/ledger/undo", headers={"Origin": "http://testserver"}).status_code == 200  # the page itself
        assert c.get("/api/health", headers={"Host": "rebind.evil.example"}).status_code == 400
        assert c.get("/api/health", headers={"Host": "192.168.1.20:8000"}).status_code == 200
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/api/live", headers={"Origin": "https://evil.example"}) as ws:
                ws.receive_json()


def test_every_answer_carries_a_content_security_policy(tmp_path):
    with client(tmp_path) as c:
        for path in ("/", "/api/health", "/docs"):
            headers = c.get(path).headers
            assert "script-src 'self'" in headers["content-security-policy"]
            assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"


def test_serve_refuses_a_short_token_and_can_make_one(tmp_path):
    import os
    import subprocess
    import sys

    from tests.service_process import free_port

    serve = [sys.executable, "-m", "sisepai.engine.cli", "serve", "--no-model", "--host", "0.0.0.0",
             "--db", str(tmp_path / "l.sqlite")]
    env = {**os.environ, "SISEPAI_TOKEN": "secret"}
    r = subprocess.run(serve, capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2 and "6 characters: use at least 16" in r.stderr and "Traceback" not in r.stderr
    for weak, said in ((" " * 16, "blank"), ("a" * 16, "1 different characters"), ("Xq7-vB2_pL9sK4wZ ", "blank"),
                       ("\tXq7-vB2_pL9sK4wZ", "blank"), ("abababababababab", "2 different"),
                       ("abcdefghijklmnop", "a run"), ("ñandú-Zorro-4817-xy", "not ASCII"),
                       ("qwertyuiopasdfgh", "easy to guess"), ("Password12345678", "easy to guess")):
        r = subprocess.run(serve, capture_output=True, text=True, timeout=60, env={**env, "SISEPAI_TOKEN": weak})
        assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr, (weak, r.stderr)
    r = subprocess.run(serve + ["--new-token"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2 and "not both" in r.stderr
    env.pop("SISEPAI_TOKEN")
    proc = subprocess.Popen(serve + ["--new-token", "--port", str(free_port())], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(10)
    token = line.rsplit(": ", 1)[-1].strip()
    assert line.startswith("sisepai: the token for this run: ") and len(token) == 32
    made = subprocess.run([sys.executable, "-m", "sisepai.engine.cli", "token"], capture_output=True, text=True,
                          timeout=60)
    from sisepai.service.cli import weak_token

    assert made.returncode == 0 and len(made.stdout.strip()) == 32 and weak_token(made.stdout.strip()) is None


def test_guessed_tokens_are_slowed_down_per_address(tmp_path):
    """Five wrong tokens are answered 401; then the address waits 1 s, 2 s, 4 s ... and every write it
    sends meanwhile, the right token included, is answered 429 with Retry-After. Once the wait is
    over the right token is let in and the count starts afresh."""
    right = "club-token-7Rk2pQ9vXw"
    now = [100.0]
    c = client(tmp_path, host="0.0.0.0", token=right)
    c.app.state.clock = lambda: now[0]
    with c:
        def write(token):
            return c.post("/api/ledger/players", json={"name": "Ann"}, headers={"X-Sisepai-Token": token})

        answers = [write(f"guess-{k}") for k in range(8)]
        assert [a.status_code for a in answers] == [401] * 5 + [429] * 3
        assert answers[-1].headers["retry-after"] == "1" and answers[-1].json()["code"] == "token_wait"
        assert write(right).status_code == 429  # guessing through the wait gains nothing
        now[0] += 1.0
        assert write("guess-8").status_code == 429 and write("guess-8").headers["retry-after"] == "2"
        now[0] += 2.0
        assert write(right).status_code == 200
        assert write("guess-9").status_code == 401  # the right token cleared the count
        assert c.post("/api/ledger/players", json={"name": "Ann"}).status_code == 401  # no token: not a guess


@pytest.mark.parametrize("rules, said", [
    ('{"preset": "seesek", "points": {"joker": NaN}}', "Joker: a whole number."),
    ('{"points": {"joker": Infinity}}', "Joker: a whole number."),
    ('{"four_card_points": NaN}', "Four card points: a whole number."),
    ('{"points": {"joker": true}}', "Joker: a whole number."),  # not read as 1
    ('{"points": {"joker": "5"}}', "Joker: a whole number."),  # not read as 5
    ('{"points": {"joker": 1e308}}', "Joker: a whole number."),
    ('{"jokers": true}', "Jokers: a whole number."),
    ('{"joker": 5}', "Joker: not a field this accepts."),  # an unknown key is refused, not ignored
    ('{"points": {"joker": 500}}', "rules.points.joker must be 0 to 100, got 500"),
    ("NaN", 'Rules: a preset name (seesek, tusac) or {"preset": "seesek", "points": {"joker": 5}}.'),
])
def test_a_bad_number_in_rules_overrides_is_named(tmp_path, rules, said):
    with client(tmp_path) as c:
        r = c.post("/api/score", content='{"cards": "GK GK GK", "rules": %s}' % rules,
                   headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == said


def test_wrong_tokens_are_counted_per_network_not_per_address(tmp_path):
    """A guesser with many addresses in one /24 (or on loopback) shares one count of wrong tokens."""
    from sisepai.service.deps import client_key
    from sisepai.service.token_tries import FREE_TRIES, TokenTries

    tries = TokenTries(clock=lambda: 0.0)
    waits = [tries.failed(client_key(f"127.0.0.{k + 1}")) for k in range(FREE_TRIES + 3)]
    assert waits[-1] > 0 and tries.wait_left(client_key("127.0.0.200")) > 0
    for k in range(FREE_TRIES + 3):
        tries.failed(client_key(f"10.1.2.{k + 1}"))
    assert tries.wait_left(client_key("10.1.2.250")) > 0 and tries.wait_left(client_key("10.1.3.1")) == 0


def test_small_failures(tmp_path):
    with client(tmp_path, host="0.0.0.0", token="s3cret") as c:
        r = c.post("/api/ledger/undo", headers={"X-Sisepai-Token": "sécret".encode()})
        assert r.status_code == 401  # a non-ASCII token is a wrong token, not a crash
    with client(tmp_path) as c:
        r = c.post("/api/score", json={"cards": "X" * 150})
        assert r.status_code == 422 and len(r.text) < 400  # an unknown card is not echoed whole
        r = c.post("/api/advise", json={"cards": READY, "shown": "WC WC"})
        assert r.status_code == 422 and "one card" in r.json()["detail"]
        assert c.post("/api/gof/score", json={"left": [0] + [3] * 100_000}).status_code in (413, 422)
        assert c.post("/api/gof/score", json={"left": [1, 2, 3, 4]}).status_code == 422
        assert c.post("/api/gof/score", json={"left": [0, 0, 3, 4]}).status_code == 422
        assert c.post("/api/gof/beats", json={"play": "g1 " * 60, "previous": "r5"}).status_code == 422
        with c.websocket_connect("/api/live") as ws:
            ws.send_text("{not json")
            assert ws.receive_json()["type"] == "error"
            ws.send_text('{"hand": 5}')
            assert ws.receive_json()["type"] == "error"
            ws.send_bytes(jpeg())
            assert ws.receive_json()["type"] == "state"  # still connected


def scan_bomb(repeats: int = 20000) -> bytes:
    """A 4000x4000 progressive JPEG whose last scan repeats ``repeats`` times: about 700 KB, and
    tens of seconds of decoding for a decoder that follows it."""
    import cv2
    import numpy as np

    data = cv2.imencode(".jpg", np.zeros((4000, 4000, 3), np.uint8),
                        [cv2.IMWRITE_JPEG_PROGRESSIVE, 1, cv2.IMWRITE_JPEG_QUALITY, 30])[1].tobytes()
    scan = data[data.rfind(b"\xff\xda"):-2]
    return data[:-2] + scan * repeats + b"\xff\xd9"


def test_a_progressive_jpeg_scan_bomb_is_refused_before_decoding(tmp_path):
    import cv2
    import numpy as np

    from sisepai.vision.recognition.images import ImageError, decode_image, jpeg_scans

    bomb = scan_bomb()
    assert len(bomb) < 1_000_000 and jpeg_scans(bomb) > 20000
    with pytest.MonkeyPatch.context() as patch:  # refused from its markers, before any decoding
        patch.setattr(cv2, "imdecode", lambda *a: pytest.fail("the bomb was decoded"))
        with pytest.raises(ImageError, match="scans, which no camera makes"):
            decode_image(bomb, "bomb.jpg")
    camera = cv2.imencode(".jpg", np.full((3000, 4000, 3), 120, np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1]
    assert decode_image(camera.tobytes()).shape == (3000, 4000, 3)  # a phone's progressive JPEG still reads
    with client(tmp_path) as c, pytest.MonkeyPatch.context() as patch:
        patch.setattr(cv2, "imdecode", lambda *a: pytest.fail("the bomb was decoded"))
        r = c.post("/api/recognize", files={"file": ("bomb.jpg", bomb, "image/jpeg")})
        assert r.status_code in (400, 422) and "scans" in r.text


def test_a_live_frame_while_every_worker_is_busy_gets_a_busy_answer(tmp_path):
    """The page waits for an answer to each frame: a frame skipped for a busy server says so,
    and frames are answered again once the load ends."""
    rec = BlockingRecognizer()
    with client(tmp_path, rec, workers=1, queue=0) as c:
        upload = threading.Thread(target=lambda: c.post("/api/recognize", files={"file": ("a.jpg", jpeg(), "image/jpeg")}))
        upload.start()
        assert rec.started.wait(5)
        with c.websocket_connect("/api/live") as ws:
            ws.send_bytes(jpeg(320, 240))
            answer = ws.receive_json()
            assert answer["type"] == "busy" and answer["dropped"] == 1
            rec.release.set()
            upload.join(10)
            ws.send_bytes(jpeg(320, 240))
            assert ws.receive_json()["type"] == "state"


def test_behind_a_reverse_proxy_writes_need_the_token(tmp_path):
    """With --allow-host every request reaches the service from the proxy, on loopback: loopback
    is no longer proof of a local user."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "sisepai.engine.cli", "serve", "--no-model", "--allow-host",
                        "cards.example.org", "--db", str(tmp_path / "l.sqlite")], capture_output=True, text=True,
                       timeout=60, env={k: v for k, v in __import__("os").environ.items() if k != "SISEPAI_TOKEN"})
    assert r.returncode == 2 and "set a token first" in r.stderr and "Traceback" not in r.stderr
    with client(tmp_path, allowed_hosts=("cards.example.org",)) as c:  # a proxy with no token: no writes
        assert c.post("/api/ledger/players", json={"name": "Ann"}).status_code == 403
    with client(tmp_path, allowed_hosts=("cards.example.org",), token="s3cret") as c:
        assert c.post("/api/ledger/players", json={"name": "Ann"}).status_code == 401
        assert c.post("/api/ledger/players", json={"name": "Ann"}, headers={"X-Sisepai-Token": "s3cret"}).status_code == 200
        photo = {"files": ("grid.jpg", jpeg(), "image/jpeg")}
        assert c.post("/api/decks/cut", files=photo).status_code == 401  # cutting costs a worker: a write too
        assert c.post("/api/decks/cut", files=photo, headers={"X-Sisepai-Token": "s3cret"}).status_code == 422


@pytest.mark.parametrize("fmt,label", [(".tiff", "TIFF"), (".ppm", "PNM"), (".jp2", "JPEG 2000")])
def test_formats_nobody_promised_are_refused_from_their_bytes_whatever_the_label(tmp_path, fmt, label, monkeypatch):
    ok, buf = cv2.imencode(fmt, cv2.imdecode(__import__("numpy").frombuffer(jpeg(), "uint8"), cv2.IMREAD_COLOR))
    assert ok
    rec = CountingRecognizer()
    with client(tmp_path, rec) as c:
        with monkeypatch.context() as patch:
            patch.setattr(cv2, "imdecode", lambda *a: pytest.fail("decoded a format nobody promised"))
            r = c.post("/api/recognize", files={"file": ("photo.jpg", buf.tobytes(), "image/jpeg")})
        assert r.status_code == 415 and label in r.json()["detail"] and "JPEG, PNG, WebP or BMP" in r.json()["detail"]
        gif = c.post("/api/score-image", files={"file": ("g.png", b"GIF89a" + b"\0" * 40, "image/png")})
        assert gif.status_code == 415 and "GIF" in gif.json()["detail"]
        webp = cv2.imencode(".webp", cv2.imdecode(__import__("numpy").frombuffer(jpeg(), "uint8"), cv2.IMREAD_COLOR))[1]
        assert c.post("/api/recognize", files={"file": ("w", webp.tobytes(), "application/octet-stream")}).status_code == 200
    assert rec.calls == 1


def test_a_picture_of_an_aspect_no_camera_makes_is_refused_not_a_server_error(tmp_path):
    strip = jpeg(w=30, h=30000)
    with client(tmp_path) as c:
        for route in ("/api/recognize", "/api/score-image"):
            r = c.post(route, files={"file": ("strip.jpg", strip, "image/jpeg")})
            assert r.status_code == 422 and "30x30000" in r.json()["detail"], (route, r.text)


def test_a_live_frame_is_held_to_a_webcams_size(tmp_path):
    from sisepai.service.live_stream import LIVE_MAX_PIXELS

    with client(tmp_path) as c, c.websocket_connect("/api/live") as ws:
        ws.send_bytes(png_bomb(3000, 2000))  # 6 MP: a fine photo, too large for a stream's frame
        answer = ws.receive_json()
        assert 3000 * 2000 > LIVE_MAX_PIXELS and answer["type"] == "error" and "3000x2000" in answer["detail"]
        ws.send_bytes(jpeg(1280, 720))
        assert ws.receive_json()["type"] == "state"


def test_head_wherever_get_works_and_options_names_the_routes_methods(tmp_path):
    with client(tmp_path) as c:
        for path in ("/docs", "/", "/openapi.json", "/api/ledger"):
            r = c.head(path)
            assert r.status_code == 200 and r.content == b"", path
        r = c.options("/api/ledger/deals")
        assert r.status_code == 204 and r.headers["allow"] == "OPTIONS, POST"
        assert c.options("/api/ledger").headers["allow"] == "GET, HEAD, OPTIONS"
        for page in ("/", "/docs", "/app.js"):  # the page's paths answer OPTIONS as the API's do
            r = c.options(page)
            assert r.status_code == 204 and r.headers["allow"] == "GET, HEAD, OPTIONS", page
        assert c.get("/api/ledger/deals").status_code == 405
