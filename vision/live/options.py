"""What a live session is opened with, checked in one place: ``sisepai watch``'s arguments and the
page's WebSocket (its query, or a first JSON message) fill the same :class:`LiveOptions`.

>>> opts = LiveOptions.from_mapping({"rules": "tusac", "hand": "GK GA GE", "seat": "E", "claimed": "9"})
>>> opts.rules, opts.seat, opts.claimed
('tusac', 'E', 9)
>>> LiveOptions.from_mapping({"hand": "GK ZZ"})
Traceback (most recent call last):
...
sisepai.vision.live.options.LiveOptionsError: hand: unknown card 'ZZ': use a suit G/W/Y/R then a rank ...
>>> LiveOptions.from_mapping({"hand": " ".join(["GK"] * 25)})
Traceback (most recent call last):
...
sisepai.vision.live.options.LiveOptionsError: hand: 25 cards, but a hand holds at most 21
>>> LiveOptions.from_mapping({"hand": "J J J J J J"})
Traceback (most recent call last):
...
sisepai.vision.live.options.LiveOptionsError: hand: 6 jokers, but the deck has only 5
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from sisepai.engine.cards import SEATS
from sisepai.engine.errors import SisepaiError
from sisepai.engine.rules import Rules, is_preset_name, preset_names, resolve_rules
from sisepai.engine.scoring import check_hand
from sisepai.vision.decks.store import check_name
from sisepai.vision.live.assistant import TableAssistant
from sisepai.vision.live.session import VideoSession
from sisepai.vision.live.table import Zones

from .announce import LANGUAGES

MAX_TEXT = 400
"""Longest text an option may hold (a 21-card hand is 62 characters)."""
FIELDS = ("rules", "hand", "seat", "claimed", "deck", "table", "zones", "lang")
CHANGEABLE = ("hand", "seat", "claimed", "lang")
"""Options a running session takes in a later message; the others are fixed when it opens."""


class LiveOptionsError(SisepaiError):
    """A live option that cannot be used, with a message for the player."""

    code = "live_options"


@dataclass(frozen=True)
class LiveOptions:
    """The choices a live session is built from (see the module)."""

    rules: str = "seesek"
    hand: str | None = None
    seat: str = "S"
    claimed: int | None = None
    deck: str | None = None
    table: str | None = None
    zones: dict[str, list[list[float]]] | None = field(default=None, hash=False)
    lang: str = "en"
    """The language of the events' ``text`` (en, zh or vi)."""
    rules_file: bool = field(default=False, repr=False)
    """``rules`` may name a TOML file: only for options from the command line, never the network."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: "LiveOptions | None" = None,
                     allowed: tuple[str, ...] = FIELDS) -> "LiveOptions":
        """Options from a query or a JSON message (``base`` for what it leaves out), checked.

        An unknown or fixed field, a bad value, a hand over the rules' size or an unknown card
        raises :class:`LiveOptionsError`, naming the field."""
        base = base or cls()
        unknown = [k for k in values if k not in FIELDS]
        if unknown:
            raise LiveOptionsError(f"unknown live option {str(unknown[0])[:20]!r} (known: {', '.join(FIELDS)})")
        fixed = [k for k in values if k not in allowed]
        if fixed:
            raise LiveOptionsError(f"{fixed[0]} is chosen when the stream opens; reconnect to change it")
        changes: dict[str, Any] = {}
        for key, value in values.items():
            if key == "zones":
                changes[key] = _zones(value)
            elif key == "claimed":
                changes[key] = _claimed(value)
            else:
                if value is not None and not isinstance(value, str):
                    raise LiveOptionsError(f"{key}: expected text")
                if value is not None and len(value) > MAX_TEXT:
                    raise LiveOptionsError(f"{key}: over {MAX_TEXT} characters")
                changes[key] = (value or "").strip() or None
        if changes.get("seat") is None and "seat" in changes:
            changes["seat"] = "S"
        if changes.get("rules") is None and "rules" in changes:
            changes["rules"] = "seesek"
        if changes.get("lang") is None and "lang" in changes:
            changes["lang"] = "en"
        opts = replace(base, **changes)
        opts.check()
        return opts

    @classmethod
    def from_args(cls, args) -> "LiveOptions":
        """Options from ``sisepai watch``'s arguments (``--seats FILE`` read as the zones)."""
        zones = Zones.load(args.seats).polygons if getattr(args, "seats", None) else None
        return cls.from_mapping({"rules": args.rules, "hand": args.hand, "seat": args.seat,
                                 "claimed": args.claimed, "deck": getattr(args, "deck", None), "zones": zones},
                                base=cls(rules_file=True))

    def check(self) -> None:
        """Raise :class:`LiveOptionsError` for options no session can use."""

        rules = self.resolved_rules()
        if self.lang not in LANGUAGES:
            raise LiveOptionsError(f"lang: one of {', '.join(LANGUAGES)}, not {self.lang[:8]!r}")
        if self.seat not in SEATS:
            raise LiveOptionsError(f"seat: one of {', '.join(SEATS)}, not {self.seat[:8]!r}")
        if self.hand:
            try:
                check_hand(self.hand, rules)
            except SisepaiError as exc:
                raise LiveOptionsError(f"hand: {exc}", code=exc.code, **exc.params) from None
        if self.deck is not None:
            try:
                check_name(self.deck)
            except SisepaiError as exc:
                raise LiveOptionsError(f"deck: {exc}", code=exc.code, **exc.params) from None

    def resolved_rules(self):
        """The :class:`~sisepai.engine.rules.Rules` these options name."""

        if is_preset_name(self.rules):
            return Rules.preset(self.rules)
        if self.rules_file and self.rules.endswith(".toml"):
            try:
                return resolve_rules(self.rules)
            except (SisepaiError, OSError) as exc:
                raise LiveOptionsError(f"rules: {exc}") from None
        raise LiveOptionsError(f"rules: unknown rules {self.rules[:40]!r} (known: {', '.join(preset_names())})")

    def assistant(self):
        """The :class:`~.assistant.TableAssistant` these options make."""

        return TableAssistant(Zones(self.zones) if self.zones else Zones(), hand=self.hand, user_seat=self.seat,
                              rules=self.resolved_rules(), claimed=self.claimed)

    def session(self, recognizer):
        """A :class:`~.session.VideoSession` of ``recognizer`` (already the deck's, when one is named)."""

        return VideoSession(recognizer, self.assistant())

    def apply_to(self, assistant) -> None:
        """Give a running session's assistant the changeable options (hand, seat, claimed score)."""
        assistant.set_hand(self.hand, self.seat)
        assistant.claimed = self.claimed


def _claimed(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        points = int(value)
    except (TypeError, ValueError):
        raise LiveOptionsError("claimed: a whole number of points") from None
    if not 0 <= points <= 10_000:
        raise LiveOptionsError("claimed: between 0 and 10000 points")
    return points


def _zones(value: Any) -> dict[str, list[list[float]]] | None:
    if value in (None, {}):
        return None
    if not isinstance(value, dict) or len(value) > 5:
        raise LiveOptionsError('zones: {"S": [[x, y], ...], ...} with at most the zones S, E, N, W, center')
    out = {}
    for name, poly in value.items():
        if name not in (*SEATS, "center"):
            raise LiveOptionsError(f"zones: unknown zone {str(name)[:10]!r} (use S, E, N, W, center)")
        if not isinstance(poly, list) or not 3 <= len(poly) <= 64 or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in poly):
            raise LiveOptionsError(f"zones: zone {name} needs a polygon of 3 to 64 [x, y] points")
        out[name] = [[float(x), float(y)] for x, y in poly]
    return out

