"""Cut a deck's faces from photos of its cards laid out in a grid.

The layout (``sisepai deck add --help`` and the web page show it): one card of each kind, face
up, on a plain table or sheet of a colour unlike the cards, with a gap between cards:

    row 1:  G將  G士  G象  G車  G馬  G包  G卒      (Green:  K A E R H C P)
    row 2:  W將  W士  W象  W車  W馬  W包  W卒      (White)
    row 3:  Y帥  Y仕  Y相  Y俥  Y傌  Y炮  Y兵      (Yellow)
    row 4:  R帥  R仕  R相  R俥  R傌  R炮  R兵      (Red)
    row 5:  J                                       (a joker, when the deck has them)

Cards may stand either way up. Several photos are read in order, as if one tall photo: a photo of
rows 1-2 then one of rows 3-4 works. Each card is found as a long, narrow blob that differs from
the table's colour (the median colour of the picture's border), straightened and turned upright.

>>> import numpy as np
>>> sheet = np.full((700, 900, 3), (40, 110, 40), np.uint8)
>>> for r in range(4):
...     for c in range(7):
...         sheet[30 + r * 160:30 + r * 160 + 140, 30 + c * 120:30 + c * 120 + 40] = 230
>>> faces = cut_grid([sheet], finder="colour")
>>> len(faces), faces["GK"].shape
(28, (139, 39, 3))
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from sisepai.engine.cards import CARD_CODES, Card
from sisepai.faces.deck import ASPECT_RANGE, FACE_CODES, DeckError
from sisepai.vision.recognition.beliefs import card_reading
from sisepai.vision.recognition.end_pairs import pair_lone_ends
from sisepai.vision.recognition.geometry import card_ends, groups_along, inside, order_upright, side_lengths, straighten
from sisepai.vision.recognition.recognize import _default

GRID_ROWS = "GWYR"
GRID_COLUMNS = "KAERHCP"
MIN_CARD_AREA = 0.002
"""A card covers at least this share of the photo."""


def border_colour(lab: np.ndarray, width: int) -> np.ndarray:
    """The median colour of a picture's outer ``width`` pixels on all four sides (any colour space).

    >>> img = np.zeros((20, 20, 3), np.float32); img[:] = 5; img[6:14, 6:14] = 9
    >>> border_colour(img, 4).tolist()
    [5.0, 5.0, 5.0]
    """
    return np.median(np.concatenate([lab[:width].reshape(-1, 3), lab[-width:].reshape(-1, 3),
                                     lab[:, :width].reshape(-1, 3), lab[:, -width:].reshape(-1, 3)]), axis=0)


def table_mask(image_bgr: np.ndarray, tolerance: float = 38.0) -> np.ndarray:
    """Pixels that differ from the table's colour (the median of the picture's border), cleaned."""
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = border_colour(lab, 4)
    mask = (np.linalg.norm(lab - table, axis=2) > tolerance).astype(np.uint8) * 255
    k = max(3, min(image_bgr.shape[:2]) // 200)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))


def find_cards(image_bgr: np.ndarray) -> list[np.ndarray]:
    """The card outlines in a grid photo: rotated rectangles (4x2 corners) of card shape."""
    mask = table_mask(image_bgr)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = image_bgr.shape[0] * image_bgr.shape[1]
    cards = []
    for c in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        if min(w, h) < 8 or w * h < MIN_CARD_AREA * area:
            continue
        if not ASPECT_RANGE[0] <= max(w, h) / min(w, h) <= ASPECT_RANGE[1]:
            continue
        if cv2.contourArea(c) < 0.8 * w * h:  # two cards touching, or a hand in the picture
            continue
        cards.append(cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32))
    return cards


def straighten_card(image_bgr: np.ndarray, box: np.ndarray) -> np.ndarray:
    """The card inside ``box``, warped to an upright (portrait) RGB image at its own resolution."""
    pts = np.float32(box)
    sides = [np.linalg.norm(pts[(i + 1) % 4] - pts[i]) for i in range(4)]
    if sides[0] > sides[1]:  # make the first side a short one: the card's top edge
        pts = np.roll(pts, -1, axis=0)
        sides = sides[1:] + sides[:1]
    w, h = int(round((sides[0] + sides[2]) / 2)), int(round((sides[1] + sides[3]) / 2))
    # start at the top-left corner of the short edge that lies higher in the picture
    if pts[[2, 3], 1].mean() < pts[[0, 1], 1].mean():
        pts = np.roll(pts, 2, axis=0)
    if pts[0, 0] > pts[1, 0]:
        pts = pts[[1, 0, 3, 2]]
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    warped = cv2.warpPerspective(image_bgr, cv2.getPerspectiveTransform(pts, dst), (w, h), flags=cv2.INTER_AREA)
    return np.ascontiguousarray(warped[..., ::-1])


def _long_side(box: np.ndarray) -> float:
    return float(side_lengths(np.float32(box)).max())


def _short_side(box: np.ndarray) -> float:
    return float(side_lengths(np.float32(box)).min())


def detected_cards(image_bgr: np.ndarray, recognizer=None) -> list[np.ndarray]:
    """The card outlines in a grid photo, as the shipped detector finds them: whole cards, and
    two lone ends of one card (any kind) joined into that card. ``recognizer``: a loaded
    :class:`~sisepai.vision.recognition.recognize.Recognizer` (default: the shipped one). A card
    is found by where it lies, not by how surely it reads: the recogniser's reading floors are off
    here (a joker on a cloth of its paper's colour reads unsure), and the readings come back as
    :func:`reading_notes`."""

    rec = (recognizer or _default()).with_changes(min_card_prob=0.0, min_confidence=0.0, min_end_confidence=0.0)
    det = rec.recognize(image_bgr).detections
    cards = [np.float32(p) for p, k in zip(det.polygons, det.kind) if k == "card"]
    ends = [np.float32(p) for p, k in zip(det.polygons, det.kind) if k != "card"]
    # in a grid no card lies on another: two lone ends of one card are joined whatever they read
    rgb = np.ascontiguousarray(image_bgr[..., ::-1])
    for _, _, card in pair_lone_ends(rgb, ends, [0] * len(ends)):
        if not any(inside(c.mean(0), card) for c in cards):
            cards.append(np.float32(card))
    cards = [refine_outline(image_bgr, c) for c in cards]
    return [c for c in cards if ASPECT_RANGE[0] <= _long_side(c) / max(_short_side(c), 1e-3) <= ASPECT_RANGE[1]]


REFINE_SEARCH = 0.12
"""How far (a share of the card's width) an edge of a detected outline may move to the edge in
the photo: the detector's boxes are within a few percent of the card."""
REFINE_SEARCH_LENGTH = 0.08
"""How far (a share of the card's length) an end of a detected outline may move."""


def refine_outline(image_bgr: np.ndarray, box: np.ndarray, work_width: int = 64) -> np.ndarray:
    """``box`` (a card's rotated rectangle) with each of its four sides moved to the strongest
    colour edge near it, so a face is cut without a strip of table and without losing its rim.

    >>> img = np.full((300, 200, 3), (40, 110, 40), np.uint8); img[50:250, 80:130] = 230
    >>> loose = np.float32([[75, 45], [135, 45], [135, 255], [75, 255]])
    >>> tight = refine_outline(img, loose)                  # within a pixel of the card's corners
    >>> bool(np.abs(tight.min(0) - [80, 50]).max() <= 1 and np.abs(tight.max(0) - [130, 250]).max() <= 1)
    True
    """
    pts = np.float32(box)
    sides = [np.linalg.norm(pts[(i + 1) % 4] - pts[i]) for i in range(4)]
    if sides[0] > sides[1]:
        pts = np.roll(pts, -1, axis=0)
    # pts[0]->pts[1] is a short side: u along it (the width), v along the length
    u = pts[1] - pts[0]
    v = pts[3] - pts[0]
    width, length = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if width < 4 or length < 4:
        return pts
    u, v = u / width, v / length
    scale = work_width / width
    m, n = REFINE_SEARCH * width, REFINE_SEARCH_LENGTH * length
    W, H = int(round((width + 2 * m) * scale)), int(round((length + 2 * n) * scale))
    origin = pts[0] - u * m - v * n
    src = np.float32([origin, origin + u * (width + 2 * m), origin + v * (length + 2 * n)])
    dst = np.float32([[0, 0], [W, 0], [0, H]])
    view = cv2.warpAffine(image_bgr, cv2.getAffineTransform(src, dst), (W, H), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32), (0, 0), 1.0)
    gx = np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(2)
    gy = np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)).sum(2)
    mw, ml = int(round(m * scale)), int(round(n * scale))
    cols = gx[ml + int(0.1 * length * scale):H - ml - int(0.1 * length * scale)].mean(0)
    rows = gy[:, mw + int(0.15 * W):W - mw - int(0.15 * W)].mean(1)

    def peak(profile: np.ndarray, at: int, reach: int) -> int:
        """The outermost strong edge near the detector's: a local peak at least half the strongest."""
        lo, hi = max(1, at - reach), min(len(profile) - 1, at + reach + 1)
        window = profile[lo:hi]
        if not len(window):
            return at
        strong = 0.5 * float(window.max())
        peaks = [lo + i for i in range(len(window))
                 if window[i] >= strong and profile[lo + i] >= profile[lo + i - 1] and profile[lo + i] >= profile[lo + i + 1]]
        if not peaks:
            return at
        return min(peaks) if at < len(profile) / 2 else max(peaks)  # the outermost: a printed frame lies inside

    left, right = peak(cols, mw, mw), peak(cols, W - mw, mw)
    top, bottom = peak(rows, ml, ml), peak(rows, H - ml, ml)
    if right - left < 0.7 * (W - 2 * mw) or bottom - top < 0.8 * (H - 2 * ml):
        return pts  # no clear edges: keep the detector's outline
    x0, x1 = left / scale - m, right / scale - m
    y0, y1 = top / scale - n, bottom / scale - n
    p0 = pts[0]
    return np.float32([p0 + u * x0 + v * y0, p0 + u * x1 + v * y0, p0 + u * x1 + v * y1, p0 + u * x0 + v * y1])


