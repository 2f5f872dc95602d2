"""Table zones and ``TableState``: which cards lie where (seats S, E, N, W and the centre).

By default S is the bottom edge of the frame, E the right, N the top, W the left: a point belongs
to the seat whose edge is nearest, in pixels, so the zones fit the frame's aspect. Points farther
than ``0.5 - center`` of the frame's short side from every edge are the centre (draw pile and
shown cards): a band as deep as each seat's zone, wide on a wide frame. A calibration file can mark each zone's
polygon instead::

    {"zones": {"S": [[0, 0.7], [1, 0.7], [1, 1], [0, 1]], "N": ..., "E": ..., "W": ..., "center": ...}}

Coordinates at or below 1.0 are fractions of the frame; larger ones are pixels.

>>> zones = Zones()
>>> zones.zone_of((640, 700), 1280, 720), zones.zone_of((640, 360), 1280, 720), zones.zone_of((20, 360), 1280, 720)
('S', 'center', 'W')
>>> zones.zone_of((1000, 540), 1280, 720), zones.zone_of((1150, 540), 1280, 720)  # 180 px from S; 280 / 130 px from E
('S', 'E')
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES, SEATS
from sisepai.engine.errors import SisepaiError


class Zones:
    def __init__(self, polygons: dict[str, list[list[float]]] | None = None, center: float = 0.15):
        self.polygons = polygons
        self.center = center

    @classmethod
    def load(cls, path: str | Path) -> "Zones":
        try:
            data = json.loads(Path(path).read_text())
        except FileNotFoundError:
            raise SisepaiError(f"calibration file not found: {path}") from None
        except json.JSONDecodeError as exc:
            raise SisepaiError(f"calibration file {path} is not JSON: {exc}") from None
        zones = data.get("zones", data) if isinstance(data, dict) else None
        if not isinstance(zones, dict) or not zones:
            raise SisepaiError(f"{path}: expected {{\"zones\": {{\"S\": [[x, y], ...], ...}}}}")
        for name, poly in zones.items():
            if name not in (*SEATS, "center"):
                raise SisepaiError(f"{path}: unknown zone {name!r} (use S, E, N, W, center)")
            if not isinstance(poly, list) or len(poly) < 3:
                raise SisepaiError(f"{path}: zone {name} needs a polygon of at least 3 points")
        return cls(zones)

    def zone_of(self, point, width: int, height: int) -> str:
        x, y = float(point[0]), float(point[1])
        if self.polygons:
            for name, poly in self.polygons.items():
                pts = np.float32(poly)
                if pts.max() <= 1.0:
                    pts = pts * [width, height]
                if cv2.pointPolygonTest(pts.astype(np.float32).reshape(-1, 1, 2), (x, y), False) >= 0:
                    return name
        d = {"S": height - y, "N": y, "E": width - x, "W": x}  # in pixels: the zones fit the frame's aspect
        seat = min(d, key=d.get)
        return "center" if d[seat] > (0.5 - self.center) * min(width, height) else seat


@dataclass(frozen=True)
class TrackedCard:
    """A card the table follows, as the live socket and ``watch --json`` give it (the service's
    schema is this class)."""

    __pydantic_config__ = {"use_attribute_docstrings": True}  # a plain dict: vision needs no pydantic

    id: int
    """its track, the same from frame to frame"""
    card: str
    """its kind, e.g. GK"""
    zone: str
    """N E S W or center"""
    confidence: float
    polygon: list[list[float]]


@dataclass(frozen=True)
class CardOnTable:
    """One card followed on the table: its track ``id``, the card (a class id, as the engine
    counts it; a code only at the edge, in :meth:`tracked`), its zone, how surely it is read, and
    its outline in the frame.

    >>> CardOnTable(4, 16, "S", 0.91, np.float32([[0, 0], [2, 0], [2, 8], [0, 8]])).tracked().card
    'YE'
    """

    id: int
    card_id: int
    zone: str
    confidence: float
    polygon: np.ndarray

    def tracked(self) -> TrackedCard:
        """This card in the wire format."""
        return TrackedCard(self.id, CARD_CODES[self.card_id], self.zone, round(self.confidence, 3),
                           np.round(self.polygon, 1).tolist())


@dataclass
class TableState:
    """One value the service can send as JSON: every tracked card and what the table holds."""

    t: float
    width: int
    height: int
    cards: list[CardOnTable] = field(default_factory=list)
    pile: int = 0
    shown: list[str] = field(default_factory=list)
    melds: dict[str, list[list[str]]] = field(default_factory=lambda: {s: [] for s in SEATS})
    discards: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SEATS})
    skipped: int = 0
    """Frames the source gave that the session had no time for, so far."""
    behind: float = 0.0
    """Seconds this frame was behind its source's clock when it was taken up."""

    def to_json(self) -> dict:
        return {"t": round(self.t, 3), "width": self.width, "height": self.height,
                "cards": [asdict(c.tracked()) for c in self.cards],
                "pile": self.pile, "shown": self.shown, "melds": self.melds, "discards": self.discards,
                "skipped": self.skipped, "behind": round(self.behind, 3)}
