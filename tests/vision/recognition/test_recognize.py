"""The shipped recogniser on small generated scenes in held-out fonts."""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sisepai.datasets.scenes.scene import make_scene
from sisepai.engine.cards import CARD_CODES
from sisepai.models.evaluation.scan_eval import on_bed, sheet_of
from sisepai.vision.recognition.detections import Detections
from sisepai.vision.recognition.geometry import card_ends, order_upright
from sisepai.vision.recognition.images import ImageError, check_image
from sisepai.vision.recognition.matching import match_cards

SISEPAI = Path(sys.executable).with_name("sisepai")


def f1(recognizer, layout, n, seed=123):
    tp = fp = fn = 0
    for i in range(n):
        scene = make_scene(seed, i, layout, font_split="tune")
        det = recognizer.recognize(scene.image[..., ::-1].copy()).detections
        a, b, c, _ = match_cards(det.codes, det.centers, det.confidence, scene.labelled())
        tp, fp, fn = tp + a, fp + b, fn + c
    p = tp / max(tp + fp, 1)
    r = tp / max(tp + fn, 1)
    return 2 * p * r / max(p + r, 1e-9)


@pytest.mark.model
def test_reads_tables_and_finished_hands(recognizer):
    # just under what the shipped models read on these three scenes each in the tuning fonts
    # (hand 0.940, table 0.976): a regression of a card or two fails; the full measurement is in
    # models/MODEL_CARD.md
    assert f1(recognizer, "hand", 3) >= 0.925
    assert f1(recognizer, "table", 3) >= 0.965


@pytest.mark.model
def test_batch_and_any_size(recognizer):
    scene = make_scene(5, 0, "hand", size=(640, 360))
    img = scene.image[..., ::-1].copy()
    results = recognizer.recognize_batch([img, cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)])
    assert len(results) == 2 and (results[1].width, results[1].height) == (360, 640)
    det = results[0].detections
    right, false, missed, _ = match_cards(det.codes, det.centers, det.confidence, scene.labelled())
    assert right >= len(scene.labelled()) - 5 and false <= 5  # the shipped models: 15 of 19 read, 4 false, at 640x360
    assert det.cards()[0].card in CARD_CODES and len(det.cards()[0].polygon) == 4
    assert abs(len(results[1].detections) - len(det)) <= 2  # the portrait copy reads about as many


def test_bad_images_are_refused():
    with pytest.raises(ImageError):
        check_image(None)
    with pytest.raises(ImageError, match="too large"):
        check_image(np.zeros((8000, 6000, 3), np.uint8))
    with pytest.raises(ImageError):
        check_image(np.zeros((4, 4, 3), np.uint8))


def test_card_end_geometry_keeps_the_picture_unmirrored():
    card = np.float32([[100, 100], [100, 40], [130, 40], [130, 100]])  # counter-clockwise, long axis horizontal?
    p = order_upright(card)
    e1, e2 = p[1] - p[0], p[2] - p[1]
    assert e1[0] * e2[1] - e1[1] * e2[0] > 0
    assert np.linalg.norm(p[1] - p[0]) < np.linalg.norm(p[2] - p[1])
    top, bottom = card_ends(p)
    assert np.allclose(top[0], p[0]) and np.allclose(bottom[0], p[2])


def test_detections_dataclass():
    d = Detections(np.zeros((3, 4, 2)), np.array([0.9, 0.2, 0.7]), np.array([0, 1, 28]))
    assert len(d[d.confidence > 0.5]) == 2 and d[d.confidence > 0.5].codes == ["GK", "J"]
    assert Detections.merge([d, d]).codes == ["GK", "GA", "J"] * 2
    with pytest.raises(ValueError):
        Detections(np.zeros((2, 4, 2)), np.array([0.9, 0.2]), np.array([0]))


