"""The warband roster sheet and its neighbours (warrior card, ledger, battles) as embeds.

Laid out like the paper roster: each warrior's profile in a monospace table, then equipment,
skills, injuries and experience with the next advance; the treasury and the rating with how
it was reached. Long rosters become several pages; nothing is cut off.
"""

from __future__ import annotations

from functools import lru_cache

from typing import Any, Iterable

import discord

from cogs._ui.campaign import safe
from cogs._ui.embeds import INFO, NEUTRAL, SUCCESS, clip
from engine.campaign.model import Battle, Entity, LedgerEntry, TreasuryView, WarbandSheet, Warrior
from engine.campaign.model import HireChoice, WarriorCost
from engine.campaign.rules.campaign_warrior import gains_experience
from engine.campaign.rules.validation import CHARACTERISTICS
from engine.campaign.rules.roster import maximum_in_words

FIELD_LIMIT = 1024
FIELDS_PER_PAGE = 12
PAGE_CHARS = 4500  # well under Discord's 6,000 characters per embed
ROLE_NAMES = {"leader": "Leader", "hero": "Hero", "henchmen": "Henchmen", "hired_sword": "Hired sword"}


_HEADER = " ".join(f"{c:>2}" for c in CHARACTERISTICS)
_ROW = " ".join(["%2d"] * len(CHARACTERISTICS))


def profile_table(profiles: Iterable[tuple[str, dict[str, int]]]) -> str:
    """A code block: header M WS BS S T W I A Ld, one row per (label, profile)."""
    rows = list(profiles)
    width = max([len(label) for label, _ in rows] + [0])
    pad = " " * (width + 1) if width else ""
    lines = [pad + _HEADER] + [
        (f"{label:<{width}} " if width else "") + _ROW % tuple(p[c] for c in CHARACTERISTICS) for label, p in rows
    ]
    return "```\n" + "\n".join(lines).replace("`", "'") + "\n```"


def _listing(items: Iterable[str]) -> str:
    return ", ".join(map(safe, items)) or "—"


def warrior_heading(w: Warrior, *, role: str | None = None) -> str:
    """'Otto (Leader, Mercenary Captain)'; ``role`` says what a hireling is when the caller knows ('Dramatis Persona')."""
    role = role or ROLE_NAMES.get(w.role, w.role)
    group = f" ×{w.group_size}" if w.group_size > 1 else ""
    status = "" if w.status == "active" else f" — {w.fate.upper()}"
    large = ", large" if w.large else ""
    return f"{w.name} ({role}{group}, {w.warrior_type}{large}){status}"[:256]


def _origin(w: Warrior) -> str:
    """How the warrior came to be on the roster, when it is worth saying."""
    if w.hand_edits:
        return "\n*Changed by hand since hired: " + ", ".join(e.replace("_", " ") for e in w.hand_edits) + ".*"
    return ""


def _cost_line(cost: WarriorCost | None) -> str:
    if cost is None:
        return ""
    # a list type may cost nothing (the Pirates' Swabbies are pressed, not hired): only one made by hand has no list
    parts = [f"{cost.hire} gc to hire" if cost.hire else "free to hire"] if cost.listed else ["not hired from a list"]
    if cost.kit:
        parts.append(f"{cost.kit} gc of kit")
    unpriced = f" (unpriced: {_listing(cost.unpriced)})" if cost.unpriced else ""
    return f"\n**Cost:** {cost.total} gc — {', '.join(parts)}{unpriced}"


def warrior_body(w: Warrior, next_advance: int | None | str = "?", cost: WarriorCost | None = None) -> str:
    """Profile table, kit, skills, injuries, experience and cost; at most one embed field. A
    warrior who never gains experience (an animal, a Dramatis Persona) has no next advance."""
    if not gains_experience(w.special_rules):
        nxt = " (never gains experience)"
    elif next_advance == "?":
        nxt = ""
    elif next_advance is None:
        nxt = " (no advances left)"
    else:
        nxt = f" (next advance at {next_advance})"
    p = w.profile
    text = (
        f"```\n{_HEADER}\n{_ROW % (p.M, p.WS, p.BS, p.S, p.T, p.W, p.I, p.A, p.Ld)}\n```\n"
        f"**Equipment:** {_listing(w.equipment)}\n**Skills:** {_listing(w.skills)}\n"
        f"**Injuries:** {_listing(w.injuries)}\n**Experience:** {w.experience}{nxt}"
        f"{_cost_line(cost)}{_origin(w)}"
    )
    if len(text) <= FIELD_LIMIT:
        return text
    # Up to 40 items of 64 characters each can overflow a field: keep the table, shorten lists.
    return text[: FIELD_LIMIT - 1] + "…"


