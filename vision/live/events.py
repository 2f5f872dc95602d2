"""What the live assistant reports: typed events, each with one JSON form.

Every event has ``t`` (seconds from the start of the source) and a ``type``; ``to_json()`` gives
the dict the CLI prints and the WebSocket sends (``t`` and ``type`` first, then the event's own
fields; a field left ``None`` is left out).

- :class:`TableSeen` (``table``): what lay on the table when the source started (or the page
  connected): one state, no announcements for those cards.
- :class:`CardShown` (``card_shown``): a card turned face up, exactly once per card; ``action`` is
  ``draw`` when the draw pile shrank before it, else ``discard`` (None when its seat is unknown);
  ``turn_said`` names the seat the turn order expected when the table says another (a card missed
  before it, most likely).
- :class:`CardCorrected` (``card_corrected``): a card seen moments ago was misread.
- :class:`CardRemoved` (``card_removed``): a card gone for good.
- :class:`MeldSeen` (``meld``): cards of one seat lying together that form a meld.
- :class:`WinClaimed` (``win_claimed``): a seat laid down a whole winning hand, scored.
- :class:`Advice` (``advice``): what the user's hand can do with a card another seat showed.

>>> CardShown(3.2, "RH", "E", 7, 2.7, "discard").to_json()
{'t': 3.2, 'type': 'card_shown', 'card': 'RH', 'seat': 'E', 'id': 7, 'first_seen': 2.7, 'action': 'discard'}
>>> CardRemoved(9.0, "RH", "E", 7).type
'card_removed'
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    """The fields every event has."""

    t: float
    type: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(self.t, 3), "type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "t" and value is not None:
                out[f.name] = round(value, 3) if isinstance(value, float) else value
        return out


@dataclass(frozen=True)
class TableSeen(Event):
    """The table as it lay when the source started: ``state`` is a :meth:`TableState.to_json`."""

    state: dict
    type: ClassVar[str] = "table"

    def to_json(self) -> dict[str, Any]:
        return {"t": round(self.t, 3), "type": self.type, **{k: v for k, v in self.state.items() if k != "t"}}


@dataclass(frozen=True)
class CardShown(Event):
    card: str
    seat: str
    id: int
    first_seen: float
    action: str | None = None
    turn_said: str | None = None
    type: ClassVar[str] = "card_shown"


@dataclass(frozen=True)
class CardCorrected(Event):
    card: str
    was: str
    seat: str
    id: int
    first_seen: float
    type: ClassVar[str] = "card_corrected"


@dataclass(frozen=True)
class CardRemoved(Event):
    card: str
    seat: str
    id: int
    type: ClassVar[str] = "card_removed"


@dataclass(frozen=True)
class MeldSeen(Event):
    seat: str
    cards: list
    type: ClassVar[str] = "meld"


@dataclass(frozen=True)
class WinClaimed(Event):
    seat: str
    cards: list
    points: int
    melds: list
    claimed: int | None = None
    agree: bool | None = None
    disputed: str | None = None
    type: ClassVar[str] = "win_claimed"


@dataclass(frozen=True)
class Advice(Event):
    """The best claims on a card another seat showed. It carries no sentence of its own: the
    announcement (:func:`~.announce.announce`, in the session's language) says it."""

    claims: list
    card: str = ""
    """The card shown that the claims are on."""
    discard: str | None = None
    """The best discard after the best claim, when it does not win."""
    type: ClassVar[str] = "advice"


EVENT_TYPES: dict[str, type[Event]] = {c.type: c for c in (TableSeen, CardShown, CardCorrected, CardRemoved, MeldSeen,
                                                          WinClaimed, Advice)}
"""Each event class by its ``type``."""


def event_from_json(data: dict[str, Any]) -> Event | None:
    """The typed event of a JSON form (:meth:`Event.to_json`, a log's line), or None for a type
    this version does not know; fields it does not know are left out, and a field the form lacks
    is None (``t`` 0).

    >>> event_from_json({"t": 1.0, "type": "card_removed", "card": "RH", "seat": "E", "id": 7})
    CardRemoved(t=1.0, card='RH', seat='E', id=7)
    """
    cls = EVENT_TYPES.get(data.get("type", ""))
    if cls is None:
        return None
    if cls is TableSeen:
        return TableSeen(float(data.get("t", 0.0)), {k: v for k, v in data.items() if k not in ("t", "type")})
    values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
    missing = {f.name: None for f in fields(cls) if f.name not in data and f.default is MISSING}
    return cls(**{**missing, "t": float(data.get("t", 0.0)), **values})


SPOKEN = ("card_shown", "card_corrected", "meld", "win_claimed", "advice")
"""The event types read aloud."""
