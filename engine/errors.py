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
    """Base class of every error the engine raises on bad input.

    Besides its English sentence, an error carries a ``code`` and its ``params``, so a page can say
    it in the player's language. A code with params names one sentence (``unknown_card`` with its
    ``token``); without, the class's code names a sentence that needs none.

    >>> e = InvalidCardError("unknown card 'XK'", code="unknown_card", token="XK")
    >>> e.code, e.params, str(e)
    ('unknown_card', {'token': 'XK'}, "unknown card 'XK'")
    >>> InvalidCardError("no").code, InvalidCardError("no").params
    ('invalid_card', {})
    """

    code = "bad_input"

    def __init__(self, *args: object, code: str | None = None, **params: object) -> None:
        super().__init__(*args)
        if params and code is None:
            raise TypeError("params need the code of the sentence they fill")
        self.code = code or type(self).code
        self.params = dict(params)


class InvalidCardError(SisepaiError):
    """A token that is not a card (``XK``, ``G9``)."""

    code = "invalid_card"


class TooManyCopiesError(SisepaiError):
    """More copies of a card (or more jokers) than the deck holds."""

    code = "too_many_copies"


class TooManyCardsError(SisepaiError):
    """A hand bigger than the rules allow (21 cards in Four Color Cards, 16 in Gang of Four)."""

    code = "too_many_cards"


class InvalidMeldError(SisepaiError):
    """A group of cards that is not a meld; the message says why."""

    code = "not_a_meld"


class RulesError(SisepaiError):
    """A bad preset name, option or rules TOML file."""

    code = "bad_rules"


class IllegalMoveError(SisepaiError):
    """A move that is well formed but not legal in the current state."""

    code = "illegal_move"


class InvalidMoveError(SisepaiError):
    """A move whose text cannot be parsed."""

    code = "bad_move"
