"""Make the font of the charts' still images and the share images, site_build/pages/fonts/chutes-sans.ttf: Latin (with
the accents of Spanish, French and German), Devanagari and Arabic in one file, so that Pillow's raqm layout shapes
a text mixing them (and digits) in one run.

It is the Noto fonts of Debian's fonts-noto-core 20201225-1 (SIL Open Font License 1.1, site_build/pages/fonts/OFL.txt):
Noto Sans for Latin, Greek and punctuation, a few signs of Noto Sans Math (arrows, −, ≤, ≥), Noto Sans Devanagari
and Noto Sans Arabic, each cut down by fontTools to the letters those languages write (their conjuncts and joined
forms come along with their OpenType tables), without hinting, and merged. The same sources and fontTools give the
same bytes:

    apt-get download fonts-noto-core=20201225-1 && dpkg -x fonts-noto-core_20201225-1_all.deb noto
    python scripts/font.py noto/usr/share/fonts/truetype/noto
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "site_build" / "pages" / "fonts" / "chutes-sans.ttf"
FAMILY = "Chutes Sans"


def _span(first: int, last: int) -> list[int]:
    return list(range(first, last + 1))


MARKS = [0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0x25CC]
"""Joiners, direction marks (CLDR's Arabic number formats hold them) and the dotted circle a shaper puts under a
lone vowel sign."""
SOURCES = {  # the first font that has a character gives its glyph
    "NotoSans-Regular.ttf": [
        *_span(0x20, 0x7E), *_span(0xA0, 0x17F), *_span(0x218, 0x21B), *_span(0x300, 0x30C), 0x327, 0x328,
        *_span(0x391, 0x3C9), *_span(0x2000, 0x2064), *_span(0x2070, 0x209C), *_span(0x20A0, 0x20C0),
        *_span(0x2150, 0x215F), 0x2116, 0xFFFD, *MARKS],
    "NotoSansMath-Regular.ttf": [
        *_span(0x2190, 0x2195), 0x21D0, 0x21D2, 0x21D4, 0x2211, 0x2212, 0x2215, 0x2219, 0x221A, 0x221E, 0x2248,
        0x2260, 0x2261, 0x2264, 0x2265, *_span(0x2308, 0x230B)],
    "NotoSansDevanagari-Regular.ttf": [*_span(0x900, 0x97F), 0xA8F2, 0xA8FB, *MARKS],
    "NotoSansArabic-Regular.ttf": [  # Arabic's letters, vowel marks, digits and punctuation (not Persian's or Urdu's)
        0x60C, 0x61B, 0x61C, 0x61F, *_span(0x621, 0x65F), *_span(0x660, 0x66D), 0x670, 0x671, *MARKS],
}


def _cut(path: Path, unicodes: list[int], out: Path) -> Path:
    options = subset.Options()
    options.layout_features = ["*"]  # every shaping feature: conjuncts, joining, marks, kerning
    options.hinting = False  # a third of the bytes; FreeType renders the outlines unhinted, as the stills are small
    options.drop_tables += ["MATH", "FFTM"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # the copyright, names, version and licence
    options.notdef_outline = True
    font = TTFont(path, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    font.save(out)
    return out


def main(folder: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        parts = [_cut(folder / name, unicodes, Path(work) / name) for name, unicodes in SOURCES.items()]
        sources = [TTFont(p) for p in parts]
        merged = Merger().merge([str(p) for p in parts])
    merged.recalcTimestamp = False
    latin = sources[0]  # Latin's line: the merge took the tallest of the fonts' ascenders and descenders
    for table, fields in (("hhea", ("ascent", "descent", "lineGap")),
                          ("OS/2", ("sTypoAscender", "sTypoDescender", "sTypoLineGap", "usWinAscent", "usWinDescent"))):
        for field in fields:
            setattr(merged[table], field, getattr(latin[table], field))
    merged["head"].created = min(f["head"].created for f in sources)
    merged["head"].modified = max(f["head"].modified for f in sources)
    copyright = "; ".join(dict.fromkeys(str(f["name"].getDebugName(0)) for f in sources))
    names = merged["name"]
    for record in list(names.names):
        if record.nameID in (0, 1, 3, 4, 5, 6, 16, 17):
            names.removeNames(nameID=record.nameID)
    names.setName(copyright, 0, 3, 1, 0x409)
    names.setName(FAMILY, 1, 3, 1, 0x409)
    names.setName(f"{FAMILY} Regular", 4, 3, 1, 0x409)
    names.setName(f"{FAMILY.replace(' ', '')}-Regular", 6, 3, 1, 0x409)
    names.setName(f"Version {latin['head'].fontRevision:.3f} (Noto, fonts-noto-core 20201225-1)", 5, 3, 1, 0x409)
    names.setName(f"{FAMILY}: Noto Sans, Noto Sans Math, Noto Sans Devanagari and Noto Sans Arabic, cut and merged",
                  3, 3, 1, 0x409)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    merged.save(OUT)
    data = OUT.read_bytes()
    print(f"{OUT.relative_to(ROOT)}: {len(data):,} bytes, sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python scripts/font.py FOLDER (the Noto fonts of fonts-noto-core 20201225-1)")
    main(Path(sys.argv[1]))