def _long_blocks(name: str, lines: list[str]) -> list[tuple[str, str]]:
    """Lines split into as many fields as they need, none over Discord's field limit."""
    blocks, current = [], ""
    for line in lines:
        line = line[:FIELD_LIMIT]
        if len(current) + len(line) + 1 > FIELD_LIMIT:
            blocks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current or not blocks:
        blocks.append(current or "—")
    return [(name if i == 0 else f"{name} (cont.)", b) for i, b in enumerate(blocks)]


def _paginate(title: str, description: str, blocks: list[tuple[str, str]], *, colour: discord.Colour,
              footer: str | None = None) -> list[discord.Embed]:
    """Fields packed into embeds by count and size; the description only on the first page."""
    pages: list[list[tuple[str, str]]] = [[]]
    used = len(title) + len(description)
    for name, value in blocks:
        size = len(name) + len(value)
        if pages[-1] and (len(pages[-1]) >= FIELDS_PER_PAGE or used + size > PAGE_CHARS):
            pages.append([])
            used = len(title)
        pages[-1].append((name, value))
        used += size
    embeds = []
    for n, fields in enumerate(pages, start=1):
        e = discord.Embed(title=title[:256], description=description if n == 1 else None, colour=colour)
        for name, value in fields:
            e.add_field(name=name[:256] or "\u200b", value=value[:FIELD_LIMIT] or "—", inline=False)
        foot = f"Page {n}/{len(pages)}" if len(pages) > 1 else ""
        if footer:
            foot = f"{foot} · {footer}" if foot else footer
        if foot:
            e.set_footer(text=foot[:2048])
        embeds.append(e)
    return embeds


@lru_cache(maxsize=4096)  # warriors are frozen: one unchanged since the last sheet is not drawn again
def _warrior_block(w: Warrior, next_advance: int | None | str, cost: WarriorCost | None,
                   role: str | None = None) -> tuple[str, str]:
    return safe(warrior_heading(w, role=role)), warrior_body(w, next_advance, cost)


def grade_mark(grade: str) -> str:
    """How a warband of a grade the server no longer plays is marked (`/warband show`, `/warband list`)."""
    return f"grade {grade}, no longer played here: it plays on, no new ones are made"


def _type_line(sheet: WarbandSheet) -> str:
    wb = sheet.warband
    if sheet.list_name:
        grade = f", grade {sheet.list_grade}" if sheet.list_grade else ""
        off = f" — *{grade_mark(sheet.list_grade)}*" if sheet.grade_off and sheet.list_grade else ""
        return f"**Type:** {safe(sheet.list_name)} ({safe(sheet.list_source)}{grade}){off}"
    if sheet.list_missing:
        return (f"**Type:** {safe(wb.warband_type)} — *custom for now*: its list `{safe(wb.list_id or '')}` is not on this "
                "server any more (`/settings show` lists the server's lists)")
    return (f"**Type:** {safe(wb.warband_type)} — *custom* (no warband list: the campaign tables' limits apply and "
            "nothing is checked against a list)")


def _hire_lines(choices: tuple[HireChoice, ...]) -> list[str]:
    lines = []
    for c in choices:
        price = f"{c.cost} gc" + (" each" if c.role == "henchman" else "")
        if c.room:
            more = "1 more" if c.room == 1 else f"up to {c.room} more"
            lines.append(f"{safe(c.name)} ({c.role}, {price}): {more}")
        else:
            lines.append(f"~~{safe(c.name)}~~ ({c.role}, {price}): none — {c.why_not}")
    return lines


