"""The dataset card (``README.md`` in a dataset folder) and the counts it shares with
``sisepai dataset stats``.

The card says what made the dataset (generator version, seed, options, the command), what is in
it (counts per class, layout and visibility, disk size), which fonts drew it under which
licences, what it is biased towards, and shows a contact sheet of labelled scenes.

>>> canonical_command({"n": 9, "seed": 1, "layouts": ["table"], "size": [640, 360], "val": 0.1,
...                    "crops": False, "fonts": "train", "max_tilt": 45.0, "formats": ["yolo-obb", "coco"]})
'sisepai dataset generate --out DIR --n 9 --seed 1 --layouts table --size 640x360 --val 0.1 --fonts train --max-tilt 45 --format yolo-obb,coco'
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

BIASES = """\
- **Synthetic.** Every picture is rendered: printed faces from open CJK fonts with drawn
  ornaments, pasted on photographic-looking but generated tables, with simulated camera tilt,
  light, blur, noise and JPEG. Real photos differ in texture, lighting and lens.
- **Fonts stand in for printing.** Card characters come from the font families listed below,
  distorted; real decks' woodblock and hand-cut glyphs are only approximated.
- **Deck styles are drawn from ranges** (paper colours, proportions 1:3 to 1:6.5, frames,
  ornaments) chosen from the rules and observed decks; decks outside those ranges are not
  represented.
- **Layouts are three** (a table of melds and discards, a fanned hand, a finished hand laid in
  rows); other arrangements (stacks in a box, cards held in a hand seen from below) are absent.
- **The label rule**: a face-up card is labelled when at least half of one of its characters is
  visible; cards covered more than that are in the JSON ground truth, not in the labels.
