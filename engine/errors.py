"""The engine's errors. All are ``ValueError`` subclasses, so callers can catch one type.

>>> issubclass(InvalidCardError, ValueError), issubclass(IllegalMoveError, ValueError)
(True, True)
"""


def shorten(text: object, limit: int = 24) -> str:
    """``repr`` of user input cut to ``limit`` characters, for error messages: an error never
    echoes a megabyte back.

    >>> shorten("X" * 1000)
    "'XXXXXXXXXXXXXXXXXXXXXXXX…' (1000 characters)"
    """
    s = str(text)
    return repr(s) if len(s) <= limit else f"{s[:limit]!r}"[:-1] + f"…' ({len(s)} characters)"


class SisepaiError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidCardError(SisepaiError):
    """A token that is not a card (``XK``, ``G9``)."""


class TooManyCopiesError(SisepaiError):
    """More copies of a card (or more jokers) than the deck holds."""


class TooManyCardsError(SisepaiError):
    """A hand bigger than the rules allow (21 cards in Four Color Cards, 16 in Gang of Four)."""


class InvalidMeldError(SisepaiError):
    """A group of cards that is not a meld; the message says why."""


class RulesError(SisepaiError):
    """A bad preset name, option or rules TOML file."""


class IllegalMoveError(SisepaiError):
    """A move that is well formed but not legal in the current state."""


class InvalidMoveError(SisepaiError):
    """A move whose text cannot be parsed."""