class Note(str):
    """One line for the player, in English, with a ``code`` and ``params`` a page says in its own
    language (``note.CODE`` in the service's catalogues).

    >>> n = Note("row 1, column 2 (GA): looks like ...", "cell_looks_like", cell="GA", card="GE")
    >>> n.code, n.params["card"], n.startswith("row 1")
    ('cell_looks_like', 'GE', True)
    """

    code: str
    params: dict

    def __new__(cls, text: str, code: str, **params: object) -> "Note":
        note = super().__new__(cls, text)
        note.code, note.params = code, params
        return note


class GridCut(dict):
    """The faces cut from grid photos, keyed by code (a ``dict``), with what the cut found on the
    way: ``finder`` (``"detector"`` or ``"colour"``), ``notes`` (one line per doubtful card), and
    ``outlines`` (each code's photo index and outline, for a contact sheet)."""

    def __init__(self, faces: dict, finder: str, notes: list[str], outlines: dict):
        super().__init__(faces)
        self.finder, self.notes, self.outlines = finder, notes, outlines


def _cell_name(r: int, c: int) -> str:
    code = "J" if r == 4 else GRID_ROWS[r] + GRID_COLUMNS[c]
    return f"row {r + 1}, column {c + 1} ({code})"


def _columns(rows: list[list[int]], centres: np.ndarray, width: float) -> list[list[float]] | None:
    """The seven columns' x in each of the first four rows. From the rows of seven cards, each
    column's x as a straight line in y (a photo taken a little from the side leans the columns);
    with no such row, from every card's x."""
    full = [r for r in rows[:4] if len(r) == 7]
    if full:
        ys = [float(np.mean([centres[i, 1] for i in r])) if r else 0.0 for r in rows[:4]]
        fy = np.float32([np.mean([centres[i, 1] for i in r]) for r in full])
        lines = []  # each column's x as a function of y: (slope, intercept)
        for c in range(7):
            fx = np.float32([centres[r[c], 0] for r in full])
            if len(full) >= 2 and float(np.ptp(fy)) > 1:
                lines.append(tuple(float(v) for v in np.polyfit(fy, fx, 1)))
            else:
                lines.append((0.0, float(np.median(fx))))
        return [[a * y + b for a, b in lines] for y in ys]
    xs = np.float32([centres[i, 0] for r in rows[:4] for i in r])
    groups = groups_along(xs, 0.6 * width)
    if len(groups) != 7:
        return None
    return [[float(np.mean(xs[g])) for g in groups]] * 4


