"""``sisepai watch`` and the page's ``/api/live`` run one pipeline: the same frames through both
give the same events, the table there at the start included."""

import io
import itertools
import json
import time

import cv2
import pytest
from fastapi.testclient import TestClient

from sisepai.datasets.video.game import TurnVideo

FPS = 5


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    """Ten seconds of a game under way (JPEG files): meld rows from the start, a card shown
    every 3 to 5 s."""
    folder = tmp_path_factory.mktemp("frames")
    video = TurnVideo(seed=4, cards=12, seconds=10, fps=FPS, hands_over=False)
    for i, frame in enumerate(video.frames()):
        cv2.imwrite(str(folder / f"{i:04d}.jpg"), frame[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folder, video


@pytest.mark.model
def test_watch_and_the_live_socket_give_the_same_events(recognizer, frames, tmp_path):
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from sisepai.vision.live.camera import FolderSource
    from sisepai.vision.live.session import VideoSession
    from sisepai.vision.live.watch import watch

    folder, video = frames
    out = io.StringIO()
    watch(FolderSource(folder, fps=FPS), VideoSession(recognizer), out=out, as_json=True)
    by_cli = [json.loads(line) for line in out.getvalue().splitlines()]

    app = create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False), recognizer=recognizer)
    ticks = itertools.count()
    app.state.clock = lambda: max(next(ticks) - 1, 0) / FPS  # the connection's start, then one frame each
    by_socket = []
    with TestClient(app) as client, client.websocket_connect("/api/live") as ws:
        for path in sorted(folder.iterdir()):
            ws.send_bytes(path.read_bytes())
            msg = ws.receive_json()  # one frame at a time: none dropped
            assert msg["type"] == "state" and msg["dropped"] == 0
            by_socket += msg["events"]

    assert by_cli == by_socket
    kinds = [e["type"] for e in by_cli]
    assert kinds[0] == "table" and kinds.count("table") == 1
    assert len(by_cli[0]["cards"]) >= 10  # the twelve cards there from the start, as the table...
    shown = [(e["card"], e["seat"]) for e in by_cli if e["type"] == "card_shown"]
    assert shown == [(e["card"], e["seat"]) for e in video.events]  # ...and the cards shown later, announced


def test_a_hand_too_large_is_an_error_message_and_no_traceback(tmp_path, caplog):
    import logging

    from fastapi.testclient import TestClient

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from tests.service.test_api import CountingRecognizer

    hand = " ".join(["GK", "GA", "GE", "GR", "GH", "GC", "GP"] * 3 + ["WK", "WA", "WE", "WR"])  # 25 cards
    settings = Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False)
    with caplog.at_level(logging.WARNING), TestClient(create_app(settings, recognizer=CountingRecognizer())) as c:
        with c.websocket_connect("/api/live?hand=" + hand.replace(" ", "%20")) as ws:
            message = ws.receive_json()
        assert message["type"] == "error" and message["detail"] == "hand: 25 cards, but a hand holds at most 21"
        assert message["code"] == "hand_size" and message["params"] == {"n": 25, "max": 21}
        with c.websocket_connect("/api/live?hand=GK%20XX") as ws:
            assert ws.receive_json()["type"] == "error"
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.exc_info]


def test_bad_live_options_are_answered_and_the_connection_stays(tmp_path):
    from fastapi.testclient import TestClient

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from tests.service.test_api import CountingRecognizer, jpeg

    app = create_app(Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False), recognizer=CountingRecognizer())
    with TestClient(app) as c, c.websocket_connect("/api/live?rules=poker&hand=GK") as ws:
        assert "rules: unknown rules 'poker'" in ws.receive_json()["detail"]
        ws.send_bytes(jpeg())  # no session yet: the frame is still answered
        assert "send valid options first" in ws.receive_json()["detail"]
        ws.send_text('{"deck": "nobody"}')
        assert ws.receive_json()["detail"].startswith("deck: ")
        ws.send_text('{"rules": "tusac", "seat": "E"}')  # a valid first message opens the session
        ws.send_bytes(jpeg())
        state = ws.receive_json()
        assert state["type"] == "state" and state["skipped"] == 0 and state["behind"] >= 0
        ws.send_text('{"rules": "seesek"}')
        assert "chosen when the stream opens" in ws.receive_json()["detail"]
        ws.send_text('{"hand": "GK GA GE", "claimed": 7}')  # changes that a running session takes
        ws.send_bytes(jpeg(shade=30))
        assert ws.receive_json()["type"] == "state"


