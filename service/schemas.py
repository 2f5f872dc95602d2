"""Request bodies of the API, with examples for the OpenAPI page.

Every string has a maximum length and every list a maximum size: a request is small by
construction (the :mod:`.guards` middleware also caps the body at 64 KB).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Field

from sisepai.engine.claims import Relation
from sisepai.ledger.roster import DEFAULT_TABLE
from sisepai.vision.recognition.detections import CardSeen  # the wire format of a card, written once

from .rules import RulesOverrides

if TYPE_CHECKING:
    from sisepai.vision.hand.scoring import HandReading
    from sisepai.vision.recognition.recognize import Recognition

WIN = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC YK"
READY = "GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP J WC WC WC"
CARDS = 200
"""Longest text of cards: 21 cards with separators fit in 84 characters (or glyphs, or commas)."""
MELD = 40
NAME = 40
RulesField = str | RulesOverrides


def _rules(default: str = "seesek"):
    return Field(default, examples=["seesek"], description='a preset name (seesek or tusac), or '
                 '{"preset": "seesek", "points": {"joker": 5}, "four_card_points": 4, "jokers": 5}')


class ScoreRequest(BaseModel):
    cards: str = Field(..., max_length=CARDS, examples=[WIN], description="the concealed cards, e.g. 'GK GA GE ...'")
    rules: RulesField = _rules()
    exposed: list[Annotated[str, Field(max_length=MELD)]] = Field(default_factory=list, max_length=7, examples=[[]],
                               description="exposed melds, e.g. ['GR GH GC']")
    winning_card: str | None = Field(None, max_length=8, description="the card that completed the hand (tusac)")
    claimed: bool = Field(False, description="the winning card was claimed from another player (tusac)")


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
    points: int = Field(0, ge=0, le=1000, strict=True, examples=[11],
                        description="a whole number (not true or false); 0 for a draw")
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


class RenameRequest(BaseModel):
    name: str = Field(..., examples=["ann"], min_length=1, max_length=NAME, description="the name now")
    to: str = Field(..., examples=["Ann"], min_length=1, max_length=NAME, description="the new name")


class MergeRequest(BaseModel):
    name: str = Field(..., examples=["Annie"], min_length=1, max_length=NAME,
                      description="the name that goes: its deals and totals move to `into`")
    into: str = Field(..., examples=["Ann"], min_length=1, max_length=NAME, description="the name that stays")


class RosterChange(BaseModel):
    kind: str = Field(description="player or table")
    action: str = Field(description="rename, merge, retire or delete")
    name: str = Field(description="the name changed, as it was stored")
    to: str | None = Field(None, description="a rename's new name")
    into: str | None = Field(None, description="a merge's name that stays")


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


class RecognizeAnswer(BaseModel):
    width: int
    height: int
    cards: list[CardSeen]
    backs: int = Field(description="face-down cards seen")
    ms: float = Field(description="the recogniser's time for this picture")

    @classmethod
    def from_recognition(cls, result: Recognition) -> "RecognizeAnswer":
        """The answer for one picture's :class:`~sisepai.vision.recognition.recognize.Recognition`."""
        return cls.model_validate(result.summary(), from_attributes=True)


class UnsureCardAnswer(BaseModel):
    """A card of a finished hand to ask the user about (:class:`sisepai.vision.hand.scoring.UnsureCard`)."""

    index: int = Field(description="its place in `cards`")
    card: str
    alternatives: list[str] = Field(description='likeliest first; "none": not a card')
    confidence: float | None = None
    alternative: str | None = None
    points_if_alternative: int | None = None
    missed: bool = Field(False, description="no card was seen here; the hand needs one")


class RunnerUp(BaseModel):
    cards: list[str]
    points: int


class ClaimAnswer(BaseModel):
    """A claimed score checked (:class:`sisepai.engine.scoring.ClaimCheck`)."""

    claimed: int
    agrees: bool
    points_read: int | None
    disputed_meld: list[str] | None = None
    reading_for_claim: list[str] | None = None


