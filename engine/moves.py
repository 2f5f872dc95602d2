"""Moves of a Four Color Cards game: small values with a text notation, like python-chess's ``Move``.

>>> Move.parse("draw")
Draw()
>>> Move.parse("meld 0 GK GA GE")
MeldMove(player=0, cards=(0, 1, 2))
>>> str(Move.parse("claim 2 WH WH WH"))
'claim 2 WH WH WH'
>>> str(Discard(5))
'discard GC'
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import format_cards, parse_card_id, parse_card_ids
from .errors import InvalidMoveError


@dataclass(frozen=True)
class Draw:
    """The player to move takes the top card of the pile and shows it."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class MeldMove:
    """The drawer melds their own shown draw with 0 to 3 cards of their hand (``cards`` include it)."""

    player: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"meld {self.player} {format_cards(self.cards)}"


@dataclass(frozen=True)
class ClaimMove:
    """Another player claims the shown card for a meld (``cards`` include the shown card)."""

    player: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"claim {self.player} {format_cards(self.cards)}"


@dataclass(frozen=True)
class Pass:
    """A player lets the shown card go."""

    player: int

    def __str__(self) -> str:
        return f"pass {self.player}"


@dataclass(frozen=True)
class Discard:
    """The player to move discards a card from their hand."""

    card: int

    def __str__(self) -> str:
        return f"discard {format_cards([self.card])}"


@dataclass(frozen=True)
class Win:
    """tusac: the dealer declares a win on the dealt 21 cards. The deal counts as the dealer's own
    draw, so this is a win on their own draw (zimo), and every other player pays."""

    player: int

    def __str__(self) -> str:
        return f"win {self.player}"


MoveType = Draw | MeldMove | ClaimMove | Pass | Discard | Win


class Move:
    """Parser for the text notation of moves."""

    @staticmethod
    def parse(text: str) -> MoveType:
        parts = text.split()
        if not parts:
            raise InvalidMoveError("an empty move")
        verb = parts[0].lower()
        try:
            if verb == "draw" and len(parts) == 1:
                return Draw()
            if verb == "discard" and len(parts) == 2:
                return Discard(parse_card_id(parts[1]))
            if verb == "pass" and len(parts) == 2:
                return Pass(int(parts[1]))
            if verb == "win" and len(parts) == 2:
                return Win(int(parts[1]))
            if verb in ("meld", "claim") and len(parts) >= 3:
                cards = tuple(sorted(parse_card_ids(parts[2:])))
                return (MeldMove if verb == "meld" else ClaimMove)(int(parts[1]), cards)
        except ValueError as exc:
            raise InvalidMoveError(f"bad move {text!r}: {exc}") from None
        raise InvalidMoveError(f"bad move {text!r}: use draw, discard CARD, pass P, meld P CARDS, claim P CARDS or win P")
