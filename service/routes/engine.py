"""Health, scoring and advice."""

from __future__ import annotations

from fastapi import APIRouter

from sisepai.engine.advice import advise
from sisepai.engine.scoring import _prepare, one_card, score, to_ids
from sisepai.vision.live.announce import all_names

from ..deps import ModelErrorDep, RecognizerDep
from ..rules import network_rules
from ..schemas import AdviseRequest, ScoreRequest

router = APIRouter(prefix="/api")


@router.get("/health", summary="Is the service up, and is the model loaded?")
async def health(recognizer: RecognizerDep, model_error: ModelErrorDep) -> dict:
    return {"status": "ok", "model": recognizer is not None, "model_error": model_error}


@router.post("/score", summary="Score a hand", description="Is the hand a win, and what does its best split score?")
def score_hand(body: ScoreRequest) -> dict:
    rules = network_rules(body.rules)
    ids, exposed = _prepare(body.cards, body.exposed, rules)
    result = score(ids, exposed, rules, winning_card=body.winning_card, self_drawn=not body.claimed)
    return {"cards": _codes(ids) + [c for m in exposed for c in m.codes],
            "winning": result is not None, "points": result.total if result else None,
            "melds": result.meld_codes if result else None, "breakdown": result.to_dict()["melds"] if result else None,
            "odd": result.odd if result else None}


def _codes(ids: list[int]) -> list[str]:
    from sisepai.engine.cards import CARD_CODES

    return [CARD_CODES[i] for i in ids]


@router.post("/advise", summary="Waits, claims, the best meld and the best discard")
def advise_hand(body: AdviseRequest) -> dict:
    rules = network_rules(body.rules)
    ids, exposed = _prepare(body.cards, body.exposed, rules)
    shown = one_card(body.shown) if body.shown else None
    return advise(ids, shown, exposed, to_ids(body.visible) if body.visible else [], body.relation, rules).to_dict()


@router.get("/names", summary="Card names in English, Mandarin and Vietnamese")
def names() -> dict:
    return all_names()
