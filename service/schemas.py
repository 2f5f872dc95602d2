"""Request bodies of the API, with examples for the OpenAPI page.

Every string has a maximum length and every list a maximum size: a request is small by
construction (the :mod:`.guards` middleware also caps the body at 64 KB).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from sisepai.engine.claims import Relation

from .rules import RulesOverrides
from .store import DEFAULT_TABLE

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
READY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"
CARDS = 200
"""Longest text of cards: 21 cards with separators fit in 84 characters (or glyphs, or commas)."""
MELD = 40
NAME = 40
RulesField = str | RulesOverrides


def _rules(default: str = "seesek"):
    return Field(default, examples=["seesek"], description='a preset name (seesek or korean), or '
                 '{"preset": "seesek", "points": {"joker": 5}, "four_card_points": 4, "jokers": 5}')


class ScoreRequest(BaseModel):
    cards: str = Field(..., max_length=CARDS, examples=[WIN], description="the concealed cards, e.g. 'GK GA GE ...'")
    rules: RulesField = _rules()
    exposed: list[Annotated[str, Field(max_length=MELD)]] = Field(default_factory=list, max_length=7, examples=[[]],
                               description="exposed melds, e.g. ['GR GH GC']")
    winning_card: str | None = Field(None, max_length=8, description="the card that completed the hand (korean)")
    claimed: bool = Field(False, description="the winning card was claimed from another player (korean)")


class AdviseRequest(BaseModel):
    cards: str = Field(..., max_length=CARDS, examples=[READY])
    shown: str | None = Field(None, max_length=8, examples=["YK"], description="a card just drawn or discarded")
    relation: Relation = Field("own", examples=["own"])
    exposed: list[Annotated[str, Field(max_length=MELD)]] = Field(default_factory=list, max_length=7)
    visible: str = Field("", max_length=1000, description="other cards face up on the table")
    rules: RulesField = _rules()


class DealRequest(BaseModel):
    players: list[Annotated[str, Field(max_length=NAME)]] = Field(..., min_length=2, max_length=8,
                                                                  examples=[["Ann", "Bo", "Cy", "Di"]])
    winner: str | None = Field(None, max_length=NAME, examples=["Ann"], description="none for a draw game")
    points: int = Field(0, ge=0, le=1000, examples=[11])
    discarder: str | None = Field(None, max_length=NAME, examples=["Bo"],
                                  description="who discarded the winning card; none if drawn")
    rules: str = Field("seesek", max_length=20, description="the preset the deal was scored under")
    cards: str | None = Field(None, max_length=CARDS, description="the winning hand, when auto-scored")
    note: str = Field("", max_length=200)
    table: str = Field(DEFAULT_TABLE, max_length=40, description="the table (room) the deal was played at")


class TableRequest(BaseModel):
    name: str = Field(..., min_length=1, max_length=40, examples=["table 2", "桌子1"],
                      description="letters of any script, digits, spaces and punctuation")


class PlayerRequest(BaseModel):
    name: str = Field(..., examples=["Ann"], min_length=1, max_length=NAME)


class GofBeatsRequest(BaseModel):
    play: str = Field(..., max_length=CARDS, examples=["r5 g5"])
    previous: str = Field(..., max_length=CARDS, examples=["y5 y5"])


class GofScoreRequest(BaseModel):
    left: list[int] = Field(..., min_length=4, max_length=4, examples=[[0, 3, 8, 16]],
                            description="cards left in each of the 4 hands; exactly one is 0 (the winner)")


class GofHandRequest(BaseModel):
    hand: str = Field(..., max_length=CARDS, examples=["g2 y2 r7 vp"])
    on: str | None = Field(None, max_length=CARDS, examples=["r5"], description="the play to beat; none when leading")
    first_lead: bool = False
    next_has_one: bool = False
    opponent_cards: int = Field(16, ge=0, le=16)


# --- answers: what the main routes return, shown on /docs ---------------------------------------

class HealthAnswer(BaseModel):
    status: str = Field(examples=["ok"])
    model: bool = Field(description="whether the recognition model is loaded")
    model_error: str | None = Field(None, description="why it is not, when it is not")


class ScoredMeld(BaseModel):
    cards: list[str] = Field(examples=[["GK", "GA", "GE"]])
    kind: str = Field(examples=["command"])
    points: int
    exposed: bool


class ScoreAnswer(BaseModel):
    """The one shape of a scored hand (:func:`sisepai.engine.scoring.score_answer`)."""

    cards: list[str]
    winning: bool
    points: int | None = Field(None, description="the best split's total; null when not a win")
    melds: list[list[str]] | None = None
    breakdown: list[ScoredMeld] | None = None
    odd: bool | None = Field(None, description="a winning total is odd under See Sek: a check on the cards")


class TableInfo(BaseModel):
    name: str
    created: float
    deals: int


class TablesAnswer(BaseModel):
    default: str
    tables: list[TableInfo]


class PlayerTotal(BaseModel):
    name: str
    total: int


class PlayersPage(BaseModel):
    table: str | None = Field(None, description="the table, or null for the whole club")
    players: list[PlayerTotal]
    count: int = Field(description="players in all, on every page")
    offset: int
    limit: int


class DeckInfo(BaseModel):
    name: str
    aspect: float | None = None
    has_joker: bool | None = None
    created: str | None = None


class DecksAnswer(BaseModel):
    default: str | None = None
    decks: list[DeckInfo]


class JobAnswer(BaseModel):
    job: str | None = None
    name: str
    fraction: float
    message: str
    done: bool
    error: str | None = None


class JobsAnswer(BaseModel):
    jobs: list[JobAnswer]
