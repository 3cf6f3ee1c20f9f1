"""/fall and /jump: a fall rolled step by step, with the exact odds of every result beside it.

Falling is D3 hits at Strength equal to the height, no armour saves, no critical hits
(000:431); jumping down is an Initiative test for every full 2", up to 6" (000:415).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.combat_options import apply_options, armour_choices, combat_rules, equipment_choices, fighter_choices, resolve_fighter
from cogs._ui.combat_render import CHART_WIDTH, code
from cogs._ui.context import server_settings_now
from cogs._ui.embeds import info_embed
from engine.combat import render_table
from engine.combat.falling import LANDED, MAX_FALL, MAX_JUMP, fall_odds, roll_fall

LABELS = {LANDED: "Lands", "unharmed": "Unharmed", "wounded": "Wounded", "knocked down": "Down",
          "stunned": "Stunned", "out of action": "OOA"}
COLOURS = {LANDED: discord.Colour.green(), "unharmed": discord.Colour.green(), "wounded": discord.Colour.gold(),
           "knocked down": discord.Colour.gold(), "stunned": discord.Colour.orange(), "out of action": discord.Colour.dark_red()}

FALL_WORDS = re.compile(r"acrobat|leap|scale sheer|jump|fall|climb|fly|wings", re.IGNORECASE)
WHO = "Who falls: a profile (\"4 3 3 3 3 1 3 1 7\", \"T4 W2\"), a template (Human) or Warband/Warrior"


class Falling(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _answer(self, interaction: discord.Interaction, height: int, who: str, armour: str | None,
                      equipment: str | None, private: bool, *, jump: bool) -> None:
        side = apply_options(await resolve_fighter(interaction, who, "Warrior"), armour=armour, equipment=equipment)
        fighter = side.fighter()
        rules = combat_rules(server_settings_now(interaction), None)
        result = roll_fall(fighter, height, self.bot.rng, jump=jump, edition=rules.edition, toggles=rules.toggles)
        odds = fall_odds(fighter, height, jump=jump, edition=rules.edition, toggles=rules.toggles)
        what = f"jumps down {height}\"" if jump else f"falls {height}\""
        status = result.outcome.status
        embed = info_embed(f"{side.name} {what}", "\n".join(result.lines) + f"\n**{side.name}: {status}.**",
                           colour=COLOURS.get(status, discord.Colour.dark_gold()), footer=rules.footer)
        embed.add_field(name="Exact odds", value=code(render_table([(LABELS[k], p) for k, p in odds.items()], CHART_WIDTH)),
                        inline=False)
        # What the fight options left out of a stored warrior is about fighting (a leader's range, his
        # weapons); only a rule about climbing and dropping down can change a fall or a jump.
        about_falls = [note for note in side.notes if FALL_WORDS.search(note)]
        if about_falls:
            embed.add_field(name="Left out", value="\n".join(about_falls)[:1024], inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=private)

    @app_commands.command(name="fall", description="A fall: D3 hits at Strength = height, no armour saves (000:431)")
    @app_commands.describe(height=f"Height fallen in inches (1-{MAX_FALL})", who=WHO,
                           armour="A helmet counts (4+ against stun)", equipment="Mandrake Root counts",
                           private="Only you see the result")
    @app_commands.autocomplete(who=fighter_choices, armour=armour_choices, equipment=equipment_choices)
    async def fall(self, interaction: discord.Interaction, height: app_commands.Range[int, 1, MAX_FALL],
                   who: app_commands.Range[str, 1, 200] = "human", armour: app_commands.Range[str, 1, 300] | None = None,
                   equipment: app_commands.Range[str, 1, 300] | None = None, private: bool = False) -> None:
        await self._answer(interaction, height, who, armour, equipment, private, jump=False)

    @app_commands.command(name="jump", description="Jump down: an Initiative test per full 2\", a fall on any failure (000:415)")
    @app_commands.describe(height=f"Height jumped down in inches (1-{MAX_JUMP})", who=WHO,
                           armour="A helmet counts (4+ against stun)", equipment="Mandrake Root counts",
                           private="Only you see the result")
    @app_commands.autocomplete(who=fighter_choices, armour=armour_choices, equipment=equipment_choices)
    async def jump(self, interaction: discord.Interaction, height: app_commands.Range[int, 1, MAX_JUMP],
                   who: app_commands.Range[str, 1, 200] = "human", armour: app_commands.Range[str, 1, 300] | None = None,
                   equipment: app_commands.Range[str, 1, 300] | None = None, private: bool = False) -> None:
        await self._answer(interaction, height, who, armour, equipment, private, jump=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Falling(bot))
