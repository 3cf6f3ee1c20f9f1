"""/trade: the trading post — buy and sell kit, search for rare items, and the warband's stash.

The engine (engine/campaign/actions/buying.py and trading.py, through ``Campaigns``) checks who may
carry what, the prices and the treasury, and writes each purchase, sale or move as one action; this
cog parses options, offers only what the warrior may buy and afford (the last of several items
typed), and renders the answer. Searches and prices with dice are rolled with the bot's dice
(``bot.rng``), or the dice typed at the table, and shown publicly, die by die.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.campaign import call, campaigns, require_server, safe
from cogs._ui.context import is_admin
from cogs._ui.embeds import FAILURE, NEUTRAL, info_embed
from cogs._ui.roster import done_embed
from cogs._ui.views import send_pages
from cogs._ui.warrior_choices import changeable_warband_choices, labelled_choices, typed, warband_choices, warrior_choices
from cogs._ui.writes import call_write
from engine.campaign.rules.validation import name_key

Name = app_commands.Range[str, 1, 100]
STASH = "the stash"  # what the warrior option takes to mean the warband's stash
COUNT_HELP = "How many each model gets (a henchman group: every model), default 1"


def stash_or_warrior(text: str) -> str | None:
    """None for the stash ('stash', 'the stash'), else the warrior's name."""
    return None if name_key(text) in ("stash", STASH) else text


