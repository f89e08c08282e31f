"""The letters of the images the build draws (the charts' stills, the share images): one font shipped with the
package that covers Latin, Devanagari and Arabic (fonts/chutes-sans.ttf, from the Noto fonts, under the SIL Open
Font License beside it; scripts/font.py makes it), shaped by Pillow's raqm layout so that Devanagari's conjuncts and
Arabic's joined letters, right to left, come out as a reader writes them, within a text that mixes them with Latin
and digits. Nothing is read from the system's fonts.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from importlib.resources import files
from io import BytesIO

from babel import Locale
from PIL import ImageDraw, ImageFont, features

from ..checks import SiteError

FONT = files(__package__).joinpath("fonts", "chutes-sans.ttf")
RAQM = features.check("raqm")
"""Whether Pillow can shape text here (raqm, with the FriBiDi it loads from the system). Without it Latin text is
laid out letter by letter (no kerning), and text that needs shaping is refused (`_layout`)."""
FINGERPRINT = hashlib.sha256(FONT.read_bytes() + (b"raqm" if RAQM else b"basic")).hexdigest()[:16]
"""The font's and the layout's: an image drawn with others is drawn again."""


@functools.cache
def _font_bytes() -> bytes:
    return FONT.read_bytes()


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` pixels, laid out by raqm where Pillow has it."""
    engine = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
    return ImageFont.truetype(BytesIO(_font_bytes()), size, layout_engine=engine)


def needs_shaping(text: str) -> bool:
    """Whether letter-by-letter layout would draw `text` wrongly: it holds a right-to-left letter, or a mark placed
    on, joined to or reordered with the letter before it (Devanagari's vowel signs and virama, a combining accent)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") or unicodedata.category(c) in ("Mn", "Mc")
               for c in text)


@functools.cache
def right_to_left(language: str) -> bool:
    """Whether `language` (a code Babel knows) is written right to left."""
    return Locale.parse(language).character_order == "right-to-left"


def _layout(text: str, language: str) -> tuple[str | None, str | None]:
    """Pillow's direction and language for `text` in `language`: its language (for the forms its shaping
    chooses), and right to left if the language is written so and the text holds a letter of it (a bare number or
    a Latin name stays left to right); None and None where Pillow has no raqm."""
    if not RAQM:
        if needs_shaping(text):
            raise SiteError(f"drawing {text!r} in an image needs Pillow's raqm layout, which needs the FriBiDi "
                            "library (Debian: apt-get install libfribidi0)")
        return None, None
    rtl = right_to_left(language) and any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)
    return ("rtl" if rtl else None), language


def length(text: str, size: int, language: str = "en") -> float:
    """The width of `text` drawn at `size` pixels, shaped."""
    direction, tag = _layout(text, language)
    return font(size).getlength(text, direction=direction, language=tag)


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
              fill: str | tuple[int, ...], anchor: str = "la", language: str = "en", stroke: int = 0) -> None:
    """`text` drawn shaped at `xy` (by Pillow's `anchor`) in the shipped font at `size` pixels, with a `stroke` of
    that many pixels in its own colour."""
    direction, tag = _layout(text, language)
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor, direction=direction, language=tag,
              stroke_width=stroke, stroke_fill=fill if stroke else None)