class HandAnswer(BaseModel):
    """A photographed finished hand, read as a whole (:class:`sisepai.vision.hand.scoring.HandReading`)."""

    width: int
    height: int
    ms: float
    cards: list[str]
    winning: bool
    points: int | None = None
    melds: list[list[str]] | None = None
    unsure: list[UnsureCardAnswer]
    runner_up: RunnerUp | None = None
    margin: float | None = None
    timed_out: bool = False
    claimed: ClaimAnswer | None = None

    @classmethod
    def from_reading(cls, result: Recognition, reading: HandReading) -> "HandAnswer":
        """The answer for a picture's recognition and its finished hand's reading (whose JSON shape,
        :meth:`~sisepai.vision.hand.scoring.HandReading.to_dict`, the CLI's ``--json`` shares)."""
        return cls(width=result.width, height=result.height, ms=round(result.ms, 1), **reading.to_dict())


class CardNames(BaseModel):
    model_config = {"populate_by_name": True}

    en: str = Field(examples=["Red Chariot"])
    zh: str = Field(examples=["红俥"], description="in simplified characters")
    zh_hant: str = Field(alias="zh-Hant", examples=["紅俥"], description="in traditional characters")
    zh_hk: str = Field(alias="zh-HK", examples=["紅俥"], description="in Hong Kong's Cantonese usage")
    vi: str = Field(examples=["Xe đỏ"])
    glyph: str = Field(examples=["俥"], description="the character a standard deck prints; empty for the joker")
    glyph_zh: str = Field(examples=["俥"], description="the same in simplified characters")


class NamesAnswer(BaseModel):
    """The engine's card and seat tables, as the page shows them (:func:`sisepai.vision.live.announce.page_names`)."""

    kinds: list[str] = Field(description="every card kind, in class-id order")
    suits: list[str]
    ranks: list[str]
    copies: int = Field(description="copies of each kind in a pack")
    jokers: int = Field(description="jokers in a standard deck")
    hand_size: int = Field(description="the most cards a hand holds (a winning hand's count); a shown card to claim is one more")
    zones: list[str] = Field(description="the seats in turn order, then the centre")
    seats: dict[str, dict[str, str]] = Field(description="each language's label for each zone")
    cards: dict[str, CardNames]
    claims: dict[str, dict[str, str]] = Field(description="each language's words for each claim (zhimo, hu, gan, ...)")
    gof_copies: dict[str, int] = Field(description="Gang of Four's cards, in order, with the copies its deck holds")


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


class DeckCheck(BaseModel):
    """How the enrolled deck read whole scenes kept aside (its faces as given, never trained on)."""
    f1_before: float = Field(description="F1 over every layout with the shipped networks")
    f1: float = Field(description="F1 over every layout with the deck's own networks")
    layouts: dict[str, float] = Field(description="F1 of each layout after enrolment: table, hand, fan, held")
    weakest: str = Field(description="the layout read worst after enrolment")
    scenes_per_layout: int
    camera2_f1: float | None = Field(None, description="F1 after enrolment on the same faces through a second "
                                     "camera (a generator written apart from the project's), where it was read")
    camera2_f1_before: float | None = Field(None, description="the same before enrolment")


def second_camera_figures(second: dict | None) -> dict:
    """The second camera's F1 after and before enrolment, as :class:`DeckCheck` gives them.

    >>> second_camera_figures({"before": {"all": {"f1": 0.7}}, "after": {"all": {"f1": 0.83}}})
    {'camera2_f1': 0.83, 'camera2_f1_before': 0.7}
    >>> second_camera_figures(None)
    {}
    """
    if not second:
        return {}
    return {"camera2_f1": second["after"]["all"]["f1"], "camera2_f1_before": second["before"]["all"]["f1"]}


class DeckInfo(BaseModel):
    name: str
    aspect: float | None = None
    has_joker: bool | None = None
    created: str | None = None
    check: DeckCheck | None = Field(None, description="the whole-scene check, for decks enrolled with one")

    @classmethod
    def from_deck_json(cls, info: dict) -> "DeckInfo":
        """The public part of a deck's ``deck.json``."""
        check = info.get("scene_check")
        return cls(name=info["name"], aspect=info.get("aspect"), has_joker=info.get("has_joker"),
                   created=info.get("created"),
                   check=DeckCheck(f1_before=check["before"]["all"]["f1"], f1=check["after"]["all"]["f1"],
                                   layouts={k: v["f1"] for k, v in check["after"].items() if k != "all"},
                                   weakest=check["weakest"], scenes_per_layout=check["scenes_per_layout"],
                                   **second_camera_figures(check.get("camera2")))
                   if check else None)


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
    cancelled: bool = False
    code: str | None = Field(None, description="``enrol_failed`` when it failed: the page's words for ``error``")
    seconds_left: float | None = Field(None, description="the time still needed, from the pace of the steps done")


