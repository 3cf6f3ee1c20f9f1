"""/admin: what members with Manage Server change about this server (edition, house rules,
campaign tables, plain-text answers, the server's own warband lists, where secret rolls go).

A command group of its own so that Discord can hide it: its default member permissions are Manage
Server, so other members never see commands they cannot use. Discord lets a server's admins
grant it to other roles, so the engine still checks Manage Server on every change (a stale or
forged interaction cannot slip past). Everyone reads the result with `/settings show`.
"""

from __future__ import annotations

import asyncio
import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns
from cogs._ui.context import is_admin, server_settings
from cogs._ui.embeds import SUCCESS, info_embed
from cogs._ui.roster import problem_pages
from cogs._ui.views import Confirm, check_same_server, send_pages
from engine.combat.ruleset import TOGGLES, combat_edition, get_ruleset, list_toggles
from engine.editions import all_editions, get_edition
from engine.errors import LimitExceeded, MordheimError
from engine.rolls.secret import SecretRolls
from engine.errors import InvalidData
from engine.campaign.actions.server_tables import MAX_HOUSE_LIST_BYTES
from engine.campaign.game_service import BattleTracker

MAX_CAMPAIGN_FILE = 256 * 1024


def _edition_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=e.name[:100], value=e.id) for e in all_editions()]


