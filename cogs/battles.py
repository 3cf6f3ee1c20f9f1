"""/battle: record a warband's battles (against another warband of the server: on both), list them,
and the rulebook's scenarios (roll the table, or read one).

Recording offers to start the post-battle sequence: the buttons are plain ``pb:start:...``
custom ids that the post-battle cog's ``DynamicItem`` answers (cogs never import each other).
A rulebook scenario is stored by its id, anything else as a custom scenario; against a warband
of the server both ratings are stored and the underdog named (engine/campaign/rules/underdog.py).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe
from cogs._ui.context import is_admin
from cogs._ui.postbattle_render import start_id
from cogs._ui.roster import battle_pages, done_embed
from cogs._ui.scenarios import battle_scenario_line, roll_embed, scenario_choices, scenario_embed, underdog_line
from cogs._ui.views import send_pages
from cogs._ui.warrior_choices import changeable_warband_choices, opponent_choices, warband_choices
from cogs._ui.writes import call_write
from engine.campaign.rules.scenarios import roll, scenario_by_name, table_dice
from engine.errors import MordheimError

Name = app_commands.Range[str, 1, 100]
RESULT_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in (("Won", "win"), ("Lost", "loss"), ("Drawn", "draw"))]


class Battles(commands.Cog):
    """The /battle command group."""

    battle = app_commands.Group(name="battle", description="Battles fought by this server's warbands", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @battle.command(name="record", description="Record a battle a warband fought (on both sides if the opponent is a warband here)")
    @app_commands.describe(warband="Which warband", result="Won, lost or drawn",
                           scenario="A rulebook scenario from the list, or your own (custom: NAME for one named like a rulebook one)",
                           opponent="The other warband, if it is one of this server's (its result is recorded too)",
                           opponents="Who they fought, if not a warband of this server", date="When, as 2024-05-31 (default today)",
                           notes="What happened")
    @app_commands.choices(result=RESULT_CHOICES)
    @app_commands.autocomplete(warband=changeable_warband_choices, opponent=opponent_choices, scenario=scenario_choices)
    async def record(self, interaction: discord.Interaction, warband: Name, result: str, scenario: Name | None = None,
                     opponent: Name | None = None, opponents: Name | None = None,
                     date: app_commands.Range[str, 1, 20] | None = None, notes: app_commands.Range[str, 0, 1000] = "") -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        if opponent:
            ours, theirs = await call_write(c.store, c.record_battle_between, g, interaction.user.id, is_admin(interaction),
                                            warband, opponent, result=result, scenario=scenario or "", fought_on=date, notes=notes)
        else:
            ours = await call_write(c.store, c.record_battle, g, interaction.user.id, is_admin(interaction), warband,
                                    result=result, scenario=scenario or "", opponents=opponents or "", fought_on=date, notes=notes)
            theirs = None
        bits = [f"**{ours.result.upper()}** on {ours.fought_on}"]
        if ours.scenario:
            bits.append(safe(ours.scenario))
        if ours.opponents:
            bits.append(f"vs {safe(ours.opponents)}")
        lines = [" · ".join(bits)]
        if theirs is not None:
            lines.append(f"Recorded for {safe(theirs.warband)} too: **{theirs.result.upper()}**.")
        lines += [line for line in (battle_scenario_line(ours), underdog_line(ours, theirs)) if line]
        lines.append("Next: the post-battle sequence (injuries, experience, exploration, income).")
        text = "\n".join(lines)
        view = discord.ui.View(timeout=None)
        for battle in (ours, theirs):
            if battle is not None:
                view.add_item(discord.ui.Button(label=f"Post-battle: {battle.warband}"[:80], style=discord.ButtonStyle.primary,
                                                custom_id=start_id(battle.warband_id, battle.id)))
        await interaction.response.send_message(embed=done_embed(f"Battle recorded for {safe(ours.warband)}", text), view=view)

    @battle.command(name="scenario", description="Roll the scenario table (2D6), or read one scenario and its experience")
    @app_commands.describe(name="A scenario to read (leave empty to roll the table)",
                           dice="The 2D6 rolled at the table, e.g. 3 4 (leave empty for the bot to roll)")
    @app_commands.autocomplete(name=scenario_choices)
    async def scenario(self, interaction: discord.Interaction, name: Name | None = None,
                       dice: app_commands.Range[str, 1, 20] | None = None) -> None:
        require_server(interaction)
        if name and dice:
            raise MordheimError("Give a scenario's `name` to read it, or `dice` to roll the table, not both.")
        if name:
            await interaction.response.send_message(embed=scenario_embed(scenario_by_name(name)))
        else:
            await interaction.response.send_message(embed=roll_embed(roll(table_dice(dice, self.bot.rng))))

    @battle.command(name="list", description="A warband's battles, newest first")
    @app_commands.describe(warband="Which warband", limit="How many (default 20)")
    @app_commands.autocomplete(warband=warband_choices)
    async def list_(self, interaction: discord.Interaction, warband: Name, limit: app_commands.Range[int, 1, 200] = 20) -> None:
        g = require_server(interaction)
        svc = campaigns(interaction)
        wb = await call(svc.get_warband, g, warband)
        battles = await call(svc.list_battles, g, wb.name, limit=limit)
        await send_pages(interaction, battle_pages(wb.name, battles))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Battles(bot))
