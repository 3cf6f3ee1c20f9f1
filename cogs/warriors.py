"""/warrior: recruit, show, edit and remove warriors; equipment, experience and serious injuries.

Warriors are named within their warband (``warband`` option, then ``warrior``); other cogs
find stored warriors as ``Warband/Warrior`` through ``Campaigns.find_warrior`` and
``cogs._ui.warrior_choices.warrior_path_choices``.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe
from cogs._ui.context import is_admin
from cogs._ui.embeds import clip
from cogs._ui.roster import done_embed, warrior_embed
from cogs._ui.warrior_choices import changeable_warband_choices, warband_choices, warrior_choices
from engine.errors import MordheimError
from engine.campaign.rules.validation import CHARACTERISTICS, MAX_EXPERIENCE

NAME_OPTION_MAX = 100  # generous: the service explains names of 65-100 characters itself
Name = app_commands.Range[str, 1, NAME_OPTION_MAX]
Text = app_commands.Range[str, 0, 1000]

ROLE_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                (("Leader", "leader"), ("Hero", "hero"), ("Henchmen (a group)", "henchmen"), ("Hired sword", "hired_sword"))]
STATUS_CHOICES = [app_commands.Choice(name=n, value=n) for n in ("active", "dead", "retired")]
_KEYED = re.compile(r"([A-Za-z]+)\s*[=:]?\s*(-?\d+)")
PROFILE_HELP = "Write it as nine numbers in the order M WS BS S T W I A Ld (`4 3 3 3 3 1 3 1 7`) or by name (`WS=4 BS=3`)."


def parse_profile(text: str, *, partial: bool = False) -> dict[str, int]:
    """'4 3 3 3 3 1 3 1 7' or 'M4 WS3 ... Ld7' (any of = : or nothing between). Ranges are the service's to check."""
    text = text.strip()
    if not text:
        raise MordheimError("The profile is empty.", hint=PROFILE_HELP)
    if re.search(r"[A-Za-z]", text):
        pairs = _KEYED.findall(text)
        leftover = _KEYED.sub("", text).replace(",", " ").replace(";", " ").strip()
        if leftover or not pairs:
            raise MordheimError(f"I can't read `{safe(leftover or text)[:40]}` in the profile.", hint=PROFILE_HELP)
        by_key = {c.lower(): c for c in CHARACTERISTICS}
        out: dict[str, int] = {}
        for key, value in pairs:
            canon = by_key.get(key.lower())
            if canon is None:
                raise MordheimError(f"`{safe(key)[:20]}` is not a characteristic.", hint="Use " + " ".join(CHARACTERISTICS) + ".")
            if canon in out:
                raise MordheimError(f"{canon} is given twice in the profile.")
            out[canon] = int(value)
        return out
    numbers = re.split(r"[\s,/;]+", text)
    if not all(re.fullmatch(r"-?\d+", n) for n in numbers):
        raise MordheimError("A profile holds whole numbers only.", hint=PROFILE_HELP)
    if len(numbers) != len(CHARACTERISTICS):
        raise MordheimError(f"The profile has {len(numbers)} numbers; it needs {len(CHARACTERISTICS)}.", hint=PROFILE_HELP)
    return {c: int(n) for c, n in zip(CHARACTERISTICS, numbers)}


def parse_list(text: str | None) -> list[str]:
    """'Sword, Dagger, Light armour' -> the items (the service checks each name)."""
    if not text:
        return []
    return [item.strip() for item in re.split(r"[,;\n]", text) if item.strip()]


