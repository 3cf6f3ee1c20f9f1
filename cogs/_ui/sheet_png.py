"""A roster sheet as one PNG image, drawn with Pillow from its layout (cogs/_ui/sheet_layout.py).

Every block is stacked on one tall page, as a phone shows an image best; two pixels to a
point, so the text stays sharp when zoomed. Compressing the image is most of what a sheet
costs, and a palette image compresses in a fraction of an RGB one's time, so the sheet is drawn
in grey levels (each of the layout's colours has its own) and saved with a palette that gives
those levels their colours back and leaves the levels between them grey (the anti-aliased
edges of letters): 64 ms of CPU became about 30 for fifteen warriors (bench/bench_sheets.py).
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from cogs._ui.fonts import pil_font
from cogs._ui.sheet_layout import ACCENT, HEAD_FILL, INK, LINE, MARGIN, MUTED, PAGE_WIDTH, TICK_FILL, Box, Colour, Rule, SheetLayout, Text

SCALE = 2.0  # pixels per point
WHITE = 255
_ANCHORS = {"left": "ls", "centre": "ms", "right": "rs"}
SHEET_COLOURS = (INK, MUTED, LINE, ACCENT, HEAD_FILL, TICK_FILL)


def grey(colour: Colour) -> int:
    """The grey level a colour is drawn in (its luminance)."""
    r, g, b = colour
    return round(0.299 * r + 0.587 * g + 0.114 * b)


@lru_cache(maxsize=1)
def palette() -> bytes:
    """Grey levels as themselves, but each of the sheet's colours at its own level."""
    entries = [(level, level, level) for level in range(256)]
    for colour in SHEET_COLOURS:
        entries[grey(colour)] = colour
    return bytes(value for entry in entries for value in entry)


def _px(points: float) -> int:
    return round(points * SCALE)


def render_png(layout: SheetLayout) -> bytes:
    """The sheet as PNG bytes."""
    image = Image.new("L", (_px(PAGE_WIDTH), _px(layout.height)), WHITE)
    draw = ImageDraw.Draw(image)
    top = MARGIN
    for block in layout.blocks:
        for item in block.items:
            x, y = MARGIN + item.x, top + item.y
            if isinstance(item, Text):
                draw.text((_px(x), _px(y)), item.text, fill=grey(item.colour), font=pil_font(_px(item.size), item.bold),
                          anchor=_ANCHORS[item.align])
            elif isinstance(item, Box):
                width = max(1, round(item.stroke_width * SCALE)) if item.stroke is not None else 0
                draw.rectangle((_px(x), _px(y), _px(x + item.w) - 1, _px(y + item.h) - 1),
                               fill=None if item.fill is None else grey(item.fill),
                               outline=None if item.stroke is None else grey(item.stroke), width=width)
            elif isinstance(item, Rule):
                draw.line((_px(x), _px(y), _px(x + item.w), _px(y)), fill=grey(item.colour), width=max(1, round(item.width * SCALE)))
        top += block.height
    coloured = image.convert("P")  # from grey levels: each pixel keeps its level as its index
    coloured.putpalette(palette())
    out = io.BytesIO()
    coloured.save(out, format="PNG", compress_level=3)
    return out.getvalue()
