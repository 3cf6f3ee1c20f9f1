"""How a post-battle sequence looks in the channel: one embed per step, and the step's buttons
and menus. Every component's custom_id carries the sequence id and the version it was drawn for
(``pb:<action>:<sequence>:<version>[:<arg>]``, menus ``pbs:``), so it works after a restart
and a second press is recognised as stale by the service."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from cogs._ui.campaign import safe, safe_line
from cogs._ui.drawn import ROW_MAX, Component, Drawn, action_row, button, menu, option
from cogs._ui.embeds import EMBED_FIELD_LIMIT, INFO, NEUTRAL, SUCCESS, clip
from engine.campaign.actions.postbattle import EXTRA_DIE, SequenceView, SkillGroup
from engine.campaign.rules.sequence import STEP_TITLES
from engine.campaign.actions.upkeep import in_words

MAX_OPTIONS = 25  # Discord's limit on a menu's options
BUTTON = "pb"
SELECT = "pbs"


def custom_id(kind: str, action: str, view: SequenceView, arg: str = "") -> str:
    return f"{kind}:{action}:{view.id}:{view.version}" + (f":{arg}" if arg else "")


def start_id(warband_id: int, battle_id: int) -> str:
    """The 'start the post-battle sequence' button under /battle record (handled by cogs/postbattle)."""
    return f"{BUTTON}:start:{warband_id}:0:{battle_id}"


def _field(embed: discord.Embed, name: str, lines: list[str] | tuple[str, ...], *, newest: bool = False) -> None:
    if not lines:
        return
    text = "\n".join(lines)
    if len(text) > EMBED_FIELD_LIMIT and newest:  # show the end: the newest lines matter most
        text = "…" + text[-(EMBED_FIELD_LIMIT - 1):]
    embed.add_field(name=name, value=clip(text, EMBED_FIELD_LIMIT), inline=False)


def _fighter_lines(view: SequenceView) -> list[str]:
    out = []
    for f in view.state.fighters:
        w = view.warrior(f.warrior_id)
        name = safe(f.name)
        if not f.fought:
            out.append(f"~~{name}~~ did not fight")
            continue
        bits = []
        if f.out_of_action:
            bits.append("out of action" if f.hero or f.hired_sword else f"{f.out_of_action} of {f.models} out of action")
        if f.kills:
            bits.append(f"{f.kills} enem{'ies' if f.kills != 1 else 'y'} out of action")
        if f.counters:
            bits.append(f"carried {f.counters} wyrdstone counter{'s' if f.counters != 1 else ''}"
                        + (", dropped when taken out of action" if f.counters_held < f.counters else ""))
        if f.feat:  # the scenario's deed (sequences before it was kept say the award's name)
            bits.append(view.state.extra.get("feat_done") or str(view.state.extra.get("feat") or "the scenario's feat").lower())
        if f.scenario:
            bits.append(f"{f.scenario:+d} xp from the scenario")
        kind = "hero" if f.hero else "hired sword" if f.hired_sword else f"{f.models} henchm{'e' if f.models != 1 else 'a'}n"
        status = f" — now **{w.status}**" if w is not None and w.status != "active" else ""
        out.append(f"**{name}** ({kind})" + (": " + ", ".join(bits) if bits else ": fought") + status)
    return out


def _pending_lines(view: SequenceView) -> list[str]:
    out = []
    for p in view.state.pending:
        name = safe(p.name)
        if p.kind == "pit_fight":
            out.append(f"**{name}** was sold to the pits: let the bot fight the pit fighter (the combat engine, his kit against "
                       "the pit fighter's), or fight it at the table and say who won.")
        elif p.kind == "choose":
            out.append(f"**{name}**: choose +1 " + " or ".join(p.options) + (f" ({safe(p.note)})" if p.note else ""))
        elif p.kind == "skill":
            out.append(f"**{name}**: choose a new skill from {name}'s skill lists (menus below, or type it)"
                       + (f" ({safe(p.note)})" if p.note else ""))
        elif p.kind == "talent":
            out.append(f"**{name}**: the lad's got talent! Name the henchman who becomes a hero.")
        elif p.kind == "place_hero":
            out.append(f"**{name}**: {safe(p.note)}")
        elif p.kind == "drop":
            count, _, why = p.note.partition("|")
            out.append(f"Drop {'one' if count == '1' else count} of the exploration dice ({safe(why)}): "
                       f"choose {'which' if count == '1' else 'which ones'}.")
        elif p.kind == "reroll":
            allowed, _, why = p.note.partition("|")
            out.append(f"The warband may re-roll {allowed} exploration {'die' if allowed == '1' else 'dice'} "
                       f"({safe(why)}); the second result stands. Choose which, or keep them.")
        elif p.kind == "share_xp":
            out.append(f"**{name}**: {p.note} experience for the heroes to share. Say who gets how much.")
    return out


@dataclass(frozen=True)
class UpkeepLine:
    """One hired sword's upkeep the upkeep step asks: gold, and wyrdstone shards besides (Nicodemus)."""

    warrior_id: int
    name: str
    gold: int
    shards: int = 0

    @property
    def words(self) -> str:
        return in_words(self.gold, self.shards)


