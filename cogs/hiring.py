"""/hire: recruit fighters from the warband's list, hire hired swords and Dramatis Personae, pay their upkeep.

The engine (engine/campaign/actions/hiring.py, through ``Campaigns``) checks the list's limits and the
treasury and writes the warrior and the cost as one action; this cog parses options, offers
only what the warband may hire and afford, and renders the answer. A character has a command of
its own (``/hire character``): it is hired like a hired sword, but players look for the two
separately, and a character often asks something besides gold, which the answer spells out.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe, safe_line
from cogs._ui.context import is_admin
from cogs._ui.roster import done_embed, warrior_body, warrior_heading
from cogs._ui.warrior_choices import changeable_warband_choices, labelled_choices, typed
from cogs._ui.writes import call_write
from engine.campaign.actions.hiring import shards_in_words
from engine.campaign.actions.upkeep import in_words

Name = app_commands.Range[str, 1, 100]


async def fighter_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Fighter types the warband typed in ``warband`` can hire now and afford."""
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    return labelled_choices(await call(campaigns(interaction).fighter_choices, interaction.guild_id, warband, current or ""))


async def sword_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Hired swords the warband may hire now and afford."""
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    return labelled_choices(await call(campaigns(interaction).sword_choices, interaction.guild_id, warband, current or ""))


async def character_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Dramatis Personae the warband may hire now and afford."""
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    return labelled_choices(await call(campaigns(interaction).character_choices, interaction.guild_id, warband, current or ""))


async def kit_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The kit options of the hired sword typed in ``sword`` (only some swords have any)."""
    sword = typed(interaction, "sword")
    if interaction.guild_id is None or sword is None:
        return []
    return labelled_choices(await call(campaigns(interaction).kit_choices, interaction.guild_id, sword, current or ""))


def hired_embed(hired, warband: str) -> discord.Embed:
    w = hired.warrior
    if hired.joined:
        title = f"{hired.count} more for {w.name}"
    else:
        title = f"Hired: {warrior_heading(w, role='Dramatis Persona' if hired.kind == 'Dramatis Persona' else None)}"
    kit = f"Kit chosen: {safe(', '.join(hired.kit))}.\n" if hired.kit else ""
    kit += "".join(f"{safe(note)}\n" for note in hired.notes)
    if hired.needs:
        kit += "**Still to give him** (`/trade buy`): " + " ".join(safe(n) for n in hired.needs) + "\n"
    by_hand = "".join(f"- {safe(line)}\n" for line in hired.by_hand)
    if by_hand:
        by_hand = (f"**Besides the gold** (the bot keeps gold only; record the rest by hand: shards or gold with "
                   f"`/warband treasury`, anything else in the warband's notes with `/warband edit notes:`, a model who "
                   f"fights with `/warrior add`):\n{by_hand}")
    if hired.shards:  # paid in wyrdstone besides the gold
        paid = (f"**{hired.cost} gc and {shards_in_words(hired.shards)}** from the treasury of {safe(warband)}; "
                f"**{hired.gold_left} gc and {shards_in_words(hired.shards_left)}** left.\n")
    else:
        paid = f"**{hired.cost} gc** from the treasury of {safe(warband)}; **{hired.gold_left} gc** left.\n"
    text = paid + kit + by_hand + warrior_body(w)
    embed = done_embed(safe(title), text[:4096])
    embed.set_footer(text=f"{warband}/{w.name} · /warband undo takes the hire and the gold back"[:2048])
    return embed


class Hire(commands.Cog):
    """The /hire command group."""

    hire = app_commands.Group(name="hire", description="Recruit from your warband's list, hire hired swords, pay upkeep",
                              guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @hire.command(name="fighter", description="Hire a hero, or a group of 1-5 henchmen, from the warband's list")
    @app_commands.describe(
        warband="Which warband", fighter_type="A fighter of its list (only those it may hire and afford are offered)",
        name="The warrior's or group's name (default: the type); an existing group's name adds to it",
        count="Henchmen in the group (heroes come one at a time)",
        dagger="The free dagger every warrior starts with (default: given where his list sells daggers; False refuses it)",
    )
    @app_commands.rename(fighter_type="type")
    @app_commands.autocomplete(warband=changeable_warband_choices, fighter_type=fighter_choices)
    async def fighter(self, interaction: discord.Interaction, warband: Name, fighter_type: Name, name: Name | None = None,
                      count: app_commands.Range[int, 1, 20] = 1, dagger: bool | None = None) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        hired = await call_write(c.store, c.hire_fighter, g, interaction.user.id, is_admin(interaction), warband,
                                 fighter_type, name=name, count=count, dagger=dagger, rng=interaction.client.rng)
        await interaction.response.send_message(embed=hired_embed(hired, hired.warrior.warband))

    @hire.command(name="sword", description="Hire a hired sword: his fee now, his upkeep after every battle")
    @app_commands.describe(warband="Which warband", sword="A hired sword (only those it may hire and afford are offered)",
                           name="His name on the roster (default: what he is)",
                           kit="His kit, where his employer chooses it (the Ogre's weapons, say); offered once the sword is typed")
    @app_commands.autocomplete(warband=changeable_warband_choices, sword=sword_choices, kit=kit_choices)
    async def sword(self, interaction: discord.Interaction, warband: Name, sword: Name, name: Name | None = None,
                    kit: Name | None = None) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        hired = await call_write(c.store, c.hire_sword, g, interaction.user.id, is_admin(interaction), warband, sword, name=name,
                                 kit=kit)
        await interaction.response.send_message(embed=hired_embed(hired, hired.warrior.warband))

    @hire.command(name="character", description="Hire a Dramatis Persona (Aenur, Johann the Knife...): fee now, upkeep after battles")
    @app_commands.describe(warband="Which warband", character="A Dramatis Persona (only those it may hire and afford are offered)",
                           name="His name on the roster (default: his own)")
    @app_commands.autocomplete(warband=changeable_warband_choices, character=character_choices)
    async def character(self, interaction: discord.Interaction, warband: Name, character: Name, name: Name | None = None) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        hired = await call_write(c.store, c.hire_character, g, interaction.user.id, is_admin(interaction), warband, character,
                                 name=name)
        await interaction.response.send_message(embed=hired_embed(hired, hired.warrior.warband))

    @hire.command(name="upkeep", description="Pay the upkeep of the hired swords who fought the newest battle (once per battle)")
    @app_commands.describe(warband="Which warband")
    @app_commands.autocomplete(warband=changeable_warband_choices)
    async def upkeep(self, interaction: discord.Interaction, warband: Name) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        paid = await call_write(c.store, c.pay_upkeep, g, interaction.user.id, is_admin(interaction), warband)
        lines = [f"{safe(n)}: {words}" for n, words in paid.paid_in_words]
        text = "\n".join(lines) + f"\n**{in_words(paid.total, paid.shards)}** in all; **{paid.gold_left} gc**" + (
            f" and {shards_in_words(paid.shards_left)}" if paid.shards else "") + " left."
        if paid.by_hand:
            text += ("\n**Besides the gold** (record it by hand):\n"
                     + "\n".join(f"- {safe(n)}: {safe_line(note)}" for n, note in paid.by_hand))
        embed = done_embed(f"Upkeep paid by {safe(paid.warband)} for battle {paid.battle}", text[:4096])
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hire(bot))
