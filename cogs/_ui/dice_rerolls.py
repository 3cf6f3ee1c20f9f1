"""The re-roll buttons of a dice answer: Re-roll, Re-roll failed, Re-roll one… (a menu of the dice).

Every item is a ``DynamicItem`` whose custom id names the member who rolled and the choice, so a
press after a restart reaches the dice cog, which explains that the dice are forgotten. The
items only forward presses to the cog (``press_reroll``); which choices a roll has left, and
what a choice re-rolls, is ``engine.dice`` (000:188, 004:62).
"""

from __future__ import annotations

import re
from collections import OrderedDict

import discord

from cogs._ui.views import guarded
from engine.dice import DieChoice, RerollChoice

VIEWS_KEPT = 5000  # re-roll button sets kept for reuse, one per member and set of choices
SELECT_LIMIT = 25  # options in one Discord select menu

# What each re-roll button says; "one" opens the menu of dice, "back" closes it.
BUTTON_LABELS = {"all": "Re-roll", "failed": "Re-roll failed", "one": "Re-roll one…", "back": "Back"}


class RerollButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dice:reroll:(?P<owner>\d+)(?::(?P<choice>failed|one|back))?"):
    """A re-roll choice, for the member who rolled. Works from any message, even after a restart."""

    def __init__(self, owner_id: int, choice: str = "all") -> None:
        custom_id = f"dice:reroll:{owner_id}" + ("" if choice == "all" else f":{choice}")
        style = discord.ButtonStyle.secondary
        # no emoji: Discord sends components back with every message, and parsing an emoji costs
        super().__init__(discord.ui.Button(label=BUTTON_LABELS[choice], style=style, custom_id=custom_id))
        self.owner_id = owner_id
        self.choice = choice

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(int(match["owner"]), match["choice"] or "all")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: i.client.get_cog("Dice").press_reroll(i, self.owner_id, self.choice, None))


class RerollDieSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"dice:rerolldie:(?P<owner>\d+)"):
    """The menu of dice for "Re-roll one…": re-rolls the die the roller picks."""

    def __init__(self, owner_id: int, dice: list[DieChoice] | None = None) -> None:
        options = [
            discord.SelectOption(label=c.name[:100], value=c.key, description="failed" if c.failed else None)
            for c in (dice or [])[:SELECT_LIMIT]
        ] or [discord.SelectOption(label="no die left", value="none")]
        more = len(dice or []) > SELECT_LIMIT
        placeholder = "Choose the die to re-roll" + (f" (the first {SELECT_LIMIT} are listed)" if more else "")
        super().__init__(discord.ui.Select(custom_id=f"dice:rerolldie:{owner_id}", placeholder=placeholder, options=options))
        self.owner_id = owner_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /):
        made = cls(int(match["owner"]))
        made.item = item  # keeps the values Discord sent
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        key = self.item.values[0] if self.item.values else None
        await guarded(interaction, lambda i: i.client.get_cog("Dice").press_reroll(i, self.owner_id, "die", key))


def _ordered_dice(dice: list[DieChoice]) -> list[DieChoice]:
    """Failed dice first (the ones a player most often re-rolls), then the rest, each in order."""
    return [c for c in dice if c.failed] + [c for c in dice if not c.failed]


def reroll_view(owner_id: int, choices: list[RerollChoice], cache: OrderedDict[tuple, discord.ui.View]) -> discord.ui.View | None:
    """The re-roll buttons for ``owner_id``'s roll with these choices left (None: nothing left).

    They hold nothing but ``DynamicItem``s, which the cog registers once, so the view itself is
    never listened to: it is stopped at once (discord.py then does not store it per message)
    and one view per member and set of choices is reused."""
    if not choices:
        return None
    key = (owner_id, tuple(choices))
    view = cache.get(key)
    if view is None:
        view = discord.ui.View(timeout=None)
        for choice in choices:
            view.add_item(RerollButton(owner_id, choice.value))
        view.stop()
        cache[key] = view
        while len(cache) > VIEWS_KEPT:
            cache.popitem(last=False)
    return view


def die_menu_view(owner_id: int, dice: list[DieChoice]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RerollDieSelect(owner_id, _ordered_dice(dice)))
    view.add_item(RerollButton(owner_id, "back"))
    view.stop()  # dynamic items only: nothing to listen to per message
    return view
