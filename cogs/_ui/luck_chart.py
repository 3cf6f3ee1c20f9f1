"""/luck's pictures, drawn with Pillow: the table's D6 averages, and one member's faces, against fair dice.

- The table: one row per member, their D6 average as a dot on a line from unlucky to lucky,
  over the band fair dice's average lands in 95% of the time for that many D6 (narrower the
  more they rolled); a dot outside its band is coloured, green above, red below.
- One member: a bar per face, how often it came up, over the count fair dice give and the
  band they land in 95% of the time; a bar outside its band is orange (more sixes is luck,
  more ones is not, so a face alone is not called lucky).

Each chart has its words too (``board_alt_text``, ``faces_alt_text``): the image's description.
A chart drawn is kept a while by the numbers it shows (``KeptCharts``): asked again with no new
roll between, the same picture is sent without drawing it again.
Nothing here knows Discord; the numbers come from engine/rolls/luck.py.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Hashable

from PIL import Image, ImageDraw

from cogs._ui.fonts import fit, pil_font, wrap
from engine.rolls.luck import D6_MEAN, FACES, MemberLuck, average_band, face_band

Colour = tuple[int, int, int]
WHITE: Colour = (255, 255, 255)
INK: Colour = (30, 28, 26)
MUTED: Colour = (110, 105, 100)
GRID: Colour = (215, 210, 204)
BAND: Colour = (214, 224, 238)
EXPECTED: Colour = (60, 80, 140)
FAIR_DOT: Colour = (60, 80, 140)
LUCKY: Colour = (35, 135, 70)
UNLUCKY: Colour = (185, 50, 40)
BAR: Colour = (150, 140, 130)
OUTSIDE: Colour = (205, 105, 30)

WIDTH = 1000
ROW = 34
ALT_TEXT_LIMIT = 1024
CHARTS_KEPT = 64  # about 60 kB each


class KeptCharts:
    """The charts drawn lately, each under what it shows (``board_shows``, ``faces_shows``): a
    chart is a function of those numbers alone, as read for each answer, so a new roll that
    changes one is a new key and nothing ever needs forgetting. Used from the event loop only."""

    def __init__(self, limit: int = CHARTS_KEPT) -> None:
        self._limit = limit
        self._charts: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, key: Hashable) -> bytes | None:
        png = self._charts.get(key)
        if png is not None:
            self._charts.move_to_end(key)
        return png

    def keep(self, key: Hashable, png: bytes) -> None:
        self._charts[key] = png
        self._charts.move_to_end(key)
        while len(self._charts) > self._limit:
            self._charts.popitem(last=False)  # the one asked for longest ago

    def clear(self) -> None:
        self._charts.clear()


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def _name(m: MemberLuck) -> str:
    return m.member_name or f"member {m.member_id}"


# ---------------------------------------------------------------------------- the table


def _axis(members: list[MemberLuck]) -> tuple[float, float]:
    """The averages shown: 2.5 to 4.5 at least, wider to hold every dot and band, within 1 to 6."""
    low, high = 2.5, 4.5
    for m in members:
        avg = m.d6_average
        if avg is None:
            continue
        band_low, band_high = average_band(m.d6)
        low, high = min(low, avg - 0.15, band_low), max(high, avg + 0.15, band_high)
    return max(1.0, low), min(6.0, high)


def board_shows(members: list[MemberLuck]) -> Hashable:
    """Everything ``board_chart(members)`` draws: whose dots and how many of each face they rolled."""
    return "board", tuple((m.guild_id, m.member_id, m.member_name, m.faces) for m in members)


def board_chart(members: list[MemberLuck]) -> bytes:
    """Each member's D6 average against fair dice's band for their number of D6, as PNG bytes."""
    rows = [m for m in members if m.d6]
    top, name_w, value_w = 84, 230, 150
    left, right = name_w + 20, WIDTH - value_w - 10
    height = top + ROW * max(1, len(rows)) + 70
    image = Image.new("RGB", (WIDTH, height), WHITE)
    draw = ImageDraw.Draw(image)
    title, small, text = pil_font(26, True), pil_font(17), pil_font(19)
    draw.text((20, 36), "D6 average of each member, against fair dice", font=title, fill=INK, anchor="ls")
    low, high = _axis(rows)

    def x_of(value: float) -> int:
        return round(left + (value - low) / (high - low) * (right - left))

    bottom = top + ROW * max(1, len(rows))
    for tick in [t / 2 for t in range(2, 13) if low <= t / 2 <= high]:
        draw.line((x_of(tick), top - 4, x_of(tick), bottom), fill=GRID, width=1)
        draw.text((x_of(tick), bottom + 20), f"{tick:g}", font=small, fill=MUTED, anchor="ms")
    for n, m in enumerate(rows):
        y = top + n * ROW + ROW // 2
        avg = m.d6_average or D6_MEAN
        band_low, band_high = average_band(m.d6)
        draw.rectangle((x_of(band_low), y - 9, x_of(band_high), y + 9), fill=BAND)
        colour = LUCKY if avg > band_high else UNLUCKY if avg < band_low else FAIR_DOT
        draw.ellipse((x_of(avg) - 7, y - 7, x_of(avg) + 7, y + 7), fill=colour)
        draw.text((20, y + 7), fit(_name(m), name_w - 10, 19), font=text, fill=INK, anchor="ls")
        draw.text((right + 14, y + 7), f"{avg:.2f} ({m.d6:,} D6)", font=small, fill=INK if colour == FAIR_DOT else colour,
                  anchor="ls")
    draw.line((x_of(D6_MEAN), top - 10, x_of(D6_MEAN), bottom), fill=EXPECTED, width=2)
    draw.text((x_of(D6_MEAN), top - 14), "3.5 fair", font=small, fill=EXPECTED, anchor="ms")
    draw.text((20, bottom + 52), "Shaded: where fair dice average 95% of the time for that many D6. "
              "Green above it, red below.", font=small, fill=MUTED, anchor="ls")
    return _png(image)


def board_alt_text(members: list[MemberLuck]) -> str:
    """The table chart in words (at most 1,024 characters): who lies above, below and within their band."""
    groups: dict[str, list[str]] = {"above": [], "below": [], "within": []}
    for m in members:
        if not m.d6 or m.d6_average is None:
            continue
        band_low, band_high = average_band(m.d6)
        where = "above" if m.d6_average > band_high else "below" if m.d6_average < band_low else "within"
        groups[where].append(f"{_name(m)} {m.d6_average:.2f} ({m.d6} D6)")
    parts = ["D6 average of each member against fair dice's 3.5, over the band fair dice stay in 95% of the time "
             "(narrower the more D6 rolled)."]
    for where, label in (("above", "Above their band, lucky"), ("below", "Below their band, unlucky"), ("within", "Within it")):
        if groups[where]:
            parts.append(f"{label}: " + ", ".join(groups[where]) + ".")
    text = " ".join(parts)
    return text if len(text) <= ALT_TEXT_LIMIT else text[: ALT_TEXT_LIMIT - 1] + "…"


# ---------------------------------------------------------------------------- one member


def faces_shows(member: MemberLuck) -> Hashable:
    """Everything ``faces_chart(member)`` draws."""
    return "faces", member.guild_id, member.member_id, member.member_name, member.faces


def faces_chart(member: MemberLuck) -> bytes:
    """How often each face of ``member``'s D6 came up against fair dice, as PNG bytes."""
    n = member.d6
    expected, band_low, band_high = face_band(n)
    height, top, bottom, left = 590, 80, 470, 90
    slot = (WIDTH - left - 40) / 6
    image = Image.new("RGB", (WIDTH, height), WHITE)
    draw = ImageDraw.Draw(image)
    title, small, text = pil_font(26, True), pil_font(17), pil_font(20, True)
    draw.text((20, 40), fit(f"Faces of {_name(member)}'s {n:,} D6, against fair dice", WIDTH - 40, 26, True), font=title,
              fill=INK, anchor="ls")
    full = max([band_high, *member.faces, 1]) * 1.12

    def y_of(count: float) -> int:
        return round(bottom - count / full * (bottom - top))

    draw.line((left, bottom, WIDTH - 40, bottom), fill=MUTED, width=2)
    draw.rectangle((left, y_of(band_high), WIDTH - 40, y_of(band_low)), fill=BAND)
    for face, count in zip(FACES, member.faces):
        x0 = round(left + (face - 1) * slot + slot * 0.2)
        x1 = round(left + face * slot - slot * 0.2)
        colour = OUTSIDE if not band_low <= count <= band_high else BAR
        if count:
            draw.rectangle((x0, y_of(count), x1, bottom), fill=colour)
        draw.text(((x0 + x1) // 2, y_of(count) - 8), f"{count:,}", font=small, fill=INK, anchor="ms")
        draw.text(((x0 + x1) // 2, bottom + 28), str(face), font=text, fill=INK, anchor="ms")
    draw.line((left, y_of(expected), WIDTH - 40, y_of(expected)), fill=EXPECTED, width=2)
    draw.text((left - 8, y_of(expected) + 6), f"{expected:.1f}", font=small, fill=EXPECTED, anchor="rs")
    legend = (f"Line: the {expected:.1f} times fair dice give each face; shaded: where they land 95% of the time "
              f"({band_low:.1f} to {band_high:.1f}); orange bars fall outside it.")
    for n, line in enumerate(wrap(legend, WIDTH - 40, 17)):
        draw.text((20, bottom + 70 + 22 * n), line, font=small, fill=MUTED, anchor="ls")
    return _png(image)


def faces_alt_text(member: MemberLuck) -> str:
    """The faces chart in words."""
    expected, band_low, band_high = face_band(member.d6)
    faces = ", ".join(f"{face}: {count}" for face, count in zip(FACES, member.faces))
    return (f"How often each face of {_name(member)}'s {member.d6} D6 came up: {faces}. Fair dice give each face "
            f"{expected:.1f} times, between {band_low:.1f} and {band_high:.1f} 95% of the time.")[:ALT_TEXT_LIMIT]
