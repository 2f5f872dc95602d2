"""How pictures are read, still or a video's frames (:class:`ReadingProfile`), and what one video's
frames leave for the next (:class:`VideoMemory`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sisepai.engine.cards import CARD_CODES
from sisepai.vision.recognition.beliefs import COVERED_SURE
from sisepai.vision.recognition.palette import DECK_COLOUR_SIGMA, SuitPalette
from sisepai.vision.recognition.still_readings import StillReadings

PALETTE_MODES = ("image", "session", "off")
"""Where the deck's suit colours are learned: from each picture alone, over a video, or not at all."""
INNER_ENDS_BELOW = 0.99
"""The ends detected inside a whole card are read too only when its two ends agree on one kind
with less belief than this. Chosen on the tuning scenes (``docs/training-logs/recognizer-floors.md``);
still pictures only, as live video reads no inner end."""
TURNS_BELOW = 0.0
"""A still picture's end read less surely than this, on a card whose two ends leave it less sure
than this (or a lone end), is read again at the three other quarter turns and the four readings
are averaged (:meth:`~sisepai.vision.recognition.reader.Reader.read_turned`); 0 never does. Chosen
on the tuning scenes (``docs/training-logs/recognizer-floors.md``). Live video never turns."""
PAIRED_KINDS = tuple(CARD_CODES)
"""The card kinds whose two lone ends may be paired into one card (:mod:`.end_pairs`) when the
picture's card length is not known: every kind. Chosen on the tuning scenes and videos
(``docs/training-logs/recognizer-floors.md``)."""


@dataclass(frozen=True)
class ReadingProfile:
    """How pictures are read: still pictures (:data:`STILL_PROFILE`) or a video's frames
    (:data:`VIDEO_PROFILE`). A profile holds no state; a video's state is a :class:`VideoMemory`.

    >>> VIDEO_PROFILE.zoom_out, VIDEO_PROFILE.palette, STILL_PROFILE.palette
    ((), 'session', 'image')
    """

    nms_iou: float = 0.5
    """Boxes the detector finds overlapping past this (intersection over union) are kept as one.
    The ends of a fan held tight overlap their neighbours' by about (1 - s) / (1 + s) when each
    shows a share s of its width: 0.54 at s = 0.3."""
    zoom_out: tuple[float, ...] = (2.5, 5.0)
    """Zoom-out factors of the second look at a picture that showed little (a close-up, a scan)."""
    zoom_out_below: int = 2
    """A first look with fewer cards than this is looked at again zoomed out."""
    read_inner_ends: bool = True
    """Read the ends detected inside a card whose two ends leave it unsure (:data:`INNER_ENDS_BELOW`)."""
    inner_ends_below: float = INNER_ENDS_BELOW
    """How sure a card's two ends must agree for its inner ends to be left unread."""
    paired_kinds: tuple[str, ...] = PAIRED_KINDS
    """The kinds whose two lone ends are paired into one card without a known card length."""
    palette: str = "image"
    """Where the deck's suit colours are learned (:data:`PALETTE_MODES`)."""
    turns_below: float = TURNS_BELOW
    """Doubtful ends are read again at the other quarter turns (0: never)."""
    covered_sure: float = COVERED_SURE
    """How sure two disagreeing ends must be for :func:`covered_ends` to look for a card over one."""
    one_colour_per_suit: bool = True
    """Still pictures: the picture's colour groups shared out among the suits (one picture, one deck)."""
    split_in_picture: float = 15.0
    """Still pictures: one suit read surely on two papers at least this far apart (a*b* units; 0:
    never), while another suit is read nowhere, is two suits, taken from the picture alone
    (:meth:`~.palette.SuitPalette.find_split` after one picture, each paper's cards within chains of
    :data:`~.palette.STILL_SPLIT_RADIUS`), where a video waits for :data:`~.palette.SPLIT_FRAMES`
    frames. Chosen on the tuning sets by the shipping rule (15 against 10, 20 and 25;
    ``docs/training-logs/recognizer-floors.md``)."""
    deck_colour_sigma: float = DECK_COLOUR_SIGMA
    """An enrolled deck's reader: each card's suit weighted by its paper's nearness to the deck's
    enrolled papers, moved by the picture's cast, within this many a*b* units (0: not at all;
    :func:`~.palette.rerank_by_deck_colours`)."""
    uncovered_paper: bool = True
    """A lone end's paper colour is measured where no whole card lies over it
    (:func:`~.palette.uncovered_paper_colour`), not over the whole end."""

    def __post_init__(self):
        if self.palette not in PALETTE_MODES:
            raise ValueError(f"palette must be one of {', '.join(PALETTE_MODES)}, not {self.palette!r}")


STILL_PROFILE = ReadingProfile()
VIDEO_PROFILE = ReadingProfile(zoom_out=(), read_inner_ends=False, palette="session", turns_below=0.0)
"""How a video is read (:meth:`.recognize.Recognizer.for_video`): a camera over a table sees
cards at table distance, so there is no second, zoomed-out look at sparse frames; no extra readings of the ends
inside a card; doubtful ends are not read again turned (every frame counts, and a video votes
over frames: on seven game videos turning lost one card); the deck's suit colours are learned
over the whole video; and still cards keep their readings (a :class:`VideoMemory`)."""


@dataclass
class VideoMemory:
    """What one video's frames leave for the next: still cards' readings (:class:`StillReadings`)
    and the deck's suit colours learned so far (:class:`SuitPalette`). One per camera or
    connection, held by its :class:`~sisepai.vision.live.session.VideoSession`.

    >>> memory = VideoMemory()
    >>> memory.still is not None, len(memory.palette.centres())
    (True, 0)
    """

    still: StillReadings | None = field(default_factory=StillReadings)
    palette: SuitPalette | None = field(default_factory=SuitPalette)
