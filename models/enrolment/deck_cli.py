"""``sisepai deck``: enrol the player's own deck, so the recogniser reads it as well as its own.

Only the standard library is imported at load time; the model and torch load when a command runs.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

from sisepai.engine.errors import SisepaiError
from sisepai.engine.extras import require_vision
from sisepai.vision.decks.folder import build_folder, check_new_deck
from sisepai.vision.decks.store import deck_info, deck_path, list_decks, reader_weights, remove_deck

from .enrol_deck import detector_deadline, enrol, reader_deadline
from .scene_check import LAYOUT_WORDS, check_line

EPILOG = """\
SOURCE is either
  a folder of face images named by code (GK.png GA.png ... RP.png, or G將.png R俥.png ...: the 28 faces), and J.png when
  the deck has jokers; each a scan or a photo of one card, either way up, cut to its edges or on
  a plain margin (a scanner bed), which is cut away;
or one or a few photos of one card of each kind laid out in a grid on a plain table, cards apart:
  row 1:  G將 G士 G象 G車 G馬 G包 G卒     (Green:  General Advisor Elephant Chariot Horse Cannon Soldier)
  row 2:  W將 W士 W象 W車 W馬 W包 W卒     (White)
  row 3:  Y帥 Y仕 Y相 Y俥 Y傌 Y炮 Y兵     (Yellow)
  row 4:  R帥 R仕 R相 R俥 R傌 R炮 R兵     (Red)
  row 5:  J                               (a joker, when the deck has them)
  Several photos are read in order, as one tall photo (rows 1-2, then rows 3-4).