class Warriors(commands.Cog):
    """The /warrior command group."""

    warrior = app_commands.Group(name="warrior", description="The warriors of this server's warbands", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @warrior.command(name="add", description="Recruit a leader, hero or henchman group")
    @app_commands.describe(
        warband="Which warband", name="The warrior's (or group's) name", role="Leader, hero or henchmen",
        warrior_type="e.g. Captain, Marksman, Clanrat", profile="M WS BS S T W I A Ld, e.g. 4 3 3 3 3 1 3 1 7",
        group_size="Henchmen in the group (1 for heroes)", equipment="Comma-separated, e.g. Sword, Dagger",
        skills="Comma-separated", experience="Starting experience", large="A large creature (rating 20)",
    )
    @app_commands.choices(role=ROLE_CHOICES)
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def add(self, interaction: discord.Interaction, warband: Name, name: Name, role: str, warrior_type: Name,
                  profile: app_commands.Range[str, 1, 200], group_size: app_commands.Range[int, 1, 99] = 1,
                  equipment: Text = "", skills: Text = "", experience: app_commands.Range[int, 0, MAX_EXPERIENCE] = 0,
                  large: bool = False) -> None:
        g = require_server(interaction)
        w = await call(campaigns(interaction).add_warrior, g, interaction.user.id, is_admin(interaction), warband, name,
                       role=role, warrior_type=warrior_type, profile=parse_profile(profile), group_size=group_size,
                       equipment=parse_list(equipment), skills=parse_list(skills), experience=experience, large=large)
        await interaction.response.send_message(embed=warrior_embed(w, title_prefix="Recruited: "))

    @warrior.command(name="show", description="One warrior's profile, kit, skills, injuries and experience")
    @app_commands.describe(warband="Which warband", warrior="Which warrior")
    @app_commands.autocomplete(warband=warband_choices, warrior=warrior_choices)
    async def show(self, interaction: discord.Interaction, warband: Name, warrior: Name) -> None:
        g = require_server(interaction)
        svc = campaigns(interaction)
        w = await call(svc.get_warrior, g, warband, warrior)
        rules = await call(campaigns(interaction).campaign_rules, g)
        nxt = rules.next_advance(w.role, w.experience) if w.status == "active" else "?"
        await interaction.response.send_message(embed=warrior_embed(w, nxt))

    @warrior.command(name="edit", description="Change a warrior: name, role, type, profile, skills, injuries, status...")
    @app_commands.describe(
        warband="Which warband", warrior="Which warrior", new_name="A new name", role="A new role",
        warrior_type="A new type", profile="Only what changes, e.g. WS=4 BS=4 (or all nine numbers)",
        group_size="Henchmen in the group", skills="The full skill list, comma-separated (replaces it)",
        injuries="The full injury list, comma-separated (replaces it)", experience="The experience total",
        status="active, dead or retired", large="A large creature", reason="Why (kept in the ledger)",
    )
    @app_commands.choices(role=ROLE_CHOICES, status=STATUS_CHOICES)
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices)
    async def edit(self, interaction: discord.Interaction, warband: Name, warrior: Name, new_name: Name | None = None,
                   role: str | None = None, warrior_type: Name | None = None,
                   profile: app_commands.Range[str, 1, 200] | None = None,
                   group_size: app_commands.Range[int, 1, 99] | None = None, skills: Text | None = None,
                   injuries: Text | None = None, experience: app_commands.Range[int, 0, MAX_EXPERIENCE] | None = None,
                   status: str | None = None, large: bool | None = None, reason: Text = "") -> None:
        g = require_server(interaction)
        given = [new_name, role, warrior_type, profile, group_size, skills, injuries, experience, status, large]
        if all(v is None for v in given):
            raise MordheimError("Nothing to change.", hint="Give at least one option, e.g. `profile:WS=4`.")
        notices: list[str] = []
        w = await call(
            campaigns(interaction).edit_warrior, g, interaction.user.id, is_admin(interaction), warband, warrior,
            notices=notices, rng=interaction.client.rng, name=new_name, role=role, warrior_type=warrior_type,
            profile=parse_profile(profile, partial=True) if profile is not None else None, group_size=group_size,
            skills=parse_list(skills) if skills is not None else None,
            injuries=parse_list(injuries) if injuries is not None else None,
            experience=experience, status=status, large=large, reason=reason,
        )
        await interaction.response.send_message(embed=with_notices(warrior_embed(w, title_prefix="Changed: "), notices))

    @warrior.command(name="remove", description="Take a warrior off the roster for good (undo with /warband undo)")
    @app_commands.describe(warband="Which warband", warrior="Which warrior", reason="Why (kept in the ledger)")
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices)
    async def remove(self, interaction: discord.Interaction, warband: Name, warrior: Name, reason: Text = "") -> None:
        g = require_server(interaction)
        svc = campaigns(interaction)
        w = await call(svc.get_warrior, g, warband, warrior)
        notices: list[str] = []
        await call(svc.remove_warrior, g, interaction.user.id, is_admin(interaction), warband, warrior, reason=reason,
                   rng=interaction.client.rng, notices=notices)
        await interaction.response.send_message(embed=with_notices(done_embed(
            f"{safe(w.name)} left {safe(w.warband)}",
            "To keep the record instead, set `status:dead` or `status:retired` with `/warrior edit`; "
            "`/warband undo` brings them back."), notices))

    @warrior.command(name="equip", description="Give a warrior an item")
    @app_commands.describe(warband="Which warband", warrior="Which warrior", item="e.g. Sword, Crossbow, Light armour")
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices)
    async def equip(self, interaction: discord.Interaction, warband: Name, warrior: Name, item: Name) -> None:
        g = require_server(interaction)
        w = await call(campaigns(interaction).equip, g, interaction.user.id, is_admin(interaction), warband, warrior, item)
        await interaction.response.send_message(embed=warrior_embed(w, title_prefix=f"Equipped {safe(item.strip())}: "))

    @warrior.command(name="unequip", description="Take an item from a warrior")
    @app_commands.describe(warband="Which warband", warrior="Which warrior", item="An item the warrior carries")
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices)
    async def unequip(self, interaction: discord.Interaction, warband: Name, warrior: Name, item: Name) -> None:
        g = require_server(interaction)
        w = await call(campaigns(interaction).unequip, g, interaction.user.id, is_admin(interaction), warband, warrior, item)
        await interaction.response.send_message(embed=warrior_embed(w, title_prefix=f"Took {safe(item.strip())}: "))

    @unequip.autocomplete("item")
    async def _carried(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        ns = interaction.namespace
        if interaction.guild_id is None or not getattr(ns, "warband", None) or not getattr(ns, "warrior", None):
            return []
        try:
            w = await call(campaigns(interaction).get_warrior, interaction.guild_id, ns.warband, ns.warrior)
        except MordheimError:
            return []
        low = (current or "").casefold()
        items = list(dict.fromkeys(e for e in w.equipment if low in e.casefold()))
        return [app_commands.Choice(name=e, value=e) for e in items[:25]]

    @warrior.command(name="xp", description="Add experience (negative to correct); shows advances reached")
    @app_commands.describe(warband="Which warband", warrior="Which warrior", amount="Experience gained, e.g. 1",
                           reason="Why, e.g. 'survived', 'took out of action'")
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices)
    async def xp(self, interaction: discord.Interaction, warband: Name, warrior: Name,
                 amount: app_commands.Range[int, -MAX_EXPERIENCE, MAX_EXPERIENCE], reason: Text = "") -> None:
        g = require_server(interaction)
        r = await call(campaigns(interaction).add_xp, g, interaction.user.id, is_admin(interaction), warband, warrior, amount,
                       reason=reason)
        w = r.warrior
        lines = [f"{amount:+d} experience → **{w.experience}**."]
        if r.advances:
            lines.append(_advances_line(r.advances))
        if not r.gains_experience:
            lines.append("He never gains experience (an animal, or his rules say so): no advance.")
        else:
            lines.append("No advances left." if r.next_advance is None else f"Next advance at {r.next_advance}.")
        embed = done_embed(f"Experience: {safe(w.name)} of {safe(w.warband)}", "\n".join(lines))
        await interaction.response.send_message(embed=embed)

    @warrior.command(name="injure", description="Record a serious injury by name or D66 roll (Dead marks the warrior dead)")
    @app_commands.describe(warband="Which warband", warrior="Which warrior", injury="e.g. Leg wound, or the D66 roll like 22",
                           reason="Which battle, say")
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices)
    async def injure(self, interaction: discord.Interaction, warband: Name, warrior: Name,
                     injury: app_commands.Range[str, 1, 64], reason: Text = "") -> None:
        g = require_server(interaction)
        notices: list[str] = []
        r = await call(campaigns(interaction).injure_reported, g, interaction.user.id, is_admin(interaction), warband,
                       warrior, injury, reason=reason, rng=interaction.client.rng, notices=notices)
        embed = warrior_embed(r.warrior, title_prefix="Injured: ")
        told = [f"🎲 {safe(d)}" for d in r.dice] + [f"**{safe(r.injury)}**"]
        if len(r.results) > 1:  # Multiple injuries: what each of its rolls did ("Dead — re-rolled")
            told += [f"- {safe(x)}" for x in r.results]
        if r.experience_gained:
            told.append(f"{r.experience_gained:+d} experience → **{r.warrior.experience}**.")
        if r.advances:
            told.append(_advances_line(r.advances))
        embed.description = clip("\n".join(told) + "\n\n" + (embed.description or ""), 4096)
        await interaction.response.send_message(embed=with_notices(embed, notices))

    @injure.autocomplete("injury")
    async def _injuries(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        rules = await call(campaigns(interaction).campaign_rules, interaction.guild_id)
        low = (current or "").casefold()
        names = list(dict.fromkeys(e.name for e in rules.serious_injuries if low in e.name.casefold()))
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]


def with_notices(embed: discord.Embed, notices: list[str]) -> discord.Embed:
    """``embed`` with what the change did besides (who took command after the leader left) as a field."""
    if notices:
        embed.add_field(name="Command of the warband", value="\n".join(safe(n) for n in notices)[:1024], inline=False)
    return embed


def _advances_line(advances: tuple[int, ...]) -> str:
    """The advances experience added by hand reached, and what to do about them."""
    return (f"**{len(advances)} advance{'s' if len(advances) != 1 else ''}** reached (at "
            + ", ".join(map(str, advances)) + "): roll on the advance table for each (`/roll 2d6`, "
            "then record it with `/warrior edit`). Experience added here is kept by hand: the post-battle "
            "sequence rolls only the advances its own experience reaches.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Warriors(bot))