Cells = dict[tuple[int, int], tuple[int, np.ndarray]]
"""Grid cells ``(row, column)`` -> ``(photo index, card outline)``."""


def place_in_grid(boxes: list[tuple[int, np.ndarray]]) -> tuple[Cells, list[str], list[str]]:
    """Each card outline ``(photo, box)`` placed in the grid's cell ``(row, column)`` (rows of
    several photos read as one tall photo, in order); then the problems that leave the grid
    unfit to cut (a missing card named by its cell, two cards in one cell or lying on each
    other, rows or columns that cannot be told), and the notes that do not (something not
    card-sized, left out), one line each.

    >>> box = lambda x, y: np.float32([[x, y], [x + 20, y], [x + 20, y + 80], [x, y + 80]])
    >>> cells, problems, notes = place_in_grid([(0, box(30 * c, 100 * r)) for r in range(4) for c in range(7) if (r, c) != (2, 4)])
    >>> len(cells), problems, notes
    (27, ['row 3, column 5 (YH): no card'], [])
    """
    problems: list[str] = []
    notes: list[str] = []
    if not boxes:
        return {}, ["found 0 cards"], notes
    lengths = np.float32([_long_side(b) for _, b in boxes])
    widths = np.float32([_short_side(b) for _, b in boxes])
    length, width = float(np.median(lengths)), float(np.median(widths))
    keep = []
    for k, (photo, b) in enumerate(boxes):
        x, y = b.mean(0)
        if lengths[k] > 1.35 * length or widths[k] > 1.6 * width:
            notes.append(Note(f"photo {photo + 1}, near ({x:.0f}, {y:.0f}): something larger than a card "
                              f"(two cards touching, or another object): leave a gap around each card",
                              "too_large_thing", photo=photo + 1, x=round(float(x)), y=round(float(y))))
        elif lengths[k] < 0.7 * length:
            notes.append(Note(f"photo {photo + 1}, near ({x:.0f}, {y:.0f}): something smaller than a card "
                              f"(another object, or a card half covered): take it away",
                              "too_small_thing", photo=photo + 1, x=round(float(x)), y=round(float(y))))
        else:
            keep.append(k)
    rows: list[list[int]] = []
    for photo in sorted({p for p, _ in boxes}):
        mine = [k for k in keep if boxes[k][0] == photo]
        centres_p = np.float32([boxes[k][1].mean(0) for k in mine]).reshape(-1, 2)
        rows += [[mine[i] for i in sorted(g, key=lambda i: centres_p[i, 0])]
                 for g in groups_along(centres_p[:, 1], 0.5 * length)]
    centres = np.float32([b.mean(0) for _, b in boxes])
    if len(rows) > 5 or (len(rows) == 5 and len(rows[4]) > 1):
        counts = ", ".join(str(len(r)) for r in rows)
        return {}, [f"found {len(rows)} rows ({counts}): the grid is 4 rows of 7 and a joker alone "
                               f"in a fifth row; take away what is not a card, and send each row in one photo"], notes
    if len(rows) < 4:
        counts = ", ".join(str(len(r)) for r in rows) or "none"
        return {}, [f"found {len(rows)} row{'s' * (len(rows) != 1)} of cards ({counts}): "
                    f"the grid is 4 rows of 7 (G W Y R; K A E R H C P)"], notes
    columns = _columns(rows, centres, width)
    if columns is None:
        counts = ", ".join(str(len(r)) for r in rows)
        return {}, [f"cannot tell the columns apart (rows of {counts} cards): lay the cards in "
                    f"straight columns, a gap between them"], notes
    cells: Cells = {}
    for r, row in enumerate(rows[:4]):
        if len(row) == 7:  # a whole row: its cards in order
            cells.update({(r, c): boxes[k] for c, k in enumerate(row)})
            continue
        pitch = float(np.median(np.diff(columns[r])))
        for k in row:
            x = centres[k, 0]
            c = int(np.argmin([abs(x - cx) for cx in columns[r]]))
            if abs(x - columns[r][c]) > 0.45 * pitch or (r, c) in cells:
                problems.append(f"{_cell_name(r, c)}: more than one card, or a card out of its column")
                continue
            cells[(r, c)] = boxes[k]
        for c in range(7):
            if (r, c) not in cells and not any(p.startswith(_cell_name(r, c)) for p in problems):
                problems.append(f"{_cell_name(r, c)}: no card")
    if len(rows) == 5:
        cells[(4, 0)] = boxes[rows[4][0]]
    problems += _overlaps(cells)
    return cells, problems, notes