async def warrior_or_stash(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The stash first, then the warriors of the warband typed in ``warband``."""
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    names = await call(campaigns(interaction).warrior_names_for_autocomplete, interaction.guild_id, warband, current or "")
    stash = [(f"📦 {STASH}", STASH)] if name_key(current or "") in STASH else []
    return labelled_choices(stash + [(n, n) for n in names])


async def buyable(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """What the chosen warrior (or the stash) may buy now and afford, with prices."""
    warband, warrior = typed(interaction, "warband"), typed(interaction, "warrior")
    if interaction.guild_id is None or warband is None:
        return []
    target = stash_or_warrior(warrior) if warrior else None
    return labelled_choices(await call(campaigns(interaction).buy_choices, interaction.guild_id, warband, target, current or ""))


async def held(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """What the chosen warrior carries (or the stash holds)."""
    warband, warrior = typed(interaction, "warband"), typed(interaction, "warrior")
    if interaction.guild_id is None or warband is None:
        return []
    target = stash_or_warrior(warrior) if warrior else None
    return labelled_choices(await call(campaigns(interaction).held_choices, interaction.guild_id, warband, target, current or ""))


async def in_stash(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    return labelled_choices(await call(campaigns(interaction).held_choices, interaction.guild_id, warband, None, current or ""))


async def searchers(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    return labelled_choices(await call(campaigns(interaction).searcher_choices, interaction.guild_id, warband, current or ""))


async def rare_items(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    warband = typed(interaction, "warband")
    if interaction.guild_id is None or warband is None:
        return []
    return labelled_choices(await call(campaigns(interaction).rare_choices, interaction.guild_id, warband, current or ""))


def _who(name: str | None) -> str:
    return safe(name) if name else STASH


def purchase_text(p) -> str:
    """One line per item bought (its price and where it comes from), every die rolled, the gold left."""
    models = f" for each of {p.models}" if p.models > 1 else ""
    if len(p.lines) == 1:
        b = p.lines[0]
        each = f"{b.copies} x " if b.copies > 1 else ""
        lines = [f"{each}**{safe(b.name)}**{models} to {_who(p.buyer)}: **{b.cost} gc** ({safe(b.how)})."]
    else:
        lines = [f"To {_who(p.buyer)}{models}:"]
        lines += [f"- {f'{b.copies} x ' if b.copies > 1 else ''}**{safe(b.name)}**: {b.cost} gc ({safe(b.how)})" for b in p.lines]
        lines.append(f"**{p.cost} gc** in all.")
    if p.rolls:
        lines.append("**Dice:** " + "; ".join(safe(r) for r in p.rolls))
    lines.append(f"**{p.gold_left} gc** left.")
    if p.warrior is not None:
        lines.append(f"**Equipment:** {', '.join(map(safe, p.warrior.equipment))}")
    return "\n".join(lines)


def carriers_line(s) -> str:
    """Who a found item may be bought for: each warrior whose list lets him carry it (a group buys one
    per model, so needs that many found), and the stash."""
    names = [f"{safe(c.name)} (a group of {c.models}: one each, so {c.models} must be found)" if c.models > 1 else safe(c.name)
             for c in s.carriers]
    if s.stash_may_hold:
        names.append("the stash")
    if not names:
        return "**Who may carry it:** nobody in the warband."
    return "**Who may carry it:** " + ", ".join(names) + "."


def search_embed(s, warband: str) -> discord.Embed:
    mods = "".join(f" {n:+d} {safe(what)}" for what, n in s.modifiers)
    lines = [f"{safe(s.searcher)} looks for **{safe(s.item)}** (Rare {s.rarity}): {s.roll}{mods} → **{s.total}** "
             f"against {s.rarity}."]
    if s.found:
        price = f"{s.price} gc" + (f" (price dice: {s.price_roll})" if s.price_roll else "")
        lines.append(f"**Found**, for {price}. Buy it with `/trade buy` before the warband's next battle.")
        lines.append(carriers_line(s))
    else:
        lines.append("**Not found.** Each hero searches once per battle.")
    embed = info_embed(f"Rare item search: {safe(warband)}", "\n".join(lines), colour=discord.Colour.green() if s.found else FAILURE)
    embed.set_footer(text="2D6 plus the lists' modifiers, equal to or over the rarity (LRB Trading)")
    return embed


class Trade(commands.Cog):
    """The /trade command group."""

    trade = app_commands.Group(name="trade", description="The trading post: buy, sell, search for rare items, the stash",
                               guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        require_server(interaction)
        return True

    @trade.command(name="buy", description="Buy items for a warrior (every model of a group) or for the stash")
    @app_commands.describe(warband="Which warband", warrior=f"Who gets it, or '{STASH}'",
                           item="What to buy; several at once parted by commas: sword, dagger, shield",
                           count="How many of each item each model gets (a henchman group: every model), default 1",
                           dice="Dice rolled at the table for a price with dice (e.g. 3 4 for 2D6); empty: the bot rolls")
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_or_stash, item=buyable)
    async def buy(self, interaction: discord.Interaction, warband: Name, warrior: Name, item: Name,
                  count: app_commands.Range[int, 1, 10] = 1, dice: app_commands.Range[str, 1, 60] | None = None) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)  # a price's dice are rolled inside the purchase's write
        p = await call_write(c.store, c.buy, g, interaction.user.id, is_admin(interaction), warband, item,
                             warrior=stash_or_warrior(warrior), count=count, rng=interaction.client.rng, entered=dice)
        await interaction.response.send_message(embed=done_embed("Bought", purchase_text(p)[:4096]))

    @trade.command(name="sell", description="Sell an item for half its price (a group sells one per model)")
    @app_commands.describe(warband="Which warband", warrior=f"Who sells it, or '{STASH}'", item="What to sell", count=COUNT_HELP)
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_or_stash, item=held)
    async def sell(self, interaction: discord.Interaction, warband: Name, warrior: Name, item: Name,
                   count: app_commands.Range[int, 1, 10] = 1) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        s = await call_write(c.store, c.sell, g, interaction.user.id, is_admin(interaction), warband, item,
                             warrior=stash_or_warrior(warrior), count=count)
        pieces = s.models * s.count
        text = (f"{pieces} x **{safe(s.item)}** from {_who(s.seller)}: **+{s.refund} gc** ({safe(s.how)}). "
                f"**{s.gold_left} gc** in the treasury.")
        await interaction.response.send_message(embed=done_embed("Sold", text))

    @trade.command(name="search", description="A hero looks for a rare item after a battle: 2D6 against its rarity")
    @app_commands.describe(warband="Which warband", hero="Who searches (heroes who have not searched since the battle)",
                           item="The rare item looked for")
    @app_commands.autocomplete(warband=changeable_warband_choices, hero=searchers, item=rare_items)
    async def search(self, interaction: discord.Interaction, warband: Name, hero: Name, item: Name) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)  # the dice are rolled inside the search's write
        s = await call_write(c.store, c.search, g, interaction.user.id, is_admin(interaction), warband, hero, item,
                             interaction.client.rng)
        await interaction.response.send_message(embed=search_embed(s, s.warband))

    @trade.command(name="found", description="Rare items found since the last battle and not bought yet")
    @app_commands.describe(warband="Which warband")
    @app_commands.autocomplete(warband=warband_choices)
    async def found(self, interaction: discord.Interaction, warband: Name) -> None:
        g = require_server(interaction)
        offers = await call(campaigns(interaction).offers, g, warband)
        wb = await call(campaigns(interaction).get_warband, g, warband)
        if not offers:
            text = "Nothing found and not yet bought since the last battle. Heroes search with `/trade search`."
        else:
            text = "\n".join(f"**{safe(o.item)}** for {o.price} gc (found by {safe(o.searcher)}"
                             + (f"; price dice {o.price_roll})" if o.price_roll else ")") for o in offers)
            text += "\nBuy with `/trade buy` before the next battle."
        await interaction.response.send_message(embed=info_embed(f"Found by {safe(wb.name)}", text, colour=NEUTRAL))

    @trade.command(name="stash", description="What the warband keeps in its stash, and what it is worth")
    @app_commands.describe(warband="Which warband")
    @app_commands.autocomplete(warband=warband_choices)
    async def stash(self, interaction: discord.Interaction, warband: Name) -> None:
        g = require_server(interaction)
        sheet = await call(campaigns(interaction).show_warband, g, warband)
        wb = sheet.warband
        if not wb.stash:
            text = "Empty. Buy into it with `/trade buy warrior:the stash`, or put kit in it with `/trade store`."
        else:
            counts: dict[str, int] = {}
            for name in wb.stash:
                counts[name] = counts.get(name, 0) + 1
            text = "\n".join(f"{safe(n)}" + (f" x{k}" if k > 1 else "") for n, k in sorted(counts.items()))
            text += f"\nWorth {sheet.stash_value} gc at trading-post prices. `/trade give` hands an item to a warrior."
        await send_pages(interaction, [info_embed(f"Stash of {safe(wb.name)}", text, colour=NEUTRAL)])

    @trade.command(name="give", description="Give an item from the stash to a warrior (one per model of a group)")
    @app_commands.describe(warband="Which warband", item="An item in the stash", warrior="Who gets it", count=COUNT_HELP)
    @app_commands.autocomplete(warband=changeable_warband_choices, item=in_stash, warrior=warrior_choices)
    async def give(self, interaction: discord.Interaction, warband: Name, item: Name, warrior: Name,
                   count: app_commands.Range[int, 1, 10] = 1) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        m = await call_write(c.store, c.move, g, interaction.user.id, is_admin(interaction), warband, item, warrior,
                             to_stash=False, count=count)
        pieces = m.models * m.count
        await interaction.response.send_message(embed=done_embed(
            "From the stash", f"{pieces} x **{safe(m.item)}** to {safe(m.warrior)}."))

    @trade.command(name="store", description="Put a warrior's item in the stash (a group gives one per model)")
    @app_commands.describe(warband="Which warband", warrior="Who gives it up", item="An item the warrior carries", count=COUNT_HELP)
    @app_commands.autocomplete(warband=changeable_warband_choices, warrior=warrior_choices, item=held)
    async def store(self, interaction: discord.Interaction, warband: Name, warrior: Name, item: Name,
                    count: app_commands.Range[int, 1, 10] = 1) -> None:
        g = require_server(interaction)
        c = campaigns(interaction)
        m = await call_write(c.store, c.move, g, interaction.user.id, is_admin(interaction), warband, item, warrior,
                             to_stash=True, count=count)
        pieces = m.models * m.count
        await interaction.response.send_message(embed=done_embed(
            "Into the stash", f"{pieces} x **{safe(m.item)}** from {safe(m.warrior)}."))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Trade(bot))