def test_streams_are_limited_per_client_with_a_clear_close(tmp_path):
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from sisepai.service.deps import MAX_STREAMS_PER_CLIENT
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from tests.service.test_api import CountingRecognizer, jpeg

    app = create_app(Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False), recognizer=CountingRecognizer())
    with TestClient(app) as c:
        import contextlib

        with contextlib.ExitStack() as held:
            streams = [held.enter_context(c.websocket_connect("/api/live")) for _ in range(MAX_STREAMS_PER_CLIENT)]
            with c.websocket_connect("/api/live") as extra:
                assert "too many live streams" in extra.receive_json()["detail"]
                try:
                    extra.receive_json()
                    raise AssertionError("the extra stream stayed open")
                except WebSocketDisconnect as closed:
                    assert closed.code == 1013
            streams[0].send_bytes(jpeg())
            assert streams[0].receive_json()["type"] == "state"  # the others carry on
        with c.websocket_connect("/api/live") as again:  # given back when they close
            again.send_bytes(jpeg())
            assert again.receive_json()["type"] == "state"


def test_zones_are_set_by_a_message_before_the_first_frame_and_fixed_after(tmp_path):
    from fastapi.testclient import TestClient

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from tests.service.test_api import CountingRecognizer, jpeg

    zones = '{"zones": {"S": [[0, 0.6], [1, 0.6], [1, 1], [0, 1]]}, "hand": "GK GA"}'
    app = create_app(Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False), recognizer=CountingRecognizer())
    with TestClient(app) as c, c.websocket_connect("/api/live?seat=E") as ws:
        ws.send_text(zones)  # the session opened on connect; no frame yet, so every option may still change
        ws.send_bytes(jpeg())
        first = ws.receive_json()
        assert first["type"] == "state", first
        ws.send_text(zones)
        late = ws.receive_json()
        assert late["type"] == "error" and "zones" in late["detail"]


def test_an_idle_stream_is_closed_and_gives_its_slot_back(tmp_path):
    import contextlib

    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from sisepai.service.deps import MAX_STREAMS_PER_CLIENT
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from tests.service.test_api import CountingRecognizer, jpeg

    app = create_app(Settings(db=str(tmp_path / "ledger.sqlite"), load_model=False, live_idle_s=0.2),
                     recognizer=CountingRecognizer())
    with TestClient(app) as c, contextlib.ExitStack() as held:
        idle = [held.enter_context(c.websocket_connect("/api/live")) for _ in range(MAX_STREAMS_PER_CLIENT)]
        for ws in idle:  # the client keeps every one of them; the server closes each
            told = ws.receive_json()
            assert told["type"] == "error" and "no frame" in told["detail"]
            try:
                ws.receive_json()
                raise AssertionError("the idle stream stayed open")
            except WebSocketDisconnect as closed:
                assert closed.code == 1001
        with c.websocket_connect("/api/live") as chatty:  # messages without frames do not hold the slot
            for _ in range(6):
                chatty.send_text('{"lang": "en"}')
                time.sleep(0.05)
            while (told := chatty.receive_json())["type"] != "error" or told.get("code") != "live_idle":
                pass
        with c.websocket_connect("/api/live") as busy:  # the slots they held are free again
            busy.send_bytes(jpeg())
            assert busy.receive_json()["type"] == "state"