class JobsAnswer(BaseModel):
    jobs: list[JobAnswer]


class Wait(BaseModel):
    card: str = Field(examples=["GK"])
    unseen: int = Field(description="copies of it not yet seen")


class ClaimOption(BaseModel):
    claim: str = Field(examples=["own-group"])
    priority: int
    meld: list[str]
    wins: bool


class DiscardAdvice(BaseModel):
    card: str
    distance: int = Field(description="cards from a win after this discard")
    waits: list[Wait]
    live_waits: int


class BestMove(BaseModel):
    claim: ClaimOption | None = None
    discard: DiscardAdvice | None = None
    distance: int
    wins: bool
    points: int | None = None


class AdviseAnswer(BaseModel):
    """Advice for a hand (:meth:`sisepai.engine.advice.Advice.to_dict`)."""

    distance: int = Field(description="cards from a win (0: ready, -1: a win)")
    waits: list[Wait]
    claims: list[ClaimOption] = Field(description="the claims the shown card allows")
    best: BestMove | None = None
    discard: DiscardAdvice | None = None


class GofBeatsAnswer(BaseModel):
    beats: bool
    play: str = Field(examples=["pair"])
    previous: str


class GofScoresAnswer(BaseModel):
    scores: list[int]


class GofPlay(BaseModel):
    kind: str = Field(examples=["pair"])
    cards: list[str]


class GofLegalAnswer(BaseModel):
    plays: list[GofPlay]
    can_pass: bool


class GofAdviceAnswer(BaseModel):
    play: list[str] | None = Field(None, description="the cards to play; null to pass")
    kind: str | None = None
    reason: str


class NameAnswer(BaseModel):
    name: str


class PaymentAnswer(BaseModel):
    payer: str
    payee: str
    amount: int


class DealRecorded(BaseModel):
    id: int
    table: str
    winner: str | None = Field(description="null for a deal nobody won")
    points: int
    payments: list[PaymentAnswer]
    repeat: bool = Field(False, description="the same deal (winner, players, discarder, rules, points and cards) was the table's last already: this is "
                         "that deal, and nothing was written")


class DealSeen(BaseModel):
    """A deal as the ledger lists it."""

    id: int
    created: float
    winner: str | None
    points: int
    rules: str
    source: str = Field(description='"manual" (typed) or "auto" (scored from its cards)')
    note: str
    cards: str | None = None
    table: str
    players: list[str]
    payments: list[PaymentAnswer]


class LedgerAnswer(BaseModel):
    table: str
    players: list[str]
    deals: list[DealSeen]
    totals: dict[str, int]
    players_count: int
    club_totals: dict[str, int]
    club_players_count: int


class DealRemoved(BaseModel):
    id: int
    table: str
    winner: str | None
    points: int


class UndoAnswer(BaseModel):
    removed: DealRemoved


class EnrolStarted(BaseModel):
    job: str
    name: str


class NoteCode(BaseModel):
    code: str = Field(description="the catalogue's key for the note")
    params: dict[str, Any] = {}


class CutFace(BaseModel):
    code: str = Field(examples=["GK"])
    image: str = Field(description="a small PNG of the face, as a data: URL")


class CutAnswer(BaseModel):
    """A grid of photos cut into a deck's faces, kept as a draft for ``POST /api/decks``."""

    draft: str
    notes: list[str] = Field(description="one line per cell to look at")
    note_codes: list[NoteCode]
    faces: list[CutFace]

    @classmethod
    def from_notes(cls, draft: str, notes: list, faces: list[CutFace]) -> "CutAnswer":
        """The answer for a cut grid: each note (:class:`~sisepai.vision.decks.grid.Note`, or a plain
        line) as its words and as its catalogue code and params."""
        return cls(draft=draft, notes=[str(n) for n in notes], faces=faces,
                   note_codes=[NoteCode(code=getattr(n, "code", "note"), params=getattr(n, "params", {})) for n in notes])
