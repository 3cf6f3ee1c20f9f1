"""/settings: the server's edition, house rules and campaign tables.

Anyone may look; only members with Manage Server may change anything (the engine enforces
it, so a stale or forged interaction cannot slip past).
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.context import is_admin, server_settings
from cogs._ui.embeds import SUCCESS, info_embed
from engine.combat.ruleset import get_ruleset, list_toggles
from engine.editions import all_editions, get_edition
from engine.errors import LimitExceeded, MordheimError

MAX_CAMPAIGN_FILE = 256 * 1024


def _edition_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=e.name[:100], value=e.id) for e in all_editions()]


def _require_server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise MordheimError("Settings belong to a server.", hint="Use /settings in a channel of the server you play in.")
    return interaction.guild_id


def settings_embed(edition_id: str, house_rules: dict[str, bool], has_campaign_override: bool) -> discord.Embed:
    edition = get_edition(edition_id)
    lines = []
    for t in list_toggles(edition.id if edition.combat else "lrb"):
        value = house_rules.get(t["name"], t["default"])
        marker = " *(house rule)*" if value != t["default"] else ""
        lines.append(f"{'✅' if value else '⬜'} `{t['name']}`{marker}\n{t['description']}")
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
        value="This server's own (see `/settings campaign`)." if has_campaign_override else "The Living Rulebook's (default).",
        inline=False,
    )
    embed.set_footer(text="Members with Manage Server can change these with /settings edition, /settings houserule and /settings campaign.")
    return embed


class Settings(commands.Cog):
    settings = app_commands.Group(name="settings", description="This server's edition, house rules and campaign tables")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @settings.command(name="show", description="Show this server's edition and house rules")
    async def show(self, interaction: discord.Interaction) -> None:
        _require_server(interaction)
        s = await server_settings(interaction)
        await interaction.response.send_message(
            embed=settings_embed(s.edition_id, s.house_rules, bool(s.campaign_rules)), ephemeral=True
        )

    @settings.command(name="edition", description="Choose the edition this server plays by (Manage Server)")
    @app_commands.describe(edition="The rules every dice, lookup and combat answer will use here")
    @app_commands.choices(edition=_edition_choices())
    async def edition(self, interaction: discord.Interaction, edition: app_commands.Choice[str]) -> None:
        guild_id = _require_server(interaction)
        s = await asyncio.to_thread(
            self.bot.settings.set_edition, guild_id, interaction.user.id, is_admin(interaction), edition.value
        )
        chosen = get_edition(s.edition_id)
        note = "" if chosen.combat else "\nThis edition is for lookup only: fights use the Living Rulebook 2005."
        await interaction.response.send_message(
            embed=info_embed("Edition changed", f"This server now plays by **{chosen.name}**.{note}", colour=SUCCESS)
        )

    async def _toggle_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        current = current.lower().strip()
        out = [t["name"] for t in list_toggles() if current in t["name"]]
        return [app_commands.Choice(name=n, value=n) for n in out[:25]]

    @settings.command(name="houserule", description="Turn a house rule on or off (Manage Server)")
    @app_commands.describe(rule="Which house rule (see /settings show)", on="On or off")
    @app_commands.autocomplete(rule=_toggle_autocomplete)
    async def houserule(self, interaction: discord.Interaction, rule: app_commands.Range[str, 1, 60], on: bool) -> None:
        guild_id = _require_server(interaction)
        current = await server_settings(interaction)
        edition_id = current.edition_id if get_edition(current.edition_id).combat else "lrb"
        get_ruleset(edition_id, {rule: on})  # refuses an unknown rule, offering the closest names
        s = await asyncio.to_thread(
            self.bot.settings.set_house_rules, guild_id, interaction.user.id, is_admin(interaction), {rule: on}
        )
        await interaction.response.send_message(
            embed=info_embed(
                "House rule changed",
                f"`{rule}` is now **{'on' if on else 'off'}** on this server.",
                colour=SUCCESS,
                footer=f"Edition: {get_edition(s.edition_id).name}",
            )
        )

    @settings.command(name="reset", description="Put every house rule back to the edition's default (Manage Server)")
    async def reset(self, interaction: discord.Interaction) -> None:
        guild_id = _require_server(interaction)
        await asyncio.to_thread(
            self.bot.settings.set_house_rules, guild_id, interaction.user.id, is_admin(interaction), {}, replace=True
        )
        await interaction.response.send_message(
            embed=info_embed("House rules reset", "Every house rule now follows the edition's default.", colour=SUCCESS)
        )

    @settings.command(name="campaign", description="Use your own campaign tables (JSON), or go back to the default (Manage Server)")
    @app_commands.describe(file="A JSON file shaped like rules_data/campaign/lrb.json; leave empty to go back to the default")
    async def campaign(self, interaction: discord.Interaction, file: discord.Attachment | None = None) -> None:
        guild_id = _require_server(interaction)
        data: bytes | None = None
        if file is not None:
            if file.size > MAX_CAMPAIGN_FILE:
                raise LimitExceeded(f"The campaign file is {file.size:,} bytes; the limit is {MAX_CAMPAIGN_FILE:,}.")
            data = await file.read()
        await asyncio.to_thread(
            self.bot.settings.set_campaign_rules, guild_id, interaction.user.id, is_admin(interaction), data
        )
        text = "This server now uses its own campaign tables." if data else "This server uses the default campaign tables again."
        await interaction.response.send_message(embed=info_embed("Campaign tables", text, colour=SUCCESS))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Settings(bot))