"""


def canonical_command(meta: dict) -> str:
    """The ``sisepai dataset generate`` command that makes this dataset on one machine (no
    ``--shard``, no ``--workers``: neither changes a byte)."""
    size = "x".join(str(v) for v in meta["size"])
    parts = ["sisepai dataset generate --out DIR", f"--n {meta['n']}", f"--seed {meta['seed']}",
             f"--layouts {','.join(meta['layouts'])}", f"--size {size}", f"--val {meta['val']:g}",
             f"--fonts {meta['fonts']}", f"--max-tilt {meta['max_tilt']:g}", f"--format {','.join(meta['formats'])}"]
    if meta.get("crops"):
        parts.append("--crops")
    if meta.get("deck_faces"):
        parts.append(f"--deck-faces {meta['deck_faces']}")
    return " ".join(parts)


def dataset_stats(records: list[dict], folder: Path | None = None) -> dict:
    """Counts per class, layout, visibility and font; disk size and class balance when ``folder``
    is given."""
    per_class, per_layout, vis, fonts = Counter(), Counter(), Counter(), Counter()
    labelled = hidden = 0
    for r in records:
        per_layout[r["layout"]] += 1
        fonts[r["deck"]["font"]] += 1
        for c in r["cards"]:
            if not c["face_up"]:
                per_class["back"] += 1
                continue
            bucket = min(int(c["char_visible"] * 10), 9) / 10
            vis[f"{bucket:.1f}-{bucket + 0.1:.1f}"] += 1
            if c["labelled"]:
                per_class[c["card"]] += 1
                labelled += 1
            else:
                hidden += 1
    faces = [v for k, v in per_class.items() if k != "back"]
    stats = {"scenes": len(records), "layouts": dict(sorted(per_layout.items())), "labelled_cards": labelled,
             "unlabelled_face_up_cards": hidden, "per_class": dict(sorted(per_class.items())),
             "class_balance": round(min(faces) / max(faces), 3) if faces else None,
             "char_visible_histogram": dict(sorted(vis.items())), "fonts": dict(sorted(fonts.items()))}
    if folder is not None:
        stats["disk_bytes"] = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return stats


def _licences() -> dict[str, str]:
    from sisepai.datasets.design.fonts import FONT_DIR  # lazy: NumPy, Pillow

    return {d["family"]: d.get("package", "") for d in json.loads((FONT_DIR / "fonts.json").read_text(encoding="utf-8"))}


def write_card(folder: Path, meta: dict, records: list[dict]) -> Path:
    """Write ``README.md`` and its contact sheet ``preview.png`` into ``folder``."""
    from sisepai.datasets.export.preview import contact_sheet  # lazy: NumPy, OpenCV

    sheet = folder / "preview.png"
    picks = []
    for layout in sorted({r["layout"] for r in records}):
        picks += [r for r in records if r["layout"] == layout][:3]
    contact_sheet(folder, picks[:9], sheet)
    stats = dataset_stats(records)
    licences = _licences()
    lines = [
        "# sisepai synthetic Four Color Cards scenes", "",
        "Labelled pictures of Four Color Cards (四色牌) on tables, made by sisepai's scene generator. "
        "Each card is labelled with its code "
        "(suit G W Y R, rank K A E R H C P, or J) and its four corners.", "",
        "## How it was made", "",
        f"- generator {meta['generator']}, seed {meta['seed']}, {meta['n']} scenes",
        f"- options: layouts {', '.join(meta['layouts'])}; size {meta['size'][0]}x{meta['size'][1]}; "
        f"val share {meta['val']:g}; fonts {meta['fonts']}; camera tilt up to {meta['max_tilt']:g}°"
        + ("; card-end crops" if meta.get("crops") else ""),
        f"- formats: {', '.join(meta['formats'])}",
        f"- the command: `{canonical_command(meta)}`", "",
        "Scene *i* depends only on the seed and *i*: the same command gives the same bytes, on one machine or "
        "in shards merged with `sisepai dataset merge`.", "",
        "## Layout", "",
        "- `images/{train,val}/NNNNNN.jpg`; `annotations/{train,val}/NNNNNN.json`: every card of a scene "
        "(code, corners, ends, visible fraction, zone, meld), the deck style and the camera",
    ]
    if "yolo-obb" in meta["formats"]:
        lines.append("- `data.yaml`, `labels/{train,val}/NNNNNN.txt`: ultralytics OBB labels (class x1 y1 ... x4 y4)")
    if "coco" in meta["formats"]:
        lines.append("- `annotations/instances_{train,val}.json`: COCO, `category_id` = class id + 1, a `bbox` and a "
                     "4-point `segmentation` per card, sisepai's fields under `sisepai`")
    if "hf" in meta["formats"]:
        lines.append('- `images/{train,val}/metadata.jsonl`: `datasets.load_dataset("imagefolder", '
                     'data_dir="DIR/images")`')
    if meta.get("crops"):
        lines.append("- `crops/{train,val}/CODE/*.png`: each visible card end, straightened, 64x64")
    lines += ["", "## What is in it", "",
              f"{stats['scenes']} scenes ({', '.join(f'{k} {v}' for k, v in stats['layouts'].items())}); "
              f"{stats['labelled_cards']} labelled cards; {stats['unlabelled_face_up_cards']} face-up cards left "
              "unlabelled (under half a character visible); class balance (rarest / commonest) "
              f"{stats['class_balance']}.", "",
              "| class | cards |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in stats["per_class"].items()]
    lines += ["", "| character visible | face-up cards |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in stats["char_visible_histogram"].items()]
    lines += ["", "## Fonts and licences", "",
              "The characters are drawn with these open font families (scenes per family; the licence is the "
              "Debian package's, shipped in sisepai's `datasets/fonts/licenses/`):", "",
              "| font family | scenes | licence (package) |", "|---|---|---|"]
    lines += [f"| {family} | {n} | {licences.get(family, '')} |" for family, n in stats["fonts"].items()]
    lines += ["", "sisepai itself is MIT-licensed; whoever generates a dataset chooses its licence. The glyph "
              "shapes come from the fonts above, whose licences (mostly OFL, Arphic and GPL with font "
              "exception) allow rendering them into pictures.", "",
              "## Known biases", "", BIASES, "## Contact sheet", "", "![labelled scenes](preview.png)", ""]
    path = folder / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
