"""Rules as the network may give them: a preset name, or a preset with inline overrides. Never a
path: rules files are a command-line feature (``--rules FILE.toml``), and a server must not open
files a client names.

>>> network_rules("tusac").name
'tusac'
>>> network_rules(RulesOverrides(preset="seesek", four_card_points=4)).points["quad"]
4
>>> network_rules("/etc/passwd.toml")
Traceback (most recent call last):
...
sisepai.engine.errors.RulesError: rules must be a preset name (seesek, tusac) or {"preset", "points", ...}; rules files are for the command line
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from sisepai.engine.errors import RulesError
from sisepai.engine.rules import POINT_KEYS, Rules, is_preset_name, preset_names


class RulesOverrides(BaseModel):
    """A preset with some points or options changed, e.g. ``{"preset": "seesek", "points": {"joker": 5}}``.

    Strict: numbers are whole numbers (``true`` or ``"5"`` is refused, not read as 1 or 5), and a
    key the rules do not have is refused, not ignored."""

    model_config = ConfigDict(extra="forbid")

    preset: StrictStr = Field("seesek", max_length=20)
    points: dict[StrictStr, StrictInt] = Field(default_factory=dict, max_length=len(POINT_KEYS))
    four_card_points: StrictInt | None = Field(None, ge=2, le=4)
    jokers: StrictInt | None = Field(None, ge=0, le=8)


def network_rules(value: "str | RulesOverrides | None") -> Rules:
    """The :class:`Rules` for a request: a preset name, or :class:`RulesOverrides`."""
    if value is None:
        return Rules.preset("seesek")
    if isinstance(value, str):
        if not is_preset_name(value):
            raise RulesError(f"rules must be a preset name ({', '.join(preset_names())}) or "
                             '{"preset", "points", ...}; rules files are for the command line')
        return Rules.preset(value)
    base = network_rules(value.preset)
    unknown = set(value.points) - set(POINT_KEYS)
    if unknown:
        raise RulesError(f"unknown scoring key(s) {', '.join(sorted(unknown))[:200]}; known: {', '.join(POINT_KEYS)}")
    for key, v in sorted(value.points.items()):
        if not 0 <= v <= 100:
            raise RulesError(f"rules.points.{key} must be 0 to 100, got {v}")
    options = {k: v for k, v in (("four_card_points", value.four_card_points), ("jokers", value.jokers)) if v is not None}
    rules = Rules.preset(base.name, **options)
    if value.points:
        rules = rules.with_options(points_items=tuple(sorted({**rules.points, **value.points}.items())))
    return rules
