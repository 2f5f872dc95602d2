"""Faces cut from a photo of the deck laid out in the documented grid."""

import cv2
import numpy as np
import pytest

from sisepai.datasets.design.standin import standin_deck
from sisepai.datasets.scenes.grid_photo import TABLE_KINDS
from sisepai.datasets.scenes.grid_photo import grid_photo as table_grid_photo
from sisepai.faces.deck import DeckError
from sisepai.vision.decks.grid import GRID_COLUMNS, GRID_ROWS, cut_grid


def grid_photo(deck, joker: bool, tilt: float = 3.0, drop: str | None = None) -> np.ndarray:
    """The deck's faces on a dark wooden-looking table in the grid, each turned a little; BGR."""
    rng = np.random.default_rng(0)
    w = 70
    h = int(w * deck.aspect)
    rows = 5 if joker else 4
    table = np.full((rows * (h + 40) + 60, 7 * (w + 40) + 60, 3), (35, 60, 90), np.uint8)
    table = np.clip(table + rng.normal(0, 6, table.shape), 0, 255).astype(np.uint8)
    codes = [[f"{s}{r}" for r in GRID_COLUMNS] for s in GRID_ROWS] + ([["J"]] if joker else [])
    for r, row in enumerate(codes):
        for c, code in enumerate(row):
            if code == drop:
                continue
            face = cv2.resize(deck.faces[code], (w, h))[..., ::-1]
            if (r + c) % 3 == 0:
                face = np.ascontiguousarray(face[::-1, ::-1])  # either way up
            cx, cy = 50 + c * (w + 40) + w / 2, 50 + r * (h + 40) + h / 2
            M = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-tilt, tilt), 1.0)
            M[:, 2] += (cx - w / 2, cy - h / 2)
            mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), M, table.shape[1::-1])
            warped = cv2.warpAffine(face, M, table.shape[1::-1])
            table[mask > 127] = warped[mask > 127]
    return table


@pytest.fixture(scope="module")
def deck():
    return standin_deck(0, "tune", width=70)


def test_grid_gives_each_face_in_its_place(deck):
    faces = cut_grid([grid_photo(deck, joker=True)], finder="colour")
    assert len(faces) == 29
    def look(img):  # blurred past the halftone screen, at one size
        return cv2.GaussianBlur(cv2.resize(img, (40, 160), interpolation=cv2.INTER_AREA), (0, 0), 2).astype(np.float32)

    def distance(a, b):  # either way up
        return min(np.abs(a - b).mean(), np.abs(a - b[::-1, ::-1]).mean())

    for code in faces:
        cut = look(faces[code])
        nearest = min(deck.faces, key=lambda o: distance(cut, look(deck.faces[o])))
        assert nearest == code


def test_a_missing_card_is_named_by_its_cell(deck):
    with pytest.raises(DeckError, match=r"row 2, column 3 \(WE\): no card"):
        cut_grid([grid_photo(deck, joker=False, drop="WE")], finder="colour")


