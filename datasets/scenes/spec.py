"""What a generated scene is made of, but its seed and index: one value the generator, the
exporters and every caller share (:func:`~.scene.make_scene` takes it).

>>> SceneSpec().size, SceneSpec(plain=True).plain
((1280, 720), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sisepai.faces.deck import DeckFaces

LAYOUTS = ("table", "fan", "hand")
"""The layouts a dataset draws by default (and every measurement's scenes)."""


@dataclass
class SceneSpec:
    """How scenes are drawn (the same for every scene of a dataset)."""

    size: tuple[int, int] = (1280, 720)
    font_split: str = "train"
    layouts: tuple[str, ...] = LAYOUTS
    """The layouts a scene is drawn from when :func:`~.scene.make_scene` is not given one."""
    max_tilt: float = 45.0
    plain: bool = False
    """A flat magenta table with no clutter and no light, blur or noise (the geometry stays): tests
    use it to check labels against pixels."""
    deck: DeckFaces | None = None
    """A real deck's faces (:class:`~sisepai.faces.deck.DeckFaces`) laid instead of the generated
    style's, at that deck's aspect; a deck with no joker face gets the style's."""
    printed: bool | None = None
    """The printed-deck traits of :mod:`.printed` forced on or off (default: on for the training
    fonts only, :meth:`~sisepai.datasets.design.render.DeckStyle.random`); every other choice stays."""
    family: str | None = None
    """Every deck a printing of this family (:mod:`sisepai.datasets.design.families`), in any font split."""
    without_family: str | None = None
    """No deck of this family."""
    photos: str | None = None
    """A folder of photographs a table may be (:func:`~.backgrounds.background`)."""
    scripts: tuple[str, ...] | None = None
    """The scripts printed decks beyond the families are drawn in (:meth:`~sisepai.datasets.design.render.DeckStyle.random`)."""
    script_share: float | None = None
    """On what share of those decks."""
