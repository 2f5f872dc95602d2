"""Cards as players hold and heap them: tight fans held in a hand, and close heaps.

**Held fans** (layout ``held``). A player holds 5 to 21 cards in one hand, each turned 3 to 12°
from the last about a pivot under the thumb. Each card shows a *strip* of its end beside the next
card: 25 to 70 px wide at webcam distance, 150 to 300 px in a close-up (a phone held over the
fan, the pivot out of the picture). The pivot lies near the cards' bottom, or at their middle
when a player fans from the middle (both ends show). The fan is seen from the player's side (the
cards' tops up the frame) or from across the table (tops down, the fingers in front). The thumb
covers the pivot and the fingers half of the lower fan.

**Close heaps** (layout ``heap``). 20 to 60 cards tipped out at every angle and overlapping; a
third of them are close-ups (cards two to three times as large, the edges blurred by depth of
field, a phone's white balance and noise, :mod:`.phone`), on wood, felt, cloth or plastic.

**Fans seen from across the table** (layout ``distant``). The same held fan at table distance,
where a webcam sees it small: cards 28 to 64 px wide in a 1280x720 frame, each showing 20 to 60%
of its end's width beside the next, the thumb and the palm over the pivot. A card of such a fan is
labelled when :data:`DISTANT_LABEL_MIN` of a character shows: a player reads a character from
that much of it, and a detector never taught those strips learns to pass them by.

Layouts return cards on the table plane (:class:`~.placed.Placed`); a held fan's hand is drawn over
the cards by :func:`draw_hand` from the same fan's geometry, and is what hides the cards' lower ends.

>>> import numpy as np
>>> fan = held_fan(np.random.default_rng(3), 1280, 720, 4.0)
>>> 5 <= len(fan.cards) <= 21 and 3.0 <= fan.step <= 12.0
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from sisepai.datasets.scenes.placed import Laid, Placed, deal_codes

HELD_CARDS = (5, 21)
"""How many cards a held fan holds."""
HELD_STEP = (3.0, 12.0)
"""Degrees between neighbouring cards of a held fan."""
STRIP_WEBCAM = (25.0, 70.0)
"""The width of each card's visible strip at webcam distance, in pixels of a 1280x720 frame."""
STRIP_CLOSE = (150.0, 300.0)
"""The same in a close-up of the fan (a phone held over it)."""
CLOSE_SHARE = 0.25
"""The share of held fans seen in close-up."""
MIDDLE_SHARE = 0.2
"""The share of held fans fanned from the middle (both ends show)."""
ACROSS_SHARE = 0.3
"""The share of held fans seen from across the table (tops down the frame, fingers in front)."""
MAX_SPREAD = 150.0
"""The widest a fan opens, first card to last, in degrees."""
HEAP_CARDS = (20, 60)
"""How many cards a heap holds."""
HEAP_CLOSE_SHARE = 1 / 3
"""The share of heaps photographed close up, with depth of field and a phone's look."""
DISTANT_WIDTH = (28.0, 64.0)
"""A distant fan's card width, in pixels of a 1280x720 frame."""
DISTANT_SHARE = (0.2, 0.6)
"""The share of a distant fan's card width that shows beside the next card."""
DISTANT_CARDS = (8, 21)
"""How many cards a distant fan holds."""
DISTANT_LABEL_MIN = 0.3
"""A distant fan's card is labelled when at least this share of one of its characters shows."""
SKIN = ((224, 172, 138), (198, 134, 98), (160, 108, 76), (120, 78, 52), (236, 192, 160))
"""Skin tones (RGB) a hand is drawn in, each varied a little."""


@dataclass
class HeldFan:
    """A fan held in a hand: its cards on the table plane, and the geometry the hand is drawn from."""

    cards: list
    pivot: tuple[float, float]
    base: float  # degrees: the fan's middle direction (0: tops up the frame)
    step: float  # degrees between neighbouring cards
    length: float  # card length
    width: float  # card width
    across: bool  # seen from across the table
    middle: bool  # fanned from the middle
    palm: bool = False  # a palm over the pivot too (distant fans)