def _overlaps(cells: Cells) -> list[str]:
    """A line for each two cards of one photo that lie on each other (one face would be cut with
    part of the other on it)."""
    out = []
    keys = sorted(cells)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            (pa, qa), (pb, qb) = cells[a], cells[b]
            if pa != pb or np.linalg.norm(qa.mean(0) - qb.mean(0)) > _long_side(qa) + _long_side(qb):
                continue
            area, _ = cv2.intersectConvexConvex(np.float32(qa), np.float32(qb))
            if area > 0.2 * min(cv2.contourArea(np.float32(qa)), cv2.contourArea(np.float32(qb))):
                out.append(f"{_cell_name(*a)} and {_cell_name(*b)}: the cards touch or overlap; leave a gap")
    return out


NOTE_CONFIDENCE = 0.8
"""How surely a cell's card must read as another kind to be doubted (the shipped reader has not
seen the deck, so a note asks the player to look; it does not stop the cut). Chosen with the rule
of :func:`cell_is_doubtful` on the tuning decks' grids (``python -m sisepai.models.tuning.grid_note_tune``,
``docs/training-logs/grid_note_tune.json``): no false doubt on 24 grids laid right, 45 of 48 cells
of two swapped cards noted; doubting every sure misreading, as before, gave 27 false doubts there
at 0.9 (a real deck's seal 卒 surely read as a general, say)."""


