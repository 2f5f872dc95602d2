"""House rules as one value: a scoring preset plus options. Presets are data (``presets/*.toml``).

>>> Rules.preset("seesek").points["quad"]
2
>>> Rules.preset("seesek", four_card_points=4).points["four_soldiers"]
4
>>> Rules.preset("tusac").points["triple"], Rules.preset("tusac").points["triple_exposed"]
(3, 1)
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .cards import DEFAULT_JOKERS, JOKER, MAX_JOKERS, NUM_KINDS
from .errors import RulesError

PRESET_DIR = Path(__file__).with_name("presets")
FORMER_NAMES = {"korean": "tusac"}
"""Names a preset or deal went by before, still taken: ``tusac`` was called ``korean`` after the
Korean-language page it comes from, though it is the Vietnamese game (``docs/rules.md``)."""
POINT_KEYS = (
    "single_general", "joker", "pair", "command", "field", "triple", "triple_exposed",
    "three_soldiers", "quad", "quad_exposed", "quad_general", "four_soldiers",
)
"""Every scoring key a preset must give."""
FOUR_CARD_KEYS = ("quad", "quad_exposed", "quad_general", "four_soldiers")
OPTION_KEYS = (
    "allow_general_pair", "packs", "jokers", "hand_size", "deal", "misdeal",
    "distinguish_exposed", "stop_at", "description",
)


def _preset_data(path: Path) -> dict[str, Any]:
    """A built-in preset's table, read once (a game deals with its rules thousands of times)."""

    return copy.deepcopy(_cached_preset(path))


@lru_cache(maxsize=16)
def _cached_preset(path: Path) -> dict[str, Any]:
    return _load_preset_file(path)