def sheet_pages(sheet: WarbandSheet) -> list[discord.Embed]:
    """``/warband show``: the whole roster sheet, in as many pages as it needs."""
    wb = sheet.warband
    rec = sheet.record
    away = [safe(w.name) for w in wb.warriors if w.status == "captured"]
    stash_value = f" (+{sheet.stash_value} gc in the stash)" if sheet.stash_value else ""
    description = "\n".join([
        _type_line(sheet),
        f"**Owner:** <@{wb.owner_id}>",
        f"**Treasury:** {wb.gold_crowns} gc · {wb.wyrdstone_shards} wyrdstone shard{'s' if wb.wyrdstone_shards != 1 else ''}",
        f"**Rating:** {sheet.rating.total}",
        f"**Value:** {sheet.value} gc in warriors and kit{stash_value}",
        f"**Warriors:** {sheet.models} of at most {safe(maximum_in_words(sheet.max_models, sheet.max_models_reasons))}"
        + f" · **Heroes:** {sheet.heroes} of {sheet.max_heroes}"
        + (f" (captured, {'places' if len(away) > 1 else 'place'} kept: {', '.join(away)})" if away else ""),
        f"**Battles:** {rec.get('win', 0)} won, {rec.get('loss', 0)} lost, {rec.get('draw', 0)} drawn",
    ] + ([f"**Stash:** {_listing(wb.stash)}"] if wb.stash else []) + ([f"**Notes:** {safe(wb.notes)}"] if wb.notes else []))
    next_of = {a.warrior: a.next_advance for a in sheet.advances}
    personae = {n.warrior for n in sheet.hirelings if n.what.startswith("Dramatis Persona")}  # not 'hired sword'
    blocks = [_warrior_block(w, next_of.get(w.name, "?") if w.status == "active" else "?", sheet.costs.get(w.id),
                             "Dramatis Persona" if w.name in personae else None)
              for w in wb.warriors]
    if not wb.warriors:
        blocks.append(("Warriors", "None yet: hire from the list with `/hire fighter`, or add by hand with `/warrior add`."
                       if sheet.list_name else "None yet: recruit with `/warrior add`."))
    for note in sheet.hirelings:
        upkeep = (f"upkeep {note.upkeep} gc after every battle" if note.upkeep
                  else f"upkeep {safe(note.upkeep_in)}, not gold" if note.upkeep_in else "no upkeep")
        head = f"**{safe(note.what)}** · {upkeep}"
        blocks += _long_blocks(f"Hired: {safe(note.warrior)}", [head] + [f"- {safe(line)}" for line in note.lines])
    if sheet.can_hire:
        blocks += _long_blocks("Can still hire", _hire_lines(sheet.can_hire))
    rating_lines = [f"{safe(line.what)}: {line.how} = **{line.points}**" for line in sheet.rating.lines]
    rating_lines.append(f"Total **{sheet.rating.total}** ({sheet.rating.rule})")
    blocks += _long_blocks("Rating, worked out", rating_lines)
    return _paginate(safe(wb.name), description, blocks, colour=INFO)


def warrior_embed(w: Warrior, next_advance: int | None | str = "?", *, title_prefix: str = "") -> discord.Embed:
    e = discord.Embed(title=(title_prefix + safe(warrior_heading(w)))[:256], description=warrior_body(w, next_advance),
                      colour=INFO)
    e.set_footer(text=f"{w.warband}/{w.name}"[:2048])
    return e


def _value(v: Any) -> str:
    if isinstance(v, dict) and set(v) >= set(CHARACTERISTICS):
        return " ".join(f"{c}{v[c]}" for c in CHARACTERISTICS)
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v)


# A ledger row's action, in words: the code (``warrior.hire``) is the engine's, the word the player's.
ACTION_WORDS = {
    "warrior.hire": "hire", "warrior.add": "warrior added", "warrior.edit": "warrior edited",
    "warrior.equip": "kit given", "warrior.unequip": "kit taken", "warrior.remove": "warrior removed",
    "trade.buy": "purchase", "trade.sell": "sale", "trade.search": "rare item search", "trade.offer": "rare item found",
    "trade.stash": "stash", "treasury": "treasury", "battle": "battle", "experience": "experience",
    "injury": "serious injury", "upkeep": "upkeep",
    "warband.create": "warband created", "warband.delete": "warband deleted", "warband.edit": "warband edited",
    "warband.import": "warband imported", "warband.rename": "warband renamed",
    "captive.exchanged": "captive exchanged", "captive.ransom": "ransom", "captive.ransomed": "captive ransomed",
    "captive.sale": "captive sold", "captive.sold": "captive sold",
    "postbattle.injury": "post-battle injury", "postbattle.pit_fight": "pit fight",
    "postbattle.experience": "post-battle experience", "postbattle.advance": "advance", "postbattle.skill": "new skill",
    "postbattle.talent": "talent", "postbattle.exploration": "exploration", "postbattle.found": "found exploring",
    "postbattle.treasury": "post-battle treasury", "postbattle.upkeep": "upkeep", "postbattle.cancel": "post-battle closed",
    "game.start": "game started", "game.record": "game recorded", "game.rout": "rout",
}
_ACTION_PARTS = {"postbattle": "post-battle", "settings": "setting"}


