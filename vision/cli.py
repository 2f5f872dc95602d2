"""``sisepai recognize`` and ``sisepai score-image``: cards in photos, one JSON object a line.

Only the standard library is imported at load time; the model loads when a command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sisepai.engine.cards import SEATS
from sisepai.engine.errors import SisepaiError
from sisepai.engine.extras import require_vision
from sisepai.engine.rules import resolve_rules
from sisepai.engine.words import LANGUAGES
from sisepai.vision.live.watch import summary_line, watch


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("recognize", help="find and read every card in images",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Find every visible face-up card: its code, outline and confidence. "
                                   "Camera frames and photos (either way up), and flatbed scans (a sheet of "
                                   "cards, or one card cut to its edges) all work.",
                       epilog="""examples:
  sisepai recognize table.jpg --json
  sisepai recognize shots/*.jpg --json --annotate out/
  sisepai recognize scan.png            # a scanned sheet of cards, or one card
output of --json, one line per image, in order:
  {"image": "table.jpg", "width": 1280, "height": 720,
   "cards": [{"card": "RH", "polygon": [[x,y],[x,y],[x,y],[x,y]], "confidence": 0.97, ...}], "ms": 84.1}
an unreadable image gives {"image": ..., "error": "..."}; the others go on; the exit status is 1.""")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON object a line (default: a readable summary)")
    p.add_argument("--annotate", type=Path, metavar="DIR", help="also write each image with its cards drawn")
    p.add_argument("--min-confidence", type=float, default=None, metavar="P",
                   help="report cards of at least this confidence (default 0.25, and 0.4 for a card seen "
                        "only by one end, as in a fan; P sets both; 0 shows every reading)")
    p.add_argument("--detector", type=Path, default=None, help="detector weights (default: the shipped model)")
    p.add_argument("--reader", type=Path, default=None, help="reader weights (default: the shipped model)")
    p.add_argument("--deck", metavar="NAME", default=None,
                   help="read with the reader adapted to an enrolled deck (see: sisepai deck add --help)")
    p.set_defaults(func=_recognize)

    p = sub.add_parser("score-image", help="read a photographed finished hand and score it",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Read a finished 21-card hand from a photo, split it into melds and score it. "
                                   "The cards are read as one hand: the likeliest reading that is a legal win "
                                   "(each card one of its likeliest readings, or not a card, or a card the "
                                   "detector missed), and the runner-up; unsure cards are those the two differ "
                                   "on or that were read with little belief.",
                       epilog="""examples:
  sisepai score-image hand.jpg --json --rules seesek
  sisepai score-image hand.jpg --deck family --claimed 11
output: {"image": ..., "cards": ["GK", ...], "winning": bool, "points": int|null, "melds": [[...]]|null,
         "unsure": [{"index": 4, "card": "WH", "alternatives": ["YH", "none"], "alternative": "YH",
                     "points_if_alternative": 9, "confidence": 0.41}],
         "runner_up": {"cards": [...], "points": 9} | null, "margin": 2.3,
         "claimed": {"claimed": 11, "agrees": false, "points_read": 9, "disputed_meld": ["YH", "YR", "YC"]}}
margin: the log-likelihood gap between the best reading and the runner-up; under about 2, check
the unsure cards.""")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true")
    p.add_argument("--rules", default="seesek", help="scoring preset (seesek, tusac) or a TOML file")
    p.add_argument("--claimed", type=int, default=None, metavar="POINTS",
                   help="the score the winner claims: the answer agrees, or names the disputed meld")
    p.add_argument("--detector", type=Path, default=None)
    p.add_argument("--reader", type=Path, default=None)
    p.add_argument("--deck", metavar="NAME", default=None, help="an enrolled deck's reader (sisepai deck list)")
    p.set_defaults(func=_score_image)

    p = sub.add_parser("watch", help="follow a live game: announce cards, track melds, advise",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Follow a game through a webcam, a video file, a stream URL or a folder of images.",
                       epilog="""examples:
  sisepai watch 0                          # the first webcam
  sisepai watch game.mp4 --json            # JSON lines: {"t": 3.2, "type": "card_shown", "card": "RH", "seat": "E"}
  sisepai watch rtsp://table-cam/stream --speak --lang zh
  sisepai watch 0 --hand "GK GA GE ..." --seat S    # advice for your own hand
  sisepai watch game.mp4 --seats calibration.json --claimed 11
seats: S is the bottom edge of the frame, E the right, N the top, W the left (a card belongs to the
nearest edge), unless --seats gives a calibration file:
  {"zones": {"S": [[x, y], ...], "E": ..., "N": ..., "W": ..., "center": ...}}
A card shown near the middle belongs to the seat whose turn it is (the next player is to the right).
events: table (what lay there at the start: no announcements for those cards), card_shown (once per
card turned face up, "action": "draw" or "discard"), meld, card_corrected (a card announced moments
ago was misread: "card" is what it is, "was" what was said), card_removed, win_claimed, advice""")
    p.add_argument("source", metavar="SOURCE", help="webcam index, video file, stream URL, or folder of images")
    p.add_argument("--json", action="store_true", help="events as JSON lines")
    p.add_argument("--speak", action="store_true", help="read announcements aloud (espeak-ng)")
    p.add_argument("--lang", choices=LANGUAGES, default="en",
                   help="announcement language: English, simplified or traditional Chinese, Cantonese (zh-HK), "
                        "Vietnamese")
    p.add_argument("--hand", metavar="CARDS", help="your own hand, for claim and discard advice")
    p.add_argument("--seat", choices=SEATS, default="S", help="your seat (default S)")
    p.add_argument("--seats", metavar="FILE", help="a zone calibration JSON")
    p.add_argument("--claimed", type=int, metavar="POINTS", help="a claimed score to check on a win")
    p.add_argument("--rules", default="seesek")
    p.add_argument("--show", action="store_true", help="an OpenCV window with the cards outlined")
    p.add_argument("--realtime", action="store_true", help="play a video file at its own speed, never ahead of it")
    p.add_argument("--every-frame", action="store_true",
                   help="read every frame of a video file, however long it takes (by default frames the "
                        "reader has no time for are skipped, so it keeps up with the video's clock)")
    p.add_argument("--detector", type=Path, default=None)
    p.add_argument("--reader", type=Path, default=None)
    p.add_argument("--deck", metavar="NAME", default=None, help="an enrolled deck's reader (sisepai deck list)")
    p.set_defaults(func=_watch)


def _load(args):
    require_vision()

    try:
        floors: dict = {}
        if getattr(args, "min_confidence", None) is not None:
            if not 0 <= args.min_confidence <= 1:
                raise SisepaiError(f"--min-confidence must be between 0 and 1, not {args.min_confidence:g}")
            floors["min_confidence"] = floors["min_end_confidence"] = args.min_confidence
        if getattr(args, "deck", None) and args.reader is not None:
            raise SisepaiError("give --deck or --reader, not both")
        from sisepai.vision.decks.recognizer import deck_recognizer  # lazy: NumPy, OpenCV

        return deck_recognizer(getattr(args, "deck", None), detector=args.detector, reader=args.reader, **floors)
    except FileNotFoundError as exc:
        raise SisepaiError(str(exc)) from None


def _missing_first(args) -> tuple[list[str], int]:
    """The images that exist and look like pictures, after saying which do not (missing, a
    folder, not an image, a damaged or too large header), so that a bad file is told at once and
    not after the models load; and how many were bad."""
    present, missing = [], 0
    for path in args.images:
        problem = _file_problem(Path(path))
        if problem is None:
            present.append(path)
            continue
        missing += 1
        print(json.dumps({"image": path, "error": problem}) if args.json else f"error: {problem}", flush=True)
    return present, missing


def _file_problem(p: Path) -> str | None:
    """What is wrong with an image file, told from its header alone (nothing decoded), or None."""
    from sisepai.vision.recognition.images import ImageError, image_format, image_size, read_image_file  # lazy: NumPy

    try:
        data = read_image_file(p)
        image_format(data, str(p))
        image_size(data, str(p))
    except ImageError as exc:
        return str(exc)
    return None


def _read_with(args) -> str:
    """Which reader read the cards, as the text answer says it: an enrolled deck by name."""
    return f" (read with deck {args.deck!r})" if getattr(args, "deck", None) else ""


class _ReadEach:
    """Each picture of ``paths`` recognised, as ``(path, image, recognition)``: the model loads once
    the first picture decodes (a broken file is told in milliseconds, not after the model), and a
    picture that cannot be read is told in a line of its own and counted in ``failed``."""

    def __init__(self, args, paths: list[str]) -> None:
        self.args, self.paths, self.failed = args, paths, 0

    def __iter__(self):
        from sisepai.vision.recognition.images import ImageError, load_image  # lazy: NumPy

        rec = None
        for path in self.paths:
            try:
                img = load_image(path)
                rec = rec or _load(self.args)
                result = rec.recognize(img)
            except ImageError as exc:
                self.failed += 1
                print(json.dumps({"image": path, "error": str(exc)}) if self.args.json else f"error: {exc}", flush=True)
                continue
            yield path, img, result


def _recognize(args) -> int:
    paths, failed = _missing_first(args)
    if not paths:
        print(f"sisepai recognize: {failed} image(s) could not be read", file=sys.stderr)
        return 1
    read = _ReadEach(args, paths)
    for path, img, result in read:
        det = result.detections
        if args.annotate:
            import cv2

            from sisepai.vision.recognition.annotate import CardAnnotator  # lazy: NumPy, OpenCV

            args.annotate.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.annotate / (Path(path).stem + ".png")), CardAnnotator().annotate(img, det))
        if args.json:
            print(json.dumps({**result.to_json(path), "deck": args.deck}), flush=True)
        else:
            print(f"{path}: {len(det)} cards in {result.ms:.0f} ms{_read_with(args)}: " + " ".join(det.codes), flush=True)
    failed += read.failed
    if failed:
        print(f"sisepai recognize: {failed} image(s) could not be read", file=sys.stderr)
    return 1 if failed else 0


def _score_image(args) -> int:
    rules = resolve_rules(args.rules)
    paths, failed = _missing_first(args)
    if not paths:
        return 1
    from sisepai.vision.hand.scoring import score_detections  # lazy: NumPy, OpenCV

    read = _ReadEach(args, paths)
    for path, _, result in read:
        out = {"image": path, **score_detections(result.detections, rules, size=(result.width, result.height),
                                                 claimed=args.claimed).to_dict(), "deck": args.deck}
        if args.json:
            print(json.dumps(out), flush=True)
        else:
            verdict = f"a win worth {out['points']} points" if out["winning"] else "not a winning hand"
            print(f"{path}: {len(out['cards'])} cards{_read_with(args)}, {verdict}")
            for u in out["unsure"]:
                alt = f"; if it is {u['alternative']}: {u['points_if_alternative']} points" if u.get("alternative") else ""
                print(f"  unsure: card {u['index'] + 1} read as {u['card']}, maybe {', '.join(u['alternatives'])}{alt}")
            if out.get("claimed"):
                c = out["claimed"]
                print(f"  claimed {c['claimed']}: " + ("agrees" if c["agrees"] else
                      f"we read {c['points_read']}; disputed meld: {' '.join(c.get('disputed_meld') or []) or '?'}"))
    return 1 if failed + read.failed else 0


def _watch(args) -> int:
    require_vision()
    from sisepai.vision.live.camera import SourceError, open_source  # lazy: NumPy, OpenCV

    if args.realtime and args.every_frame:
        raise SisepaiError("--realtime and --every-frame contradict each other: choose one")
    try:  # open the source before the model loads, so a bad source fails fast
        source = open_source(args.source, realtime=args.realtime, pace="every" if args.every_frame else None)
    except SourceError as exc:
        raise SisepaiError(str(exc)) from None
    from sisepai.vision.live.options import LiveOptions  # lazy: NumPy, OpenCV

    options = LiveOptions.from_args(args)  # checked before the model loads
    rec = _load(args)
    summary = watch(source, options.session(rec), as_json=args.json, speak=args.speak, show=args.show,
                    lang=args.lang)
    print(f"sisepai watch: {summary_line(summary)}", file=sys.stderr)
    print("sisepai watch: time spent " + ", ".join(f"{k} {v:.1f} s" for k, v in summary["parts"].items())
          + " (decoding the video is the rest)", file=sys.stderr)
    return 0
