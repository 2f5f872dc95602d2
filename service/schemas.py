"""Request bodies of the API, with examples for the OpenAPI page."""

from __future__ import annotations

from pydantic import BaseModel, Field

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
READY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"


class ScoreRequest(BaseModel):
    cards: str = Field(..., examples=[WIN], description="the concealed cards, e.g. 'GK GA GE ...'")
    rules: str = Field("seesek", examples=["seesek"], description="seesek or korean")
    exposed: list[str] = Field(default_factory=list, examples=[[]], description="exposed melds, e.g. ['GR GH GC']")
    winning_card: str | None = Field(None, description="the card that completed the hand (korean)")
    claimed: bool = Field(False, description="the winning card was claimed from another player (korean)")


class AdviseRequest(BaseModel):
    cards: str = Field(..., examples=[READY])
    shown: str | None = Field(None, examples=["YK"], description="a card just drawn or discarded")
    relation: str = Field("own", examples=["own"], description="own, previous or other")
    exposed: list[str] = Field(default_factory=list)
    visible: str = Field("", description="other cards face up on the table")
    rules: str = Field("seesek")


class DealRequest(BaseModel):
    players: list[str] = Field(..., examples=[["Ann", "Bo", "Cy", "Di"]])
    winner: str | None = Field(None, examples=["Ann"], description="none for a draw game")
    points: int = Field(0, ge=0, le=1000, examples=[11])
    discarder: str | None = Field(None, examples=["Bo"], description="who discarded the winning card; none if drawn")
    rules: str = Field("seesek")
    cards: str | None = Field(None, description="the winning hand, when auto-scored")
    note: str = Field("", max_length=200)


class PlayerRequest(BaseModel):
    name: str = Field(..., examples=["Ann"], min_length=1, max_length=40)


class GofBeatsRequest(BaseModel):
    play: str = Field(..., examples=["r5 g5"])
    previous: str = Field(..., examples=["y5 y5"])


class GofScoreRequest(BaseModel):
    left: list[int] = Field(..., examples=[[0, 3, 8, 16]], description="cards left in each hand")


class GofHandRequest(BaseModel):
    hand: str = Field(..., examples=["g2 y2 r7 vp"])
    on: str | None = Field(None, examples=["r5"], description="the play to beat; none when leading")
    first_lead: bool = False
    next_has_one: bool = False
    opponent_cards: int = Field(16, ge=0, le=16)