def cell_is_doubtful(readings: dict[str, tuple[str, float]], code: str, sure: float = NOTE_CONFIDENCE) -> bool:
    """Whether the cell of ``code`` gets a note, from every cell's reading (the kind the shipped
    reader gives, and how surely). A card laid in another card's cell moves that one too, so the
    cell of the kind it reads as does not read as its own either; a misreading leaves that cell
    right, and gets no note. (One card photographed twice, in its own cell and another's, reads as
    a misreading does, and gets none either.)

    >>> cells = {"GP": ("GK", 0.99), "GK": ("GK", 0.99), "YR": ("YH", 0.95), "YH": ("YR", 0.97)}
    >>> [cell_is_doubtful(cells, c) for c in ("GP", "GK", "YR", "YH")]
    [False, False, True, True]
    """
    got, belief = readings[code]
    if got == code or belief < sure:
        return False
    return got not in readings or readings[got][0] != got


def cell_readings(images_bgr: Sequence[np.ndarray], outlines: dict[str, tuple[int, np.ndarray]],
                  recognizer=None) -> dict[str, tuple[str, float]]:
    """Each cell's reading by the shipped reader: the kind, and how surely."""

    rec = recognizer or _default()
    read: dict[str, tuple[str, float]] = {}
    rgbs = [np.ascontiguousarray(image[..., ::-1]) for image in images_bgr]  # once a photo, not once a cell
    for code, (photo, box) in outlines.items():
        crops = [straighten(rgbs[photo], e, rec.crop) for e in card_ends(order_upright(box))]
        belief = card_reading(list(rec.reader.read(crops)))
        k = int(np.argmax(belief[:len(CARD_CODES)]))
        read[code] = (CARD_CODES[k], float(belief[k]))
    return read


