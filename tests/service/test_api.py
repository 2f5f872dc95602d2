import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from sisepai.service.main import create_app
from sisepai.service.settings import Settings
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.recognize import Recognition
from tests.homes import own_home

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
READY = WIN.rsplit(" ", 1)[0]


class CountingRecognizer:
    """Stands in for the model where a test checks input handling, not recognition."""

    def __init__(self):
        self.calls = 0

    def for_video(self):  # a video session's recogniser: this one
        return self

    def with_changes(self, **changes):  # as Recognizer.with_changes: a copy with other parts
        import copy

        other = copy.copy(self)
        other.__dict__.update(changes)
        return other

    def recognize(self, image, zoom_out=True, memory=None):
        self.calls += 1
        h, w = image.shape[:2]
        return Recognition(Detections.empty(), np.zeros((0, 4, 2)), w, h, 1.0)


def client(tmp_path, **kw):
    """A client of the app with a stand-in recogniser, given as FastAPI's dependency override."""
    from sisepai.service.deps import get_model_error, get_recognizer

    app = create_app(Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False, **kw))
    fake = CountingRecognizer()
    app.dependency_overrides[get_recognizer] = lambda: fake
    app.dependency_overrides[get_model_error] = lambda: None
    return TestClient(app)


def jpeg(w=64, h=48, shade=128) -> bytes:
    ok, buf = cv2.imencode(".jpg", np.full((h, w, 3), shade, np.uint8))
    return buf.tobytes()


def test_health_and_page(tmp_path):
    with client(tmp_path) as c:
        assert c.get("/api/health").json()["status"] == "ok"
        page = c.get("/")
        assert page.status_code == 200 and "getUserMedia" in c.get("/app.js").text
        docs = c.get("/docs")
        assert docs.status_code == 200 and "/api.js" in docs.text
        for path in ("/", "/app.js", "/style.css", "/docs", "/api.js"):
            text = c.get(path).text
            assert "https://" not in text and "http://" not in text, path  # works offline: no CDN
        assert c.get("/favicon.svg").status_code == 200
        schema = c.get("/openapi.json").json()
        assert "/api/score" in schema["paths"] and "/api/gof/beats" in schema["paths"]


def test_score_and_bad_cards(tmp_path):
    with client(tmp_path) as c:
        r = c.post("/api/score", json={"cards": WIN})
        assert r.status_code == 200 and r.json()["points"] == 11 and r.json()["winning"]
        assert c.post("/api/score", json={"cards": WIN, "rules": "tusac"}).json()["points"] == 13
        r = c.post("/api/score", json={"cards": "GK QQ"})
        assert r.status_code == 422 and "'QQ'" in r.json()["detail"]
        r = c.post("/api/score", json={"cards": "GK GK GK GK GK"})
        assert r.status_code == 422 and "5 copies" in r.json()["detail"]
        assert c.post("/api/score", json={"cards": WIN, "rules": "nope"}).status_code == 422
        assert c.post("/api/score", json={}).status_code == 422


def test_advise(tmp_path):
    with client(tmp_path) as c:
        r = c.post("/api/advise", json={"cards": READY, "shown": "YK"})
        assert r.status_code == 200 and r.json()["claims"][0]["claim"] == "zhimo"
        assert c.post("/api/advise", json={"cards": READY, "shown": "YK", "relation": "mine"}).status_code == 422


def test_upload_checks(tmp_path):
    with client(tmp_path, max_upload_mb=0.01) as c:
        ok = c.post("/api/recognize", files={"file": ("a.jpg", jpeg(), "image/jpeg")})
        assert ok.status_code == 200 and set(ok.json()) >= {"cards", "width", "height", "ms"}
        big = c.post("/api/recognize", files={"file": ("b.jpg", b"\xff" * 20000, "image/jpeg")})
        assert big.status_code == 413
        typ = c.post("/api/recognize", files={"file": ("c.txt", b"hello", "text/plain")})
        assert typ.status_code == 415
        bad = c.post("/api/recognize", files={"file": ("d.jpg", b"not a jpeg", "image/jpeg")})
        assert bad.status_code == 415 and "Traceback" not in bad.text
        broken = c.post("/api/recognize", files={"file": ("d.jpg", jpeg()[:300], "image/jpeg")})
        assert broken.status_code == 422 and "Traceback" not in broken.text
        empty = c.post("/api/score-image", files={"file": ("e.png", b"", "image/png")})
        assert empty.status_code == 422