def held_fan(rng: np.random.Generator, w: int, h: int, aspect: float) -> HeldFan:
    """One fan held in a hand, drawn within the ranges of this module."""
    n = int(rng.integers(HELD_CARDS[0], HELD_CARDS[1] + 1))
    close = rng.random() < CLOSE_SHARE
    middle = rng.random() < MIDDLE_SHARE
    across = rng.random() < ACROSS_SHARE
    pivot_at = 0.5 if middle else rng.uniform(0.78, 0.95)  # the pivot's place along the card, from its top
    step_cap = min(HELD_STEP[1], MAX_SPREAD / max(n - 1, 1))
    strip = rng.uniform(*(STRIP_CLOSE if close else STRIP_WEBCAM))
    length = h * (rng.uniform(1.3, 2.6) if close else rng.uniform(0.35, 0.9))
    arm = pivot_at * length  # pivot to the top edge
    step = float(np.clip(np.degrees(np.arcsin(min(0.99, strip / arm))), HELD_STEP[0], max(HELD_STEP[0], step_cap)))
    width = length / aspect
    base = rng.uniform(-20, 20) + (180.0 if across else 0.0)
    spread = step * (n - 1)
    # a close-up shows the fan's top arc near the middle of the frame, the pivot far out of it;
    # at webcam distance the whole fan is in view, the middle of its height near the frame's
    up = np.float32([np.sin(np.radians(base)), -np.cos(np.radians(base))])
    centre = np.float32([rng.uniform(-0.2, 0.2) * w, rng.uniform(-0.12, 0.12) * h])
    pivot = centre - up * (arm - width * 0.8 if close else arm * 0.45)
    codes = deal_codes(rng, n)
    order = range(n) if rng.random() < 0.5 else range(n - 1, -1, -1)  # which side of each card shows
    cards = []
    for k in order:
        theta = base - spread / 2 + step * k + rng.normal(0, step * 0.08)
        a = np.radians(theta)
        slide = rng.normal(0, 0.015) * length  # a card pushed up or down in the hand
        centre_from_pivot = (pivot_at - 0.5) * length + slide  # from the pivot towards the card's top
        d = np.float32([np.sin(a), -np.cos(a)])
        c = pivot + d * centre_from_pivot
        cards.append(Placed(codes[k], float(c[0]), float(c[1]), float(theta), width, "held"))
    return HeldFan(cards, (float(pivot[0]), float(pivot[1])), float(base), step, length, width, across, middle)


def distant_fan(rng: np.random.Generator, w: int, h: int, aspect: float) -> HeldFan:
    """A fan held across the table, seen small: within this module's ``DISTANT_`` ranges.

    >>> fan = distant_fan(np.random.default_rng(5), 1280, 720, 4.0)
    >>> DISTANT_WIDTH[0] <= fan.width <= DISTANT_WIDTH[1] and fan.palm
    True
    """
    n = int(rng.integers(DISTANT_CARDS[0], DISTANT_CARDS[1] + 1))
    middle = rng.random() < MIDDLE_SHARE
    across = rng.random() < ACROSS_SHARE
    width = rng.uniform(*DISTANT_WIDTH)
    length = width * aspect
    pivot_at = 0.5 if middle else rng.uniform(0.78, 0.95)
    arm = pivot_at * length
    strip = rng.uniform(*DISTANT_SHARE) * width
    step_cap = min(HELD_STEP[1], MAX_SPREAD / max(n - 1, 1))
    step = float(np.clip(np.degrees(np.arcsin(min(0.99, strip / arm))), 1.5, max(1.5, step_cap)))
    base = rng.uniform(-25, 25) + (180.0 if across else 0.0)
    spread = step * (n - 1)
    up = np.float32([np.sin(np.radians(base)), -np.cos(np.radians(base))])
    centre = np.float32([rng.uniform(-0.38, 0.38) * w, rng.uniform(-0.3, 0.3) * h])
    pivot = centre - up * arm * 0.45
    codes = deal_codes(rng, n)
    order = range(n) if rng.random() < 0.5 else range(n - 1, -1, -1)
    cards = []
    for k in order:
        theta = base - spread / 2 + step * k + rng.normal(0, step * 0.1)
        a = np.radians(theta)
        slide = rng.normal(0, 0.02) * length
        d = np.float32([np.sin(a), -np.cos(a)])
        c = pivot + d * ((pivot_at - 0.5) * length + slide)
        cards.append(Placed(codes[k], float(c[0]), float(c[1]), float(theta), width, "distant"))
    return HeldFan(cards, (float(pivot[0]), float(pivot[1])), float(base), step, length, width, across, middle,
                   palm=True)


def layout_distant(rng: np.random.Generator, w: int, h: int, aspect: float) -> Laid:
    """One to three players' fans seen from across the table: the cards and the fans."""
    fans = [distant_fan(rng, w, h, aspect) for _ in range(int(rng.choice([1, 1, 2, 3])))]
    return Laid([p for f in fans for p in f.cards], fans)


def layout_held(rng: np.random.Generator, w: int, h: int, aspect: float) -> Laid:
    """One held fan, or two players' fans side by side (15%): the cards and the fans."""
    fans = [held_fan(rng, w, h, aspect)]
    if rng.random() < 0.15 and fans[0].length < 0.6 * h:
        second = held_fan(rng, w, h, aspect)
        shift = np.float32([0.3 * w if fans[0].pivot[0] < 0 else -0.3 * w, 0])
        for p in second.cards:
            p.cx, p.cy = p.cx + float(shift[0]), p.cy + float(shift[1])
        second.pivot = (second.pivot[0] + float(shift[0]), second.pivot[1])
        fans.append(second)
    return Laid([p for f in fans for p in f.cards], fans)


