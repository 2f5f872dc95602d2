"""Gang of Four endpoints."""

from __future__ import annotations

from fastapi import APIRouter

from sisepai.engine.gangoffour.advice import advise_play
from sisepai.engine.gangoffour.cards import parse_gof_hand
from sisepai.engine.gangoffour.legal import legal_plays, may_pass
from sisepai.engine.gangoffour.plays import beats, parse_play
from sisepai.engine.gangoffour.scoring import deal_scores

from ..schemas import (
    GofAdviceAnswer,
    GofBeatsAnswer,
    GofBeatsRequest,
    GofHandRequest,
    GofLegalAnswer,
    GofScoreRequest,
    GofScoresAnswer,
)

router = APIRouter(prefix="/api/gof", tags=["gang of four"])


@router.post("/beats", summary="Does a play beat the previous one?")
def gof_beats(body: GofBeatsRequest) -> GofBeatsAnswer:
    play, previous = parse_play(body.play), parse_play(body.previous)
    return {"beats": beats(play, previous), "play": play.kind, "previous": previous.kind}


@router.post("/score", summary="Scores for the cards left in each hand")
def gof_score(body: GofScoreRequest) -> GofScoresAnswer:
    return {"scores": deal_scores(body.left)}


_hand = parse_gof_hand


@router.post("/legal", summary="Every legal play from a hand")
def gof_legal(body: GofHandRequest) -> GofLegalAnswer:
    hand = _hand(body.hand)
    current = parse_play(body.on) if body.on else None
    plays = legal_plays(hand, current, first_lead=body.first_lead, next_has_one_card=body.next_has_one)
    return {"plays": [p.to_dict() for p in plays],
            "can_pass": may_pass(hand, current, next_has_one_card=body.next_has_one)}


@router.post("/advise", summary="Suggest a play and say why")
def gof_advise(body: GofHandRequest) -> GofAdviceAnswer:
    hand = _hand(body.hand)
    current = parse_play(body.on) if body.on else None
    return advise_play(hand, current, first_lead=body.first_lead, next_has_one_card=body.next_has_one,
                  opponents_min_cards=body.opponent_cards).to_dict()
