"""Synthetic test videos of a game being played, with their ground-truth events.

A real game is played by bots (the engine's :class:`~sisepai.engine.game.Game`); its moves are
laid out on a table seen by a fixed camera: the face-down pile in the middle, each seat's melds
along its edge and its discards in front of it, a drawn card shown in front of its drawer.
Hands pass over the table now and then. Every card turned face up is a ground-truth
``card_shown`` event with its time and seat.

>>> video = GameVideo(seed=1, seconds=4, fps=5, size=(320, 180))
>>> frames = list(video.frames())
>>> len(frames), frames[0].shape
(20, (180, 320, 3))
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.deck_faces import printed_face
from sisepai.datasets.design.render import DeckStyle, render_back, render_face
from sisepai.datasets.scenes.backgrounds import background
from sisepai.datasets.scenes.camera import Camera
from sisepai.datasets.scenes.scene import Placed, _paste
from sisepai.datasets.video.table_life import TableLife, Webcam
from sisepai.engine.bots import make_bots
from sisepai.engine.cards import CARD_CODES, COPIES_PER_PACK, DEFAULT_JOKERS, SEATS, seat_after
from sisepai.engine.game import Game

ANGLE = {"S": 0.0, "E": -90.0, "N": 180.0, "W": 90.0}


@dataclass
class Slot:
    code: str | None
    seat: str
    kind: str  # "shown", "meld", "discard", "pile"
    appear: float
    vanish: float | None = None
    pos: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0


class GameVideo:
    """A scripted game as frames (RGB) plus ground-truth events."""

    def __init__(self, seed: int = 0, seconds: float = 60.0, fps: float = 10.0, size: tuple[int, int] = (1280, 720),
                 step: float = 1.6, hands_over: bool = True, font_split: str = "train",
                 style: DeckStyle | None = None, deck=None, life: bool = False, webcam: bool = False):
        """``webcam`` shows it through a trembling, noisy desk webcam (:class:`Webcam`, its own random
        stream, so the game and everything else stay the seed's).
        ``deck`` (a :class:`~sisepai.faces.deck.DeckFaces`) plays a real deck's faces,
        at its own proportions, instead of a generated style's. ``life`` adds what a real table
        does besides the game (:class:`TableLife`: changing light, a bumped camera, cards slid in
        fast), drawn from its own random stream, so the game itself stays the seed's."""
        self.seed, self.seconds, self.fps, self.size = seed, seconds, fps, size
        self.rng = np.random.default_rng([seed, 0x71DE0])
        w, h = size
        drawn = DeckStyle.random(self.rng, font_split)  # drawn even for a given deck: the seed's other choices stay
        self.style = copy.deepcopy(style) if style is not None else drawn
        self.style.aspect = float(self.rng.uniform(3.3, 4.5))  # roomy decks keep a 4-seat table readable
        if deck is not None:
            self.style.aspect = deck.aspect
        self.camera = Camera.random(self.rng, w, h, max_tilt=20)
        self.camera.blur, self.camera.motion, self.camera.noise = 0.0, 0, min(self.camera.noise, 3.0)
        self.camera.shadow = self.camera.glare = False
        self.H = self.camera.homography()
        bw, bh = int(w * 0.9), int(h * 0.9)
        bg = background(self.rng, bw, bh, kind=str(self.rng.choice(["wood", "felt", "cloth"])))
        T = np.array([[2, 0, -bw], [0, 2, -bh], [0, 0, 1]], np.float64)
        self.table = cv2.warpPerspective(bg, self.H @ T, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        self.card_h = h * 0.16
        self.card_w = self.card_h / self.style.aspect
        self.slots: list[Slot] = []
        self.events: list[dict] = []
        self.hands_over = hands_over
        self._script(step)
        face_w = int(max(24, self.card_w * 1.4))
        self.face_w = face_w
        self.faces = {c: printed_face(deck, c, face_w, np.random.default_rng([seed, i])) if deck is not None and c in deck.faces
                      else render_face(c, self.style, face_w, np.random.default_rng([seed, i]))
                      for i, c in enumerate(CARD_CODES)}
        self.back = render_back(self.style, face_w, np.random.default_rng(seed))
        self.sweeps = self._sweeps()
        self.life = TableLife.random(np.random.default_rng([seed, 0x11FE]), seconds) if life else None
        self.webcam = Webcam.random(np.random.default_rng([seed, 0x3EB])) if webcam else None

    # --- the script ----------------------------------------------------------------------------

    def _row_pos(self, seat: str, kind: str, index: int) -> tuple[float, float]:
        w, h = self.size
        cw, ch = self.card_w, self.card_h
        step = cw * 1.12
        if kind == "meld":
            depth, offset = ch * 0.62, -w * 0.28
        elif kind == "discard":
            depth, offset = ch * 1.5, -w * 0.12
        else:  # shown: in front of the drawer, to the right of the discards
            depth, offset = ch * 1.5, w * 0.16
        if seat in ("S", "N"):
            x = offset + index * step
            y = h / 2 - depth
            return (x, y) if seat == "S" else (-x, -y)
        x = w / 2 - depth
        y = (offset * h / w) + index * step
        return (x, -y) if seat == "E" else (-x, y)

    def _place(self, code, seat, kind, t, index) -> Slot:
        pos = self._row_pos(seat, kind, index)
        jitter = self.rng.normal(0, 1.5, 2)
        slot = Slot(code, seat, kind, t, None, (pos[0] + jitter[0], pos[1] + jitter[1]),
                    ANGLE[seat] + float(self.rng.normal(0, 2)))
        self.slots.append(slot)
        return slot

    def _script(self, step: float) -> None:
        game = Game.new(players=4, seed=self.seed)
        bots = make_bots(["greedy", "greedy", "random", "random"], self.seed)
        pile = Slot(None, "center", "pile", 0.0, None, (0.0, 0.0), float(self.rng.uniform(-20, 20)))
        self.slots.append(pile)
        meld_count = {s: 0 for s in SEATS}
        discard_count = {s: 0 for s in SEATS}
        t = 2.0  # the first card after the start: what lies there at the start is the table, not news
        shown_slot: Slot | None = None
        last_discard: Slot | None = None
        while not game.is_over() and t < self.seconds - 2.5:
            player = game.responders()[0] if game.phase == "claims" else game.turn
            move = bots[player].choose(game, player)
            name = type(move).__name__
            before = [list(e) for e in game.exposed]
            game.push(move)
            if name == "Draw":
                seat = SEATS[game.shown.owner]
                code = CARD_CODES[game.shown.card]
                shown_slot = self._place(code, seat, "shown", t, 0)
                self.events.append({"t": round(t, 3), "type": "card_shown", "card": code, "seat": seat})
                t += step
            elif name == "Discard":
                seat = SEATS[game.shown.owner]
                code = CARD_CODES[game.shown.card]
                last_discard = self._place(code, seat, "discard", t, discard_count[seat] % 6)
                discard_count[seat] += 1
                self.events.append({"t": round(t, 3), "type": "card_shown", "card": code, "seat": seat})
                t += step
            if game.phase != "claims" and any(len(a) != len(b) for a, b in zip(before, game.exposed)):
                # a claim resolved: the taker's meld goes down; the taken card moves there
                p = next(i for i in range(4) if len(before[i]) != len(game.exposed[i]))
                meld = game.exposed[p][-1].meld
                seat = SEATS[p]
                taken = shown_slot if shown_slot is not None and shown_slot.vanish is None else last_discard
                taken_code = taken.code if taken else None
                if taken is not None and taken.vanish is None:
                    taken.vanish = t
                moved_done = False
                for c in meld.codes:
                    self._place(c, seat, "meld", t, meld_count[seat] % 9)
                    meld_count[seat] += 1
                    if c == taken_code and not moved_done:
                        moved_done = True  # the claimed card, moved: not newly face up
                        continue
                    self.events.append({"t": round(t, 3), "type": "card_shown", "card": c, "seat": seat})
                meld_count[seat] += 1
                shown_slot = None
                t += step
            elif name == "Pass" and game.phase == "draw" and shown_slot is not None and shown_slot.vanish is None:
                # nobody took the draw: it joins its drawer's discards (a move, not a new card)
                shown_slot.vanish = t
                seat = shown_slot.seat
                self._place(shown_slot.code, seat, "discard", t, discard_count[seat] % 6)
                discard_count[seat] += 1
                shown_slot = None
                t += step * 0.5
        self.end = t

    def _sweeps(self) -> list[tuple[float, float, float, float]]:
        """Hands passing over: (start time, duration, y position, direction)."""
        out = []
        if not self.hands_over:
            return out
        t = 3.0
        while t < self.seconds - 2:
            out.append((t, float(self.rng.uniform(0.5, 1.0)), float(self.rng.uniform(0.25, 0.75)),
                        float(self.rng.choice([-1, 1]))))
            t += float(self.rng.uniform(6, 12))
        return out

    # --- frames ----------------------------------------------------------------------------------

    def frame_at(self, t: float) -> np.ndarray:
        frame = self.table.copy()
        fh = self.back.shape[0]
        src = np.float32([[0, 0], [self.face_w, 0], [self.face_w, fh], [0, fh]])
        for slot in self.slots:
            if slot.vanish is not None and slot.vanish <= t:
                continue
            if slot.appear > t:
                if self._sliding(slot, t):
                    self._draw(frame, self.faces[slot.code].image, src, self._slid(slot, t))
                continue
            if slot.kind == "pile":
                for k in range(int(self.rng.integers(4, 5))):
                    p = Placed(None, slot.pos[0] + k * 2, slot.pos[1] - k * 2, slot.angle, self.card_w, "pile")
                    self._draw(frame, self.back, src, p)
                continue
            p = Placed(slot.code, slot.pos[0], slot.pos[1], slot.angle, self.card_w, slot.seat)
            self._draw(frame, self.faces[slot.code].image, src, p)
        for start, dur, yfrac, direction in self.sweeps:
            if start <= t <= start + dur:
                w, h = self.size
                u = (t - start) / dur
                x = int((u if direction > 0 else 1 - u) * w * 1.3 - w * 0.15)
                y = int(yfrac * h)
                skin = (205, 160, 130)
                cv2.ellipse(frame, (x, y), (int(w * 0.12), int(h * 0.09)), 20.0, 0, 360, skin, -1, cv2.LINE_AA)
                cv2.ellipse(frame, (x - int(w * 0.13), y + int(h * 0.03)), (int(w * 0.1), int(h * 0.05)), 10.0, 0,
                            360, skin, -1, cv2.LINE_AA)
        frame = self.camera.develop(frame, np.random.default_rng([self.seed, int(t * 1000)]))
        frame = self.life.apply(frame, t) if self.life is not None else frame
        return self.webcam.apply(frame, np.random.default_rng([self.seed, int(t * 1000), 0x3EB])) if self.webcam else frame

    def _sliding(self, slot: Slot, t: float) -> bool:
        """Whether ``slot``, a card shown at a seat, is on its way in at ``t`` (:class:`TableLife`)."""
        return (self.life is not None and slot.kind == "shown" and slot.appear > 0
                and slot.appear - self.life.slide <= t)

    def _slid(self, slot: Slot, t: float) -> Placed:
        """``slot`` on its way from its seat's edge to its place, ``t`` before it lands."""
        w, h = self.size
        edge = {"S": (slot.pos[0], h / 2 + self.card_h), "N": (slot.pos[0], -h / 2 - self.card_h),
                "E": (w / 2 + self.card_h, slot.pos[1]), "W": (-w / 2 - self.card_h, slot.pos[1])}[slot.seat]
        u = 1 - (slot.appear - t) / self.life.slide  # 0 at the edge, 1 in place
        x = edge[0] + (slot.pos[0] - edge[0]) * u
        y = edge[1] + (slot.pos[1] - edge[1]) * u
        return Placed(slot.code, x, y, slot.angle, self.card_w, slot.seat)

    def visible_at(self, t: float) -> list[tuple[str, np.ndarray]]:
        """Ground truth for a frame: (code, image polygon) of each face-up card not under a hand."""
        out = []
        w, h = self.size
        hands = []
        for start, dur, yfrac, direction in self.sweeps:
            if start <= t <= start + dur:
                u = (t - start) / dur
                hands.append(((u if direction > 0 else 1 - u) * w * 1.3 - w * 0.15, yfrac * h))
        for slot in self.slots:
            if slot.kind == "pile" or slot.appear > t or (slot.vanish is not None and slot.vanish <= t):
                continue
            p = Placed(slot.code, slot.pos[0], slot.pos[1], slot.angle, self.card_w, slot.seat)
            dst = cv2.perspectiveTransform(p.corners(self.style.aspect)[None].astype(np.float64), self.H)[0]
            c = dst.mean(0)
            if any(abs(c[0] - x) < w * 0.12 and abs(c[1] - y) < h * 0.09 for x, y in hands):
                continue
            out.append((slot.code, dst.astype(np.float32)))
        return out

    def _draw(self, frame, image, src, placed: Placed) -> None:
        corners = placed.corners(self.style.aspect)
        dst = cv2.perspectiveTransform(corners[None].astype(np.float64), self.H)[0]
        _paste(frame, image, src, dst)

    def frames(self):
        n = int(round(self.seconds * self.fps))
        for i in range(n):
            yield self.frame_at(i / self.fps)

    def write(self, path: str | Path, truth: str | Path | None = None) -> dict:
        """Write an MP4 (``.mp4``), an AVI (``.avi``), or a Y4M (``.y4m``, for a browser's fake camera)."""
        path = Path(path)
        w, h = self.size
        write_frames(path, self.frames(), self.size, self.fps)
        record = {"video": path.name, "seconds": self.seconds, "fps": self.fps, "width": w, "height": h,
                  "seed": self.seed, "events": self.events,
                  "life": None if self.life is None else asdict(self.life)}
        if self.webcam is not None:
            record["webcam"] = asdict(self.webcam)
        if truth:
            Path(truth).write_text(json.dumps(record, indent=1))
        return record


def write_frames(path: Path, frames, size: tuple[int, int], fps: float) -> None:
    """RGB ``frames`` of ``size`` as an MP4 (``.mp4``), an AVI (``.avi``), or a Y4M (``.y4m``, the
    raw video a browser's fake camera plays)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    w, h = size
    if path.suffix == ".y4m":
        with open(path, "wb") as fh:
            fh.write(f"YUV4MPEG2 W{w} H{h} F{int(fps)}:1 Ip A1:1 C420jpeg\n".encode())
            for frame in frames:
                fh.write(b"FRAME\n")
                fh.write(cv2.cvtColor(frame, cv2.COLOR_RGB2YUV_I420).tobytes())
        return
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*("mp4v" if path.suffix == ".mp4" else "MJPG")), fps, (w, h))
    if not writer.isOpened():
        raise RuntimeError(f"cannot write video {path}")
    for frame in frames:
        writer.write(frame[..., ::-1])
    writer.release()


def _meld_patterns() -> list[list[str]]:
    """Every kind of meld a row of exposed cards shows: triples, command and field groups of one
    suit, three Soldiers of three suits, and a General alone."""
    out = [[s + r] * 3 for s in "GWYR" for r in "KAERHCP"]
    out += [[s + "K", s + "A", s + "E"] for s in "GWYR"] + [[s + "R", s + "H", s + "C"] for s in "GWYR"]
    out += [[a + "P", b + "P", c + "P"] for a, b, c in ("GWY", "GWR", "GYR", "WYR")]
    out += [[s + "K"] for s in "GWYR"]
    return out


class TurnVideo(GameVideo):
    """A game already under way: each seat's meld rows lie on the table from the first frame (about
    ``cards`` face-up cards in view), and every 3 to 5 s the seat whose turn it is shows a card,
    either in front of itself or near the middle of the table, in turn order (the next player is
    to the right: S, E, N, W). The card shown before it leaves the table, or goes onto its owner's
    discard stack (covering the card there). Ground truth: one ``card_shown`` per card shown; the
    cards there from the start are the table, not events (``start`` lists them).

    >>> video = TurnVideo(seed=3, cards=10, seconds=12, fps=5, size=(320, 180))
    >>> len(video.start), [e["seat"] for e in video.events][:2] in (["S", "E"], ["E", "N"], ["N", "W"], ["W", "S"])
    (10, True)
    """

    def __init__(self, seed: int = 0, cards: int = 30, seconds: float = 60.0, fps: float = 10.0,
                 size: tuple[int, int] = (1280, 720), hands_over: bool = True, font_split: str = "train",
                 centre_share: float = 0.4, style: DeckStyle | None = None, deck=None, life: bool = False,
                 webcam: bool = False):
        self.cards_in_view = cards
        self.centre_share = centre_share
        self.start: list[dict] = []
        super().__init__(seed=seed, seconds=seconds, fps=fps, size=size, hands_over=hands_over,
                         font_split=font_split, style=style, deck=deck, life=life, webcam=webcam)

    def _edge_point(self, seat: str, depth: float, along: float) -> tuple[float, float]:
        """A table point ``depth`` in from ``seat``'s edge and ``along`` it (left to right as that
        seat sees it)."""
        w, h = self.size
        if seat == "S":
            return along, h / 2 - depth
        if seat == "N":
            return -along, -(h / 2 - depth)
        if seat == "E":
            return w / 2 - depth, -along
        return -(w / 2 - depth), along

    def _deal_rows(self, rng: np.random.Generator) -> tuple[dict[str, list[list[str]]], dict[str, int]]:
        """Each seat's exposed melds, about ``cards`` cards in all, from one deck's copies; and the
        copies of each kind left for the cards shown later."""
        left = {c: (DEFAULT_JOKERS if c == "J" else COPIES_PER_PACK) for c in CARD_CODES}
        share = {"S": 0.3, "N": 0.3, "E": 0.2, "W": 0.2}  # the long edges hold more
        patterns = _meld_patterns()
        rows: dict[str, list[list[str]]] = {s: [] for s in SEATS}
        for seat in SEATS:
            want = round((self.cards_in_view - 1) * share[seat])
            have = 0
            while have < want:
                fits = [p for p in patterns if len(p) <= max(want - have, 1)
                        and all(left[c] >= p.count(c) for c in set(p))]
                if not fits:  # the copies left make no meld that small: this seat shows fewer cards
                    break
                meld = fits[int(rng.integers(len(fits)))]
                for c in meld:
                    left[c] -= 1
                rows[seat].append(list(meld))
                have += len(meld)
        return rows, left

    def _script(self, step: float) -> None:
        rng = self.rng
        w, h = self.size
        cw, ch = self.card_w, self.card_h
        pile = rng.random() < 0.5
        if pile:
            self.slots.append(Slot(None, "center", "pile", 0.0, None, (-0.09 * w, -0.04 * h),
                                   float(rng.uniform(-20, 20))))
        rows, left = self._deal_rows(rng)
        for seat, melds in rows.items():
            width = sum(len(m) * cw * 1.12 + cw * 0.6 for m in melds) - cw * 0.6
            along = -width / 2 + cw * 0.56
            for meld in melds:
                for code in meld:
                    x, y = self._edge_point(seat, ch * 0.62, along)
                    self.slots.append(Slot(code, seat, "meld", 0.0, None, (x, y), ANGLE[seat] + float(rng.normal(0, 1.5))))
                    self.start.append({"card": code, "seat": seat})
                    along += cw * 1.12
                along += cw * 0.6
        deck = [c for c, n in left.items() for _ in range(n)]
        rng.shuffle(deck)
        seat = SEATS[int(rng.integers(4))]
        t = float(rng.uniform(2.0, 3.0))
        shown: Slot | None = None
        stack_top: dict[str, Slot | None] = {s: None for s in SEATS}
        while t < self.seconds - 2.0 and deck:
            if shown is not None:  # the card shown last: taken away, or onto its owner's discard stack
                shown.vanish = t - float(rng.uniform(0.3, 1.0))
                if rng.random() < 0.5:
                    x, y = self._edge_point(shown.seat, ch * 1.8, -0.16 * (w if shown.seat in "SN" else h))
                    top = Slot(shown.code, shown.seat, "discard", shown.vanish, None,
                               (x + float(rng.normal(0, 1.5)), y + float(rng.normal(0, 1.5))),
                               ANGLE[shown.seat] + float(rng.normal(0, 2)))
                    if stack_top[shown.seat] is not None:
                        stack_top[shown.seat].vanish = shown.vanish  # covered: the stack shows its top card
                    stack_top[shown.seat] = top
                    self.slots.append(top)
            code = deck.pop()
            if rng.random() < self.centre_share:  # near the middle, a little toward its seat
                dx, dy = {"S": (0, 1), "N": (0, -1), "E": (1, 0), "W": (-1, 0)}[seat]
                toward = float(rng.uniform(0.0, 0.07)) * h
                pos = (dx * toward + 0.05 * w + float(rng.normal(0, 0.02 * w)),
                       dy * toward + float(rng.normal(0, 0.02 * h)))
            else:  # in front of its seat
                x, y = self._edge_point(seat, ch * 1.8, float(rng.uniform(0.02, 0.1)) * (w if seat in "SN" else h))
                pos = (x, y)
            shown = Slot(code, seat, "shown", t, None, pos, ANGLE[seat] + float(rng.normal(0, 4)))
            self.slots.append(shown)
            self.events.append({"t": round(t, 3), "type": "card_shown", "card": code, "seat": seat})
            seat = seat_after(seat)
            t += float(rng.uniform(3.0, 5.0))
        self.end = t

    def write(self, path: str | Path, truth: str | Path | None = None) -> dict:
        record = super().write(path, None)
        record["start"] = self.start
        record["cards_in_view"] = self.cards_in_view
        if truth:
            Path(truth).write_text(json.dumps(record, indent=1))
        return record