def upkeep_due(view: SequenceView) -> list[UpkeepLine]:
    """Each hired sword whose upkeep the upkeep step asks and who is not paid for the battle by now
    (`/hire upkeep` may have paid him while the step waited)."""
    out = []
    shards = view.state.extra.get("upkeep_shards", {})
    for wid, fee in view.state.extra.get("upkeep", []):
        if int(wid) in view.upkeep_paid:
            continue
        w = view.warrior(int(wid))
        out.append(UpkeepLine(warrior_id=int(wid), name=w.name if w is not None else f"#{wid}", gold=int(fee),
                              shards=int(shards.get(str(wid), 0))))
    return out


def upkeep_total(due: list[UpkeepLine]) -> str:
    """What paying every upkeep of ``due`` takes, in words."""
    return in_words(sum(d.gold for d in due), sum(d.shards for d in due))


def _upkeep_lines(view: SequenceView) -> tuple[str, list[str]]:
    """The upkeep step's field: who is due, who is paid already, the treasury."""
    due = upkeep_due(view)
    paid = [safe(w.name) for wid in view.upkeep_paid if (w := view.warrior(wid)) is not None]
    lines = [f"**{safe(d.name)}**: {d.words}" for d in due]
    if paid:
        lines.append("paid already (`/hire upkeep`): " + ", ".join(f"**{name}**" for name in paid))
    if not due:
        lines.append("Nothing is due: press **Continue**.")
    return ("Upkeep due" if due else "Upkeep"), [*lines, f"Treasury: {view.gold_crowns} gc"]


EMBED_TOTAL = 5800  # Discord's 6,000 characters a message, with room for titles and the footer
FIELDS_MAX = 25


def _chunks(lines: list[str], limit: int = EMBED_FIELD_LIMIT) -> list[str]:
    """The lines joined into texts of at most ``limit`` characters each, none cut (a single line
    longer than a field, which no summary line is, is the only thing clipped)."""
    out: list[str] = []
    chunk = ""
    for line in lines:
        line = clip(line, limit)
        if chunk and len(chunk) + 1 + len(line) > limit:
            out.append(chunk)
            chunk = ""
        chunk = f"{chunk}\n{line}" if chunk else line
    if chunk:
        out.append(chunk)
    return out


