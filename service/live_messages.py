"""What the live socket (``/api/live``) sends, one schema each: the table's state after a frame, a
frame skipped while the server is busy, and an error. The OpenAPI document lists them
(:func:`add_to_openapi`), since a WebSocket route has no response schema of its own.

>>> LiveError(detail="no live session: send valid options first", code="no_session").to_json()["type"]
'error'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from sisepai.vision.live.announce import event_message
from sisepai.vision.live.table import TrackedCard  # the wire format of a followed card, written once
from sisepai.vision.recognition.detections import CardSeen  # and of a card seen

if TYPE_CHECKING:
    from sisepai.vision.live.events import Event
    from sisepai.vision.live.table import TableState
    from sisepai.vision.recognition.recognize import Recognition


class LiveMessage(BaseModel):
    def to_json(self) -> dict:
        return self.model_dump(mode="json")


class LiveError(LiveMessage):
    """A message or frame refused (the connection stays open unless the session cannot start)."""

    type: Literal["error"] = "error"
    detail: str
    code: str = Field(description="the catalogues' key for the error")
    params: dict[str, Any] = {}


class LiveBusy(LiveError):
    """A frame skipped: every recognition worker was busy."""

    type: Literal["busy"] = "busy"
    dropped: int = Field(description="frames dropped so far on this connection")


class LiveEvent(BaseModel):
    """Something that happened at the table (:mod:`sisepai.vision.live.events`): a card shown,
    corrected or removed, a meld, a win, a claim's advice. Its own fields (``card``, ``seat``,
    ``points``...) come with it."""

    model_config = ConfigDict(extra="allow")

    t: float = Field(description="seconds since the stream started")
    type: str = Field(examples=["card_shown"])
    text: str = Field(description="the event said in the session's language")


class LiveState(LiveMessage):
    """The table after one frame, what the frame showed, and the events it brought."""

    type: Literal["state"] = "state"
    t: float
    width: int
    height: int
    cards: list[TrackedCard]
    pile: int = Field(description="face-down cards of the draw pile seen")
    shown: list[str] = Field(description="the cards in the middle")
    melds: dict[str, list[list[str]]] = Field(description="each seat's melds on the table")
    discards: dict[str, list[str]]
    skipped: int = Field(description="frames skipped so far to keep up")
    behind: float = Field(description="seconds the reading is behind the camera")
    detections: list[CardSeen] = Field(description="what this frame showed, read card by card")
    events: list[LiveEvent]
    ms: float
    dropped: int
    table: str | None = Field(None, description="the club table the session records to")


    @classmethod
    def from_step(cls, state: TableState, events: list[Event], result: Recognition, lang: str, dropped: int,
                  table: str | None) -> "LiveState":
        """The message for one frame's :class:`~sisepai.vision.live.session.Step`: the table, what
        the frame showed, and its events, each with its announcement in ``lang``."""
        return cls(**state.to_json(), detections=result.detections.cards(),
                   events=[event_message(e, lang) for e in events],
                   ms=round(result.ms, 1), dropped=dropped, table=table)


MESSAGES = (LiveState, LiveBusy, LiveError)


def add_to_openapi(app: FastAPI) -> None:
    """List the live socket's messages among the OpenAPI document's schemas."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is not None:
            return app.openapi_schema
        doc = build()
        schemas = doc.setdefault("components", {}).setdefault("schemas", {})
        for model in MESSAGES:
            schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            schemas.update(schema.pop("$defs", {}))
            schemas[model.__name__] = schema
        app.openapi_schema = doc
        return doc

    app.openapi = openapi