def test_a_grid_too_short_says_its_layout_once(deck):
    photo = grid_photo(deck, joker=False)
    with pytest.raises(DeckError) as err:
        cut_grid([photo[: photo.shape[0] // 2]], finder="colour")  # two rows of the four
    assert str(err.value).count("4 rows of 7") == 1, str(err.value)


def test_two_photos_read_as_one_tall_photo(deck):
    photo = grid_photo(deck, joker=False)
    half = photo.shape[0] // 2
    faces = cut_grid([photo[:half], photo[half:]], finder="colour")
    assert len(faces) == 28


def test_a_face_on_a_scanner_bed_is_cut_to_the_card_and_cut_faces_stay():
    from sisepai.datasets.design.standin import TUNE_DECKS
    from sisepai.vision.decks.trim import trim_face

    for k in range(TUNE_DECKS):
        deck = standin_deck(k, "tune", width=80)
        for code, face in deck.faces.items():  # cut to their edges, frames and bands included
            assert trim_face(face).shape == face.shape, (k, code)
    face = standin_deck(1, "tune", width=80).faces["YH"]
    h, w = face.shape[:2]
    bed = np.full((h + 120, w + 160, 3), 246, np.uint8)
    M = cv2.getRotationMatrix2D((w / 2, h / 2), 2.0, 1.0)
    M[:, 2] += (80, 60)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), M, bed.shape[1::-1])
    bed[mask > 127] = cv2.warpAffine(face, M, bed.shape[1::-1])[mask > 127]
    cut = trim_face(bed)
    assert abs(cut.shape[0] - h) <= 4 and abs(cut.shape[1] - w) <= 4
    assert np.abs(cv2.resize(cut, (w, h)).astype(float) - face).mean() < 20


def _centre_error(cut, photo) -> dict[str, float]:
    """Each cut face's outline centre's distance from the card's true centre, in card widths."""
    width = float(np.median([np.linalg.norm(o[1] - o[0]) for o in photo.outlines.values()]))
    return {code: float(np.linalg.norm(box.mean(0) - photo.outlines[code].mean(0))) / width
            for code, (_, box) in cut.outlines.items()}


HARD_TABLES = ("white cloth", "red cloth", "lime cloth", "tiled floor")
"""Tables close to a suit's colour, or busy: the default run cuts on these; the plain ones (felt,
wood, dark blue) run with the slow tests."""


@pytest.mark.model
@pytest.mark.parametrize("table", [t if t in HARD_TABLES else pytest.param(t, marks=pytest.mark.slow) for t in TABLE_KINDS])
def test_the_detector_cuts_the_grid_on_every_table(recognizer, table):
    """Felt, wood, cloths close to a suit's colour, a tiled floor: every face in its own cell. The
    colour finder alone gets 7 of these 24 photos right (three tuning decks)."""
    for k in range(3):
        deck = standin_deck(k, "tune", width=120)
        photo = table_grid_photo(deck, table, seed=3)
        cut = cut_grid([photo.image], recognizer)
        assert cut.finder == "detector" and set(cut) == set(photo.outlines)
        errors = _centre_error(cut, photo)
        assert max(errors.values()) < 0.4, (k, {c: round(e, 2) for c, e in errors.items() if e >= 0.4})


@pytest.mark.model
def test_a_missing_card_and_an_extra_object_are_named(recognizer):
    deck = standin_deck(1, "tune", width=120)
    photo = table_grid_photo(deck, "medium wood", seed=4, drop=("YH",))
    with pytest.raises(DeckError, match=r"row 3, column 5 \(YH\): no card"):
        cut_grid([photo.image], recognizer, "detector")
    photo = table_grid_photo(deck, "medium wood", seed=4)
    image = photo.image.copy()
    x, y = photo.outlines["RH"].mean(0)
    w = float(np.linalg.norm(photo.outlines["RH"][1] - photo.outlines["RH"][0]))
    cv2.circle(image, (int(x + 1.8 * w), int(y + 2.5 * w)), int(w), (240, 240, 240), -1)  # a cup on the table
    cut = cut_grid([image], recognizer, "detector")  # not card-shaped: left out, and the grid is whole
    assert len(cut) == len(photo.outlines)


def test_cards_lying_on_each_other_are_reported():
    from sisepai.vision.decks.grid import place_in_grid

    def box(x, y):
        return np.float32([[x, y], [x + 20, y], [x + 20, y + 80], [x, y + 80]])

    boxes = [(0, box(30 * c + (-16 if (r, c) == (1, 1) else 0), 100 * r)) for r in range(4) for c in range(7)]
    cells, problems, notes = place_in_grid(boxes)  # WA slid half onto WK
    assert problems == ["row 2, column 1 (WK) and row 2, column 2 (WA): the cards touch or overlap; leave a gap"]


@pytest.mark.model
def test_two_cards_swapped_get_a_note_each_and_a_grid_laid_right_none(recognizer):
    """WK and WA laid in each other's cells: the grid is whole, but the cut says which cells to
    check; the same grid laid right gets no note."""
    from sisepai.faces.deck import DeckFaces

    deck = standin_deck(0, "tune", width=120)
    faces = dict(deck.faces)
    faces["WK"], faces["WA"] = deck.faces["WA"], deck.faces["WK"]
    swapped = table_grid_photo(DeckFaces(faces), "green felt", seed=2, joker=False)
    cut = cut_grid([swapped.image], recognizer, "detector")
    assert any(n.startswith("row 2, column 1 (WK): looks like White Advisor (WA)") for n in cut.notes), cut.notes
    assert any(n.startswith("row 2, column 2 (WA): looks like White General (WK)") for n in cut.notes), cut.notes
    clean = cut_grid([table_grid_photo(deck, "green felt", seed=2, joker=False).image], recognizer, "detector")
    assert clean.notes == []


def test_a_sure_misreading_is_no_doubt_but_a_swap_is():
    from sisepai.vision.decks.grid import cell_is_doubtful

    # a real deck's seal soldier surely read as a general, the general's own cell read right
    misread = {"GP": ("GK", 0.999), "GK": ("GK", 0.998), "WK": ("WK", 0.99)}
    assert not any(cell_is_doubtful(misread, c) for c in misread)
    swapped = {"GP": ("GK", 0.95), "GK": ("GP", 0.93), "WK": ("WK", 0.99)}
    assert [c for c in swapped if cell_is_doubtful(swapped, c)] == ["GP", "GK"]
    assert not cell_is_doubtful({"GP": ("GK", 0.5), "GK": ("GP", 0.99)}, "GP")  # too unsure to doubt


def _barred_face(seed: int, width: int = 66) -> np.ndarray:
    """A face scanned to its edges with plain black bars printed along both long edges (a
    Taiwanese-style printing), RGB."""
    from sisepai.datasets.design.families import apply_family, draw_family
    from sisepai.datasets.design.render import DeckStyle, render_face

    style = DeckStyle.random(np.random.default_rng(seed), printed=True)
    family = draw_family(np.random.default_rng(seed), "taiwanese")
    family["edge_bars"], family["bar_ornament"] = 0.12, "none"
    apply_family(style, family)
    style.corner, style.wear = 0.0, 0.0
    return np.ascontiguousarray(render_face("YR", style, width).image[..., :3])


@pytest.mark.parametrize("seed", [1, 4, 5])  # faces the bed-only trim cut 4-9 px narrower
def test_a_face_with_black_bars_along_its_long_edges_keeps_them(seed):
    from sisepai.vision.decks.trim import trim_face

    face = _barred_face(seed)
    assert face[:, :3].mean() < 80 and face[:, -3:].mean() < 80  # the bars are there
    assert trim_face(face).shape == face.shape
    h, w = face.shape[:2]
    bed = np.full((h + 80, w + 80, 3), 244, np.uint8)
    bed[40:40 + h, 40:40 + w] = face
    cut = trim_face(bed)  # the bed is cut, the bars stay
    assert abs(cut.shape[0] - h) <= 3 and abs(cut.shape[1] - w) <= 3
    assert cut[h // 3:2 * h // 3, :3].mean() < 90 and cut[h // 3:2 * h // 3, -3:].mean() < 90


def test_the_real_tuning_decks_faces_stay_as_they_were_scanned():
    from sisepai.datasets.design.splits import real_deck_folder
    from sisepai.faces.deck import DeckFaces
    from sisepai.vision.decks.trim import trim_face

    folder = real_deck_folder("tu-sac-scans")
    if folder is None:
        pytest.skip("the real tuning deck is not on this machine")
    for code, face in DeckFaces.load(folder).faces.items():
        assert trim_face(face).shape == face.shape, code


def _face_with_bars(aspect: float, bars: float, width: int = 120) -> np.ndarray:
    """A face printed with black bars along both long edges (a Taiwanese-style printing)."""
    import cv2

    h = int(width * aspect)
    face = np.full((h, width, 3), (235, 200, 60), np.uint8)
    b = int(width * bars)
    face[:, :b] = 20
    face[:, width - b:] = 20
    for y in (int(width * 0.9), h - int(width * 0.3)):
        cv2.putText(face, "K", (width // 4, y), cv2.FONT_HERSHEY_SIMPLEX, 2.5, (200, 30, 30), 8)
    return face


@pytest.mark.parametrize("aspect", [3.5, 6.0])
@pytest.mark.parametrize("bars", [0.0, 0.06, 0.12])
@pytest.mark.parametrize("bed,margin", [(None, 0), (245, 3), (245, 30), (30, 3), (30, 30), (10, 8)])
def test_trimming_keeps_printed_bars_and_the_scans_own_proportions(aspect, bars, bed, margin):
    """Only plain bed is cut: a face with black bars along its long edges, cut to its edges or on
    a light or dark bed (where the bars merge with the margin), keeps at least 97% of its width,
    and so the face's proportions are the scan's own, at 1:3.5 and 1:6 alike."""
    from sisepai.vision.decks.trim import trim_face

    face = _face_with_bars(aspect, bars)
    scan = face if bed is None else np.pad(face, ((margin, margin), (margin, margin), (0, 0)), constant_values=bed)
    cut = trim_face(scan)
    assert cut.shape[1] >= 0.97 * face.shape[1], (cut.shape, face.shape)
    assert abs(cut.shape[0] / cut.shape[1] - aspect) < 0.05 * aspect