def _load_preset_file(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise RulesError(f"rules file not found: {path}") from None
    except IsADirectoryError:
        raise RulesError(f"{path} is a folder, not a rules file") from None
    except OSError as exc:
        raise RulesError(f"cannot read rules file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules file {path} is not valid TOML: {exc}") from None


def preset_names() -> list[str]:
    """Names of the built-in presets.

    >>> preset_names()
    ['seesek', 'tusac']
    """
    return sorted(p.stem for p in PRESET_DIR.glob("*.toml"))


def is_preset_name(name: str) -> bool:
    """Whether ``name`` names a built-in preset, by its name or a former one.

    >>> is_preset_name("tusac"), is_preset_name("korean"), is_preset_name("poker")
    (True, True, False)
    """
    return FORMER_NAMES.get(name, name) in preset_names()


@dataclass(frozen=True)
class Rules:
    """Scoring points and game options. Build with :meth:`preset` or :meth:`from_toml`.

    ``points`` maps each key of :data:`POINT_KEYS` to its value. ``distinguish_exposed`` says
    whether exposed triples and quads score differently from concealed ones (the tusac preset).
    """

    name: str = "seesek"
    points_items: tuple[tuple[str, int], ...] = ()
    allow_general_pair: bool = False
    packs: int = 1
    jokers: int = DEFAULT_JOKERS
    hand_size: int = 21
    deal: str = "seesek"
    misdeal: bool = False
    distinguish_exposed: bool = False
    stop_at: int = 0
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.points_items:
            object.__setattr__(self, "points_items", Rules.preset("seesek").points_items)
        missing = set(POINT_KEYS) - {k for k, _ in self.points_items}
        if missing:
            raise RulesError(f"rules {self.name!r} give no points for: {', '.join(sorted(missing))}")
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise RulesError(f"jokers must be 0 to {MAX_JOKERS}, got {self.jokers}")
        if not 1 <= self.packs <= 3:
            raise RulesError(f"packs must be 1 to 3, got {self.packs}")
        if self.deal not in ("seesek", "tusac"):
            raise RulesError(f"deal must be 'seesek' or 'tusac', got {self.deal!r}")

    @property
    def points(self) -> dict[str, int]:
        """Points per scoring key, as a new dict."""
        return dict(self.points_items)

    @property
    def copies(self) -> int:
        """Copies of each card kind in the deck."""
        return 4 * self.packs

    def copies_of(self, kind: int) -> int:
        """How many of card kind ``kind`` (0-27, or the joker) the deck holds.

        >>> rules = Rules(jokers=5)
        >>> rules.copies_of(0), rules.copies_of(JOKER)
        (4, 5)
        """
        return self.jokers if kind == JOKER else self.copies

    @property
    def copy_limits(self) -> list[int]:
        """:meth:`copies_of` each kind, in kind order: the most a hand or a table can hold."""
        return [self.copies_of(k) for k in range(NUM_KINDS)]

    @classmethod
    def preset(cls, name: str = "seesek", **options: Any) -> "Rules":
        """A built-in preset, with options (``four_card_points=4``, ``jokers=8``) applied.

        >>> Rules.preset("korean").name  # its former name
        'tusac'
        """
        name = FORMER_NAMES.get(name, name)
        path = PRESET_DIR / f"{name}.toml"
        if not path.is_file():
            raise RulesError(f"unknown rules preset {name!r}; choose one of: {', '.join(preset_names())}")
        return cls._from_mapping(_preset_data(path), options)

    @classmethod
    def from_toml(cls, path: str | Path, **options: Any) -> "Rules":
        """Rules from a small TOML file: ``preset = "seesek"``, options, and a ``[points]`` table.

        Only the keys given override the preset::

            preset = "seesek"
            allow_general_pair = true
            [points]
            quad = 4
        """
        data = _load_preset_file(Path(path))
        base_name = data.pop("preset", data.get("name", "seesek"))
        base_name = FORMER_NAMES.get(base_name, base_name)
        if "deal" in data:
            data["deal"] = FORMER_NAMES.get(data["deal"], data["deal"])
        base_path = PRESET_DIR / f"{base_name}.toml"
        if not base_path.is_file():
            raise RulesError(f"{path}: unknown preset {base_name!r}; choose one of: {', '.join(preset_names())}")
        base = _preset_data(base_path)
        merged = {**base, **{k: v for k, v in data.items() if k != "points"}}
        merged["points"] = {**base["points"], **data.get("points", {})}
        merged.setdefault("name", base_name)
        return cls._from_mapping(merged, options)

    @classmethod
    def _from_mapping(cls, data: Mapping[str, Any], options: Mapping[str, Any]) -> "Rules":
        points = dict(data.get("points", {}))
        unknown_points = set(points) - set(POINT_KEYS)
        if unknown_points:
            raise RulesError(
                f"unknown scoring key(s) {', '.join(sorted(unknown_points))}; known: {', '.join(POINT_KEYS)}"
            )
        opts = dict(options)
        four = opts.pop("four_card_points", None)
        if four is not None:
            for key in FOUR_CARD_KEYS:
                points[key] = int(four)
        for key, value in points.items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"points for {key!r} must be an integer, got {value!r}")
        kwargs = {k: data[k] for k in OPTION_KEYS if k in data}
        unknown = set(data) - set(OPTION_KEYS) - {"points", "name"}
        if unknown:
            raise RulesError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        bad_opts = set(opts) - set(OPTION_KEYS)
        if bad_opts:
            raise RulesError(f"unknown rules option(s): {', '.join(sorted(bad_opts))}")
        kwargs.update(opts)
        return cls(
            name=str(data.get("name", "custom")),
            points_items=tuple(sorted(points.items())),
            **kwargs,
        )

    def with_options(self, **options: Any) -> "Rules":
        """A copy with some options changed."""
        return replace(self, **options)


def resolve_rules(rules: "Rules | str | None" = None, config: str | Path | None = None, **options: Any) -> Rules:
    """Rules from a preset name or a TOML path; ``None`` means the seesek default.

    >>> resolve_rules("tusac").name
    'tusac'
    """
    if isinstance(rules, Rules):
        return rules.with_options(**options) if options else rules
    if config is not None:
        return Rules.from_toml(config, **options)
    if rules is not None and (str(rules).endswith(".toml")):
        return Rules.from_toml(rules, **options)
    return Rules.preset(rules or "seesek", **options)
