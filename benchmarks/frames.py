"""What the recogniser benchmarks share: 30 generated 1280x720 JPEG frames (tables, fans and
finished hands in turn) and the time to recognise each, end to end."""

import time

import cv2

from sisepai.datasets.scenes.scene import make_scene
from sisepai.vision.recognition.images import decode_image


def scene_jpegs(seed: int, n: int = 30, **scene_options) -> list[bytes]:
    """``n`` scenes of ``seed`` as JPEG bytes (quality 90); ``scene_options`` go to ``make_scene``."""
    out = []
    for i, layout in enumerate((["table", "fan", "hand"] * n)[:n]):
        scene = make_scene(seed, i, layout, **scene_options)
        ok, buf = cv2.imencode(".jpg", scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
        out.append(buf.tobytes())
    return out


def recognition_ms(rec, jpegs: list[bytes], warm_up: int = 3) -> list[float]:
    """Milliseconds to decode and recognise each JPEG, after ``warm_up`` untimed ones."""
    for data in jpegs[:warm_up]:
        rec.recognize(decode_image(data))
    times = []
    for data in jpegs:
        t = time.perf_counter()
        rec.recognize(decode_image(data))
        times.append((time.perf_counter() - t) * 1000)
    return times