def hand_shapes(fan: HeldFan, rng: np.random.Generator) -> list[np.ndarray]:
    """The hand over a held fan as polygons on the table plane: the thumb on the pivot, and the
    fingers across the lower fan (in front when seen from across the table; their tips only
    otherwise)."""
    px, py = fan.pivot
    a = np.radians(fan.base)
    up = np.float32([np.sin(a), -np.cos(a)])
    side = np.float32([np.cos(a), np.sin(a)])
    pivot = np.float32([px, py])
    shapes = []
    thumb_len = fan.width * rng.uniform(1.6, 2.6)
    thumb_dir = up * np.cos(0.5) + side * np.sin(0.5) * rng.choice([-1, 1])
    centre = pivot + thumb_dir * thumb_len * 0.35
    shapes.append(_ellipse(centre, thumb_len / 2, fan.width * rng.uniform(0.45, 0.6), thumb_dir))
    reach = fan.length * (0.5 if fan.middle else 0.25)  # how far up the fan the fingers lie
    n_fingers = 4 if fan.across else int(rng.integers(1, 4))
    for f in range(n_fingers):
        off = (f - (n_fingers - 1) / 2) * fan.width * rng.uniform(0.7, 0.95)
        at = pivot + up * reach * rng.uniform(0.55, 1.0) + side * off
        if not fan.across:  # the fingertips peep round the fan's edge
            edge = rng.choice([-1, 1]) * np.radians(fan.step * 0.5 * len(fan.cards) / 2)
            at = pivot + np.float32([np.sin(a + edge), -np.cos(a + edge)]) * fan.length * rng.uniform(0.2, 0.5)
        shapes.append(_ellipse(at, fan.width * rng.uniform(0.9, 1.4), fan.width * rng.uniform(0.28, 0.4), side))
    if fan.palm:  # the palm under the thumb, over the fan's pivot and lower edges
        at = pivot - up * fan.width * rng.uniform(0.2, 0.8) + side * fan.width * rng.uniform(-0.4, 0.4)
        shapes.append(_ellipse(at, fan.width * rng.uniform(1.0, 1.6), fan.width * rng.uniform(0.8, 1.2), side))
    return shapes


def _ellipse(centre: np.ndarray, major: float, minor: float, direction: np.ndarray, points: int = 24) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, points, endpoint=False)
    d = np.float32(direction) / max(float(np.linalg.norm(direction)), 1e-6)
    n = np.float32([-d[1], d[0]])
    return (np.float32(centre) + np.outer(np.cos(t) * major, d) + np.outer(np.sin(t) * minor, n)).astype(np.float32)


def draw_hand(frame: np.ndarray, idmap: np.ndarray, fans: list[HeldFan], H: np.ndarray,
              rng: np.random.Generator) -> list[dict]:
    """Draw each fan's hand (:func:`hand_shapes`) through the camera ``H`` over ``frame``, marking
    it in the z-buffer ``idmap`` as an occluder (-2); returns the clutter records."""
    items = []
    for fan in fans:
        skin = np.float32(SKIN[int(rng.integers(len(SKIN)))]) * rng.uniform(0.85, 1.1)
        for poly in hand_shapes(fan, rng):
            img_poly = cv2.perspectiveTransform(poly[None].astype(np.float64), H)[0]
            pts = np.round(img_poly).astype(np.int32)
            shade = np.clip(skin * rng.uniform(0.85, 1.05), 0, 255)
            cv2.fillPoly(frame, [pts], tuple(float(c) for c in shade), cv2.LINE_AA)
            cv2.polylines(frame, [pts], True, tuple(float(c) * 0.7 for c in shade), 1, cv2.LINE_AA)
            cv2.fillPoly(idmap, [pts], -2)  # an occluder in the z-buffer
            centre = img_poly.mean(0)
            items.append({"kind": "hand", "center": [int(centre[0]), int(centre[1])], "on_top": True})
    return items


def layout_heap(rng: np.random.Generator, w: int, h: int, aspect: float) -> Laid:
    """20-60 cards tipped out on the table: every angle, overlapping, a quarter face down, the
    heap's edge thinner than its heart; a third photographed close up (cards 2-3 times larger)."""
    close = rng.random() < HEAP_CLOSE_SHARE
    ch = h * (rng.uniform(0.45, 0.8) if close else rng.uniform(0.28, 0.55))
    cw = ch / aspect
    n = int(rng.integers(HEAP_CARDS[0], HEAP_CARDS[1] + 1))
    px, py = rng.uniform(-0.15, 0.15) * w, rng.uniform(-0.1, 0.1) * h
    spread = (rng.uniform(0.4, 0.7) if close else rng.uniform(0.2, 0.42)) * min(w, h) * np.sqrt(n / 32)
    codes = deal_codes(rng, n)
    cards = []
    for code in codes:
        r = spread * np.sqrt(rng.random())
        a = rng.uniform(0, 2 * np.pi)
        face_down = rng.random() < 0.25
        cards.append(Placed(None if face_down else code, float(px + r * np.cos(a)), float(py + r * np.sin(a) * 0.8),
                            float(rng.uniform(-180, 180)), cw, "heap"))
    return Laid(cards, close=close)