def _require_server(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:  # guild_only keeps Discord from offering it; a console or forged call
        raise MordheimError("Server settings belong to a server.", hint="Use /admin in a channel of the server you play in.")
    return interaction.guild_id


def override_file(override: dict) -> discord.File:
    """A server's own campaign tables as the JSON file ``/admin campaign file:`` takes back."""
    return discord.File(io.BytesIO(json.dumps(override, indent=2, ensure_ascii=False).encode()), filename="campaign-tables.json")


class CampaignResetConfirm(Confirm):
    """Go back to the default campaign tables on confirmation: only the member who asked, only in that server."""

    def __init__(self, owner_id: int, guild_id: int) -> None:
        super().__init__(owner_id, self._reset, label="Go back to the default")
        self.guild_id = guild_id

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        check_same_server(interaction, self.guild_id)
        return await super().interaction_check(interaction)

    async def _reset(self, interaction: discord.Interaction) -> None:
        await call(campaigns(interaction).set_campaign_rules, self.guild_id, interaction.user.id, is_admin(interaction), None)
        await interaction.response.edit_message(
            embed=info_embed("Campaign tables", "This server uses the default campaign tables again. The file attached above "
                                                "brings its own back with `/admin campaign file:`.", colour=SUCCESS), view=None)


class Admin(commands.Cog):
    admin = app_commands.Group(
        name="admin",
        description="Change this server's edition, house rules, campaign tables and warband lists (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @admin.command(name="edition", description="Choose the edition this server plays by")
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
        out = [t for t in list_toggles() if current in t["name"] or current in t["title"].lower()]
        return [app_commands.Choice(name=f"{t['title']} ({t['name']})"[:100], value=t["name"]) for t in out[:25]]

    @admin.command(name="houserule", description="Turn a house rule on or off")
    @app_commands.describe(rule="Which house rule (see /settings show)", on="On or off")
    @app_commands.autocomplete(rule=_toggle_autocomplete)
    async def houserule(self, interaction: discord.Interaction, rule: app_commands.Range[str, 1, 60], on: bool) -> None:
        guild_id = _require_server(interaction)
        current = await server_settings(interaction)
        get_ruleset(combat_edition(current.edition_id), {rule: on})  # refuses an unknown rule, offering the closest names
        s = await asyncio.to_thread(
            self.bot.settings.set_house_rules, guild_id, interaction.user.id, is_admin(interaction), {rule: on}
        )
        await interaction.response.send_message(
            embed=info_embed(
                "House rule changed",
                f"**{TOGGLES[rule].title}** (`{rule}`) is now **{'on' if on else 'off'}** on this server.",
                colour=SUCCESS,
                footer=f"Edition: {get_edition(s.edition_id).name}",
            )
        )

    @admin.command(name="reset", description="Put every house rule back to the edition's default")
    async def reset(self, interaction: discord.Interaction) -> None:
        guild_id = _require_server(interaction)
        await asyncio.to_thread(
            self.bot.settings.set_house_rules, guild_id, interaction.user.id, is_admin(interaction), {}, replace=True
        )
        await interaction.response.send_message(
            embed=info_embed("House rules reset", "Every house rule now follows the edition's default.", colour=SUCCESS)
        )

    @admin.command(name="campaign", description="Use your own campaign tables (JSON), or go back to the default")
    @app_commands.describe(file="A JSON file shaped like rules_data/campaign/lrb.json; leave empty to go back to the default")
    async def campaign(self, interaction: discord.Interaction, file: discord.Attachment | None = None) -> None:
        guild_id = _require_server(interaction)
        data: bytes | None = None
        if file is not None:
            if file.size > MAX_CAMPAIGN_FILE:
                raise LimitExceeded(f"The campaign file is {file.size:,} bytes; the limit is {MAX_CAMPAIGN_FILE:,}.")
            data = await file.read()
        elif is_admin(interaction):  # no file: going back to the default throws the server's own tables away, so ask first
            override = await asyncio.to_thread(self.bot.campaigns.campaign_override, guild_id)
            if not override:
                await interaction.response.send_message(embed=info_embed(
                    "Campaign tables", "This server already uses the default campaign tables. Attach a JSON file shaped like "
                                       "`rules_data/campaign/lrb.json` to use your own."), ephemeral=True)
                return
            view = CampaignResetConfirm(interaction.user.id, guild_id)
            embed = discord.Embed(
                title="Go back to the default campaign tables?",
                description=f"This server's own tables replace {len(override)} part{'s' if len(override) != 1 else ''} of the "
                            f"default ({', '.join(f'`{k}`' for k in sorted(override))[:1500]}). They are attached: "
                            "`/admin campaign file:` brings them back.",
                colour=discord.Colour.orange())
            sent = await interaction.response.send_message(embed=embed, view=view, file=override_file(override), ephemeral=True)
            view.message = sent.resource if isinstance(sent.resource, discord.InteractionMessage) else None
            return
        await asyncio.to_thread(
            self.bot.campaigns.set_campaign_rules, guild_id, interaction.user.id, is_admin(interaction), data
        )
        own = await asyncio.to_thread(self.bot.campaigns.campaign_override, guild_id) if data else {}
        if own:
            text = (f"This server now uses its own campaign tables: {', '.join(f'`{k}`' for k in sorted(own))[:1500]} "
                    "replace the bundled ones; the rest stay as bundled.")
        elif data:
            text = "The file gives every table as bundled: this server uses the default campaign tables."
        else:
            text = "This server uses the default campaign tables again."
        await interaction.response.send_message(embed=info_embed("Campaign tables", text, colour=SUCCESS))

    @admin.command(name="plaintext", description="Answer everyone here in plain text instead of embeds (screen readers)")
    @app_commands.describe(on="On: plain text for every member who has not chosen otherwise with /preferences")
    async def plaintext(self, interaction: discord.Interaction, on: bool) -> None:
        guild_id = _require_server(interaction)
        await asyncio.to_thread(
            self.bot.preferences.set_server_plain_text, guild_id, interaction.user.id, is_admin(interaction), on
        )
        how = "plain text" if on else "embeds"
        await interaction.response.send_message(
            f"From now on this server's answers come as **{how}**, except to members who chose otherwise with "
            "`/preferences plaintext`."
        )

    async def _house_list_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        lists = await asyncio.to_thread(self.bot.campaigns.lists, interaction.guild_id)
        low = (current or "").casefold()
        return [app_commands.Choice(name=f"{h.name} ({h.id})"[:100], value=h.id)
                for h in lists.house if low in h.name.casefold() or low in h.id][:25]

    @admin.command(name="warbands", description="Choose the grades of lists played; add, replace or remove a warband list")
    @app_commands.describe(
        file="A warband list shaped like rules_data/warbands/lists/reikland.json; a list's id replaces that list",
        remove="Remove one of this server's own lists (warbands built from it become custom until it is back)",
        grade="A grade of warband lists, hired swords and characters: 1a official, 1b widely used",
        play="With grade: play it (True) or stop making new warbands and hiring swords of it (False)",
    )
    @app_commands.choices(grade=[app_commands.Choice(name="1a: official (rulebook, Annual, Empire in Flames)", value="1a"),
                                 app_commands.Choice(name="1b: widely used (Town Cryer, Nemesis Crown...)", value="1b")])
    @app_commands.autocomplete(remove=_house_list_choices)
    async def warbands(self, interaction: discord.Interaction, file: discord.Attachment | None = None,
                       remove: app_commands.Range[str, 1, 100] | None = None, grade: app_commands.Choice[str] | None = None,
                       play: bool | None = None) -> None:
        guild_id = _require_server(interaction)
        tables = self.bot.campaigns
        if grade is not None or play is not None:
            if grade is None or play is None or file is not None or remove is not None:
                raise MordheimError("Give `grade` and `play` together, and nothing else (`file` and `remove` are separate uses).",
                                    hint="For example `/admin warbands grade:1b play:False`.")
            grades = await asyncio.to_thread(tables.set_grade, guild_id, interaction.user.id, is_admin(interaction),
                                             grade.value, play)
            played = ", ".join(g for g, on in grades if on)
            off = [g for g, on in grades if not on]
            text = (f"Grade **{grade.value}** is now **{'played' if play else 'not played'}** here. Played: {played}."
                    + (f" Not played: {', '.join(off)}: no new warband of those lists and no hired sword or character of "
                       "those grades; warbands already made keep playing, marked in `/warband show` and `/warband list`."
                       if off else ""))
            await interaction.response.send_message(embed=info_embed("Grades of warband lists", text, colour=SUCCESS))
            return
        if (file is None) == (remove is None):
            raise MordheimError("Give either `file` (a warband list to add or replace), `remove` (one of this server's lists), "
                                "or `grade` with `play`.",
                                hint="`/settings show` lists the warband lists and grades this server uses.")
        if remove is not None:
            name = await asyncio.to_thread(tables.remove_house_list, guild_id, interaction.user.id, is_admin(interaction), remove)
            await interaction.response.send_message(embed=info_embed(
                "Warband list removed", f"**{name}** is no longer one of this server's lists. Warbands built from it are "
                "treated as custom until a list with its id is added again.", colour=SUCCESS))
            return
        if file.size > MAX_HOUSE_LIST_BYTES:
            raise LimitExceeded(f"The warband list file is {file.size:,} bytes; the limit is {MAX_HOUSE_LIST_BYTES:,}.")
        data = await file.read()
        try:
            built = await asyncio.to_thread(tables.set_house_list, guild_id, interaction.user.id, is_admin(interaction), data)
        except InvalidData as exc:
            await send_pages(interaction, problem_pages("The warband list was not saved", exc.problems), ephemeral=True)
            return
        fighters = ", ".join(f.name for f in built.fighters)
        await interaction.response.send_message(embed=info_embed(
            "Warband list saved",
            f"**{built.name}** ({built.id}): {built.starting_gold} gc to start, up to {built.max_warriors} warriors; "
            f"{fighters}.\nMembers can now pick it in `/warband create`.", colour=SUCCESS))

    @admin.command(name="secretrolls", description="The channel where secret rolls are copied for Manage Server members")
    @app_commands.describe(channel="A channel only the game master (and the bot) can read; leave empty for none")
    async def secretrolls(self, interaction: discord.Interaction, channel: app_commands.AppCommandChannel | None = None) -> None:
        # AppCommandChannel, not TextChannel: Discord sends the channel with the command, so no cache is needed
        guild_id = _require_server(interaction)
        if channel is not None and channel.type not in (discord.ChannelType.text, discord.ChannelType.news):
            raise MordheimError("Secret rolls are copied to a text channel.", hint="Choose a text channel only the game master reads.")
        secrets = SecretRolls(self.bot.store)
        channel_id = channel.id if channel is not None else None
        await asyncio.to_thread(secrets.set_channel, guild_id, interaction.user.id, is_admin(interaction), channel_id)
        if channel_id is None:
            text = ("Secret rolls are not copied to any channel. Members with Manage Server see one by pressing its "
                    "**Reveal** button.")
        else:
            text = (f"Secret rolls (`/roll secret:true`, and the tests' `secret`) are now copied to <#{channel_id}>. "
                    "The bot needs to see and post there; keep the channel to the game master.")
        await interaction.response.send_message(embed=info_embed("Secret rolls", text, colour=SUCCESS), ephemeral=True)

    @admin.command(name="tracker", description="Who marks warriors on the battle tracker: each warband's owner, or any player")
    @app_commands.describe(anyone_marks="On: any player of a game marks any of its warriors. Off (default): each owner his own")
    async def tracker(self, interaction: discord.Interaction, anyone_marks: bool) -> None:
        guild_id = _require_server(interaction)
        games = BattleTracker(self.bot.store)
        await asyncio.to_thread(games.set_anyone_marks, guild_id, interaction.user.id, is_admin(interaction), anyone_marks)
        text = ("Any player of a game can now mark any of its warriors on the tracker (`/game`)." if anyone_marks else
                "Each warband's owner (and members with Manage Server) marks its warriors on the tracker (`/game`).")
        await interaction.response.send_message(embed=info_embed("Battle tracker", text, colour=SUCCESS))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
