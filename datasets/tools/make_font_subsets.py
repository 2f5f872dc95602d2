"""Build the committed font subsets: only the glyphs sisepai draws, from open-licence CJK fonts.

Run once on a machine with the Debian font packages installed (see the README); the output in
``datasets/fonts/`` is committed, so the generator never needs system fonts.

    python datasets/tools/make_font_subsets.py
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from sisepai.datasets.design.fonts import draws_ink, load_font
from sisepai.engine.cards import GLYPH_VARIANTS, JOKER_GLYPHS

OUT = Path(__file__).resolve().parents[1] / "fonts"
RANK_GLYPHS = "".join(g for gs in GLYPH_VARIANTS.values() for g in gs)
EXTRA = "".join(JOKER_GLYPHS) + "福祿壽禄寿喜財财囍春吉" + "中國国人大天上下日月山水火木金土東西南北發发白紅红綠绿黃黄黑一二三四五六七八九十百千萬万元"
GLYPHS = RANK_GLYPHS + EXTRA

# (path, style, held out of training?[, only the face whose name holds this]) — style says what a
# card printer would call it
SOURCES = [
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "hei", False),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "hei-bold", False),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", "song", False),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", "song-bold", False),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", "kai", False),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", "ming", False),
    ("/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf", "kai", False),
    ("/usr/share/fonts/truetype/arphic-bsmi00lp/bsmi00lp.ttf", "ming", False),
    ("/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf", "song", False),
    ("/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf", "kai", False),
    ("/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf", "kai", False),
    ("/usr/share/fonts/truetype/cns11643/TW-Sung-98_1.ttf", "song", False),
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", "kai", False),
    ("/usr/share/fonts/truetype/cwtex/cwming.ttf", "ming", False),
    ("/usr/share/fonts/truetype/cwtex/cwheib.ttf", "hei-bold", False),
    ("/usr/share/fonts/truetype/cwtex/cwyen.ttf", "round", True),
    ("/usr/share/fonts/truetype/cwtex/cwfs.ttf", "fangsong", True),
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", "ming", True),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", "kai", False),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", "kai-bold", False),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Light.ttf", "kai-light", True),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", "hei", False),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "hei", True),
    ("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", "mincho", False),
    ("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", "gothic", False),
    ("/usr/share/fonts/truetype/ipamj/ipamjm.ttf", "mincho", False),
    ("/usr/share/fonts/truetype/takao-mincho/TakaoMincho.ttf", "mincho", True),
    ("/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf", "gothic", False),
    ("/usr/share/fonts/truetype/baekmuk/batang.ttf", "batang", False),
    ("/usr/share/fonts/truetype/baekmuk/gulim.ttf", "gulim", True),
    ("/usr/share/fonts/truetype/nanum/NanumMyeongjo.ttf", "myeongjo", False),
    ("/usr/share/fonts/truetype/unfonts-core/UnBatang.ttf", "batang", False),
    ("/usr/share/fonts/truetype/unfonts-core/UnGungseo.ttf", "brush", False),
    ("/usr/share/fonts/truetype/unfonts-core/UnGraphic.ttf", "graphic", True),
    ("/usr/share/fonts/truetype/unfonts-core/UnPilgi.ttf", "handwriting", False),
    ("/usr/share/fonts/truetype/unfonts-core/UnDinaru.ttf", "display", False),
    ("/usr/share/fonts/truetype/nanum/NanumMyeongjoBold.ttf", "myeongjo-bold", False),
    ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", "pen", True),
    ("/usr/share/fonts/truetype/klee/KleeOne-Regular.ttf", "pen", False),
    # added in generator 1.3: more weights, brush, pen, round and Japanese/Korean book faces
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Light.ttc", "hei-light", False, "TC"),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc", "hei-black", False, "SC"),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc", "hei", False, "TC"),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Light.ttc", "song-light", False, "SC"),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc", "song-black", False, "TC"),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-SemiBold.ttc", "song", False, "SC"),
    ("/usr/share/fonts/truetype/seto/setofont.ttf", "handwriting", False),
    ("/usr/share/fonts/truetype/aoyagi-soseki/aoyagi-soseki.ttf", "brush", False),
    ("/usr/share/fonts/truetype/aoyagi-kouzan-t/AoyagiKouzanT.ttf", "brush", False),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", "brush", False),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", "brush-running", False),
    ("/usr/share/fonts/truetype/motoya-l-maruberi/MTLmr3m.ttf", "round", False),
    ("/usr/share/fonts/truetype/motoya-l-cedar/MTLc3m.ttf", "gothic", False),
    ("/usr/share/fonts/truetype/sawarabi-mincho/sawarabi-mincho-medium.ttf", "mincho", False),
    ("/usr/share/fonts/truetype/sawarabi-gothic/sawarabi-gothic-medium.ttf", "gothic", False),
    ("/usr/share/fonts/truetype/horai-umefont/ume-tmo3.ttf", "mincho", False),
    ("/usr/share/fonts/truetype/horai-umefont/ume-tgo5.ttf", "gothic", False),
    ("/usr/share/fonts/truetype/kiloji/kiloji.ttf", "handwriting", False),
    ("/usr/share/fonts/truetype/komatuna/komatuna.ttf", "handwriting", False),
    ("/usr/share/fonts/truetype/bizud-mincho/BIZUDMincho-Regular.ttf", "mincho", False),
    ("/usr/share/fonts/truetype/bizud-gothic/BIZUDGothic-Bold.ttf", "gothic-bold", False),
    ("/usr/share/fonts/truetype/yozvox-yozfont/YOzRN_.ttf", "pen", False),
]


def package_of(path: str) -> str:
    try:
        out = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True, check=True).stdout
        return out.split(":", 1)[0].strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def subset_face(path: str, face: int, text: str) -> TTFont | None:
    """Face ``face`` of the font file cut down to the glyphs of ``text``; None (with a message)
    when it cannot be. Some Japanese brush fonts carry a malformed 'gasp' (hinting) table that
    fontTools refuses: such a face is subset again without it."""
    for dropped in ([], ["gasp"]):
        options = subset.Options()
        options.layout_features = []
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.drop_tables = list(options.drop_tables) + dropped
        font = TTFont(path, fontNumber=face)  # subsetting changes the font: a fresh one each try
        sub = subset.Subsetter(options)
        sub.populate(text=text)
        try:
            sub.subset(font)
            return font
        except Exception as exc:
            error = exc
    print(f"skip (cannot subset: {error!r}): {path}")
    return None


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "licenses").mkdir(exist_ok=True)
    index = []
    for path, style, holdout, *only in SOURCES:
        if not Path(path).exists():
            print(f"skip (missing): {path}")
            continue
        faces = [0]
        if path.endswith(".ttc"):
            faces = list(range(len(TTCollection(path).fonts)))
        seen_family = set()
        for face in faces:
            font = TTFont(path, fontNumber=face)
            family = font["name"].getDebugName(4) or Path(path).stem
            if only and only[0] not in family:
                continue
            if path.endswith(".ttc") and ("JP" in family or "KR" in family or "Mono" in family or "HK" in family):
                continue  # one face per language variant is plenty: keep the TC and SC faces
            cmap = font.getBestCmap()
            have = [g for g in GLYPHS if ord(g) in cmap]
            ranks_ok = all(any(ord(g) in cmap for g in gs) for gs in GLYPH_VARIANTS.values())
            if not ranks_ok or family in seen_family:
                continue
            seen_family.add(family)
            font = subset_face(path, face, "".join(have))
            if font is None:
                continue
            ext = ".otf" if "CFF " in font else ".ttf"
            name = slug(family) + ext
            font.save(OUT / name)
            load_font.cache_clear()
            have = [g for g in have if draws_ink(name, g)]  # a cmap entry may point at an empty outline
            pkg = package_of(path)
            lic = Path(f"/usr/share/doc/{pkg}/copyright")
            if lic.exists():
                (OUT / "licenses" / f"{pkg}.txt").write_text(lic.read_text(errors="replace"))
            index.append({"file": name, "family": family, "style": style, "holdout": holdout, "package": pkg,
                          "license": f"licenses/{pkg}.txt", "glyphs": "".join(have),
                          "missing": "".join(g for g in RANK_GLYPHS if g not in have)})
            print(f"{name:<40} {style:<10} {'HOLDOUT' if holdout else 'train':<8} {len(have)} glyphs")
    (OUT / "fonts.json").write_text(json.dumps(index, ensure_ascii=False, indent=1))
    total = sum(f.stat().st_size for f in OUT.glob("*.*tf"))
    print(f"{len(index)} fonts, {total / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