def test_no_model_gives_503(tmp_path):
    app = create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False))
    with TestClient(app) as c:
        r = c.post("/api/recognize", files={"file": ("a.jpg", jpeg(), "image/jpeg")})
        assert r.status_code == 503


def test_ledger_survives_restart_and_undo(tmp_path):
    with client(tmp_path) as c:
        r = c.post("/api/ledger/deals", json={"players": ["Ann", "Bo", "Cy", "Di"], "winner": "Ann", "points": 11,
                                               "discarder": "Bo"})
        assert r.status_code == 200
        c.post("/api/ledger/deals", json={"players": ["Ann", "Bo", "Cy", "Di"], "winner": "Cy", "points": 7})
        assert c.get("/api/ledger").json()["totals"] == {"Ann": 4, "Bo": -18, "Cy": 21, "Di": -7}
    with client(tmp_path) as c:  # a new app on the same file
        led = c.get("/api/ledger").json()
        assert len(led["deals"]) == 2 and led["totals"]["Cy"] == 21
        assert c.post("/api/ledger/undo").json()["removed"]["winner"] == "Cy"
        assert c.get("/api/ledger").json()["totals"]["Cy"] == 0
        csv = c.get("/api/ledger/export.csv")
        assert csv.status_code == 200 and csv.text.splitlines()[0].startswith("deal,time,table,winner")
        bad = c.post("/api/ledger/deals", json={"players": ["Ann", "Ann"], "winner": "Ann", "points": 3})
        assert bad.status_code == 422


def test_ledger_writes_need_a_token_beyond_localhost(tmp_path):
    with client(tmp_path, host="0.0.0.0") as c:
        assert c.post("/api/ledger/players", json={"name": "Ann"}).status_code == 403
    with client(tmp_path, host="0.0.0.0", token="s3cret") as c:
        assert c.post("/api/ledger/players", json={"name": "Ann"}).status_code == 401
        r = c.post("/api/ledger/players", json={"name": "Ann"}, headers={"X-Sisepai-Token": "s3cret"})
        assert r.status_code == 200
        assert c.get("/api/ledger").status_code == 200  # reads stay open


def test_cors_closed_by_default(tmp_path):
    with client(tmp_path) as c:
        r = c.options("/api/score", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
        assert "access-control-allow-origin" not in {k.lower() for k in r.headers}


def test_gang_of_four_routes(tmp_path):
    with client(tmp_path) as c:
        assert c.post("/api/gof/beats", json={"play": "r5 g5", "previous": "y5 y5"}).json() == \
            {"beats": True, "play": "pair", "previous": "pair"}
        assert c.post("/api/gof/score", json={"left": [0, 3, 8, 16]}).json() == {"scores": [0, 3, 16, 80]}
        legal = c.post("/api/gof/legal", json={"hand": "g2 y2 r7 vp", "on": "r5"}).json()
        assert [p["cards"] for p in legal["plays"]] == [["r7"], ["vp"]]
        adv = c.post("/api/gof/advise", json={"hand": "g2 y2 r7 vp", "on": "r5"}).json()
        assert adv["play"] == ["r7"]
        r = c.post("/api/gof/beats", json={"play": "x5", "previous": "r5"})
        assert r.status_code == 422 and "'x5'" in r.json()["detail"]
        assert c.post("/api/gof/score", json={"left": [17]}).status_code == 422


def test_live_websocket_drops_stale_frames_and_sessions_are_separate(tmp_path):
    import threading

    class Held(CountingRecognizer):
        """Holds the first recognition until released, so frames pile up behind it."""

        def __init__(self):
            super().__init__()
            self.started, self.release = threading.Event(), threading.Event()

        def recognize(self, image, zoom_out=True, memory=None):
            self.started.set()
            self.release.wait(10)
            return super().recognize(image, zoom_out, memory)

    rec = Held()
    app = create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False), recognizer=rec)
    with TestClient(app) as c:
        with c.websocket_connect("/api/live") as a:
            a.send_bytes(jpeg())
            assert rec.started.wait(5)
            for k in range(4):  # arrive while the first is being read: only the newest is kept
                a.send_bytes(jpeg(shade=20 + 40 * k))  # each unlike the last (a steady frame is not looked at again)
            import time

            # held past MOVING_LOOK_SECONDS: the newest frame, unlike the first, would otherwise be a
            # moving table looked at too soon after the last look
            time.sleep(0.6)
            rec.release.set()
            first, second = a.receive_json(), a.receive_json()
            assert first["type"] == second["type"] == "state" and "cards" in first and "events" in first
            assert rec.calls == 2 and second["dropped"] == 3  # the first frame and the newest; 3 dropped
        with c.websocket_connect("/api/live") as b, c.websocket_connect("/api/live?hand=GK%20GA") as d:
            b.send_bytes(jpeg())
            d.send_bytes(jpeg())
            assert b.receive_json()["dropped"] == 0 and d.receive_json()["dropped"] == 0  # sessions are separate
            b.send_bytes(b"garbage")
            assert b.receive_json()["type"] == "error"


