"""Embeds for dice results: every die shown, what was needed, the outcome in the game's words.

A re-rolled result is shown under its original on the same message, labelled, so the table
can see both.
"""

from __future__ import annotations

from typing import Any

import discord

from engine.dice import CheckResult, Outcome, RollResult
from engine.editions import Edition

PASSED = discord.Colour.green()
FAILED = discord.Colour.dark_red()
ROLLED = discord.Colour.dark_gold()
INJURY_COLOURS = {1: discord.Colour.gold(), 2: discord.Colour.orange(), 3: discord.Colour.dark_red()}


def _who(embed: discord.Embed, who: str) -> None:
    embed.set_author(name=discord.utils.escape_markdown(who)[:256])


def _footer(embed: discord.Embed, edition: Edition | None, rerolled: bool) -> None:
    parts = []
    if rerolled:
        parts.append("Re-rolled: the second score stands (000:188); no die is re-rolled twice (004:62)")
    if edition is not None:
        parts.append(f"Edition: {edition.name}")
    if parts:
        embed.set_footer(text=" · ".join(parts)[:2048])


def _roll_total(result: RollResult) -> str:
    if result.target is not None:
        n = result.successes
        return f"**{n} success{'es' if n != 1 else ''}** ({result.target.text})"
    return f"**{result.total}**"


def roll_embed(result: RollResult, original: RollResult | None, *, label: str | None, who: str) -> discord.Embed:
    title = f"🎲 {label}" if label else f"🎲 {result.expression}"
    embed = discord.Embed(title=discord.utils.escape_markdown(title)[:256], colour=ROLLED)
    _who(embed, who)
    if original is None:
        embed.description = f"{_dice_text(result.render())}\nTotal: {_roll_total(result)}"
    else:
        embed.description = f"Re-roll: {_dice_text(result.render())}\nTotal: {_roll_total(result)}"
        embed.add_field(name="Original roll", value=f"{_dice_text(original.render())}\nTotal: {_roll_total(original)}"[:1024], inline=False)
    _footer(embed, None, original is not None)
    return embed


def _dice_text(text: str) -> str:
    """The engine's breakdown (it marks dropped and replaced dice with ~~strike~~), clipped."""
    return text if len(text) <= 1800 else text[:1799] + "…"


def check_embed(result: CheckResult, original: CheckResult | None, *, who: str, edition: Edition | None = None) -> discord.Embed:
    if result.passed is None:
        colour = FAILED if result.total is Outcome.MISFIRE else ROLLED
    else:
        colour = PASSED if result.passed else FAILED
    titles = {
        "characteristic": f"{result.characteristic} test",
        "leadership": "Leadership test",
        "artillery": "Artillery dice",
        "scatter": "Scatter dice",
    }
    embed = discord.Embed(title=titles[result.kind.value], colour=colour)
    _who(embed, who)
    if original is not None:
        embed.description = f"**Re-roll:** {result.render()}\n{result.sentence}"
        embed.add_field(name="Original roll", value=f"{original.render()}\n{original.sentence}", inline=False)
    else:
        embed.description = f"{result.render()}\n{result.sentence}"
    embed.add_field(name="Needed", value=result.needed, inline=False)
    _footer(embed, edition, original is not None)
    return embed


def _injury_lines(result: Any) -> str:
    dice = ", ".join(str(d) for d in result.dice)
    steps = "\n".join(f"• {s}" for s in result.steps)
    return f"Dice: {dice}\n{steps}\n{result.text}"


def injury_embed(result: Any, original: Any | None, *, who: str, options: dict[str, Any], edition: Edition | None = None) -> discord.Embed:
    embed = discord.Embed(title="Injury roll", colour=INJURY_COLOURS.get(int(result.outcome), ROLLED))
    _who(embed, who)
    mods_text = ", ".join(
        label for name, label in (("concussion", "concussion"), ("helmet", "helmet"), ("mandrake_root", "Mandrake Root")) if options.get(name)
    )
    if options.get("bonus"):
        mods_text = (mods_text + ", " if mods_text else "") + f"+{options['bonus']} to the roll"
    if original is not None:
        embed.description = "**Re-roll:**\n" + _injury_lines(result)
        embed.add_field(name="Original roll", value=_injury_lines(original)[:1024], inline=False)
    else:
        embed.description = _injury_lines(result)
    embed.add_field(name="Modifiers", value=mods_text or "none", inline=False)
    embed.add_field(name="Results", value="1–2 knocked down · 3–4 stunned · 5–6 out of action (000:611–627)", inline=False)
    _footer(embed, edition, original is not None)
    return embed