def summary_embeds(view: SequenceView) -> list[discord.Embed]:
    """The finished sequence's public summary: a field (or more) per section, every die rolled,
    typed at the table or not, and the treasury last. Dice that do not fit the message's 6,000
    characters follow in more embeds (sent as messages after it), so none is left out."""
    s = view.state
    sections = view.sections()
    treasury = sections.pop()  # ("Treasury", ...): the summary ends with it
    embed = discord.Embed(title=f"{view.warband} after {s.battle}"[:256], colour=SUCCESS)
    embeds = [embed]
    size = len(embed.title or "") + len(treasury[0]) + sum(len(x) for x in treasury[1]) + 10
    for title, lines in sections:
        for n, text in enumerate(_chunks([f"• {safe_line(x)}" for x in lines])):
            embed.add_field(name=title if n == 0 else f"{title} (continued)", value=text, inline=False)
            size += len(title) + len(text) + 12
    current, room = embed, EMBED_TOTAL - size
    for n, text in enumerate(_chunks(list(s.dice) or ["no dice were rolled"])):
        name = "Every die rolled" if n == 0 else "Every die rolled (continued)"
        if len(current.fields) >= FIELDS_MAX - (1 if current is embed else 0) or len(name) + len(text) > room:
            current = discord.Embed(title=f"{view.warband} after {s.battle}: every die (continued)"[:256], colour=SUCCESS)
            embeds.append(current)
            room = EMBED_TOTAL - len(current.title or "")
        current.add_field(name=name, value=text, inline=False)
        room -= len(name) + len(text)
    embed.add_field(name=treasury[0], value="\n".join(treasury[1]), inline=False)
    return embeds


GUIDES = {  # what each step asks of the player; the injuries and the sale say more (``_guide``)
    "setup": "Mark who was **taken out of action** and who **did not fight** in the menus, add enemies each hero took "
             "out of action and the scenario's experience, then confirm.",
    "experience": "Award the experience: survivors, the winning leader, enemies out of action and the scenario's. "
                  "Every advance is rolled (or type the dice you rolled at the table); choose where the table lets you.",
    "exploration": "Search the ruins: one die per hero who fought and was not taken out of action, one more for a win.",
    "upkeep": "Pay the upkeep of every hired sword who fought this battle (due after each battle he fights), or let one go: "
              "a hired sword left unpaid leaves the warband, and his experience is lost.",
    "trading": "Trade and hire now with the warband commands, then finish to post the summary.",
}


def _guide(view: SequenceView) -> str:
    """What the sequence's step asks of the player (only that step's text is made)."""
    s = view.state
    if s.step == "injuries":
        return ("Roll the injuries (the bot rolls every die and shows it), or type the dice you rolled at the table."
                if any(f.out_of_action for f in s.fighters) else "Nobody was taken out of action: no injury to roll.")
    if s.step == "income":
        if not view.wyrdstone_shards:
            return "Sell wyrdstone: the warband holds no shards, so there is nothing to sell."
        return (f"Sell wyrdstone: the warband holds **{view.wyrdstone_shards}** shard{'s' if view.wyrdstone_shards != 1 else ''}; "
                f"the price depends on how many you sell at once and on the warband's **{view.warband_size}** warriors"
                + (" (hired swords do not count)." if any(w.is_hired_sword and w.status == "active" for w in view.warriors) else "."))
    return GUIDES[s.step]


def sequence_embed(view: SequenceView, *, trading_commands: list[str] = ()) -> discord.Embed:
    """The sequence's message (a finished one's first embed: ``summary_embeds`` gives them all)."""
    s = view.state
    if view.status == "finished":
        return summary_embeds(view)[0]
    if view.status == "cancelled":
        closed = discord.Embed(title=f"{view.warband}: post-battle sequence closed"[:256], colour=NEUTRAL,
                               description="Closed before the end. Steps already taken stay, and the battle's sequence cannot be run "
                                           "again while they do; `/warband undo` takes them all back.")
        _field(closed, "Left waiting (record by hand with `/warrior edit`)", [safe_line(x) for x in _left_waiting(s.pending)])
        return closed
    guide = _guide(view)
    embed = discord.Embed(title=f"{view.warband} after {s.battle} — {STEP_TITLES[s.step]}"[:256], description=guide, colour=INFO)
    _field(embed, "Warriors", _fighter_lines(view))
    _field(embed, "So far", [safe_line(x) for x in s.lines], newest=True)
    if view.rolls:
        _field(embed, "Dice", list(view.rolls), newest=True)
    if s.step in ("income", "trading") and s.extra.get("exploration"):
        _field(embed, "Exploration", [safe(x) for x in s.extra["exploration"]], newest=True)
    for name, rounds in s.extra.get("pit_fights", {}).items():
        _field(embed, f"{name}'s pit fight"[:256], [safe(x) for x in rounds], newest=True)
    if s.step == "experience" and s.extra.get("awards"):
        _field(embed, "Experience awarded", [safe(x) for x in s.extra["awards"]])
    if s.step == "upkeep":
        _field(embed, *_upkeep_lines(view))
    _field(embed, "Waiting for you", _pending_lines(view))
    if s.step == "trading":
        found = [*s.items_found, *(safe_line(n) for n in s.found_notes)]
        _field(embed, "Found while exploring", found + (["In the stash: give them out with `/trade give`."] if s.items_found else []))
        _field(embed, "Notes", [safe_line(n) for n in s.notes])
        cmds = ", ".join(f"`/{c}`" for c in trading_commands) or "the `/warband` and `/warrior` commands"
        _field(embed, "Trading and hiring", [f"Buy, sell and hire with {cmds} (they are part of the warband lists' commands). "
                                              "Press **Finish** when done."])
    embed.set_footer(text=f"Only the warband's owner or a member with Manage Server can press · sequence #{view.id}")
    return embed


