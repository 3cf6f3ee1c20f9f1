"""The preview of a BattleScribe or NewRecruit roster before it is imported: the warriors as they
would be stored, the treasury and stash, and every entry of the roster that is not imported.

One embed goes above the Confirm and Cancel buttons; when the whole preview does not fit in it,
the embed shows what fits and says so, and the whole preview comes as a text file beside it
(nothing is left out).
"""

from __future__ import annotations

import io

import discord

from cogs._ui.campaign import safe
from cogs._ui.embeds import NEUTRAL
from cogs._ui.roster import section_pages
from engine.campaign.actions.roster_import import RosterPreview
from engine.campaign.model import Role, Warrior

PREVIEW_FILE = "roster-preview.txt"


def _warrior_line(w: Warrior) -> str:
    if w.role == Role.HENCHMEN:
        who = f"{w.group_size} × {w.warrior_type}"
    else:
        who = f"{w.warrior_type} ({'hired sword' if w.role == Role.HIRED_SWORD else w.role})"
    parts = [f"**{safe(w.name)}** — {safe(who)}, {w.experience} xp"]
    for items in (w.equipment, w.skills, w.injuries):
        if items:
            parts.append(safe(", ".join(items)))
    return " · ".join(parts)


def preview_lines(preview: RosterPreview) -> dict[str, list[str]]:
    """The preview's sections, each a list of lines (markdown-safe)."""
    treasury = f"{preview.gold_crowns} gc, {preview.wyrdstone_shards} shard{'' if preview.wyrdstone_shards == 1 else 's'}"
    sections = {
        "Warriors": [_warrior_line(w) for w in preview.warriors] or ["none"],
        "Treasury and stash": [treasury + (f"; stash: {safe(', '.join(preview.stash))}" if preview.stash else "")],
    }
    if preview.unmapped:
        sections["Not imported (add them by hand afterwards)"] = [f"- {safe(u)}" for u in preview.unmapped]
    if preview.notes:
        sections["Notes"] = [f"- {safe(n)}" for n in preview.notes]
    return sections


def preview_embed(preview: RosterPreview) -> tuple[discord.Embed, discord.File | None]:
    """The preview above the buttons, and the whole of it as a text file when the embed cannot hold it."""
    count = len(preview.unmapped)
    description = (f"A **{safe(preview.warband_type)}** warband from a BattleScribe roster: "
                   f"{len(preview.warriors)} warrior entr{'y' if len(preview.warriors) == 1 else 'ies'}. "
                   + (f"{count} entr{'y' if count == 1 else 'ies'} of the roster cannot be imported "
                      "(listed below). " if count else "Every entry of the roster is imported. ")
                   + "Nothing is stored until you confirm.")
    sections = preview_lines(preview)
    pages = section_pages(f"Import {safe(preview.name)}?", description, sections, colour=NEUTRAL)
    if len(pages) == 1:
        return pages[0], None
    first = pages[0]
    first.set_footer(text=f"The whole preview is in {PREVIEW_FILE}: it does not fit here.")
    text = "\n\n".join(f"{name}\n" + "\n".join(lines) for name, lines in sections.items())
    blob = f"{preview.name}: {description}\n\n{text}\n".replace("**", "").encode("utf-8")
    return first, discord.File(io.BytesIO(blob), filename=PREVIEW_FILE)
