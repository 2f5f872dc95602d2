"""The recogniser of an enrolled deck: the shared detector with that deck's reader, loaded once."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool

from sisepai.engine.errors import SisepaiError
from sisepai.vision.decks.recognizer import deck_recognizer
from sisepai.vision.recognition.recognize import Recognizer

from .deps import DeckRecognizersDep, ModelErrorDep, RecognizerDep
from .refusals import Refusal

MAX_DECK_RECOGNIZERS = 4
"""Enrolled decks' readers kept loaded at once (each about 5 MB); the oldest is dropped."""


async def cached_deck_recognizer(base: Recognizer | None, model_error: str | None, cache: dict[str, Recognizer],
                          deck: str | None) -> Recognizer:
    """The recogniser for an enrolled ``deck`` (``base``, the service's, when None or empty), loaded
    once in a worker thread into ``cache``. A deck name is only ever a name, never a path:
    :func:`sisepai.vision.decks.store.check_name` refuses anything else."""

    if base is None:
        raise Refusal(503, "model_not_loaded", "the recognition model is not loaded: " + (model_error or "disabled"))
    if not deck:
        return base
    if deck not in cache:
        try:  # the service's settings and detector; this deck's reader, and its detector if it has one
            rec = await run_in_threadpool(deck_recognizer, deck, base)
        except SisepaiError as exc:  # an unknown deck (or a name that is no name)
            raise Refusal(404, exc.code, str(exc)[:200], **exc.params) from None
        while len(cache) >= MAX_DECK_RECOGNIZERS:
            cache.pop(next(iter(cache)))
        cache[deck] = rec
    return cache[deck]


class DeckReaders:
    """A dependency: ``await readers(deck)`` gives that deck's recogniser (see :func:`cached_deck_recognizer`)."""

    def __init__(self, base: RecognizerDep, model_error: ModelErrorDep, cache: DeckRecognizersDep):
        self.base, self.model_error, self.cache = base, model_error, cache

    async def __call__(self, deck: str | None):
        return await cached_deck_recognizer(self.base, self.model_error, self.cache, deck)

    def forget(self, deck: str) -> None:
        """Drop a deck's loaded reader (the deck was enrolled again)."""
        self.cache.pop(deck, None)