def test_decks_are_listed_and_chosen_by_name_only(tmp_path, monkeypatch):
    import shutil

    from sisepai.vision.recognition.reader import DEFAULT_WEIGHTS

    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path / "home")))
    deck = tmp_path / "home" / "decks" / "family"
    deck.mkdir(parents=True)
    shutil.copyfile(DEFAULT_WEIGHTS, deck / "reader.pt")
    (deck / "deck.json").write_text(json.dumps({"name": "family", "aspect": 4.2, "has_joker": True,
                                                "created": "2026-11-30T12:00:00"}))
    with client(tmp_path) as c:
        listed = c.get("/api/decks").json()
        assert listed["decks"] == [{"name": "family", "aspect": 4.2, "has_joker": True, "created": "2026-11-30T12:00:00",
                                    "check": None}]  # enrolled before the whole-scene check: none to show
        ok = c.post("/api/recognize?deck=family", files={"file": ("a.jpg", jpeg(), "image/jpeg")})
        assert ok.status_code == 200
        rec = c.app.state.deck_recognizers["family"]
        assert rec.reader.classes[-1] == "none"  # the deck's reader, beside the shared recogniser
        for bad in ("nope", "../decks/family", "family/reader.pt"):
            r = c.post(f"/api/recognize?deck={bad}", files={"file": ("a.jpg", jpeg(), "image/jpeg")})
            assert r.status_code == 404 and "Traceback" not in r.text
        r = c.post("/api/score-image?deck=family&claimed=11", files={"file": ("a.jpg", jpeg(), "image/jpeg")})
        assert r.status_code == 200 and r.json()["claimed"]["claimed"] == 11


def test_my_deck_flow_cuts_the_grid_and_checks_its_input(tmp_path, monkeypatch):
    from sisepai.datasets.design.standin import standin_deck
    from tests.vision.decks.test_deck_grid import grid_photo

    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path / "home")))
    photo = grid_photo(standin_deck(0, "tune", width=70), joker=True)
    ok, png = cv2.imencode(".png", photo)
    with client(tmp_path) as c:
        r = c.post("/api/decks/cut", files=[("files", ("grid.png", png.tobytes(), "image/png"))])
        assert r.status_code == 200, r.text
        body = r.json()
        assert [f["code"] for f in body["faces"]][:3] == ["GK", "GA", "GE"] and len(body["faces"]) == 29
        assert all(f["image"].startswith("data:image/png;base64,") for f in body["faces"])
        blank = cv2.imencode(".png", np.full((300, 400, 3), 90, np.uint8))[1].tobytes()
        r = c.post("/api/decks/cut", files=[("files", ("b.png", blank, "image/png"))])
        assert r.status_code == 422 and "found 0 cards" in r.json()["detail"]
        assert c.post("/api/decks", json={"draft": "nope", "name": "fam"}).status_code == 404
        assert c.post("/api/decks", json={"draft": body["draft"], "name": "../x"}).status_code == 422
        assert c.get("/api/decks/jobs/nope").status_code == 404
    with client(tmp_path, host="0.0.0.0") as c:  # beyond localhost with no token: writes closed
        assert c.post("/api/decks", json={"draft": body["draft"], "name": "fam"}).status_code == 403


