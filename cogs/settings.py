"""/settings: what this server plays by (edition, house rules, campaign tables, warband lists), for anyone to see.

Changing them is `/admin` (cogs/admin.py), a group Discord shows only to Manage Server.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.context import server_settings
from cogs._ui.embeds import info_embed
from engine.combat.ruleset import combat_edition, list_toggles
from engine.editions import get_edition
from engine.errors import MordheimError
from engine.campaign.actions.server_tables import ServerLists
from engine.campaign.game_service import BattleTracker


def _require_server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise MordheimError("Settings belong to a server.", hint="Use /settings in a channel of the server you play in.")
    return interaction.guild_id


def lists_text(lists: ServerLists) -> str:
    """Which warband lists the server uses: the bundled ones, and its own (replacing or added)."""
    lines = []
    if lists.grades:
        lines.append("**Grades:** " + ", ".join(f"{g} {'played' if on else '**not played**'}" for g, on in lists.grades)
                     + " (`/admin warbands grade: play:`)")
    lines.append(f"**Bundled ({len(lists.bundled)}):** " + ", ".join(lists.bundled))
    for h in lists.house:
        what = f"replaces the bundled {h.replaces}" if h.replaces else "added"
        broken = f" — **not in use**: {h.broken[0]}" if h.broken else ""
        lines.append(f"**Own:** {h.name} (`{h.id}`, {what}){broken}")
    text = "\n".join(lines)
    return text if len(text) <= 1024 else text[:1023] + "…"


def settings_embed(edition_id: str, house_rules: dict[str, bool], has_campaign_override: bool,
                   lists: ServerLists | None = None, plain_text: bool = False, anyone_marks: bool = False) -> discord.Embed:
    edition = get_edition(edition_id)
    lines = []
    for t in list_toggles(combat_edition(edition.id)):
        value = house_rules.get(t["name"], t["default"])
        marker = " *(house rule)*" if value != t["default"] else ""
        lines.append(f"{'✅' if value else '⬜'} **{t['title']}**{marker} · `{t['name']}`\n{t['description']}")
    embed = info_embed("Server settings", f"**Edition:** {edition.name}\n{edition.description}")
    # a field holds 1024 characters: spread the toggles over as many fields as they need
    chunk: list[str] = []
    size = 0
    part = 1
    for line in lines:
        if size + len(line) + 1 > 1000:
            embed.add_field(name="House rules" if part == 1 else "House rules (cont.)", value="\n".join(chunk), inline=False)
            chunk, size, part = [], 0, part + 1
        chunk.append(line)
        size += len(line) + 1
    if chunk:
        embed.add_field(name="House rules" if part == 1 else "House rules (cont.)", value="\n".join(chunk), inline=False)
    embed.add_field(
        name="Campaign tables",
        value="This server's own (see `/admin campaign`)." if has_campaign_override else "The Living Rulebook's (default).",
        inline=False,
    )
    if lists is not None:
        embed.add_field(name="Warband lists", value=lists_text(lists), inline=False)
    embed.add_field(
        name="Answers",
        value=("Plain text for every member who has not chosen otherwise (`/admin plaintext`)." if plain_text
               else "Embeds; each member can choose plain text with `/preferences plaintext`."),
        inline=False,
    )
    embed.add_field(
        name="Battle tracker",
        value=("Any player of a game marks any of its warriors (`/admin tracker`)." if anyone_marks
               else "Each warband's owner (and Manage Server) marks its warriors."),
        inline=False,
    )
    embed.set_footer(text="Members with Manage Server change these with /admin edition, /admin houserule, /admin campaign, "
                          "/admin warbands, /admin plaintext and /admin tracker.")
    return embed


class Settings(commands.Cog):
    settings = app_commands.Group(name="settings", description="This server's edition, house rules and campaign tables")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @settings.command(name="show", description="Show this server's edition and house rules")
    async def show(self, interaction: discord.Interaction) -> None:
        guild_id = _require_server(interaction)
        s = await server_settings(interaction)
        lists = await asyncio.to_thread(self.bot.campaigns.lists, guild_id)
        style = await asyncio.to_thread(self.bot.preferences.reply_style, guild_id, interaction.user.id)
        anyone_marks = await asyncio.to_thread(BattleTracker(self.bot.store).anyone_marks, guild_id)
        await interaction.response.send_message(
            embed=settings_embed(s.edition_id, s.house_rules, bool(lists.campaign_override), lists,
                                 plain_text=bool(style.server_choice), anyone_marks=anyone_marks),
            ephemeral=True,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Settings(bot))