WAITING = {"skill": "a new skill to choose", "choose": "a characteristic to choose", "talent": "the lad's got talent: a new hero to name",
           "pit_fight": "a pit fight to settle", "place_hero": "a hero to send to the place found"}


def _left_waiting(pending) -> list[str]:
    """What a sequence closed early leaves undone: advances reached but not chosen, and the like
    (the experience is kept; the choice is the player's to record)."""
    out = []
    for p in pending:
        what = WAITING.get(p.kind)
        if what is not None:
            options = f" ({', '.join(p.options)})" if p.kind == "choose" and p.options else ""
            out.append(f"{p.name}: {what}{options}")
    return out


class _Rows:
    """The message's components placed in its five rows as ``discord.ui.View.add_item`` places them
    (a menu fills a row, a button takes a fifth of one; ``row`` given: that row, else the first with
    room), written straight as Discord's payload (cogs/_ui/drawn.py): every press is a DynamicItem's,
    so discord.py need keep nothing of it. tests/cogs/test_postbattle_drawn.py compares it with the
    discord.ui view it replaces."""

    def __init__(self) -> None:
        self.rows: list[list[Component]] = [[] for _ in range(ROW_MAX)]
        self.used = [0] * ROW_MAX  # each row's width taken

    def add(self, component: Component, row: int | None = None) -> None:
        width = ROW_MAX if component["type"] == MENU else 1
        if row is None:
            row = next((n for n, used in enumerate(self.used) if used + width <= ROW_MAX), None)
            if row is None:
                raise ValueError("could not find open space for item")
        elif self.used[row] + width > ROW_MAX:
            raise ValueError(f"item would not fit at row {row}")
        self.used[row] += width
        self.rows[row].append(component)

    def drawn(self) -> Drawn:
        return Drawn([action_row(*row) for row in self.rows if row])


MENU = 3  # a component's type: a menu of strings (a button is 2)


