"""A machine that reads only one frame in five still announces every card that is laid and stays."""

import pytest

from sisepai.datasets.video.game import TurnVideo


@pytest.mark.model
def test_one_frame_in_five_announces_every_card_laid(recognizer):
    from sisepai.models.evaluation.live_eval import match_events
    from sisepai.vision.live.session import VideoSession

    fps, every = 10, 5
    video = TurnVideo(seed=4, cards=12, seconds=14, fps=fps, size=(960, 540))
    session = VideoSession(recognizer)
    said, read = [], 0
    for i in range(0, 14 * fps, every):  # the other four frames of each five are skipped, as by a busy machine
        frame = video.frame_at(i / fps)
        said += [e.to_json() for e in session.step(frame[..., ::-1].copy(), i / fps, skipped=i - i // every).events]
        read += 1
    truth = [e for e in video.events if e.get("type", "card_shown") == "card_shown"]
    score = match_events(truth, said)
    assert len(truth) >= 3
    assert score.found == len(truth) and score.false == 0, (truth, [e for e in said if e["type"] == "card_shown"])
    assert session.frames == read == 14 * fps // every
