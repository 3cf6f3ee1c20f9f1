"""Dice commands: /roll and Mordheim's own rolls, each with a Re-roll button.

Re-rolls follow the rulebook: the second score stands (000:188) and a die is never
re-rolled twice (004:62). Only the member who rolled may press Re-roll; the re-roll is
shown on the same message under the original, so nothing is hidden. The button is a
``DynamicItem`` so a press after a restart still gets a clear answer.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.combat_options import combat_rules
from cogs._ui.context import server_settings_now
from cogs._ui.warrior_choices import warrior_path_choices
from cogs._ui.dice_render import check_embed, injury_embed, roll_embed
from engine.combat.injury import roll_injury
from engine.dice import artillery_roll, characteristic_test, leadership_test, reroll, roll, scatter_roll
from engine.editions import get_edition
from engine.errors import MordheimError

ROLLS_KEPT = 5000  # re-roll state of the most recent rolls, kept in memory

PROFILE_KEYS = {
    "Movement": "M", "Weapon Skill": "WS", "Ballistic Skill": "BS", "Strength": "S",
    "Toughness": "T", "Wounds": "W", "Initiative": "I", "Attacks": "A",
}
CHARACTERISTICS = [app_commands.Choice(name=n, value=n) for n in PROFILE_KEYS]


@dataclass
class Rolled:
    """A roll waiting for its one re-roll: what was rolled and how to re-roll and show it."""

    owner_id: int
    result: Any
    reroll: Callable[[Any], Any]
    render: Callable[[Any, Any | None], discord.Embed]
    done: bool = False


class RerollButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dice:reroll:(?P<owner>\d+)"):
    """Re-roll, for the member who rolled. Works from any message, even after a restart."""

    def __init__(self, owner_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Re-roll", emoji="🎲", style=discord.ButtonStyle.secondary, custom_id=f"dice:reroll:{owner_id}")
        )
        self.owner_id = owner_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(int(match["owner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            cog: Dice = interaction.client.get_cog("Dice")
            await cog.press_reroll(interaction, self.owner_id)
        except Exception as error:  # noqa: BLE001 - every failure is shown to the presser
            await interaction.client.tree.report_error(interaction, error)


def reroll_view(owner_id: int, cache: OrderedDict[int, discord.ui.View]) -> discord.ui.View:
    """The Re-roll button for ``owner_id``'s rolls. It holds nothing but a ``DynamicItem``, so
    discord.py keeps no per-message state for it and one view per member can be reused."""
    view = cache.get(owner_id)
    if view is None:
        view = discord.ui.View(timeout=None)
        view.add_item(RerollButton(owner_id))
        cache[owner_id] = view
        while len(cache) > ROLLS_KEPT:
            cache.popitem(last=False)
    return view


class Dice(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.rolls: OrderedDict[int, Rolled] = OrderedDict()
        self.views: OrderedDict[int, discord.ui.View] = OrderedDict()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RerollButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RerollButton)

    # ----- sending and re-rolling -----------------------------------------------------

    async def _send(self, interaction: discord.Interaction, rolled: Rolled, private: bool) -> None:
        embed = rolled.render(rolled.result, None)
        sent = await interaction.response.send_message(embed=embed, view=reroll_view(rolled.owner_id, self.views), ephemeral=private)
        self.rolls[sent.message_id] = rolled
        while len(self.rolls) > ROLLS_KEPT:
            self.rolls.popitem(last=False)

    async def _send_check(self, interaction: discord.Interaction, result, private: bool, *, whose: str = "") -> None:
        """Send a Mordheim test or special-dice roll, with the server's edition named."""
        rng = self.bot.rng
        edition = get_edition(server_settings_now(interaction).edition_id)
        who = interaction.user.display_name + whose

        def render(res, original):
            return check_embed(res, original, who=who, edition=edition)

        await self._send(interaction, Rolled(interaction.user.id, result, lambda r: reroll(r, rng), render), private)

    async def press_reroll(self, interaction: discord.Interaction, owner_id: int) -> None:
        if interaction.user.id != owner_id:
            raise MordheimError(f"Only <@{owner_id}> rolled this, so only they can re-roll it.", hint="Roll your own with /roll.")
        rolled = self.rolls.get(interaction.message.id) if interaction.message else None
        if rolled is None:
            raise MordheimError(
                "This roll is too old to re-roll: the bot no longer remembers its dice.", hint="Roll again with /roll."
            )
        if rolled.done:
            raise MordheimError("This roll has already been re-rolled, and a die is never re-rolled twice (004:62).")
        rolled.done = True  # before any await: a second press arriving meanwhile is refused
        new = rolled.reroll(rolled.result)
        await interaction.response.edit_message(embed=rolled.render(new, rolled.result), view=None)

    # ----- commands -----------------------------------------------------------------

    @app_commands.command(name="roll", description="Roll dice: 2d6, d66, 4d6kh3, 5d6 4+, art, scatter, with a label")
    @app_commands.describe(
        expression="Dice to roll, e.g. 2d6+1, d3, d66, 3d6r1, 5d6 4+, art; text after it is a label",
        label="What the roll is for (shown as the title)",
        private="Only you see the result",
    )
    async def roll_command(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, 6000],
        label: app_commands.Range[str, 1, 100] | None = None,
        private: bool = False,
    ) -> None:
        rng = self.bot.rng
        result = roll(expression, rng)
        shown_label = label or result.label
        who = interaction.user.display_name

        def render(res, original):
            return roll_embed(res, original, label=shown_label, who=who)

        await self._send(interaction, Rolled(interaction.user.id, result, lambda r: reroll(r, rng), render), private)

    @app_commands.command(name="test", description="Characteristic test: D6 equal to or under the value; a 6 always fails")
    @app_commands.describe(
        characteristic="Which characteristic",
        value="Its value (0-10); or name a stored warrior instead",
        warrior="A warrior of this server's warbands, as Warband/Warrior",
        private="Only you see the result",
    )
    @app_commands.choices(characteristic=CHARACTERISTICS)
    @app_commands.autocomplete(warrior=warrior_path_choices)
    async def test(
        self,
        interaction: discord.Interaction,
        characteristic: app_commands.Choice[str],
        value: app_commands.Range[int, 0, 10] | None = None,
        warrior: app_commands.Range[str, 1, 150] | None = None,
        private: bool = False,
    ) -> None:
        value, whose = await self._value(interaction, value, warrior, PROFILE_KEYS[characteristic.value], characteristic.value)
        result = characteristic_test(value, self.bot.rng, characteristic=characteristic.value)
        await self._send_check(interaction, result, private, whose=whose)

    @app_commands.command(name="leadership", description="Leadership test: 2D6 equal to or under Ld")
    @app_commands.describe(
        leadership="The Leadership value (0-10); or name a stored warrior instead",
        warrior="A warrior of this server's warbands, as Warband/Warrior",
        private="Only you see the result",
    )
    @app_commands.autocomplete(warrior=warrior_path_choices)
    async def leadership(
        self,
        interaction: discord.Interaction,
        leadership: app_commands.Range[int, 0, 10] | None = None,
        warrior: app_commands.Range[str, 1, 150] | None = None,
        private: bool = False,
    ) -> None:
        leadership, whose = await self._value(interaction, leadership, warrior, "Ld", "Leadership")
        result = leadership_test(leadership, self.bot.rng)
        await self._send_check(interaction, result, private, whose=whose)

    async def _value(
        self, interaction: discord.Interaction, value: int | None, warrior: str | None, key: str, name: str
    ) -> tuple[int, str]:
        """The value to test: typed, or read from a stored warrior's profile (this server only)."""
        if (value is None) == (warrior is None):
            raise MordheimError(
                f"Give either the {name} value or a stored warrior, not {'both' if value is not None else 'neither'}.",
                hint="For example `value:3`, or `warrior:Reavers/Otto`.",
            )
        if value is not None:
            return value, ""
        if interaction.guild_id is None:
            raise MordheimError("Stored warriors belong to a server's campaign.", hint=f"In direct messages, give the {name} value.")
        found = await asyncio.to_thread(interaction.client.campaigns.find_warrior, interaction.guild_id, warrior)
        return found.profile.as_dict()[key], f" — {found.warband}/{found.name}"

    @app_commands.command(name="artillery", description="Roll the Artillery dice: 2, 4, 6, 8, 10 or Misfire")
    @app_commands.describe(private="Only you see the result")
    async def artillery(self, interaction: discord.Interaction, private: bool = False) -> None:
        result = artillery_roll(self.bot.rng)
        await self._send_check(interaction, result, private)

    @app_commands.command(name="scatter", description="Roll the Scatter dice, optionally with the Artillery dice for distance")
    @app_commands.describe(distance="Also roll the Artillery dice for how far", private="Only you see the result")
    async def scatter(self, interaction: discord.Interaction, distance: bool = False, private: bool = False) -> None:
        result = scatter_roll(self.bot.rng, with_distance=distance)
        await self._send_check(interaction, result, private)

    @app_commands.command(name="injury", description="Injury roll: 1-2 knocked down, 3-4 stunned, 5-6 out of action")
    @app_commands.describe(
        concussion="Hit by a hammer, mace or club: 2-4 is stunned (000:930)",
        helmet="Wears a helmet: 4+ turns stunned into knocked down (000:1321)",
        mandrake_root="Took Mandrake Root: stunned becomes knocked down (000:1389)",
        bonus="+1 hunting arrows, +2 master strike",
        private="Only you see the result",
    )
    async def injury(
        self,
        interaction: discord.Interaction,
        concussion: bool = False,
        helmet: bool = False,
        mandrake_root: bool = False,
        bonus: app_commands.Range[int, 0, 2] = 0,
        private: bool = False,
    ) -> None:
        rng = self.bot.rng
        settings = server_settings_now(interaction)
        edition = get_edition(settings.edition_id)
        rules = combat_rules(settings, None)  # a lookup-only edition rolls injuries by lrb
        options = dict(concussion=concussion, helmet=helmet, mandrake_root=mandrake_root, bonus=bonus)

        def again(_previous):
            return roll_injury(rng, edition=rules.edition, toggles=rules.toggles, **options)

        who = interaction.user.display_name
        result = again(None)
        await self._send(
            interaction,
            Rolled(interaction.user.id, result, again, lambda r, o: injury_embed(r, o, who=who, options=options, edition=edition)),
            private,
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Dice(bot))
