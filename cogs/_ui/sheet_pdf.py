"""A roster sheet as a PDF to print, drawn with reportlab from its layout (cogs/_ui/sheet_layout.py).

A4 pages filled with the layout's blocks in order; a block that does not fit on what is left of
a page starts the next one, so no warrior is cut in two, and a section's heading moves with its
first warrior. The font is embedded (the same Vera the PNG draws with), so the text prints and
reads back as it was written.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from cogs._ui.fonts import pdf_fonts
from cogs._ui.sheet_layout import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Block, Box, Colour, Rule, SheetLayout, Text


def _rgb(colour: Colour) -> tuple[float, float, float]:
    return colour[0] / 255, colour[1] / 255, colour[2] / 255


def pages(layout: SheetLayout) -> list[list[Block]]:
    """The blocks of each page: as many as fit, a heading kept with the block after it."""
    room = PAGE_HEIGHT - 2 * MARGIN
    out: list[list[Block]] = [[]]
    used = 0.0
    blocks = list(layout.blocks)
    for n, block in enumerate(blocks):
        need = block.height
        if block.keep_with_next and n + 1 < len(blocks):
            need += blocks[n + 1].height
        if out[-1] and used + need > room:
            out.append([])
            used = 0.0
        out[-1].append(block)
        used += block.height
    return out


def _draw(canvas: Canvas, block: Block, top: float, regular: str, bold: str) -> None:
    for item in block.items:
        x = MARGIN + item.x
        y = PAGE_HEIGHT - (top + item.y)  # reportlab counts up from the bottom of the page
        if isinstance(item, Text):
            canvas.setFont(bold if item.bold else regular, item.size)
            canvas.setFillColorRGB(*_rgb(item.colour))
            if item.align == "centre":
                canvas.drawCentredString(x, y, item.text)
            elif item.align == "right":
                canvas.drawRightString(x, y, item.text)
            else:
                canvas.drawString(x, y, item.text)
        elif isinstance(item, Box):
            if item.fill is not None:
                canvas.setFillColorRGB(*_rgb(item.fill))
            if item.stroke is not None:
                canvas.setStrokeColorRGB(*_rgb(item.stroke))
                canvas.setLineWidth(item.stroke_width)
            canvas.rect(x, y - item.h, item.w, item.h, stroke=int(item.stroke is not None), fill=int(item.fill is not None))
        elif isinstance(item, Rule):
            canvas.setStrokeColorRGB(*_rgb(item.colour))
            canvas.setLineWidth(item.width)
            canvas.line(x, y, x + item.w, y)


def render_pdf(layout: SheetLayout) -> bytes:
    """The sheet as PDF bytes."""
    regular, bold = pdf_fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(PAGE_WIDTH, PAGE_HEIGHT), invariant=True)
    canvas.setTitle(f"{layout.title}: roster sheet")
    canvas.setAuthor("Mordheim bot")
    page_list = pages(layout)
    for number, page in enumerate(page_list, start=1):
        top = MARGIN
        for block in page:
            _draw(canvas, block, top, regular, bold)
            top += block.height
        if len(page_list) > 1:
            canvas.setFont(regular, 7)
            canvas.setFillColorRGB(0.45, 0.45, 0.45)
            canvas.drawRightString(PAGE_WIDTH - MARGIN, MARGIN / 2, f"{layout.title} · page {number} of {len(page_list)}")
        canvas.showPage()
    canvas.save()
    return out.getvalue()