def action_words(what: str) -> str:
    """A ledger row's action code as a player reads it: ``trade.buy`` -> "purchase", ``undo warrior.hire``
    -> "undo hire"; a code not named above is spelt out ("settings.plain_text" -> "setting plain text")."""
    if what.startswith("undo "):
        return "undo " + action_words(what[5:])
    if what in ACTION_WORDS:
        return ACTION_WORDS[what]
    return " ".join(_ACTION_PARTS.get(part, part) for part in what.split(".")).replace("_", " ")


def _search_words(search: dict) -> str:
    """A rare-item search's ledger row in words: the item, the dice against its rarity, and what came of it."""
    found = f"found, for {search['price']} gc" if search.get("found") else "not found"
    return (f"{safe(str(search['item']))} (Rare {search.get('rarity')}): {safe(str(search.get('roll', '')))} "
            f"→ {search.get('total')}, {found}")


def ledger_line(entry: LedgerEntry) -> str:
    changes = entry.changes()
    battle = entry.subject if entry.entity == Entity.BATTLE else None  # which battle, in words (actions/ledger_view.py)
    if changes:
        detail = "; ".join(f"{k.replace('_', ' ')}: {safe(_value(a))} → {safe(_value(b))}" for k, a, b in changes)
    elif entry.entity == Entity.SEARCH and isinstance(entry.after, dict) and "item" in entry.after:
        detail = _search_words(entry.after)
    elif isinstance(entry.after, dict) and entry.before is None:
        detail = "added " + safe(battle or str(entry.after.get("name") or entry.after.get("result") or ""))
    elif isinstance(entry.before, dict) and entry.after is None:
        detail = "removed " + safe(battle or str(entry.before.get("name") or ""))
    else:
        detail = ""
    reason = f" — {safe(entry.reason)}" if entry.reason else ""
    who = f" · {safe(entry.subject)}:" if entry.subject and battle is None else ""
    text = f"`#{entry.id}` {entry.created_at[:16].replace('T', ' ')} **{action_words(entry.what)}**{who} {detail}{reason} · <@{entry.member_id}>"
    if entry.undone:
        text = f"~~{text}~~ (undone)"
    return text[:FIELD_LIMIT]


def treasury_embed(view: TreasuryView) -> discord.Embed:
    """`/warband treasury` with no amount: gold, shards and the stash, and the newest changes to them."""
    wb = view.sheet.warband
    shards = f"{wb.wyrdstone_shards} wyrdstone shard{'' if wb.wyrdstone_shards == 1 else 's'}"
    worth = f" ({view.sheet.stash_value} gc of kit at list price)" if wb.stash and view.sheet.stash_value else ""
    lines = [f"**{wb.gold_crowns} gc** · **{shards}**", f"**Stash:** {_listing(wb.stash)}{worth}"]
    if view.changes:
        lines += ["", "**Newest changes**"] + [ledger_line(e) for e in view.changes]
    else:
        lines += ["", "No change to the treasury recorded yet."]
    embed = discord.Embed(title=f"Treasury of {safe(wb.name)}"[:256], description=clip("\n".join(lines), 4000), colour=NEUTRAL)
    embed.set_footer(text="Change it with /warband treasury reason: gold: wyrdstone: · every change is in /warband log")
    return embed