@pytest.mark.slow  # a whole enrolment through the service (half a minute); deck add's own runs by default
def test_my_deck_enrols_through_the_deck_command_and_reports_its_progress(tmp_path, monkeypatch):
    # the service runs `sisepai deck add --progress lines` in a process of its own (a short
    # adaptation here); the job reports that command's progress, then the deck is listed
    import time

    from sisepai.datasets.design.standin import standin_deck
    from sisepai.service.routes import decks
    from tests.vision.decks.test_deck_grid import grid_photo

    monkeypatch.setenv("SISEPAI_HOME", str(own_home(tmp_path / "home")))
    full = decks.enrol_command
    monkeypatch.setattr(decks, "enrol_command", lambda *a: full(*a) + ["--quick", "--scenes", "10", "--workers", "1",
                                                                          "--check-scenes", "1"])
    png = cv2.imencode(".png", grid_photo(standin_deck(0, "tune", width=70), joker=True))[1].tobytes()
    with client(tmp_path) as c:
        draft = c.post("/api/decks/cut", files=[("files", ("grid.png", png, "image/png"))]).json()["draft"]
        r = c.post("/api/decks", json={"draft": draft, "name": "fam", "minutes": 0.05})
        assert r.status_code == 200, r.text
        job = r.json()["job"]
        assert c.post("/api/decks", json={"draft": draft, "name": "other"}).status_code == 409
        seen, left, deadline = [], [], time.monotonic() + 180
        while time.monotonic() < deadline:
            state = c.get(f"/api/decks/jobs/{job}").json()
            seen.append(state["fraction"])
            left.append(state["seconds_left"])
            if state["done"] or state["error"]:
                break
            time.sleep(0.5)
        assert state["done"] and state["error"] is None, state
        assert seen == sorted(seen) and any(0 < f < 1 for f in seen)  # the bar moved, forwards only
        assert any(s is not None and s >= 0 for s in left) and state["seconds_left"] is None  # time left, then none
        [deck] = c.get("/api/decks").json()["decks"]
        assert deck["name"] == "fam" and deck["check"]["scenes_per_layout"] == 1  # the page's figures
        assert set(deck["check"]["layouts"]) == {"table", "hand", "fan", "held"}
        assert deck["check"]["weakest"] in deck["check"]["layouts"] and 0 <= deck["check"]["f1"] <= 1
        # the same name again: asked before replacing; replacing, then cancelled: the old deck stays
        again = c.post("/api/decks", json={"draft": draft, "name": "fam", "minutes": 0.05})
        assert again.status_code == 409 and "enrolled already" in again.json()["detail"]
        job = c.post("/api/decks", json={"draft": draft, "name": "fam", "replace": True, "steps": 3000}).json()["job"]
        while c.get(f"/api/decks/jobs/{job}").json()["fraction"] == 0 and time.monotonic() < deadline:
            time.sleep(0.2)  # the command has started its work
        cancelled = c.delete(f"/api/decks/jobs/{job}")
        assert cancelled.status_code == 200 and cancelled.json()["cancelled"], cancelled.text
        assert "cancelled" in cancelled.json()["error"] and not cancelled.json()["done"]
        assert c.delete(f"/api/decks/jobs/{job}").status_code == 409
        assert [d["name"] for d in c.get("/api/decks").json()["decks"]] == ["fam"]
        # a failing command is reported as its own last line, and the next enrolment may start
        monkeypatch.setattr(decks, "enrol_command", lambda *a: full(*a) + ["--quick", "--scenes", "1"])
        job = c.post("/api/decks", json={"draft": draft, "name": "fam2", "minutes": 0.05}).json()["job"]
        deadline = time.monotonic() + 60
        while not (state := c.get(f"/api/decks/jobs/{job}").json())["error"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "--scenes must be between" in state["error"] and not state["done"]


def test_the_service_loads_no_training_code():
    import subprocess
    import sys

    code = ("import sys; from sisepai.service.main import create_app; from sisepai.service.settings import Settings; "
            "create_app(Settings(db=':memory:', load_model=False)); "
            "print([m for m in sys.modules if m.startswith('sisepai.models')])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_one_enrolment_at_a_time_listed_and_ended_with_the_server(tmp_path, monkeypatch):
    """Four enrolments asked at once: one starts, three get 409. The job is listed (a reloaded
    page finds it), and stopping the server ends its process and leaves no faces folder."""
    import sys
    import threading

    import psutil

    from sisepai.datasets.design.standin import standin_deck
    from sisepai.service.routes import decks
    from tests.vision.decks.test_deck_grid import grid_photo

    home = tmp_path / "home"
    monkeypatch.setenv("SISEPAI_HOME", str(own_home(home)))
    monkeypatch.setattr(decks, "enrol_command", lambda *a: [sys.executable, "-c", "import time; time.sleep(60)"])
    (home / "decks").mkdir(parents=True)
    (home / "decks" / ".faces-999999999-left").mkdir()  # from a server that died
    png = cv2.imencode(".png", grid_photo(standin_deck(0, "tune", width=70), joker=True))[1].tobytes()
    with client(tmp_path) as c:
        assert not (home / "decks" / ".faces-999999999-left").exists()
        draft = c.post("/api/decks/cut", files=[("files", ("grid.png", png, "image/png"))]).json()["draft"]
        codes = []
        threads = [threading.Thread(target=lambda n=n: codes.append(
            c.post("/api/decks", json={"draft": draft, "name": f"d{n}"}).status_code)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(codes) == [200, 409, 409, 409]
        jobs = c.get("/api/decks/jobs").json()["jobs"]
        assert len([j for j in jobs if not j["done"] and not j["error"]]) == 1
        def sleeper(p) -> bool:
            try:
                return "time.sleep(60)" in " ".join(p.cmdline())
            except psutil.Error:
                return False

        children = [p for p in psutil.Process().children(recursive=True) if sleeper(p)]
        assert len(children) == 1
    gone, alive = psutil.wait_procs(children, timeout=15)
    assert not alive  # the enrolment ended with the server
    assert not [p.name for p in (home / "decks").iterdir() if p.name.startswith(".faces-")]


def test_the_page_takes_cards_and_seats_from_the_engine(tmp_path):
    import re

    from sisepai.engine.cards import CARD_CODES, COPIES_PER_PACK, SEATS

    with client(tmp_path) as c:
        names = c.get("/api/names").json()
    assert names["kinds"] == list(CARD_CODES) and names["copies"] == COPIES_PER_PACK
    assert names["zones"] == [*SEATS, "center"] and names["seats"]["zh"]["S"] == "南家"
    assert names["cards"]["GK"]["glyph"] == "將" and names["cards"]["YK"]["glyph_zh"] == "帅"
    assert names["cards"]["J"]["en"] == "Joker"
    script = (Path(__file__).resolve().parents[2] / "service" / "static" / "app.js").read_text()
    # no table of cards, characters or seats of the page's own
    assert not re.search(r"[將帥仕俥傌砲卒兵]", script)
    assert "South" not in script and '"GWYR"' not in script and '["K", "A"' not in script


def test_head_and_wrong_methods_answer_as_http_says(tmp_path):
    from fastapi.testclient import TestClient

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    with TestClient(create_app(Settings(db=str(tmp_path / "l.db"), load_model=False))) as c:
        get, head = c.get("/api/ledger"), c.head("/api/ledger")
        assert get.status_code == head.status_code == 200 and head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]
        r = c.get("/api/score")  # a POST route asked with GET: 405, saying what it takes
        assert r.status_code == 405 and "POST" in r.headers["allow"] and r.json()["code"] == "method_not_allowed"
        assert c.get("/api/no-such-thing").status_code == 404
        assert c.get("/").status_code == 200 and c.head("/").status_code == 200  # the page is still served


def test_an_enrolment_request_gets_deck_adds_default_steps():
    from sisepai.models.enrolment.enrol import DEFAULT_STEPS
    from sisepai.service.routes import decks

    assert decks.ENROL_STEPS == DEFAULT_STEPS
    assert decks.EnrolRequest(draft="d", name="n").steps == DEFAULT_STEPS
