"""A roster sheet as a file to attach: drawn as a PNG or a PDF, named after the warband, described in words."""

from __future__ import annotations

import io
import re

import discord

from cogs._ui.sheet_layout import alt_text, sheet_layout
from cogs._ui.sheet_pdf import render_pdf
from cogs._ui.sheet_png import render_png
from engine.campaign.model import WarbandSheet

PNG, PDF = "png", "pdf"
_RENDER = {PNG: render_png, PDF: render_pdf}


def draw_sheet(sheet: WarbandSheet, kind: str, where: str | None = None) -> bytes:
    """The sheet drawn as ``kind`` ("png" or "pdf"); ``where`` (a server's name) is printed under its type.
    Tens of milliseconds of CPU: run it off the event loop, in the bot's queue for heavy work (bot/work_queue.py)."""
    return _RENDER[kind](sheet_layout(sheet, where=where))


def sheet_filename(name: str, kind: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()[:60] or "warband"
    return f"{slug}-roster.{kind}"


def sheet_file(sheet: WarbandSheet, kind: str, data: bytes) -> discord.File:
    """The drawn sheet as an attachment whose description says what it shows (read out by screen readers)."""
    return discord.File(io.BytesIO(data), filename=sheet_filename(sheet.warband.name, kind), description=alt_text(sheet))