def test_a_missing_image_is_told_before_any_model_loads_and_named_once(tmp_path):
    missing = tmp_path / "missing.jpg"
    # a detector that does not exist: loading the models would fail on it, so this answer comes first
    for command in ("recognize", "score-image"):
        proc = subprocess.run([str(SISEPAI), command, str(missing), "--detector", str(tmp_path / "none.pt")],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert proc.stdout.strip() == f"error: {missing}: no such file" and "none.pt" not in proc.stderr
    bad = tmp_path / "photo.jpg"  # named like a picture, and not one: also told before any model loads
    bad.write_bytes(b"not an image at all")
    proc = subprocess.run([str(SISEPAI), "recognize", str(bad), "--detector", str(tmp_path / "none.pt")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "none.pt" not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout.strip() == f"error: {bad}: not a JPEG, PNG, WebP or BMP image"
    cut = tmp_path / "cut.jpg"  # a valid header and a cut body: decoded (and refused) before any model loads
    ok, jpeg = cv2.imencode(".jpg", np.full((400, 600, 3), 128, np.uint8))
    cut.write_bytes(jpeg.tobytes()[:600])
    for command in ("recognize", "score-image"):
        proc = subprocess.run([str(SISEPAI), command, str(cut), "--detector", str(tmp_path / "none.pt")],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 1 and "none.pt" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stdout.startswith(f"error: {cut}")


@pytest.mark.model
def test_recognize_cli_contract(tmp_path):
    scene = make_scene(9, 0, "hand", size=(640, 360))
    good = tmp_path / "hand.jpg"
    cv2.imwrite(str(good), scene.image[..., ::-1])
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8 not really a jpeg")
    proc = subprocess.run([str(SISEPAI), "recognize", str(good), str(bad), str(tmp_path / "missing.png"), "--json",
                           "--annotate", str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    lines = {Path(x["image"]).name: x for x in map(json.loads, proc.stdout.splitlines())}
    assert proc.returncode == 1 and len(lines) == 3
    read = lines["hand.jpg"]
    assert read["width"] == 640 and read["height"] == 360
    for card in read["cards"]:
        assert set(card) >= {"card", "polygon", "confidence"} and len(card["polygon"]) == 4
    assert "error" in lines["broken.jpg"] and lines["missing.png"]["error"].endswith("missing.png: no such file")
    assert "Traceback" not in proc.stderr
    assert (tmp_path / "out" / "hand.png").exists()
    proc = subprocess.run([str(SISEPAI), "score-image", str(good), "--json"], capture_output=True, text=True, timeout=300)
    out = json.loads(proc.stdout)
    assert set(out) >= {"image", "cards", "winning", "points", "melds", "unsure"}
    proc = subprocess.run([str(SISEPAI), "recognize", str(good), "--min-confidence", "2"], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode != 0 and "--min-confidence must be between 0 and 1" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_recognize_help_states_the_floors_in_use():
    import argparse

    from sisepai.vision import cli as vision_cli
    from sisepai.vision.recognition.candidates import MIN_CONFIDENCE, MIN_END_CONFIDENCE

    parser = argparse.ArgumentParser()
    vision_cli.register(parser.add_subparsers())
    option = next(a for a in parser._subparsers._group_actions[0].choices["recognize"]._actions
                  if "--min-confidence" in a.option_strings)
    assert f"default {MIN_CONFIDENCE:g}, and {MIN_END_CONFIDENCE:g} for a card seen only by one end" in \
        " ".join(option.help.split())


@pytest.mark.model
def test_weak_readings_are_left_out(recognizer):
    from sisepai.vision.recognition.candidates import MIN_CONFIDENCE, MIN_END_CONFIDENCE

    scene = make_scene(12, 1, "fan", font_split="tune")  # lone ends, and a reading at 0.11
    img = scene.image[..., ::-1].copy()
    reported = recognizer.recognize(img).detections
    floors = recognizer.min_confidence, recognizer.min_end_confidence
    try:
        recognizer.min_confidence = recognizer.min_end_confidence = 0.0
        every = recognizer.recognize(img).detections
        recognizer.min_end_confidence = 0.9  # lone ends only: whole cards keep their floor
        strict_ends = recognizer.recognize(img).detections
    finally:
        recognizer.min_confidence, recognizer.min_end_confidence = floors
    assert len(reported) and float(reported.confidence.min()) >= MIN_CONFIDENCE
    lone = reported.kind == "end"  # a card seen only by one end needs more
    assert lone.any() and float(reported.confidence[lone].min()) >= MIN_END_CONFIDENCE
    assert len(every) > len(reported) and float(every.confidence.min()) < MIN_CONFIDENCE
    weak_ends = (every.kind == "end") & (every.confidence < 0.9)
    assert weak_ends.any() and len(strict_ends) == len(every) - int(weak_ends.sum())


@pytest.mark.model
@pytest.mark.slow  # every frame of a 12 s video through `watch` (20 s); the live tests follow videos by default
def test_watch_a_short_game_video(tmp_path):
    from sisepai.datasets.video.game import GameVideo

    video = tmp_path / "game.avi"
    truth = GameVideo(seed=4, seconds=12, fps=5).write(video)["events"]
    # every frame: what this test checks is reading, not keeping up on a busy machine
    proc = subprocess.run([str(SISEPAI), "watch", str(video), "--json", "--every-frame"], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(x) for x in proc.stdout.splitlines()]
    assert all({"t", "type"} <= set(e) for e in events)
    from sisepai.models.evaluation.live_eval import match_events

    score = match_events(truth, events)  # the card and its seat, within 1.5 s
    assert score.truth == 6
    assert score.found == 6 and score.false == 0  # the shipped models: 6 of 6, at the right seats, none false


@pytest.mark.model
def test_reads_a_close_up_scan_of_single_cards(recognizer):
    # one card filling the picture, as in a flatbed scan: far larger than the cards the detector
    # learned on, so the recogniser looks again zoomed out
    from sisepai.datasets.design.render import DeckStyle, render_face
    from sisepai.engine.cards import CARD_CODES

    rng = np.random.default_rng(5)
    right = 0
    codes = []
    for k in range(6):
        style = DeckStyle.random(rng, "tune")
        code = str(rng.choice(CARD_CODES))
        scan = on_bed(render_face(code, style, 90, rng).image[..., :3], 40, bed=245)
        det = recognizer.recognize(scan[..., ::-1].copy()).detections
        codes.append((code, det.codes))
        right += set(det.codes) == {code}  # its two ends may both be reported when the outline is missed
    assert right >= 4, codes


@pytest.mark.model
def test_reads_a_scan_cut_to_one_card(recognizer):
    # a picture that is one card, edge to edge or on a little of the scanner bed: no outline to
    # find, so the picture itself (or the card shape on its plain ground) is read as the card
    from sisepai.datasets.design.render import DeckStyle, render_face
    from sisepai.engine.cards import CARD_CODES

    rng = np.random.default_rng(21)
    wrong = []
    for k in range(8):
        style = DeckStyle.random(rng, "tune")
        code = str(rng.choice(CARD_CODES))
        rgb = render_face(code, style, int(rng.integers(60, 300)), rng).image[..., :3]
        scan = on_bed(rgb, (0, 6, 30, 0)[k % 4])
        scan = np.ascontiguousarray(np.rot90(scan, k % 2))  # upright or lying
        codes = recognizer.recognize(scan[..., ::-1].copy()).detections.codes
        if codes != [code]:
            wrong.append((code, codes))
    assert len(wrong) <= 1, wrong


def scan_sheet(rng, width, per_row, n):
    """Upright cards of one held-out deck in a grid on a pale scanner bed: ``(BGR image, codes)``."""
    from sisepai.datasets.design.render import DeckStyle, render_face
    from sisepai.engine.cards import CARD_CODES

    style = DeckStyle.random(rng, "tune")
    codes = [str(c) for c in rng.choice(CARD_CODES, n)]
    faces = [render_face(c, style, width, rng).image[..., :3] for c in codes]
    return sheet_of(faces, per_row, width // 3)[..., ::-1].copy(), codes


@pytest.mark.model
def test_reads_each_card_of_a_scanned_sheet_once(recognizer):
    # cards a tenth of the picture wide, far larger than the detector learned: it breaks them into
    # pieces that each read as a card, so the recogniser looks again from further away
    from collections import Counter

    from sisepai.vision.recognition.second_look import LARGE_CARD_WIDTH, median_card_width

    rng = np.random.default_rng(12)
    for width, per_row, n in ((110, 6, 9), (160, 8, 8), (70, 7, 12)):
        sheet, codes = scan_sheet(rng, width, per_row, n)
        det = recognizer.recognize(sheet).detections
        assert median_card_width(det, sheet.shape) > LARGE_CARD_WIDTH
        assert Counter(det.codes) == Counter(codes)


@pytest.mark.model
def test_still_cards_keep_their_reading_between_video_frames(recognizer):
    from sisepai.vision.recognition.profile import ReadingProfile, VideoMemory
    from sisepai.vision.recognition.recognize import Recognizer
    from sisepai.vision.recognition.still_readings import StillReadings

    video = Recognizer(recognizer.detector, recognizer.reader, profile=ReadingProfile(zoom_out=(), read_inner_ends=False))
    memory = VideoMemory(still=StillReadings(max_age=2), palette=None)  # each frame's own palette
    img = make_scene(8, 0, "table", size=(960, 540)).image[..., ::-1].copy()
    read = []
    real_read = recognizer.reader.read

    def counting(crops):
        read.append(len(crops))
        return real_read(crops)

    video.reader = type("Counting", (), {"read": staticmethod(counting), "classes": recognizer.reader.classes})()
    frames = [video.recognize(img, zoom_out=False, memory=memory).detections for _ in range(4)]
    assert len(frames[0]) > 0
    assert all(sorted(f.codes) == sorted(frames[0].codes) for f in frames)  # the same still cards, the same readings
    assert read[1] < read[0] and read[2] < read[0]  # still cards were not read again...
    assert read[3] == read[0]  # ...until their reading was max_age frames old


@pytest.mark.model
def test_a_session_palette_learns_the_decks_colours(recognizer):
    from sisepai.vision.recognition.palette import SuitPalette
    from sisepai.vision.recognition.profile import VideoMemory

    palette = SuitPalette()
    image = make_scene(5, 0, "table", font_split="tune").image[..., ::-1].copy()
    plain = recognizer.recognize(image).detections
    with_palette = recognizer.recognize(image, memory=VideoMemory(still=None, palette=palette)).detections
    assert len(palette.centres()) >= 2  # learned from this picture's sure cards, into the session's palette
    again = recognizer.recognize(image).detections  # the shared recogniser keeps no palette of its own
    assert again.codes == plain.codes and np.array_equal(again.confidence, plain.confidence)
    assert len(with_palette) == len(plain)


def test_inner_ends_are_read_only_for_cards_their_two_ends_leave_unsure():
    from sisepai.vision.recognition.beliefs import sure_from_ends
    from sisepai.vision.recognition.profile import INNER_ENDS_BELOW

    def end(code_id, p=0.99):
        v = np.full(30, (1 - p) / 29, np.float32)
        v[code_id] = p
        return v

    none = np.zeros(30, np.float32)
    none[-1] = 1.0
    assert sure_from_ends(np.stack([end(3), end(3)]), INNER_ENDS_BELOW)
    assert sure_from_ends(np.stack([end(3), none]), INNER_ENDS_BELOW)  # one clear end is enough when sure
    assert not sure_from_ends(np.stack([end(3, 0.6), end(4, 0.6)]), INNER_ENDS_BELOW)  # the ends disagree
    assert not sure_from_ends(np.stack([none, none]), INNER_ENDS_BELOW)  # neither end reads as a card end


@pytest.mark.model
def test_doubtful_ends_are_read_again_turned(recognizer):
    from sisepai.vision.recognition.profile import ReadingProfile
    from sisepai.vision.recognition.recognize import Recognizer

    image = make_scene(9, 0, "table", font_split="tune").image[..., ::-1].copy()
    crop = cv2.resize(image[300:348, 600:648], (48, 48))[..., ::-1].copy()
    reader = recognizer.reader
    turned = reader.read_turned([crop])[0]
    by_hand = np.mean([reader.read([np.ascontiguousarray(np.rot90(crop, k))])[0] for k in (1, 2, 3)], axis=0)
    np.testing.assert_allclose(turned, by_hand, atol=1e-5)
    np.testing.assert_allclose(reader.read([crop], turns_below=1.01)[0],
                               (reader.read([crop])[0] + 3 * turned) / 4, atol=1e-5)

    asked = []

    def counting(crops):
        asked.append(len(crops))
        return reader.read_turned(crops)

    counts = {}
    for turns_below in (0.0, 0.9, 1.01):
        rec = Recognizer(recognizer.detector, reader, profile=ReadingProfile(zoom_out=(), turns_below=turns_below))
        rec.reader = type("Counting", (), {"read": reader.read, "read_turned": staticmethod(counting),
                                           "classes": reader.classes})()
        asked.clear()
        found = len(rec.recognize(image).detections)
        counts[turns_below] = sum(asked)
    # never; only the doubtful ends; every end read
    assert counts[0.0] == 0 < counts[0.9] < counts[1.01] and counts[1.01] >= found


@pytest.mark.model
def test_a_portrait_picture_reads_like_its_landscape_original(recognizer):
    # a phone held upright: the detector learned landscape frames, so it looks at the picture
    # turned a quarter, and the outlines come back in the portrait picture's pixels
    scene = make_scene(14, 0, "table", font_split="tune")
    landscape = scene.image[..., ::-1].copy()
    h, w = landscape.shape[:2]
    portrait = np.ascontiguousarray(np.rot90(landscape))  # a quarter anticlockwise: (x, y) -> (y, w - x)
    truth = scene.labelled()
    turned = [dict(c, corners=[[y, w - x] for x, y in c["corners"]]) for c in truth]
    flat = recognizer.recognize(landscape).detections
    upright = recognizer.recognize(portrait).detections
    assert upright.polygons[..., 0].max() <= h + 8 and upright.polygons[..., 1].max() <= w + 8
    right_flat = match_cards(flat.codes, flat.centers, flat.confidence, truth)[0]
    right_upright = match_cards(upright.codes, upright.centers, upright.confidence, turned)[0]
    assert right_upright >= right_flat - 2 and right_upright >= 0.8 * len(truth)


def test_with_changes_shares_the_networks_and_changes_only_what_it_is_told():
    from sisepai.vision.recognition.profile import VIDEO_PROFILE
    from sisepai.vision.recognition.recognize import Recognizer

    detector, reader = object(), object()
    base = Recognizer(detector, reader, min_confidence=0.3)
    off = base.with_changes(min_confidence=0.0, min_end_confidence=0.0)
    assert off.detector is detector and off.reader is reader and off.profile is base.profile
    assert (off.min_confidence, off.min_end_confidence, off.crop) == (0.0, 0.0, base.crop)
    assert base.min_confidence == 0.3  # the original is untouched
    assert base.with_profile(VIDEO_PROFILE).profile is VIDEO_PROFILE
    with pytest.raises(TypeError, match="no part 'floor'"):
        base.with_changes(floor=0.1)


# --- still readings across a bumped camera and a changing light ------------------------------------

def _still_cards(n=6):
    return [np.float32([[x, y], [x + 30, y], [x + 30, y + 120], [x, y + 120]])
            for x, y in zip(np.linspace(100, 1100, n), np.linspace(120, 520, n))]


def test_still_cards_keep_their_readings_when_the_camera_is_bumped():
    from sisepai.vision.recognition.still_readings import StillReadings

    cards, look = _still_cards(), np.full((8, 8, 3), 150, np.float32)
    ends = [np.full((2, 30), 0.95, np.float32) for _ in cards]
    cache = StillReadings()
    cache.remember(cards, ends, [0] * len(cards), looks=[look] * len(cards))
    turn = cv2.getRotationMatrix2D((640, 360), 0.5, 1.0)
    turn[:, 2] += (9, -6)  # a bump: shifted 11 px and turned half a degree
    bumped = [cv2.transform(c[None], turn)[0] for c in cards]
    assert all(k is not None for k in cache.lookup(bumped, [look] * len(cards)))
    # cards that moved each their own way (a hand rearranging them) are read again
    rng = np.random.default_rng(0)
    scattered = [c + rng.uniform(-15, 15, 2).astype(np.float32) for c in cards]
    assert sum(k is not None for k in cache.lookup(scattered, [look] * len(cards))) <= 1


def test_a_still_card_keeps_its_reading_in_a_dimmer_light_but_not_under_another_card():
    from sisepai.vision.recognition.still_readings import StillReadings

    card = _still_cards(1)[0]
    look = np.full((8, 8, 3), 180, np.float32)
    look[2:6, 3:5] = 50
    other = np.full((8, 8, 3), 180, np.float32)
    other[1:3, 1:7] = 50
    cache = StillReadings()
    cache.remember([card], [np.full((2, 30), 0.95, np.float32)], [0], looks=[look])
    assert cache.lookup([card], [look * 0.8])[0] is not None  # a lamp switched off
    assert cache.lookup([card], [other])[0] is None


def test_the_profiles_nms_overlap_reaches_the_detector(recognizer, monkeypatch):
    """``ReadingProfile.nms_iou`` is the overlap the detector's NMS keeps boxes apart at, on every look."""
    from dataclasses import replace

    import numpy as np

    seen = []
    real = recognizer.detector.detect

    def spy(images, iou=None):
        seen.append(iou)
        return real(images, iou=iou)

    monkeypatch.setattr(recognizer.detector, "detect", spy)
    monkeypatch.setattr(recognizer, "profile", replace(recognizer.profile, nms_iou=0.8))
    recognizer.recognize(np.full((360, 640, 3), 90, np.uint8))
    assert seen and set(seen) == {0.8}


def test_the_cli_and_the_api_answer_a_picture_in_one_shape():
    from sisepai.service.schemas import RecognizeAnswer
    from sisepai.vision.recognition.recognize import Recognition

    box = np.float32([[[0, 0], [10, 0], [10, 40], [0, 40]]])
    result = Recognition(Detections(box, np.array([0.9]), np.array([3])), np.zeros((2, 4, 2)), 100, 50, 12.345)
    api = RecognizeAnswer.from_recognition(result).model_dump(mode="json")
    assert json.loads(json.dumps(result.to_json("x.jpg"))) == {"image": "x.jpg", **api}
    assert api["backs"] == 2 and api["ms"] == 12.3 and api["cards"][0]["card"] == CARD_CODES[3]
