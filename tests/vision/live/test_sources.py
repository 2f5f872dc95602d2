"""Frame sources and the failure paths of ``sisepai watch``."""

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sisepai.vision.live.camera import FolderSource, LiveSource, SourceError, VideoSource, open_source

SISEPAI = Path(sys.executable).with_name("sisepai")


class FlakyCamera:
    """A camera that gives a few frames, then vanishes for good."""

    def __init__(self, frames=3):
        self.frames = frames

    def isOpened(self):
        return self.frames > 0

    def read(self):
        if self.frames <= 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((8, 8, 3), np.uint8)

    def release(self):
        pass


def test_a_vanishing_camera_is_retried_then_reported(capsys):
    cams = iter([FlakyCamera(3)] + [FlakyCamera(0)] * 10)
    src = LiveSource(0, retries=3, backoff=0.01, opener=lambda spec, timeout_s: next(cams))
    got = 0
    with pytest.raises(SourceError, match="could not be opened after 3 attempts"):
        for _ in src:
            got += 1
    assert got >= 1
    assert "lost camera 0" in capsys.readouterr().err


def test_folder_and_video_sources(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((20, 30, 3), i * 50, np.uint8))
    frames = list(FolderSource(tmp_path))
    assert len(frames) == 3 and frames[1][0] == 0.5
    video = tmp_path / "v.avi"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    for i in range(5):
        w.write(np.full((24, 32, 3), i * 40, np.uint8))
    w.release()
    ts = [t for t, _ in VideoSource(str(video), pace="every")]
    assert len(ts) == 5 and ts[1] == pytest.approx(0.1)


def _video(path, frames=20, fps=10):
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (32, 24))
    for i in range(frames):
        w.write(np.full((24, 32, 3), i * 10, np.uint8))
    w.release()
    return path


def _read_slowly(src, seconds_a_frame):
    """Read ``src`` with a driven clock, as a reader that takes ``seconds_a_frame`` per frame."""
    now = [0.0]
    src.clock = lambda: now[0]
    given = []
    for t, _ in src:
        given.append((t, now[0], src.behind))
        now[0] += seconds_a_frame
    return given


def test_a_video_keeps_its_own_clock_by_skipping_what_it_has_no_time_for(tmp_path):
    src = VideoSource(str(_video(tmp_path / "v.avi")))  # 20 frames at 10 fps: 2 s of video
    given = _read_slowly(src, 0.35)  # a reader 3.5 times slower than the video
    assert len(given) + src.skipped == 20 and src.skipped >= 12
    assert all(now - t < 0.1 + 1e-9 for t, now, _ in given)  # never a frame behind the clock
    assert [t for t, _, _ in given] == sorted({t for t, _, _ in given})  # in order, none twice


def test_every_frame_reads_them_all_however_late(tmp_path):
    src = VideoSource(str(_video(tmp_path / "v.avi")), pace="every")
    given = _read_slowly(src, 0.35)
    assert len(given) == 20 and src.skipped == 0
    assert given[-1][2] == pytest.approx(19 * 0.35 - 1.9)  # the last frame 4.75 s behind the video


def test_a_fast_reader_skips_nothing(tmp_path):
    src = VideoSource(str(_video(tmp_path / "v.avi")))
    assert len(_read_slowly(src, 0.02)) == 20 and src.skipped == 0


def test_a_camera_says_how_many_frames_it_skipped():
    class Steady:  # a camera giving frames as fast as it is read
        def isOpened(self):
            return True

        def read(self):
            import time

            time.sleep(0.005)
            return True, np.zeros((8, 8, 3), np.uint8)

        def release(self):
            pass

    src = LiveSource(0, opener=lambda spec, timeout_s: Steady())
    import time

    for k, _ in zip(range(3), src):
        time.sleep(0.1)  # a slow reader: the camera's frames meanwhile are skipped
    assert src.given == 3 and src.skipped >= 10 and src.behind < 0.1


@pytest.mark.parametrize("make,needle", [
    (lambda d: d / "empty", "holds no images"),
    (lambda d: d / "corrupt.mp4", "cannot open video"),
    (lambda d: d / "truncated.mp4", "cannot open video"),
    (lambda d: d / "nothing-here.mp4", "no such file"),
])
def test_watch_failure_paths_are_clear(tmp_path, make, needle):
    target = make(tmp_path)
    if target.name == "empty":
        target.mkdir()
    elif target.name == "corrupt.mp4":
        target.write_bytes(b"\x00\x01 this is not a video" * 100)
    elif target.name == "truncated.mp4":  # a real video cut short: FFmpeg finds no index ("moov atom")
        whole = tmp_path / "whole.mp4"
        w = cv2.VideoWriter(str(whole), cv2.VideoWriter_fourcc(*"mp4v"), 10, (64, 48))
        for i in range(20):
            w.write(np.full((48, 64, 3), i * 10, np.uint8))
        w.release()
        target.write_bytes(whole.read_bytes()[:1500])
    proc = subprocess.run([str(SISEPAI), "watch", str(target)], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert needle in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr  # the one line, no library noise


def test_open_source_kinds(tmp_path):
    with pytest.raises(SourceError):
        open_source(str(tmp_path / "missing"))


def test_a_missing_camera_is_reported_without_opencv_noise():
    code = ("from sisepai.vision.live.camera import LiveSource, SourceError\n"
            "try:\n    next(iter(LiveSource(7, retries=1, backoff=0.01)))\nexcept SourceError as e:\n    print(e)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "could not be opened" in proc.stdout
    assert "WARN" not in proc.stderr and "OpenCV" not in proc.stderr and len(proc.stderr.splitlines()) <= 2


def test_a_stream_that_connects_and_sends_nothing_is_reported():
    """A network camera that accepts the connection and never answers: open_capture's bounded
    wait fails each attempt, and the first open gives up after first_open_s, with a reason."""
    import socket
    import threading

    from sisepai.vision.live.camera import open_capture

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []

    def accept():
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    url = f"http://127.0.0.1:{server.getsockname()[1]}/video"
    attempts = []

    def opener(spec, timeout_s):
        attempts.append(timeout_s)
        return open_capture(spec, timeout_s=timeout_s)

    try:
        with pytest.raises(SourceError, match="did not answer with video within 2 s"):
            LiveSource(url, retries=50, backoff=0.2, opener=opener, first_open_s=2.0)
        assert 1 <= len(attempts) < 50 and held  # it connected, and stopped retrying long before 50
        # each attempt waits only for the time left of the 2 s, so the report comes within them
        assert attempts[0] == pytest.approx(2.0, abs=0.1) and all(t <= 2.0 for t in attempts)
    finally:
        server.close()
        for c in held:
            c.close()
