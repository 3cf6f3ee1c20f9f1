"""The printed roster sheet's layout: what goes where, in points, for the PNG and the PDF to draw alike.

Our own layout, laid out as players know a roster: the warband's name, type, rating, treasury
and stash at the top; then each hero, each henchman group and each hired sword as a block with
its profile in a grid (M WS BS S T W I A Ld), its equipment, skills and injuries beside it, and
its experience track below: one box per experience point up to the campaign tables' last
advance (further when he has more), ticked up to his experience, the boxes where an advance is
taken drawn heavy (none for one who never gains experience: an animal, a Dramatis Persona).

Nothing here knows Discord, Pillow or reportlab: a sheet becomes ``Block``s of ``Text``, ``Box``
and ``Rule`` items placed from the block's top left corner, each block as tall as it needs.
The PNG stacks every block on one long image; the PDF fills A4 pages with them, never cutting
a warrior in two. Text is measured with the font both draw with (cogs/_ui/fonts.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cogs._ui.fonts import fit, text_width, wrap
from engine.campaign.model import CHARACTERISTICS, Advance, WarbandSheet, Warrior
from engine.campaign.rules.campaign_warrior import gains_experience

Colour = tuple[int, int, int]
INK: Colour = (25, 22, 20)
MUTED: Colour = (105, 100, 95)
LINE: Colour = (185, 178, 168)
ACCENT: Colour = (120, 72, 20)  # the bot's dark gold, darkened for paper
HEAD_FILL: Colour = (236, 228, 212)
TICK_FILL: Colour = (60, 55, 50)

PAGE_WIDTH, PAGE_HEIGHT = 595.0, 842.0  # A4 in points
MARGIN = 28.0
WIDTH = PAGE_WIDTH - 2 * MARGIN  # what a block may fill

CELL_W, HEAD_H, VALUE_H = 21.0, 11.0, 15.0  # the profile grid
GRID_W = CELL_W * len(CHARACTERISTICS)
TEXT_X = GRID_W + 12.0  # where equipment, skills and injuries start
TEXT_SIZE, TEXT_LEAD = 8.5, 10.5
BOXES_PER_ROW = 45  # a hero's 90 boxes (the LRB's last advance) in two full rows
BOX_PITCH = WIDTH / BOXES_PER_ROW
BOX = BOX_PITCH - 2.5
MAX_BOXES = 150  # past this the track says how many more
ALT_TEXT_LIMIT = 1024  # Discord's limit on an attachment's description

SECTIONS = (("Heroes", ("leader", "hero")), ("Henchmen", ("henchmen",)), ("Hired swords", ("hired_sword",)))
ROLE_NAMES = {"leader": "Leader", "hero": "Hero", "henchmen": "Henchmen", "hired_sword": "Hired sword"}


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    size: float
    bold: bool = False
    colour: Colour = INK
    align: Literal["left", "centre", "right"] = "left"


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float  # the top edge
    w: float
    h: float
    fill: Colour | None = None
    stroke: Colour | None = LINE
    stroke_width: float = 0.6


@dataclass(frozen=True, slots=True)
class Rule:
    """A horizontal line across ``w`` points."""

    x: float
    y: float
    w: float
    colour: Colour = LINE
    width: float = 0.6


Item = Text | Box | Rule


@dataclass(frozen=True, slots=True)
class Block:
    height: float
    items: tuple[Item, ...]
    keep_with_next: bool = False  # a section's heading stays on the page of its first warrior


@dataclass(frozen=True, slots=True)
class SheetLayout:
    title: str  # the warband's name: the PDF's title
    blocks: tuple[Block, ...]

    @property
    def height(self) -> float:
        """Every block stacked, between the margins (the PNG's height in points)."""
        return 2 * MARGIN + sum(b.height for b in self.blocks)


@dataclass(frozen=True, slots=True)
class ExperienceTrack:
    boxes: int  # drawn
    ticked: int  # filled: his experience
    thresholds: frozenset[int]  # boxes drawn heavy: an advance is taken there
    more: int = 0  # experience past the drawn boxes


def experience_track(experience: int, thresholds: tuple[int, ...]) -> ExperienceTrack:
    """The boxes of a warrior's experience: up to his role's last advance, or his experience when higher."""
    boxes = min(MAX_BOXES, max([experience, *thresholds]))
    return ExperienceTrack(boxes, min(experience, boxes), frozenset(t for t in thresholds if t <= boxes),
                           max(0, experience - boxes))


def _listing(items: tuple[str, ...]) -> str:
    return ", ".join(items) if items else "—"


def _type_line(sheet: WarbandSheet) -> str:
    wb = sheet.warband
    if sheet.list_name:
        return f"{sheet.list_name}" + (f" ({sheet.list_source})" if sheet.list_source else "")
    return f"{wb.warband_type} (custom warband)"


def _header(sheet: WarbandSheet, where: str | None) -> Block:
    wb = sheet.warband
    size = 20.0
    while size > 12 and text_width(wb.name, size, True) > WIDTH:  # a long name is drawn smaller, then cut
        size -= 1
    items: list[Item] = [Text(0, 20, fit(wb.name, WIDTH, size, True), size, bold=True, colour=ACCENT)]
    sub = _type_line(sheet) + (f" · {where}" if where else "")
    items.append(Text(0, 36, fit(sub, WIDTH, 10), 10, colour=MUTED))
    rec = sheet.record
    stats = [
        ("Rating", str(sheet.rating.total)),
        ("Gold crowns", str(wb.gold_crowns)),
        ("Wyrdstone", str(wb.wyrdstone_shards)),
        ("Warriors", f"{sheet.models} / {sheet.max_models}"),
        ("Heroes", f"{sheet.heroes} / {sheet.max_heroes}"),
        ("Won · lost · drawn", f"{rec.get('win', 0)} · {rec.get('loss', 0)} · {rec.get('draw', 0)}"),
    ]
    top, cell_w = 46.0, WIDTH / len(stats)
    for n, (label, value) in enumerate(stats):
        x = n * cell_w
        items.append(Box(x, top, cell_w - 4, 34, fill=HEAD_FILL, stroke=None))
        items.append(Text(x + 6, top + 11, label.upper(), 6.5, bold=True, colour=MUTED))
        items.append(Text(x + 6, top + 28, value, 13, bold=True))
    y = top + 34 + 14
    for label, value in (("Stash", _listing(wb.stash)), ("Notes", wb.notes)):
        if label == "Notes" and not value:
            continue
        lines = wrap(value, WIDTH - 44, 9)
        items.append(Text(0, y, label, 9, bold=True))
        for line in lines:
            items.append(Text(44, y, line, 9))
            y += 12
    return Block(y + 4, tuple(items))


def _heading(title: str, count: int) -> Block:
    return Block(24, (Text(0, 15, title.upper(), 11, bold=True, colour=ACCENT),
                      Text(WIDTH, 15, f"{count}", 9, colour=MUTED, align="right"),
                      Rule(0, 20, WIDTH, colour=ACCENT, width=1.0)), keep_with_next=True)


def _profile_grid(w: Warrior, top: float) -> list[Item]:
    # the heading row, then the values: a PDF read back gives "M WS BS ... Ld" then the numbers
    items: list[Item] = [Box(0, top, GRID_W, HEAD_H, fill=HEAD_FILL, stroke=None)]
    centres = [n * CELL_W + CELL_W / 2 for n in range(len(CHARACTERISTICS))]
    items += [Text(x, top + 8, c, 6.5, bold=True, colour=MUTED, align="centre") for x, c in zip(centres, CHARACTERISTICS)]
    items += [Text(x, top + HEAD_H + 11.5, str(getattr(w.profile, c)), 10, bold=True, align="centre")
              for x, c in zip(centres, CHARACTERISTICS)]
    items += [Box(n * CELL_W, top, CELL_W, HEAD_H + VALUE_H, stroke=LINE) for n in range(len(CHARACTERISTICS))]
    return items


def _track(track: ExperienceTrack, top: float) -> tuple[list[Item], float]:
    """The experience boxes from ``top``; the items and the height they take."""
    per_row = BOXES_PER_ROW
    items: list[Item] = []
    for n in range(1, track.boxes + 1):
        row, col = divmod(n - 1, per_row)
        x, y = col * BOX_PITCH, top + row * BOX_PITCH
        heavy = n in track.thresholds
        items.append(Box(x, y, BOX, BOX, fill=TICK_FILL if n <= track.ticked else None,
                         stroke=INK if heavy else LINE, stroke_width=1.4 if heavy else 0.6))
    rows = -(-track.boxes // per_row) if track.boxes else 0
    height = rows * BOX_PITCH
    if track.more:
        items.append(Text(0, top + height + 8, f"… and {track.more} more", 7, colour=MUTED))
        height += 10
    return items, height


def _experience_line(w: Warrior, advance: Advance | None) -> str:
    if not gains_experience(w.special_rules):
        return f"Experience {w.experience} · never gains experience"
    if advance is None:
        return f"Experience {w.experience}"
    if advance.next_advance is None:
        return f"Experience {w.experience} · no advances left"
    return f"Experience {w.experience} · next advance at {advance.next_advance}"


def _warrior(w: Warrior, advance: Advance | None) -> Block:
    role = ROLE_NAMES.get(w.role, str(w.role))
    items: list[Item] = []
    models = f"{w.group_size} models" if w.group_size > 1 else ""
    room = WIDTH - (text_width(models, 8.5) + 12 if models else 0)  # the heading line, left of "N models"
    name = fit(f"{w.name} ×{w.group_size}" if w.group_size > 1 else w.name, room * 0.7, 11, True)
    items.append(Text(0, 12, name, 11, bold=True))
    kind = f"{role} · {w.warrior_type}" + (" · large" if w.large else "")
    kind_x = text_width(name, 11, True) + 8
    items.append(Text(kind_x, 12, fit(kind, room - kind_x, 8.5), 8.5, colour=MUTED))
    if models:
        items.append(Text(WIDTH, 12, models, 8.5, colour=MUTED, align="right"))
    top = 18.0
    items += _profile_grid(w, top)
    y = top + 8
    label_w = text_width("Equipment", TEXT_SIZE, True) + 6
    for label, values in (("Equipment", w.equipment), ("Skills", w.skills), ("Injuries", w.injuries)):
        lines = wrap(_listing(values), WIDTH - TEXT_X - label_w, TEXT_SIZE)
        items.append(Text(TEXT_X, y, label, TEXT_SIZE, bold=True, colour=MUTED))
        for line in lines:
            items.append(Text(TEXT_X + label_w, y, line, TEXT_SIZE))
            y += TEXT_LEAD
    y = max(top + HEAD_H + VALUE_H, y - TEXT_LEAD + 3) + 13
    items.append(Text(0, y, _experience_line(w, advance), 8, bold=True, colour=MUTED))
    if gains_experience(w.special_rules):  # one who never gains any has no track to fill
        thresholds = advance.thresholds if advance is not None else ()
        boxes, height = _track(experience_track(w.experience, thresholds), y + 4)
        items += boxes
        y += 4 + height
    y += 8
    items.append(Rule(0, y, WIDTH))
    return Block(y + 6, tuple(items))


def _fallen(warriors: list[Warrior]) -> Block:
    text = ", ".join(f"{w.name} ({w.fate})" for w in warriors)
    items: list[Item] = [Text(0, 14, "DEAD AND RETIRED", 9, bold=True, colour=MUTED)]
    y = 28.0
    for line in wrap(text, WIDTH, 8.5):
        items.append(Text(0, y, line, 8.5, colour=MUTED))
        y += TEXT_LEAD
    return Block(y, tuple(items))


def sheet_layout(sheet: WarbandSheet, *, where: str | None = None) -> SheetLayout:
    """The roster sheet of ``sheet`` laid out; ``where`` (a server's name) is printed under the type."""
    advances = {a.warrior: a for a in sheet.advances}
    active = [w for w in sheet.warband.warriors if w.is_active]
    blocks = [_header(sheet, where)]
    for title, roles in SECTIONS:
        members = [w for w in active if w.role in roles]
        if title == "Heroes":
            members.sort(key=lambda w: w.role != "leader")  # the leader first, the rest as hired
        if not members:
            continue
        models = sum(w.group_size for w in members)
        blocks.append(_heading(title, models))
        blocks += [_warrior(w, advances.get(w.name)) for w in members]
    if not active:
        blocks.append(Block(30, (Text(0, 18, "No warriors yet.", 10, colour=MUTED),)))
    fallen = [w for w in sheet.warband.warriors if not w.is_active]
    if fallen:
        blocks.append(_fallen(fallen))
    return SheetLayout(sheet.warband.name, tuple(blocks))


def _described(w: Warrior, with_profile: bool) -> str:
    who = f"{w.name} ({w.group_size} × {w.warrior_type})" if w.group_size > 1 else f"{w.name} ({w.warrior_type})"
    return f"{who}, {w.profile}, {w.experience} xp" if with_profile else f"{who}, {w.experience} xp"


def alt_text(sheet: WarbandSheet) -> str:
    """What the sheet shows, in words, for its image's description (at most 1,024 characters)."""
    wb = sheet.warband
    shards = f"{wb.wyrdstone_shards} wyrdstone shard{'' if wb.wyrdstone_shards == 1 else 's'}"
    head = f"Roster sheet of {wb.name}, {_type_line(sheet)}: rating {sheet.rating.total}, {wb.gold_crowns} gold crowns, {shards}."
    active = [w for w in wb.warriors if w.is_active]
    for with_profile in (True, False):
        sections = []
        for title, roles in SECTIONS:
            members = [_described(w, with_profile) for w in active if w.role in roles]
            if members:
                sections.append(f"{title}: " + "; ".join(members) + ".")
        text = " ".join([head, *sections])
        if len(text) <= ALT_TEXT_LIMIT:
            return text
    return text[: ALT_TEXT_LIMIT - 1] + "…"