def _button(label: str, action: str, view: SequenceView, arg: str = "", *,
            style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> Component:
    return button(label, custom_id(BUTTON, action, view, arg), style=style)


def _select(placeholder: str, action: str, view: SequenceView, options: list[Component], *, arg: str = "",
            many: bool = False) -> Component:
    options = options[:MAX_OPTIONS]
    return menu(custom_id(SELECT, action, view, arg), placeholder, options,
                min_values=0 if many else 1, max_values=len(options) if many else 1)


MAX_SKILL_MENUS = 3  # rows 0-2; the typing button takes the next row, closing the sequence row 4


def skill_menus(groups: tuple[SkillGroup, ...]) -> list[tuple[str, list[Component]]]:
    """The skills of an advance as menus of at most 25 options each, with the lists each holds: whole
    skill lists packed together while they fit, a list of more than 25 split; at most
    MAX_SKILL_MENUS menus (what is left over can still be typed). Each option says its list and
    what the skill does."""
    menus: list[tuple[list[str], list[Component]]] = []
    for group in groups:
        options = [option(name, name, description=f"{group.list_name}: {what}") for name, what in group.skills]
        for start in range(0, len(options), MAX_OPTIONS):
            part = options[start:start + MAX_OPTIONS]
            if menus and len(menus[-1][1]) + len(part) <= MAX_OPTIONS:
                menus[-1][0].append(group.list_name)
                menus[-1][1].extend(part)
            else:
                menus.append(([group.list_name], part))
    return [(", ".join(dict.fromkeys(names)), options) for names, options in menus[:MAX_SKILL_MENUS]]


def _choice_components(ui: _Rows, view: SequenceView, p) -> None:
    """The menu or button of an advance waiting for the player's choice."""
    primary = discord.ButtonStyle.primary
    if p.kind == "choose":
        ui.add(_select(f"{p.name}: choose +1 …", "choose", view, [option(f"+1 {c}", c) for c in p.options], arg=str(p.warrior_id)))
    elif p.kind == "skill":  # menus of what he may learn, by list; typing stays possible
        menus = skill_menus(view.skill_menu)
        for n, (lists, options) in enumerate(menus):
            ui.add(_select(f"{p.name}'s new skill: {lists}", "learn", view, options, arg=f"{p.warrior_id}-{n}"), row=n)
        label = f"Type {p.name}'s new skill" if menus else f"Choose {p.name}'s new skill"
        ui.add(_button(label, "skill", view, str(p.warrior_id), style=discord.ButtonStyle.secondary if menus else primary),
               row=len(menus))
    elif p.kind == "talent":
        ui.add(_button(f"Name {p.name}'s new hero", "talent", view, str(p.warrior_id), style=primary))


def sequence_components(view: SequenceView, searchers: int) -> Drawn:
    """The step's buttons and menus (none once finished or closed)."""
    ui = _Rows()
    s = view.state
    if view.status != "open":
        return ui.drawn()
    primary = discord.ButtonStyle.primary
    if s.step == "setup":
        fought = [f for f in s.fighters if f.fought]
        ooa = []
        for f in fought:
            if f.hero or f.hired_sword:
                ooa.append(option(f.name, f"{f.warrior_id}:1", default=f.out_of_action == 1))
            else:
                ooa.extend(option(f"{f.name} — {n} of {f.models}", f"{f.warrior_id}:{n}", default=f.out_of_action == n)
                           for n in range(1, f.models + 1))
        if ooa:
            ui.add(_select("Taken out of action", "ooa", view, ooa, many=True), row=0)
        ui.add(_select("Did not fight", "absent", view, [
            option(f.name, str(f.warrior_id), default=not f.fought) for f in s.fighters], many=True), row=1)
        ui.add(_button("Enemies out of action & scenario xp", "kills", view), row=2)
        ui.add(_button("Confirm: on to injuries", "confirm", view, style=primary), row=2)
    elif s.step == "injuries":
        pits = [p for p in s.pending if p.kind == "pit_fight"]
        if pits:
            for n, p in enumerate(pits[:4]):
                ui.add(_button(f"Fight {p.name}'s pit fight", "pitfight", view, str(p.warrior_id), style=primary), row=n)
                ui.add(_button(f"{p.name} won (at the table)", "pit", view, f"{p.warrior_id}-won",
                               style=discord.ButtonStyle.success), row=n)
                ui.add(_button(f"{p.name} lost", "pit", view, f"{p.warrior_id}-lost", style=discord.ButtonStyle.danger), row=n)
        elif not any(f.out_of_action for f in s.fighters):  # the step still records that nobody was hurt
            ui.add(_button("Nobody to roll for: on to experience", "injuries", view, style=primary))
        else:
            ui.add(_button("Roll the injuries", "injuries", view, style=primary))
            ui.add(_button("Type dice rolled at the table", "injdice", view))
    elif s.step == "experience":
        if not s.extra.get("experience_done"):
            ui.add(_button("Award experience and roll advances", "xp", view, style=primary))
            ui.add(_button("Type advance dice rolled at the table", "xpdice", view))
        else:
            _choice_components(ui, view, s.pending[0])
    elif s.step == "exploration" and s.pending and s.pending[0].kind in ("choose", "skill", "talent"):
        _choice_components(ui, view, s.pending[0])
    elif s.step == "exploration" and any(p.kind == "drop" for p in s.pending):
        p = next(p for p in s.pending if p.kind == "drop")
        count = int(p.note.split("|", 1)[0])
        ui.add(_select(f"Drop which {'die' if count == 1 else f'{count} dice'}?", "drop", view, [
            option(f"Die {k + 1}: {face}", str(k)) for k, face in enumerate(s.explore_dice)], many=count > 1), row=0)
    elif s.step == "exploration" and any(p.kind == "reroll" for p in s.pending):
        p = next(p for p in s.pending if p.kind == "reroll")
        allowed = int(p.note.split("|", 1)[0])
        ui.add(_select(f"Re-roll which {'die' if allowed == 1 else f'dice (up to {allowed})'}?", "reroll", view, [
            option(f"Die {k + 1}: {face}", str(k)) for k, face in enumerate(s.explore_dice)], many=True), row=0)
        ui.add(_button("Keep the dice", "keepdice", view, style=primary), row=1)
    elif s.step == "exploration" and any(p.kind == "share_xp" for p in s.pending):
        ui.add(_button("Share the heroes' experience", "share", view, style=primary))
    elif s.step == "exploration":
        place = next((p for p in s.pending if p.kind == "place_hero"), None)
        if place is not None:
            options = [option(view.warrior(int(o)).name if view.warrior(int(o)) else o, o) for o in place.options]
            if options:
                ui.add(_select(f"{place.name}: which hero goes?", "place", view, options))
            if "nobody" in place.note or "send nobody" in place.note.lower():
                ui.add(_button("Send nobody", "nobody", view))
        else:
            dice = searchers + (1 if s.won else 0)
            dice += int(s.extra.get(EXTRA_DIE, 0)) if dice else 0  # a straggler questioned: the dice to drop
            ui.add(_button(f"Roll exploration ({dice} {'die' if dice == 1 else 'dice'})" if dice else "Nobody searched: go on",
                           "explore", view, style=primary))
            ui.add(_button("Type dice / extra dice", "expdice", view))
    elif s.step == "income" and not view.wyrdstone_shards:  # a menu of the one choice "keep them all" asks nothing
        ui.add(_button("Continue (nothing to sell)", "sell", view, style=primary))
    elif s.step == "income":
        ui.add(_select("Sell how many shards?", "sell", view, [
            option("Keep them all" if n == 0 else f"Sell {n} for {gold} gc", str(n)) for n, gold in view.sale_prices]))
    elif s.step == "upkeep":
        due = upkeep_due(view)
        if due:
            ui.add(_button(f"Pay every upkeep ({upkeep_total(due)})", "upkeep", view, style=primary), row=0)
            ui.add(_select("Let go unpaid (the others are paid)…", "letgo", view, [
                option(f"{d.name} ({d.words})", str(d.warrior_id)) for d in due], many=True), row=1)
        else:  # paid by `/hire upkeep` while the step waited: nothing to pay, nobody to let go
            ui.add(_button("Continue (nothing due)", "upkeep", view, style=primary), row=0)
    elif s.step == "trading":
        ui.add(_button("Finish and post the summary", "finish", view, style=primary))
    ui.add(_button("Close the sequence", "cancel", view, style=discord.ButtonStyle.danger), row=4)
    return ui.drawn()


def standings_pages(title: str, lines: list[str], heroes: list[str]) -> list[discord.Embed]:
    """Standings or the log over as many embeds as needed, nothing cut."""
    pages: list[discord.Embed] = []
    chunk: list[str] = []
    size = 0
    for line in lines or ["Nothing recorded yet."]:
        if size + len(line) + 1 > 3500 and chunk:
            pages.append(discord.Embed(title=title[:256], description="\n".join(chunk), colour=NEUTRAL))
            chunk, size = [], 0
        chunk.append(line)
        size += len(line) + 1
    pages.append(discord.Embed(title=title[:256], description="\n".join(chunk), colour=NEUTRAL))
    if heroes:
        pages[0].add_field(name="Most experienced heroes", value=clip("\n".join(heroes), EMBED_FIELD_LIMIT), inline=False)
    if len(pages) > 1:
        for n, page in enumerate(pages, start=1):
            page.set_footer(text=f"Page {n} of {len(pages)}")
    return pages
