"""The fonts of the drawn answers (roster sheets, luck charts): one typeface, measured once, drawn alike.

Bitstream Vera ships inside reportlab, a dependency already, so every host draws the same
letters and the PNG and the PDF of a sheet measure text the same way (the layout wraps lines
by these widths; reportlab reads the advance widths from the font file, Pillow draws it).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

import reportlab

FONT_DIR = Path(reportlab.__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "Vera.ttf"
BOLD = FONT_DIR / "VeraBd.ttf"
PDF_REGULAR, PDF_BOLD = "MordheimVera", "MordheimVera-Bold"


@lru_cache(maxsize=1)
def pdf_fonts() -> tuple[str, str]:
    """The regular and bold fonts' names in reportlab, registered on first use."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont(PDF_REGULAR, str(REGULAR)))
    pdfmetrics.registerFont(TTFont(PDF_BOLD, str(BOLD)))
    return PDF_REGULAR, PDF_BOLD


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is at ``size`` points."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    regular, heavy = pdf_fonts()
    return float(stringWidth(text, heavy if bold else regular, size))


@lru_cache(maxsize=64)
def pil_font(pixels: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font at ``pixels`` pixels, for Pillow."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(1, pixels))


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` cut at spaces into lines no wider than ``width`` (a word wider than that is cut too)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while text_width(word, size, bold) > width and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut], size, bold) > width:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current or not lines:
        lines.append(current)
    return lines


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text``, cut with an ellipsis when it is wider than ``width`` at ``size``."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"
