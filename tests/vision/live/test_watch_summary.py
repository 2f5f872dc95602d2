"""watch's summary: the frame counts add up, and a machine that cannot keep up is said to."""

import io

import numpy as np

from sisepai.vision.live.session import VideoSession
from sisepai.vision.live.watch import KEEPS_UP_BELOW, summary_line, watch


class Nothing:
    """A recogniser that finds no cards, counting its looks."""

    calls = 0

    def for_video(self):
        return self

    def recognize(self, image, zoom_out=False, memory=None):
        from sisepai.vision.recognition.detections import Detections
        from sisepai.vision.recognition.recognize import Recognition

        Nothing.calls += 1
        return Recognition(Detections.empty(), np.zeros((0, 4, 2)), image.shape[1], image.shape[0], 1.0)


class SkippingSource:
    """A source of ``n`` frames at 10 fps that leaves out every ``every``-th, as a camera does
    when the reader falls behind; half the frames it gives are the same picture as the last."""

    def __init__(self, n: int, every: int):
        self.n, self.every, self.skipped, self.behind = n, every, 0, 0.0

    def __iter__(self):
        for k in range(self.n):
            if self.every and k % self.every == self.every - 1:
                self.skipped += 1
                continue
            yield k / 10, np.full((72, 128, 3), 40 + 60 * ((k // 2) % 3), np.uint8)


def test_the_frame_counts_add_up():
    Nothing.calls = 0
    summary = watch(SkippingSource(60, every=4), VideoSession(Nothing()), out=io.StringIO())
    assert summary["source_frames"] == 60 and summary["skipped"] == 15 and summary["frames"] == 45
    assert summary["looked"] + summary["steady"] == summary["frames"] and summary["looked"] == Nothing.calls
    assert 0 < summary["steady"] < summary["frames"]
    line = summary_line(summary)
    assert line.startswith(f"60 frames: 45 read ({Nothing.calls} looked at, {summary['steady']} steady), 15 skipped")
    assert "could not keep up" in line and "25%" in line


def test_a_machine_that_keeps_up_is_not_told_it_did_not():
    summary = watch(SkippingSource(60, every=0), VideoSession(Nothing()), out=io.StringIO())
    assert summary["skipped"] == 0 and summary["source_frames"] == summary["frames"] == 60
    assert "keep up" not in summary_line(summary) and KEEPS_UP_BELOW > 0


def test_a_moving_table_is_looked_at_as_often_as_the_setting_says():
    from sisepai.vision.live.session import VideoSession

    class Counting(Nothing):
        calls = 0

        def recognize(self, image, zoom_out=False, memory=None):
            Counting.calls += 1
            return super().recognize(image, zoom_out, memory)

    rng = np.random.default_rng(3)
    frames = [rng.integers(0, 255, (72, 128, 3), dtype=np.uint8) for _ in range(20)]  # 2 s of movement at 10 fps
    frames += [frames[-1]] * 5  # then half a second still
    looks = {}
    for moving in (0.0, 0.25):
        Counting.calls = 0
        session = VideoSession(Counting(), moving_look_seconds=moving)
        for k, frame in enumerate(frames):
            session.step(frame, k / 10)
        looks[moving] = (Counting.calls, session.looked)
    assert looks[0.0] == (20, 20)  # every changed frame; the still frames keep the last look
    # a look every third frame while it moves (0, 0.3 ... 1.8), and one at the first still frame (2.0),
    # which differs from the last looked at
    assert looks[0.25] == (8, 8)
