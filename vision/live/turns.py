"""Whose turn it is, as the table shows it: the seat after the last card shown, or the seat that
claimed it (the engine's turn order, :func:`sisepai.engine.cards.seat_after`).

>>> turns = TurnOrder()
>>> turns.shown("S", track=7); turns.turn
'E'
>>> turns.melded("N", {7, 8, 9}); turns.turn  # North claimed South's card: North plays next
'N'
"""

from __future__ import annotations

from sisepai.engine.cards import SEATS, seat_after


class TurnOrder:
    """The seat expected to show the next card (``turn``, once known) and the track of the last
    card shown (``last_shown``), to spot its claim."""

    def __init__(self) -> None:
        self.turn: str | None = None
        self.last_shown: int | None = None

    def shown(self, seat: str, track: int) -> None:
        """A card of ``seat`` was shown (as track ``track``): the next seat plays."""
        if seat in SEATS:
            self.turn = seat_after(seat)
        self.last_shown = track

    def followed(self, old: int, new: int) -> None:
        """Track ``new`` is the card track ``old`` was."""
        if old == self.last_shown:
            self.last_shown = new

    def melded(self, seat: str, tracks: set[int] | frozenset[int]) -> None:
        """``seat`` laid a meld of ``tracks``: when it holds the card shown last, it claimed it and plays next."""
        if self.last_shown in tracks:
            self.turn = seat
