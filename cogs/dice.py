"""Dice commands: /roll and Mordheim's own rolls, each with re-roll choices for the roller.

Re-rolls follow the rulebook: the second score stands (000:188) and a die is never
re-rolled twice (004:62). The roller chooses: **Re-roll** (every die not re-rolled yet),
**Re-roll failed** (only the dice that failed, as Hatred re-rolls misses, 000:875) or
**Re-roll one…** (the message's buttons become a menu of the dice). The re-roll is shown on
the same message under the original, so nothing is hidden, and the buttons stay while some
die may still be re-rolled. Every button is a ``DynamicItem``, so a press after a restart
still gets a clear answer (the dice themselves are remembered in memory only).

Every roll made in a server goes into the server's roll record (``engine.rolls``) behind
``/luck``, unless the member opted out: ``add`` only appends to memory, and a background task
writes what gathered every ``FLUSH_SECONDS`` (sooner when a batch fills) in one transaction;
``cog_unload`` (run by ``bot.close()`` before the database closes) writes the rest, so a clean
stop loses no roll. A **secret** roll answers the roller privately, tells the channel only that
a secret roll was made, with a Reveal button, and copies it to the server's secret-roll channel
(``cogs/_ui/secret_rolls.py``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.combat_options import combat_rules
from cogs._ui.context import server_settings_now
from cogs._ui.dice_render import check_embed, injury_embed, roll_embed
from cogs._ui.dice_rerolls import RerollButton, RerollDieSelect, die_menu_view, reroll_view
from cogs._ui.secret_rolls import RevealButton, SECRET_LINE, post_secret, reveal_view, shown_payload
from cogs._ui.warrior_choices import warrior_path_choices
from engine.combat.injury import Injury, injury_distribution, roll_injury
from engine.dice import (
    DieChoice,
    RerollChoice,
    artillery_roll,
    characteristic_test,
    choosable_dice,
    leadership_test,
    reroll_choice,
    reroll_choices,
    roll_set,
    scatter_roll,
)
from engine.editions import get_edition
from engine.errors import MordheimError
from engine.rolls import RollFacts, check_facts, injury_facts, reroll_facts, roll_set_facts
from engine.rolls.record import BATCH_SIZE, record_for
from engine.rolls.secret import SecretRolls

log = logging.getLogger("mordheim.dice")

ROLLS_KEPT = 5000  # re-roll state of the most recent rolls, kept in memory
FLUSH_SECONDS = 1.0  # how often the roll record is written (a full batch is written at once)

PROFILE_KEYS = {
    "Movement": "M", "Weapon Skill": "WS", "Ballistic Skill": "BS", "Strength": "S",
    "Toughness": "T", "Wounds": "W", "Initiative": "I", "Attacks": "A",
}
CHARACTERISTICS = [app_commands.Choice(name=n, value=n) for n in PROFILE_KEYS]

@dataclass
class Rolled:
    """A roll that may still be re-rolled: what it is now, what it was, and how to re-roll and show it.

    ``reroll(result, choice, die_key)`` gives the re-rolled result; ``choices(result)`` the
    re-roll choices left; ``dice(result)`` the dice that may still be chosen one by one;
    ``render(result, first)`` the embed (``first`` None before any re-roll)."""

    owner_id: int
    first: Any
    result: Any
    reroll: Callable[[Any, RerollChoice, str | None], Any]
    render: Callable[[Any, Any | None], discord.Embed]
    facts: Callable[[Any, Any | None], RollFacts]  # (result, the result it re-rolled) -> the record's view
    choices: Callable[[Any], list[RerollChoice]] = reroll_choices
    dice: Callable[[Any], list[DieChoice]] = choosable_dice
    secret_id: int | None = None  # a secret roll: what its Reveal button shows is kept under this id
    visibility: str = "public"  # who saw it (the roll record's word): public, private or secret

    def embed(self) -> discord.Embed:
        return self.render(self.result, None if self.result is self.first else self.first)


def _value_hint(name: str, option: str) -> str:
    example = 7 if name == "Leadership" else 3
    return f"For example `{option}:{example}`, or `warrior:Reavers/Otto`."


@functools.lru_cache(maxsize=256)
def _chance_out_of_action(options: tuple, edition: str, toggles: tuple) -> float:
    """The exact chance an injury roll with these modifiers puts a warrior out of action."""
    dist = injury_distribution(**dict(options), edition=edition, toggles=dict(toggles))
    return dist[Injury.OUT_OF_ACTION]


class Dice(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.rolls: OrderedDict[int, Rolled] = OrderedDict()
        self.views: OrderedDict[tuple, discord.ui.View] = OrderedDict()
        self.record = None
        self._flush_now = asyncio.Event()
        self._flusher: asyncio.Task | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RerollButton, RerollDieSelect, RevealButton)
        if self.bot.store is not None:
            self.record = record_for(self.bot.store)
            self._flusher = asyncio.create_task(self._keep_flushing(), name="roll-record-flush")

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RerollButton, RerollDieSelect, RevealButton)
        if self._flusher is not None:
            self._flusher.cancel()
            try:
                await self._flusher
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping; what is left is written below
                pass
        if self.record is not None:
            self.record.flush()  # the last rolls, before the database closes

    async def _keep_flushing(self) -> None:
        """Write the roll record every FLUSH_SECONDS, or at once when a batch fills."""
        while True:
            try:
                await asyncio.wait_for(self._flush_now.wait(), FLUSH_SECONDS)
            except asyncio.TimeoutError:
                pass
            self._flush_now.clear()
            if self.record.pending:
                try:
                    await asyncio.to_thread(self.record.flush)
                except Exception:  # noqa: BLE001 - the rolls stay in memory and the next flush retries
                    log.exception("Could not write the roll record; will retry")

    def _record(self, interaction: discord.Interaction, facts: Callable[[], RollFacts], visibility: str) -> None:
        """Add a roll to the server's record; its facts are worked out when it is written."""
        if self.record is None:
            return
        if self.record.add(interaction.guild_id, interaction.user.id, interaction.user.display_name, facts,
                           visibility=visibility):
            if self.record.pending >= BATCH_SIZE:
                self._flush_now.set()

    # ----- sending and re-rolling -----------------------------------------------------

    async def _send(self, interaction: discord.Interaction, rolled: Rolled, private: bool, secret: bool = False) -> None:
        if private and secret:
            raise MordheimError("Choose `private` or `secret`, not both.",
                                hint="`private`: only you see it. `secret`: only you see it, and the table sees that you rolled.")
        view = reroll_view(rolled.owner_id, rolled.choices(rolled.result), self.views)
        kwargs = {"view": view} if view is not None else {}
        if secret:
            message_id = await self._send_secret(interaction, rolled, kwargs)
        else:
            sent = await interaction.response.send_message(embed=rolled.embed(), ephemeral=private, **kwargs)
            message_id = sent.message_id
        self.rolls[message_id] = rolled
        while len(self.rolls) > ROLLS_KEPT:
            self.rolls.popitem(last=False)
        rolled.visibility = "secret" if secret else "private" if private else "public"
        self._record(interaction, functools.partial(rolled.facts, rolled.result, None), rolled.visibility)

    async def _send_secret(self, interaction: discord.Interaction, rolled: Rolled, kwargs: dict) -> int:
        """The table sees that a secret roll was made; the roller sees the roll; the server's
        secret-roll channel gets a copy. Returns the id of the roller's message."""
        if interaction.guild_id is None:
            raise MordheimError("A secret roll is made in a server, for its table and its game master.",
                                hint="Here in direct messages only you see your rolls anyway.")
        embed = rolled.embed()
        secrets = SecretRolls(self.bot.store)
        rolled.secret_id = await asyncio.to_thread(
            secrets.keep, interaction.guild_id, interaction.channel_id, interaction.user.id, shown_payload(embed)
        )
        name = discord.utils.escape_markdown(interaction.user.display_name)[:100]
        await interaction.response.send_message(SECRET_LINE.format(name=name), view=reveal_view(rolled.secret_id))
        mine = await interaction.followup.send(
            content="Your secret roll: only you see it until you press **Reveal** (members with Manage Server can look).",
            embed=embed, ephemeral=True, wait=True, **kwargs,
        )
        problem = await post_secret(interaction, embed)
        if problem:
            await interaction.followup.send(problem, ephemeral=True)
        return mine.id

    async def _send_check(self, interaction: discord.Interaction, result, private: bool, secret: bool = False, *, whose: str = "") -> None:
        """Send a Mordheim test or special-dice roll, with the server's edition named."""
        edition = get_edition(server_settings_now(interaction).edition_id)
        who = interaction.user.display_name + whose

        def render(res, original):
            return check_embed(res, original, who=who, edition=edition)

        def again(res, choice, die):
            return reroll_choice(res, self.bot.rng, choice, die=die)

        def facts(res, before):
            return check_facts(res) if before is None else reroll_facts(before, res)

        await self._send(interaction, Rolled(interaction.user.id, result, result, again, render, facts), private, secret)

    async def press_reroll(self, interaction: discord.Interaction, owner_id: int, choice: str, die: str | None) -> None:
        """A re-roll button or the menu of dice: re-roll as chosen, or open or close the menu."""
        if interaction.user.id != owner_id:
            raise MordheimError(f"Only <@{owner_id}> rolled this, so only they can re-roll it.", hint="Roll your own with /roll.")
        rolled = self.rolls.get(interaction.message.id) if interaction.message else None
        if rolled is None:
            raise MordheimError(
                "This roll is too old to re-roll: the bot no longer remembers its dice.", hint="Roll again with /roll."
            )
        if choice == "one":
            dice = rolled.dice(rolled.result)
            if len(dice) < 2:
                raise MordheimError("There is no die left to choose: each die is re-rolled at most once (004:62).")
            await interaction.response.edit_message(view=die_menu_view(owner_id, dice))
            return
        if choice == "back":
            await interaction.response.edit_message(view=reroll_view(owner_id, rolled.choices(rolled.result), self.views))
            return
        picked = RerollChoice.ONE if choice == "die" else RerollChoice(choice)
        # no await before the state changes: a second press arriving meanwhile sees the new dice
        before = rolled.result
        new = rolled.reroll(before, picked, die)
        rolled.result = new
        view = reroll_view(owner_id, rolled.choices(new), self.views)
        embed = rolled.embed()
        await interaction.response.edit_message(embed=embed, view=view)
        self._record(interaction, functools.partial(rolled.facts, new, before), rolled.visibility)
        if rolled.secret_id is not None and interaction.guild_id is not None:
            # what Reveal shows follows the re-roll; the secret-roll channel sees it too
            secrets = SecretRolls(self.bot.store)
            await asyncio.to_thread(secrets.update, interaction.guild_id, rolled.secret_id, shown_payload(embed))
            problem = await post_secret(interaction, embed, rerolled=True)
            if problem:
                await interaction.followup.send(problem, ephemeral=True)

    # ----- commands -----------------------------------------------------------------

    @app_commands.command(name="roll", description="Roll dice: 2d6, d66, 4d6kh3, 5d6 4+, 2d6<=7, 3x d6, art, with a label")
    @app_commands.describe(
        expression="Dice, e.g. 2d6+1, 5d6 4+ (count dice), 2d6<=7 (test the total), 3x d6, 2d6, d6; text after it is a label",
        label="What the roll is for (shown as the title)",
        private="Only you see the result",
        secret="Only you (and Manage Server) see the result; the table sees that you rolled, and a Reveal button",
    )
    async def roll_command(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, 6000],
        label: app_commands.Range[str, 1, 100] | None = None,
        private: bool = False,
        secret: bool = False,
    ) -> None:
        result = roll_set(expression, self.bot.rng, label)
        single = result.single
        shown_label = label or (single.label if single is not None else None)
        who = interaction.user.display_name

        def render(res, original):
            return roll_embed(res, original, label=shown_label, who=who)

        def again(res, choice, die):
            return reroll_choice(res, self.bot.rng, choice, die=die)

        def facts(res, before):
            return roll_set_facts(res) if before is None else reroll_facts(before, res)

        await self._send(interaction, Rolled(interaction.user.id, result, result, again, render, facts), private, secret)

    @app_commands.command(name="test", description="Characteristic test: D6 equal to or under the value; a 6 always fails")
    @app_commands.describe(
        characteristic="Which characteristic",
        value="Its value (0-10); or name a stored warrior instead",
        warrior="A warrior of this server's warbands, as Warband/Warrior",
        private="Only you see the result",
        secret="Only you (and Manage Server) see it; the table sees that you rolled, with a Reveal button",
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
        secret: bool = False,
    ) -> None:
        value, whose = await self._value(interaction, value, warrior, PROFILE_KEYS[characteristic.value], characteristic.value)
        result = characteristic_test(value, self.bot.rng, characteristic=characteristic.value)
        await self._send_check(interaction, result, private, secret, whose=whose)

    @app_commands.command(name="leadership", description="Leadership test: 2D6 equal to or under Ld")
    @app_commands.describe(
        leadership="The Leadership value (0-10); or name a stored warrior instead",
        warrior="A warrior of this server's warbands, as Warband/Warrior",
        private="Only you see the result",
        secret="Only you (and Manage Server) see it; the table sees that you rolled, with a Reveal button",
    )
    @app_commands.autocomplete(warrior=warrior_path_choices)
    async def leadership(
        self,
        interaction: discord.Interaction,
        leadership: app_commands.Range[int, 0, 10] | None = None,
        warrior: app_commands.Range[str, 1, 150] | None = None,
        private: bool = False,
        secret: bool = False,
    ) -> None:
        leadership, whose = await self._value(interaction, leadership, warrior, "Ld", "Leadership")
        result = leadership_test(leadership, self.bot.rng)
        await self._send_check(interaction, result, private, secret, whose=whose)

    async def _value(
        self, interaction: discord.Interaction, value: int | None, warrior: str | None, key: str, name: str
    ) -> tuple[int, str]:
        """The value to test: typed, or read from a stored warrior's profile (this server only)."""
        if (value is None) == (warrior is None):
            option = "leadership" if key == "Ld" else "value"
            raise MordheimError(
                f"Give either the {name} value or a stored warrior, not {'both' if value is not None else 'neither'}.",
                hint=_value_hint(name, option),
            )
        if value is not None:
            return value, ""
        if interaction.guild_id is None:
            raise MordheimError("Stored warriors belong to a server's campaign.", hint=f"In direct messages, give the {name} value.")
        found = await asyncio.to_thread(interaction.client.campaigns.find_warrior, interaction.guild_id, warrior)
        return found.profile.as_dict()[key], f" — {found.warband}/{found.name}"

    @app_commands.command(name="artillery", description="Roll the Artillery dice: 2, 4, 6, 8, 10 or Misfire")
    @app_commands.describe(private="Only you see the result", secret="Only you (and Manage Server) see it; the table sees that you rolled")
    async def artillery(self, interaction: discord.Interaction, private: bool = False, secret: bool = False) -> None:
        result = artillery_roll(self.bot.rng)
        await self._send_check(interaction, result, private, secret)

    @app_commands.command(name="scatter", description="Roll the Scatter dice, optionally with the Artillery dice for distance")
    @app_commands.describe(
        distance="Also roll the Artillery dice for how far",
        private="Only you see the result",
        secret="Only you (and Manage Server) see it; the table sees that you rolled",
    )
    async def scatter(self, interaction: discord.Interaction, distance: bool = False, private: bool = False,
                      secret: bool = False) -> None:
        result = scatter_roll(self.bot.rng, with_distance=distance)
        await self._send_check(interaction, result, private, secret)

    @app_commands.command(name="injury", description="Injury roll: 1-2 knocked down, 3-4 stunned, 5-6 out of action")
    @app_commands.describe(
        concussion="Hit by a hammer, mace or club: 2-4 is stunned (000:930)",
        helmet="Wears a helmet: 4+ turns stunned into knocked down (000:1321)",
        mandrake_root="Took Mandrake Root: stunned becomes knocked down (000:1389)",
        bonus="+1 hunting arrows, +2 master strike",
        private="Only you see the result",
        secret="Only you (and Manage Server) see it; the table sees that you rolled, with a Reveal button",
    )
    async def injury(
        self,
        interaction: discord.Interaction,
        concussion: bool = False,
        helmet: bool = False,
        mandrake_root: bool = False,
        bonus: app_commands.Range[int, 0, 2] = 0,
        private: bool = False,
        secret: bool = False,
    ) -> None:
        settings = server_settings_now(interaction)
        edition = get_edition(settings.edition_id)
        rules = combat_rules(settings, None)  # a lookup-only edition rolls injuries by lrb
        options = dict(concussion=concussion, helmet=helmet, mandrake_root=mandrake_root, bonus=bonus)

        def again(_previous, _choice=None, _die=None):
            return roll_injury(self.bot.rng, edition=rules.edition, toggles=rules.toggles, **options)

        chance_out = _chance_out_of_action(tuple(sorted(options.items())), rules.edition, tuple(sorted(rules.toggles.items())))

        def facts(res, before):
            what = "Injury roll" + ("" if before is None else " (re-rolled)")
            return injury_facts(int(res.outcome), res.outcome.words, list(res.dice), chance_out, what)

        who = interaction.user.display_name
        result = again(None)
        rolled = Rolled(
            interaction.user.id, result, result, again,
            lambda r, o: injury_embed(r, o, who=who, options=options, edition=edition),
            facts,
            # an injury is rolled again whole, once: its helmet roll depends on the first die
            choices=lambda r: [RerollChoice.ALL] if r is result else [],
            dice=lambda r: [],
        )
        await self._send(interaction, rolled, private, secret)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Dice(bot))
