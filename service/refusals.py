"""Refusals a page can say in its own language: an English sentence, a ``code`` and its ``params``.

Every error answer carries ``{"detail": ..., "code": ..., "params": {...}}``. ``detail`` is the
English sentence for programs and logs; the page looks up ``err.CODE`` in its catalogue
(``engine/i18n/LANG.json``, served at ``/i18n/LANG.json``) and fills in ``params``. The codes a client may meet are the keys of
:data:`CODES`, each with the params its sentence needs; a test checks every catalogue has them all.

>>> exc = Refusal(404, "no_job", "no such job")
>>> exc.status_code, body_of(exc.detail, exc.code, exc.params)
(404, {'detail': 'no such job', 'code': 'no_job', 'params': {}})
>>> body_of("odd", "not_a_code", {})["code"]
'bad_input'
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

CODES: dict[str, tuple[str, ...]] = {
    # the engine's (sisepai.engine.errors): classes, then single sentences
    "bad_input": (), "invalid_card": (), "too_many_copies": (), "too_many_cards": (), "not_a_meld": (),
    "bad_rules": (), "illegal_move": (), "bad_move": (),
    "unknown_card": ("token",), "copies": ("card", "n", "cap"), "hand_size": ("n", "max"), "one_card": ("n",),
    "winning_card_missing": ("card",), "winner_seat": ("seat", "players"), "discarder_seat": ("seat", "players"),
    # the ledger's
    "unknown_table": ("table",), "table_no_deals": ("table",), "method_not_allowed": ("allowed",), "draw_pays": (), "cards_not_winning": ("points",),
    "cards_need_winner": (), "cards_score": ("score", "points"), "not_last_deal": ("deal", "last", "table"), "tables_full": ("max",), "players_full": ("max",),
    "deal_players": (), "points_range": ("min", "max"), "points_not_a_total": ("points", "min", "max"), "winner_not_player": ("name",),
    "discarder_not_player": ("name",), "database_unavailable": (),
    "unknown_player": ("name",), "table_retired": ("table",), "name_taken": ("name",), "table_kept": ("table",),
    "same_name": ("name",), "player_retired": ("name",), "has_deals": ("name",), "played_together": ("name", "into"), "token_needed": (), "token_wait": ("seconds",),
    "writes_closed": (), "ledger_invariant": ("problem",),
    # pictures
    "upload_too_large": ("mb",), "empty_file": (), "image_format": (), "image_pixels": (), "image_unreadable": (),
    # decks
    "model_not_loaded": (), "unknown_deck": ("name",), "deck_name": (), "grid_photos": ("max",),
    "grid_not_whole": (), "deck_faces": (), "no_draft": (), "enrolment_running": ("name",), "deck_exists": ("name",),
    "no_job": (), "job_ended": (), "enrol_start_failed": (), "enrol_failed": (),
    # live streams
    "live_options": (), "live_slots": ("per_client", "total"), "live_idle": ("seconds",),
    "frame_too_large": ("mb",), "no_session": (), "frame_unreadable": (),
    # the service's own
    "invalid_field": (), "busy": (), "internal_error": (), "not_found": (), "bad_request": (), "body_too_large": ("kb",),
    "headers_too_large": ("kb",), "unknown_host": (), "cross_site": (),
}
"""Every code an answer may carry, with the params its sentence is given."""

STATUS_CODES = {400: "bad_request", 404: "not_found", 413: "body_too_large", 503: "busy"}


class Refusal(HTTPException):
    """An HTTP error with a code and params: ``raise Refusal(409, "deck_exists", sentence, name=n)``."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None,
                 **params: Any) -> None:
        super().__init__(status, detail, headers=headers)
        self.code, self.params = code, params


def body_of(detail: str, code: str | None, params: dict[str, Any] | None) -> dict:
    """The JSON of an error answer: a code the catalogues know, with exactly the params it needs
    (an unknown code, or one whose params are missing, becomes the generic ``bad_input``)."""
    needs = CODES.get(code or "")
    params = params or {}
    if needs is None or any(p not in params for p in needs):
        code, needs = "bad_input", ()
    return {"detail": detail, "code": code, "params": {p: _plain(params[p]) for p in needs}}


def http_body(exc: HTTPException) -> dict:
    """:func:`body_of` for any HTTP exception: its own code, else one told from its status."""
    code = getattr(exc, "code", None) or STATUS_CODES.get(exc.status_code, "bad_input")
    return body_of(str(exc.detail), code, getattr(exc, "params", {}))


def _plain(value: Any) -> Any:
    """A param as JSON: numbers stay numbers, anything else becomes text of at most 40 characters."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)[:40]