def ledger_pages(warband: str, entries: list[LedgerEntry]) -> list[discord.Embed]:
    if not entries:
        return [discord.Embed(title=f"Ledger of {safe(warband)}"[:256], description="No changes recorded.", colour=NEUTRAL)]
    lines = []
    for n, e in enumerate(entries):
        # rows of one action (a hire and its cost) sit together; the later ones are indented under the first shown
        same_action = n > 0 and e.batch_id is not None and entries[n - 1].batch_id == e.batch_id
        lines.append(("↳ " if same_action else "") + ledger_line(e))
    return _paginate(f"Ledger of {safe(warband)}",
                     "Newest first; ↳ marks a change made by the same action as the line above. "
                     "`/warband undo` takes back the newest action not yet undone, all of it.",
                     _long_blocks("Changes", lines), colour=NEUTRAL)


def battle_pages(warband: str, battles: list[Battle]) -> list[discord.Embed]:
    if not battles:
        return [discord.Embed(title=f"Battles of {safe(warband)}"[:256], description="No battles recorded yet: use `/battle record`.",
                              colour=NEUTRAL)]
    lines = []
    for b in battles:
        bits = [f"`{b.fought_on}` **{b.result.upper()}**"]
        if b.scenario:
            bits.append(safe(b.scenario) + (" (custom)" if b.custom_scenario else ""))
        if b.opponents:
            bits.append(f"vs {safe(b.opponents)}")
        line = " · ".join(bits)
        if b.notes:
            line += f" — {safe(b.notes)}"
        lines.append(line)
    return _paginate(f"Battles of {safe(warband)}", "Newest first.", _long_blocks("Battles", lines), colour=NEUTRAL)


def problem_pages(title: str, problems: list[str]) -> list[discord.Embed]:
    """Every problem of an import, numbered, over as many pages as needed (nothing left out)."""
    # The engine's problem texts are meant to be shown as they are (they quote with backticks);
    # names in them cannot hold mentions, and mentions are disabled anyway.
    lines = [f"{n}. {discord.utils.escape_mentions(p)}" for n, p in enumerate(problems, start=1)]
    count = len(problems)
    pages = _paginate(title, f"{count} problem{'s' if count != 1 else ''}; nothing was saved. Fix them all and import again.",
                      _long_blocks("Problems", lines), colour=discord.Colour.red())
    return pages


def check_pages(warband: str, warband_type: str, problems: tuple[str, ...], notes: tuple[str, ...]) -> list[discord.Embed]:
    """``/warband check``: every problem, numbered, then the notes; paged, nothing cut off."""
    if problems:
        title = f"{safe(warband)}: {len(problems)} problem{'s' if len(problems) != 1 else ''}"
        description = f"What the roster of this {safe(warband_type)} warband breaks. Fix each, then check again."
        colour = discord.Colour.orange()
    else:
        title, description, colour = f"{safe(warband)}: nothing broken", "The roster keeps every limit the bot knows.", SUCCESS
    blocks = _long_blocks("Problems", [f"{n}. {safe(p)}" for n, p in enumerate(problems, start=1)]) if problems else []
    if notes:
        blocks += _long_blocks("Notes", [f"- {safe(n)}" for n in notes])
    return _paginate(title, description, blocks, colour=colour)


def section_pages(title: str, description: str, sections: dict[str, list[str]], *,
                  colour: discord.Colour) -> list[discord.Embed]:
    """Named sections of lines as fields, split and paged as every long answer here is (nothing cut off)."""
    blocks = [block for name, lines in sections.items() for block in _long_blocks(name, lines)]
    return _paginate(title, description, blocks, colour=colour)


def done_embed(title: str, description: str = "") -> discord.Embed:
    return discord.Embed(title=title[:256], description=description[:4096] or None, colour=SUCCESS)


def warband_list_pages(summaries: list[Any], *, whose: str = "") -> list[discord.Embed]:
    title = f"Warbands of this server{whose}"
    if not summaries:
        return [discord.Embed(title=title, description="None yet: create one with `/warband create`.", colour=NEUTRAL)]
    lines = [f"**{safe(s.name)}** — {safe(s.warband_type)}"
             + (f" (*{grade_mark(s.grade_off)}*)" if getattr(s, "grade_off", None) else "")
             + f" · <@{s.owner_id}> · {s.gold_crowns} gc, {s.wyrdstone_shards} shard{'' if s.wyrdstone_shards == 1 else 's'}"
             for s in summaries]
    return _paginate(title, f"{len(summaries)} warband{'s' if len(summaries) != 1 else ''}. See one with `/warband show`.",
                     _long_blocks("Warbands", lines), colour=NEUTRAL)
