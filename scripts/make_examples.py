"""Write the sample pictures README's first session uses: examples/grid.jpg (a phone photo of a
generated deck laid in its enrolment grid), examples/table.jpg (the same deck on a table cloth in
the middle of a game) and examples/hand.jpg (a finished winning hand of it laid down meld by meld
on a wooden table, 11 points under See Sek). Deterministic: the same files every run.

    .venv/bin/python scripts/make_examples.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import cv2
import numpy as np

from sisepai.datasets.design.render import DeckStyle
from sisepai.datasets.export.flat_photos import _RenderedDeck
from sisepai.datasets.scenes.grid_photo import grid_photo, laid_out_photo
from sisepai.datasets.scenes.scene import make_scene
from sisepai.faces.deck import DeckFaces

OUT = Path(__file__).resolve().parents[1] / "examples"
SEED = 2611  # a training seed: no tuning or test set uses it (datasets/design/splits.py)
WINNING_HAND = [["GK", "GA", "GE", "WK", "WA", "WE", "YK"],    # two command groups, a lone General
                ["YR", "YH", "YC", "RR", "RH", "RC", "J"],     # two field groups, a joker
                ["GP", "WP", "YP", "RP", "WC", "WC", "WC"]]    # four Soldiers, three of a kind
"""The finished hand examples/hand.jpg lays down: a win of 11 points under See Sek."""


def main() -> None:
    OUT.mkdir(exist_ok=True)
    rng = np.random.default_rng(SEED)
    deck = _RenderedDeck(DeckStyle.random(rng, printed=True), 150, rng)
    photo = grid_photo(deck, "medium wood", seed=SEED, size=(1600, 1200), joker=True)
    cv2.imwrite(str(OUT / "grid.jpg"), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    with tempfile.TemporaryDirectory() as tmp:
        for code, face in deck.faces.items():
            cv2.imwrite(str(Path(tmp) / f"{code}.png"), face[..., ::-1])  # the faces are RGB
        faces = DeckFaces.load(Path(tmp))
        scene = make_scene(SEED, 0, "table", deck=faces)
        cv2.imwrite(str(OUT / "table.jpg"), scene.image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])
    hand = laid_out_photo(deck, WINNING_HAND, "medium wood", seed=SEED + 1, size=(1600, 1200))
    cv2.imwrite(str(OUT / "hand.jpg"), hand.image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(f"wrote {', '.join(sorted(p.name for p in OUT.glob('*.jpg')))} to {OUT}")


if __name__ == "__main__":
    main()