def reading_notes(images_bgr: Sequence[np.ndarray], outlines: dict[str, tuple[int, np.ndarray]],
                  recognizer=None) -> list[str]:
    """A line for each cell that holds another cell's card (:func:`cell_is_doubtful`)."""

    read = cell_readings(images_bgr, outlines, recognizer)
    cells = {code: _cell_of(code) for code in outlines}
    return [Note(f"{_cell_name(*cells[code])}: looks like {Card.parse(got).name} ({got}); check that the right card "
                 "lies there", "cell_looks_like", row=cells[code][0] + 1, column=cells[code][1] + 1, cell=code, card=got)
            for code, (got, _) in read.items() if cell_is_doubtful(read, code)]


def _cell_of(code: str) -> tuple[int, int]:
    return (4, 0) if code == "J" else (GRID_ROWS.index(code[0]), GRID_COLUMNS.index(code[1]))


def cut_grid(images_bgr: Sequence[np.ndarray], recognizer=None, finder: str = "auto") -> GridCut:
    """The faces in grid photos, keyed by code: 28, or 29 with a joker in a fifth row.

    ``finder``: ``"detector"`` finds the cards with the shipped detector (:func:`detected_cards`),
    on any table; ``"colour"`` as blobs unlike the table's colour (:func:`find_cards`: a plain
    table unlike every suit); ``"auto"`` (default) the detector, and colour when the detector's
    grid is not whole and colour's is. Raises :class:`DeckError` naming each missing or doubtful
    cell ("row 3, column 5 (YH): no card") when the grid is not whole.
    """
    if finder not in ("auto", "detector", "colour"):
        raise ValueError(f"finder is auto, detector or colour, not {finder!r}")
    tries = {"auto": ("detector", "colour"), "detector": ("detector",), "colour": ("colour",)}[finder]
    first_problems: list[str] | None = None
    for how in tries:
        boxes = [(i, b) for i, image in enumerate(images_bgr)
                 for b in (detected_cards(image, recognizer) if how == "detector" else find_cards(image))]
        cells, problems, notes = place_in_grid(boxes)
        if not problems and len(cells) in (28, 29):
            outlines = {code: cells[_cell_of(code)] for code in FACE_CODES + (("J",) if (4, 0) in cells else ())}
            faces = {code: straighten_card(images_bgr[photo], box) for code, (photo, box) in outlines.items()}
            if how == "detector":  # the shipped reader is loaded: a second opinion on each cell
                notes += reading_notes(images_bgr, outlines, recognizer)
            return GridCut(faces, how, notes, outlines)
        if first_problems is None:
            first_problems = problems + notes
    shown = first_problems[:8] + ([f"and {len(first_problems) - 8} more"] if len(first_problems) > 8 else [])
    told = "; ".join(shown)
    layout = "" if "4 rows of 7" in told else \
        ". The grid is 4 rows of 7 (G W Y R; K A E R H C P), and a joker alone in a fifth row, cards apart"
    raise DeckError("the grid is not whole: " + told + layout, code="grid_not_whole")
