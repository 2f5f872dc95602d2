"""Stand-in decks are held out: honest fonts, paper colours and traits outside training."""

import numpy as np

from sisepai.datasets.design.font_overlap import HOLDOUT_MAX_OVERLAP, closest_training_face, ink_overlap
from sisepai.datasets.design.font_splits import fonts_of
from sisepai.datasets.design.fonts import font_bank
from sisepai.datasets.design.standin import TUNE_DECKS, standin_style


def test_near_copies_are_not_honest():
    bank = font_bank()
    by_family = {f.family: f for f in bank.all}
    # TakaoMincho is a fork of IPAmjMincho: near-identical ink
    assert ink_overlap(by_family["TakaoMincho"], by_family["IPAmjMincho"]) > 0.9
    honest = {f.family for f in fonts_of("honest")}
    assert "TakaoMincho" not in honest and "LXGW WenKai Light" not in honest
    assert len(honest) >= 3


def test_every_honest_face_is_under_the_limit_against_every_training_face():
    for face in fonts_of("honest"):
        assert closest_training_face(face)[1] < HOLDOUT_MAX_OVERLAP


def test_tuning_decks_print_neither_honest_nor_training_faces():
    honest = {f.file for f in fonts_of("honest")}
    train = {f.file for f in font_bank().train}
    for k in range(TUNE_DECKS):
        font = standin_style(k, "tune")[0].font.file
        assert font not in honest and font not in train


# --- held out by look, measured: each claim of datasets.design.standin.HELD_OUT_BY_LOOK, and no other -----

def _paper_distances() -> dict[str, float]:
    """Each suit's held-out paper boxes: the least ΔE00 from a colour in them to a training paper."""
    from sisepai.datasets.design.colour_distance import delta_e2000, rgb_to_lab
    from sisepai.datasets.design.far_papers import training_papers
    from sisepai.datasets.design.render import _hsv
    from sisepai.datasets.design.standin import STANDIN_PAPERS

    rng = np.random.default_rng(1)
    out = {}
    for suit, boxes in STANDIN_PAPERS.items():
        train = training_papers(suit)
        samples = [_hsv(rng.uniform(*h), rng.uniform(*s), rng.uniform(*v)) for h, s, v in boxes for _ in range(60)]
        out[suit] = float(min(delta_e2000(lab[None], train).min() for lab in rgb_to_lab(np.array(samples))))
    return out


def _ink(draw, shape=(480, 120)) -> np.ndarray:
    img = np.zeros((*shape, 4), np.uint8)
    draw(img)
    return img[..., :3].max(2) > 40


def _likeness(a: np.ndarray, b: np.ndarray, tolerance: int = 2) -> float:
    """How alike two drawings are in shape: the least of the share of each one's ink within
    ``tolerance`` px of the other's."""
    import cv2

    def near(x):
        return cv2.dilate(x.astype(np.uint8), np.ones((2 * tolerance + 1,) * 2, np.uint8)) > 0

    return min(float((a & near(b)).sum() / max(a.sum(), 1)), float((b & near(a)).sum() / max(b.sum(), 1)))


def _border_likeness() -> dict[str, float]:
    import cv2

    from sisepai.datasets.design import printed, standin

    white = (255, 255, 255, 255)

    def frame(inset, double):
        def draw(img):
            h, w = img.shape[:2]
            for k in ((0, max(2, w // 20)) if double else (0,)):
                cv2.rectangle(img, (inset + k, inset + k), (w - 1 - inset - k, h - 1 - inset - k), white, 1, cv2.LINE_AA)
        return draw

    training = [_ink(frame(i, d)) for i in range(4, 15) for d in (False, True)]
    training += [_ink(lambda img, k=k: printed.draw_border(img, k, (255, 255, 255))) for k in printed.BORDERS]
    return {kind: max(_likeness(_ink(lambda img, k=kind: standin._border(img, k, white, 120)), t) for t in training)
            for kind in ("band", "dashed", "zigzag")}


def test_what_is_claimed_held_out_by_look_is_measured_so_and_nothing_else_is_claimed():
    from sisepai.datasets.design.colour_distance import HELD_OUT_MIN_DELTA_E
    from sisepai.datasets.design.render import ASPECTS
    from sisepai.datasets.design.standin import HELD_OUT_BY_LOOK, standin_style

    papers = _paper_distances()
    borders = _border_likeness()
    aspects = [standin_style(k, "tune")[0].aspect for k in range(6)]  # the test decks' come from the same list
    measured = {
        "font": True,  # test_every_honest_face_is_under_the_limit_against_every_training_face
        "papers": min(papers.values()) >= HELD_OUT_MIN_DELTA_E,
        "borders": max(borders.values()) < 0.5,
        "proportions": min(aspects) > ASPECTS[1] or max(aspects) < ASPECTS[0],  # outside training's draws
    }
    assert {k for k, v in measured.items() if v} == set(HELD_OUT_BY_LOOK), (papers, borders, aspects)
    # the docs' figures: each held-out paper box within ΔE00 2.5 of a training colour
    assert max(papers.values()) < 2.5, papers
