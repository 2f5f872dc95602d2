"""Seats from the table's geometry: which zone a card lies in, and whose card it is.

A card in a seat's zone is that seat's; near the middle it is the seat it was seen coming from,
else the seat whose turn it is; with no turn known, the card's own lie tells (a card lies along
the line from its player to the middle).

>>> import numpy as np
>>> from types import SimpleNamespace
>>> seats = SeatGeometry(Zones())
>>> seats.size = (1280, 720)
>>> card = SimpleNamespace(polygon=np.float32([[620, 560], [650, 560], [650, 680], [620, 680]]),
...                        center=np.float32([635, 620]))
>>> seats.zone(card), seats.seat(card, "S", turn=None), seats.pointed_seat(card)
('S', 'S', 'S')
"""

from __future__ import annotations

import numpy as np

from sisepai.engine.cards import SEATS, seat_after

from .table import Zones

ARRIVAL_LENGTHS = 1.0
"""A card seen on its way in over at least this many of its lengths came from the seat it left."""
ARRIVAL_COSINE = 0.8
"""... when its path runs this straight from that seat towards the middle."""


class SeatGeometry:
    """The table's zones at the frame's ``size``, and the seat each card belongs to."""

    def __init__(self, zones: Zones):
        self.zones = zones
        self.size = (1, 1)

    def zone(self, tr) -> str:
        """The zone a card's centre lies in."""
        return self.zones.zone_of(tr.center, *self.size)

    def seat(self, tr, zone: str, turn: str | None) -> str:
        """Whose card this is: the zone's seat; near the middle, the seat whose turn it is, or
        with no turn known yet, the seat the card points at. A card in a seat's zone that lies
        across that seat's line to the middle, and along the line of the seat whose turn it is, on
        that seat's side of the frame, is that seat's: laid at the corner between them (unless
        ``--seats`` drew the zones).

        Near the middle, the turn and the card's lie must agree: a card lying across the line of
        the seat whose turn it is was laid by a later seat (a card before it was missed), the first
        in turn order along whose line it lies. So one missed card never shifts the next ones."""
        if zone in SEATS:
            if (turn is not None and turn != zone and not self.zones.polygons
                    and not self.lies_along(tr, zone) and self.lies_along(tr, turn) and self.on_side(tr, turn)):
                return turn
            return zone
        came = self.came_from(tr)
        if came is not None:
            return came
        if turn is not None:
            return next((s for s in (seat_after(turn, k) for k in range(4)) if self.lies_along(tr, s)), turn)
        return self.pointed_seat(tr)

    @staticmethod
    def came_from(tr) -> str | None:
        """The seat a card was seen coming from: its path (``tr.origin``, where it was first seen)
        ran at least ARRIVAL_LENGTHS card lengths, from that seat's edge towards the middle.

        >>> from types import SimpleNamespace
        >>> card = np.float32([[600, 340], [720, 340], [720, 370], [600, 370]])
        >>> SeatGeometry.came_from(SimpleNamespace(polygon=card, center=card.mean(0), origin=np.float32([150, 360])))
        'W'
        """
        origin = getattr(tr, "origin", None)
        if origin is None:
            return None
        path = np.asarray(tr.center, np.float32) - np.asarray(origin, np.float32)
        length = float(np.hypot(*SeatGeometry.long_side(tr)))
        if float(np.hypot(*path)) < ARRIVAL_LENGTHS * max(length, 8.0):
            return None
        # the seat lies behind the path's start: a path running down the frame came from North
        away = {"S": (0.0, -1.0), "N": (0.0, 1.0), "E": (-1.0, 0.0), "W": (1.0, 0.0)}
        unit = path / float(np.hypot(*path))
        seat, cos = max(((s, float(np.dot(unit, v))) for s, v in away.items()), key=lambda x: x[1])
        return seat if cos >= ARRIVAL_COSINE else None

    @staticmethod
    def long_side(tr) -> np.ndarray:
        """A card's long side, as a vector."""
        p = tr.polygon
        return max((p[1] - p[0], p[2] - p[1]), key=lambda v: float(np.hypot(*v)))

    def on_side(self, tr, seat: str) -> bool:
        """Whether a card lies in ``seat``'s half of the frame."""
        x, y = float(tr.center[0]), float(tr.center[1])
        w, h = self.size
        return {"S": y > h / 2, "N": y < h / 2, "E": x > w / 2, "W": x < w / 2}[seat]

    def lies_along(self, tr, seat: str) -> bool:
        """Whether a card's long side runs along ``seat``'s line to the middle, as a card laid by
        that seat does: up and down the frame for South and North, across it for East and West."""
        dx, dy = (abs(float(v)) for v in self.long_side(tr))
        return dy >= dx if seat in ("S", "N") else dx > dy

    def pointed_seat(self, tr) -> str:
        """The seat a card near the middle points at: a card is laid along the line from its player
        to the middle, so its long side and the side of the middle it lies on name the seat
        (``center`` when it lies at the very middle)."""
        long_side = self.long_side(tr)
        w, h = self.size
        dx, dy = float(tr.center[0] - w / 2), float(tr.center[1] - h / 2)
        if abs(long_side[1]) >= abs(long_side[0]):  # lies up and down the frame: South or North
            return "center" if abs(dy) < 2 else ("S" if dy > 0 else "N")
        return "center" if abs(dx) < 2 else ("E" if dx > 0 else "W")