Enrolment lays the deck's faces on generated tables, fans, finished hands and heaps, and adapts
the reader to them, then the detector (so it finds the deck's cards, fanned ones too): at most
10 minutes on a 2-core CPU; --quick adapts the reader only, in about 4. Decks live in
$SISEPAI_HOME/decks/NAME (without SISEPAI_HOME: ~/.local/share/sisepai/decks on Linux).

examples:
  sisepai deck add family ~/scans/family-deck/          # a folder GK.png ... RP.png
  sisepai deck add club grid-1.jpg grid-2.jpg           # photos of the grid
  sisepai deck add try family-faces/ --quick            # the reader only: a first look, sooner
  sisepai deck show family                              # writes a contact sheet to check the faces
  sisepai recognize table.jpg --deck family
  sisepai serve --deck family
"""


CUT_EPILOG = """\
Lay one card of each kind face up in the grid (below), cards apart, on any table, and photograph it
from above, the whole grid in the frame (or rows 1-2 in one photo and rows 3-5 in another):
  row 1:  G將 G士 G象 G車 G馬 G包 G卒     (Green:  General Advisor Elephant Chariot Horse Cannon Soldier)
  row 2:  W將 W士 W象 W車 W馬 W包 W卒     (White)
  row 3:  Y帥 Y仕 Y相 Y俥 Y傌 Y炮 Y兵     (Yellow)
  row 4:  R帥 R仕 R相 R俥 R傌 R炮 R兵     (Red)
  row 5:  J                               (a joker, when the deck has them)

deck cut writes each face as CODE.png and a contact sheet, contact.png: each face under its code.
Look at the sheet; a face in the wrong place can be renamed or replaced by hand. Then enrol the
folder. A missing or doubtful card is named by its cell ("row 3, column 5 (YH): no card").

examples:
  sisepai deck cut grid.jpg --out family-faces/
  sisepai deck cut rows-1-2.jpg rows-3-5.jpg --out club-faces/
  sisepai deck add family family-faces/
"""


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("deck", help="enrol your own deck so the recogniser reads it (add, show, list, remove)",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Enrol a player's own printed deck from its face images.", epilog=EPILOG)
    dsub = d.add_subparsers(dest="deck_command", metavar="COMMAND", parser_class=sub._parser_class)
    d.set_defaults(func=lambda args: (d.print_help(), 2)[1])

    p = dsub.add_parser("add", help="enrol a deck from its face images or grid photos",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    p.add_argument("name", metavar="NAME", help="a name for the deck: letters, digits, - or _")
    p.add_argument("source", nargs="+", metavar="SOURCE", help="a folder of face images, or grid photos")
    p.add_argument("--steps", type=int, default=None, metavar="N",
                   help="the reader's adaptation steps (default 480: about 4 minutes on a quiet 2-core CPU, and the same "
                        "deck reader on any machine, however busy); the time left is shown as it goes")
    p.add_argument("--minutes", type=float, default=None, metavar="M",
                   help="a time budget for the reader's adaptation instead of --steps: as many steps as fit "
                        "(a busy machine then gives a less adapted reader)")
    p.add_argument("--scenes", type=int, default=None, metavar="N", help="scenes of the deck to learn from (default 240)")
    p.add_argument("--workers", type=int, default=None, metavar="W", help="processes making scenes (default: all cores)")
    p.add_argument("--force", action="store_true", help="replace a deck of that name")
    p.add_argument("--as-cut", action="store_true",
                   help="the folder's faces are cut already (by 'deck cut' or the page's My deck): take them as "
                        "they are, without trimming a scanner's margin again")
    p.add_argument("--quick", action="store_true",
                   help="adapt the reader only (about 5 minutes with its check): the shipped detector then finds the deck's cards")
    p.add_argument("--adapt-detector", type=int, default=None, metavar="STEPS",
                   help="image-steps of the detector's fine-tune on the deck's scenes (default 400, ending early "
                        "where the whole enrolment would pass 10 minutes; given, it runs them all)")
    p.add_argument("--check-scenes", type=int, default=None, metavar="N",
                   help="whole scenes of each layout (tables, finished hands, fans, held fans) read before and "
                        "after enrolment, with the faces as given and never trained on (default 5)")
    p.add_argument("--progress", choices=("auto", "bar", "lines", "none"), default="auto",
                   help="how progress is shown on standard error: a bar (auto: on a terminal), or one "
                        "'progress FRACTION MESSAGE' line per step for another program to read")
    p.set_defaults(func=_add)

    p = dsub.add_parser("cut", help="cut the faces from grid photos into a folder, to check before 'deck add'",
                        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=CUT_EPILOG)
    p.add_argument("photos", nargs="+", metavar="PHOTO", help="one or a few photos of the grid (rows in order)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="the folder to write GK.png ... RP.png (J.png), and contact.png, into")
    p.add_argument("--finder", choices=("auto", "detector", "colour"), default="auto",
                   help="how the cards are found: the shipped detector (any table), blobs unlike the table's "
                        "colour (a plain table unlike every suit), or auto: the detector, then colour (default)")
    p.set_defaults(func=_cut)

    p = dsub.add_parser("show", help="write a contact sheet of the deck's faces as cut and as read")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--out", type=Path, default=None, metavar="PNG", help="default: the deck's folder/contact.png")
    p.set_defaults(func=_show)

    p = dsub.add_parser("list", help="the enrolled decks")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_list)

    p = dsub.add_parser("remove", help="delete an enrolled deck")
    p.add_argument("name", metavar="NAME")
    p.set_defaults(func=_remove)


def load_source(sources: list[str], as_cut: bool = False):
    """The :class:`~sisepai.faces.deck.DeckFaces` of a folder (``as_cut``: faces cut
    already, taken as they are), or of grid photos."""
    from sisepai.faces.deck import DeckError, DeckFaces  # lazy: NumPy, OpenCV

    paths = [Path(s) for s in sources]
    if as_cut:
        if len(paths) != 1 or not paths[0].is_dir():
            raise DeckError("--as-cut takes one folder of faces cut already")
        return DeckFaces.load(paths[0])
    if len(paths) == 1 and paths[0].is_dir():
        from sisepai.faces.deck import find_face_files, read_face  # lazy: NumPy, OpenCV
        from sisepai.vision.decks.trim import trim_face  # lazy: NumPy, OpenCV

        # a scan with a margin of scanner bed is cut to the card; a face cut to its edges stays
        given = {code: read_face(path) for code, path in find_face_files(paths[0]).items()}
        deck = DeckFaces({code: trim_face(face) for code, face in given.items()})
        deck.as_given = DeckFaces(given)  # what the self-check reads
        return deck
    if any(p.is_dir() for p in paths):
        raise DeckError("give one folder of face images, or one or more grid photos, not both")
    return DeckFaces(cut_photos(paths))


def cut_photos(paths: list[Path], finder: str = "auto"):
    """The :class:`~sisepai.vision.decks.grid.GridCut` of grid photos read from ``paths``."""
    from sisepai.faces.deck import DeckError  # lazy: NumPy, OpenCV
    from sisepai.vision.decks.grid import cut_grid  # lazy: NumPy, OpenCV
    from sisepai.vision.recognition.images import ImageError, load_image  # lazy: NumPy

    images = []
    for p in paths:
        try:
            images.append(load_image(p))
        except ImageError as exc:
            raise DeckError(str(exc)) from None
    recognizer = None
    if finder != "colour":
        from sisepai.vision.recognition.recognize import Recognizer  # lazy: NumPy, OpenCV

        recognizer = Recognizer.load()
    return cut_grid(images, recognizer, finder)


def cut_sheet(faces: dict, height: int = 240):
    """A contact sheet of cut faces, each under its code, in the grid's order: a BGR image."""
    import cv2
    import numpy as np

    from sisepai.datasets.scenes.grid_photo import grid_codes  # lazy: NumPy, OpenCV

    tiles = []
    for code in [c for row in grid_codes("J" in faces) for c in row]:
        face = faces[code]
        w = max(24, int(round(height * face.shape[1] / face.shape[0])))
        tile = np.full((height + 30, 130, 3), 255, np.uint8)
        tile[:height, 5:5 + min(w, 120)] = cv2.resize(face, (w, height), interpolation=cv2.INTER_AREA)[:, :120, ::-1]
        cv2.putText(tile, code, (5, height + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
        tiles.append(tile)
    return tile_rows(tiles)


def _cut(args) -> int:
    require_vision()
    import cv2

    for p in args.photos:
        if Path(p).is_dir():
            raise SisepaiError(f"{p} is a folder: deck cut takes photos of the grid")
    cut = cut_photos([Path(p) for p in args.photos], args.finder)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        for code, face in cut.items():
            if not cv2.imwrite(str(args.out / f"{code}.png"), face[..., ::-1]):
                raise OSError(f"cannot write {args.out / f'{code}.png'}")
        sheet = args.out / "contact.png"
        if not cv2.imwrite(str(sheet), cut_sheet(cut)):
            raise OSError(f"cannot write {sheet}")
    except OSError as exc:
        raise SisepaiError(f"cannot write to {args.out}: {exc}") from None
    for note in cut.notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"cut {len(cut)} faces ({'with' if 'J' in cut else 'no'} joker) found by the {cut.finder} into {args.out}; "
          f"check {sheet}, then: sisepai deck add NAME {args.out}")
    return 0


def _bar(stream=sys.stderr):
    """A progress callback drawing one line on ``stream``."""
    last = [0.0]

    def show(fraction: float, message: str) -> None:
        now = time.perf_counter()
        if now - last[0] < 0.2 and fraction < 1:
            return
        last[0] = now
        filled = int(fraction * 30)
        stream.write(f"\r[{'#' * filled:<30}] {fraction:4.0%} {message:<44}")
        stream.flush()
        if fraction >= 1:
            stream.write("\n")

    return show


def progress_lines(stream=sys.stderr):
    """A progress callback writing ``progress FRACTION MESSAGE`` lines, for a program to read
    (the service's "My deck" page runs ``sisepai deck add --progress lines``).

    >>> import io; out = io.StringIO(); show = progress_lines(out); show(0.5, "training"); out.getvalue()
    'progress 0.500 training\\n'
    """
    last = [-1.0, ""]

    def show(fraction: float, message: str) -> None:
        if round(fraction, 3) == last[0] and message == last[1]:
            return
        last[:] = [round(fraction, 3), message]
        stream.write(f"progress {fraction:.3f} {' '.join(message.split())}\n")
        stream.flush()

    return show


def _progress(mode: str):
    if mode == "lines":
        return progress_lines()
    if mode == "bar" or (mode == "auto" and sys.stderr.isatty()):
        return _bar()
    return None


TERM_GRACE_S = 20.0
"""Seconds a SIGTERM'd enrolment has to stop cleanly before it is ended at once."""


def _stop_cleanly_on_term(name: str, grace_s: float = TERM_GRACE_S) -> None:
    """SIGTERM (the service stopping, ``kill``) ends enrolment as Ctrl-C does: the half-built
    folder is removed and the workers stop. Should that stop hang (an interrupt can land inside a
    worker pool's own bookkeeping), a watchdog ends the process after ``grace_s`` seconds, having
    stopped the workers and removed deck ``name``'s half-built folder itself. (After SIGKILL, the
    next enrolment removes it.)"""

    def last_resort() -> None:
        time.sleep(grace_s)
        for child in multiprocessing.active_children():
            child.kill()
        shutil.rmtree(build_folder(name), ignore_errors=True)
        print("enrolment stopped", file=sys.stderr, flush=True)
        os._exit(128 + signal.SIGTERM)

    def stop(signum, frame):
        threading.Thread(target=last_resort, name="sigterm-watchdog", daemon=True).start()
        raise KeyboardInterrupt

    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, stop)


def _add(args) -> int:
    require_vision()

    from .enrol import EnrolOptions  # lazy: NumPy, OpenCV, Pillow

    check_new_deck(args.name, args.force)  # before the faces are read
    opts = EnrolOptions(workers=args.workers or min(os.cpu_count() or 1, 4))
    if args.minutes is not None:
        if not 0.05 <= args.minutes <= 120:
            raise SisepaiError("--minutes must be between 0.05 and 120")
        opts.minutes = args.minutes
        opts.steps = 0
    if args.steps is not None:
        if not 5 <= args.steps <= 100000:
            raise SisepaiError("--steps must be between 5 and 100000")
        if args.minutes is not None:
            raise SisepaiError("give --minutes or --steps, not both")
        opts.steps = args.steps
    if args.scenes is not None:
        if not 10 <= args.scenes <= 5000:
            raise SisepaiError("--scenes must be between 10 and 5000")
        opts.scenes = args.scenes
        opts.replay_scenes = max(5, args.scenes // 4)
    if args.check_scenes is not None:
        if not 1 <= args.check_scenes <= 200:
            raise SisepaiError("--check-scenes must be between 1 and 200")
        opts.check_scenes = args.check_scenes
    detector_opts = None
    if args.quick and args.adapt_detector is not None:
        raise SisepaiError("--quick adapts the reader only: leave out --adapt-detector")
    if not args.quick:
        from .enrol_detector import DetectorOptions  # lazy: NumPy, OpenCV, Pillow

        detector_opts = DetectorOptions(workers=opts.workers)
        if args.adapt_detector is None:
            started = time.perf_counter()
            detector_opts.deadline = detector_deadline(started)
            if args.steps is None and args.minutes is None:  # the whole enrolment keeps its 10 minutes
                opts.deadline = reader_deadline(started)
        elif not 8 <= args.adapt_detector <= 20000:
            raise SisepaiError("--adapt-detector takes 8 to 20000 image-steps")
        else:
            detector_opts.steps = args.adapt_detector
            if args.adapt_detector < 100:  # a quick look: fewer scenes to write
                detector_opts.deck_scenes, detector_opts.replay_scenes = 6, 2
    _stop_cleanly_on_term(args.name)
    deck = load_source(args.source, args.as_cut)
    print(f"deck {args.name}: {len(deck.faces)} faces, aspect 1:{deck.aspect:.1f}"
          f"{', with a joker' if deck.has_joker else ', no joker face'}; adapting the reader"
          + ("" if args.quick else ", then the detector"), file=sys.stderr)
    info = enrol(args.name, deck, opts, _progress(args.progress), force=args.force, detector_opts=detector_opts)
    before, after = info["reading_before"]["accuracy"], info["reading_after"]["accuracy"]
    aside = info.get("held_aside", {})
    cut = aside.get("faces_cut_by_enrolment") or []
    print(f"enrolled {args.name} in {info['enrol_seconds'] / 60:.1f} min: its card ends read {before:.1%} -> "
          f"{after:.1%} on {len(aside.get('scenes', [])) or 'the'} scenes kept aside and never trained on, laid with "
          f"the faces {aside.get('faces', 'as enrolled')}"
          + (f" ({len(cut)} faces had a scanner bed cut off: {' '.join(cut[:8])}{' ...' if len(cut) > 8 else ''})" if cut else "")
          + f"; check the faces with: sisepai deck show {args.name}")
    print(check_line(info["scene_check"]))
    steps = info["adaptation"]
    if steps["steps"] < steps["wanted_steps"]:
        print(f"left out to finish in time: {steps['wanted_steps'] - steps['steps']} of the reader's "
              f"{steps['wanted_steps'] + 4} steps (the machine was busy)")
    adapted = info.get("detector_adaptation") or {}
    if "image_steps" in adapted:
        print(f"its own detector was adapted over {adapted['image_steps']} image-steps"
              + (" (stopped early to finish in time)" if adapted["epochs"] < adapted["epochs_planned"] else ""))
    elif adapted.get("skipped"):
        print(f"the detector was not adapted: {adapted['skipped']}; the shipped one finds its cards")
    return 0


def contact_sheet(name: str):
    """The deck's faces as cut, each with the adapted reader's reading of its two ends under it
    (green when right, red when not): a BGR image."""
    import cv2
    import numpy as np

    from sisepai.datasets.design.deck_faces import printed_face  # lazy: NumPy, OpenCV, Pillow
    from sisepai.datasets.export.writer import end_crop  # lazy: NumPy, OpenCV, Pillow
    from sisepai.faces.deck import DeckFaces  # lazy: NumPy, OpenCV
    from sisepai.vision.recognition.reader import Reader  # lazy: NumPy, OpenCV

    reader = Reader.load(reader_weights(name))
    deck = DeckFaces.load(deck_path(name) / "faces")
    tiles = []
    height = 260
    for code in deck.codes:
        face = printed_face(deck, code, 80)
        img = np.ascontiguousarray(face.image[..., :3])
        probs = reader.read([end_crop(img, e.tolist()) for e in face.ends])
        joint = probs.mean(axis=0)
        read = reader.classes[int(np.argmax(joint))]
        w = max(40, int(round(height / deck.aspect)))
        tile = np.full((height + 44, max(w, 70) + 10, 3), 255, np.uint8)
        tile[:height, 5:5 + w] = cv2.resize(deck.faces[code], (w, height), interpolation=cv2.INTER_AREA)[..., ::-1]
        colour = (40, 140, 40) if read == code else (30, 30, 220)
        cv2.putText(tile, code, (5, height + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(tile, f"{read} {joint.max():.2f}", (5, height + 38), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1,
                    cv2.LINE_AA)
        tiles.append(tile)
    return tile_rows(tiles)


def tile_rows(tiles: list, per_row: int = 7):
    """Tiles (BGR images of one height) laid out ``per_row`` to a row, as the grid lies: the 28
    faces in 4 rows, a joker alone in a fifth; narrower tiles padded white to the widest."""
    import cv2
    import numpy as np

    width = max(t.shape[1] for t in tiles)
    rows = []
    for i in range(0, len(tiles), per_row):
        row = [cv2.copyMakeBorder(t, 0, 0, 0, width - t.shape[1], cv2.BORDER_CONSTANT, value=(255, 255, 255))
               for t in tiles[i:i + per_row]]
        row += [np.full_like(row[0], 255)] * (per_row - len(row))
        rows.append(np.concatenate(row, axis=1))
    return np.concatenate(rows, axis=0)


def _show(args) -> int:
    require_vision()
    import cv2

    sheet = contact_sheet(args.name)
    out = args.out or deck_path(args.name) / "contact.png"
    if not cv2.imwrite(str(out), sheet):
        raise SisepaiError(f"cannot write {out}")
    print(out)
    check = deck_info(args.name).get("scene_check")
    print(check_line(check) if check else "no whole-scene check: enrolled before it existed (add the deck again)")
    return 0


def _list(args) -> int:
    infos = [deck_info(n) for n in list_decks()]
    if args.json:
        print(json.dumps(infos))
        return 0
    if not infos:
        print("no decks yet; add one with: sisepai deck add NAME FACES_DIR")
    for i in infos:
        after = i.get("reading_after", {}).get("accuracy")
        check = i.get("scene_check")
        print(f"{i['name']:20} {len(i.get('faces', []))} faces  aspect 1:{i.get('aspect', 0):.1f}  "
              f"enrolled {i.get('created', '?')}" + (f"  ends read {after:.1%}" if after is not None else "")
              + (f"  whole scenes F1 {check['after']['all']['f1']:.3f}, weakest {LAYOUT_WORDS[check['weakest']]} "
                 f"{check['after'][check['weakest']]['f1']:.3f}" if check else ""))
    return 0


def _remove(args) -> int:
    remove_deck(args.name)
    print(f"removed deck {args.name}")
    return 0
