"""Health, scoring and advice."""

from __future__ import annotations

from fastapi import APIRouter

from sisepai.engine.advice import advise
from sisepai.engine.scoring import one_card, prepare_hand, score, score_answer, to_ids
from sisepai.vision.live.announce import page_names

from ..deps import ModelErrorDep, RecognizerDep
from ..rules import network_rules
from ..schemas import AdviseAnswer, AdviseRequest, HealthAnswer, NamesAnswer, ScoreAnswer, ScoreRequest

router = APIRouter(prefix="/api")


@router.get("/health", summary="Is the service up, and is the model loaded?")
async def health(recognizer: RecognizerDep, model_error: ModelErrorDep) -> HealthAnswer:
    return HealthAnswer(status="ok", model=recognizer is not None, model_error=model_error)


@router.post("/score", summary="Score a hand", description="Is the hand a win, and what does its best split score?")
def score_hand(body: ScoreRequest) -> ScoreAnswer:
    rules = network_rules(body.rules)
    ids, exposed = prepare_hand(body.cards, body.exposed, rules)
    result = score(ids, exposed, rules, winning_card=body.winning_card, self_drawn=not body.claimed)
    return score_answer(ids, exposed, result)


@router.post("/advise", summary="Waits, claims, the best meld and the best discard")
def advise_hand(body: AdviseRequest) -> AdviseAnswer:
    rules = network_rules(body.rules)
    ids, exposed = prepare_hand(body.cards, body.exposed, rules)
    shown = one_card(body.shown) if body.shown else None
    return advise(ids, shown, exposed, to_ids(body.visible) if body.visible else [], body.relation, rules).to_dict()


@router.get("/names", summary="The cards and seats as the page shows them",
            description="The card kinds in order, suits, ranks and copy limits from the engine; each card's "
                        "names in English, Chinese (simplified and traditional) and Vietnamese and its character; the claims in words; the seats' labels.")
def names() -> NamesAnswer:
    return page_names()
