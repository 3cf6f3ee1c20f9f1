"""Embeds for dice results: every die shown, what was needed, the outcome in the game's words.

A re-rolled result is shown under its original on the same message, labelled, so the table
can see both.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import discord

from engine.dice import CheckResult, Outcome, RollResult, RollSet, verdict
from engine.editions import Edition

# Names and titles recur (the same members, the same expressions): escape each once.
_escaped = lru_cache(maxsize=4096)(discord.utils.escape_markdown)

PASSED = discord.Colour.green()
FAILED = discord.Colour.dark_red()
ROLLED = discord.Colour.dark_gold()
INJURY_COLOURS = {1: discord.Colour.gold(), 2: discord.Colour.orange(), 3: discord.Colour.dark_red()}


def _who(embed: discord.Embed, who: str) -> None:
    embed.set_author(name=_escaped(who)[:256])


def _footer(embed: discord.Embed, edition: Edition | None, rerolled: bool) -> None:
    parts = []
    if rerolled:
        parts.append("Re-rolled: the second score stands (000:188); no die is re-rolled twice (004:62)")
    if edition is not None:
        parts.append(f"Edition: {edition.name}")
    if parts:
        embed.set_footer(text=" · ".join(parts)[:2048])


# Room for the dice of one roll set in an embed description (4096), leaving space for the rest.
DICE_TEXT_LIMIT = 3600


def _outcome_line(result: RollResult) -> str:
    """What the roll came to, in words: the total, the successes and what they count, or the test."""
    said = verdict(result)
    target = result.target
    if target is not None and target.counts_dice:
        n = result.successes
        return f"**{n} success{'es' if n != 1 else ''}** — {said}"
    if target is not None:
        # the verdict ends with the outcome (": passed."); make that word stand out
        head, _, outcome = said.rpartition(": ")
        return f"Total: **{result.total}** — {head}: **{outcome.rstrip('.')}**."
    return f"Total: **{result.total}**"


def _remarks(result: RollResult) -> list[str]:
    return [f"ℹ️ {n}" for n in result.notes] + [f"⚠️ {w}" for w in result.warnings]


def _roll_block(result: RollResult, number: int | None) -> str:
    """One roll: its dice, then (alone) what it came to in words; a roll of a set is one line,
    its dice already ending in the total, the successes or passed/failed."""
    head = f"**#{number}** " if number is not None else ""
    if number is not None and result.label:
        head += f"{discord.utils.escape_markdown(result.label)}: "
    lines = [f"{head}{result.render()}"]
    if number is None:
        lines.append(_outcome_line(result))
        lines += _remarks(result)
    return "\n".join(lines)


def _set_summary(rolls: RollSet) -> str | None:
    """One line over a whole set of counted or tested rolls: successes in all, tests passed."""
    results = rolls.results
    if len(results) < 2:
        return None
    if all(r.target is not None and r.target.counts_dice for r in results):
        n = sum(r.successes for r in results)
        return f"In all: **{n} success{'es' if n != 1 else ''}** over {len(results)} rolls."
    if all(r.target is not None and not r.target.counts_dice for r in results):
        n = sum(1 for r in results if r.passed)
        return f"Passed: **{n} of {len(results)}**."
    return None


def roll_set_text(rolls: RollSet) -> str:
    """Every roll of the set with its dice, outcome and any note, clipped to fit an embed."""
    if rolls.single is not None:
        text = _roll_block(rolls.single, None)
    else:
        text = "\n".join(_roll_block(r, n) for n, r in enumerate(rolls.results, start=1))
        summary = _set_summary(rolls)
        if summary:
            text += "\n" + summary
        remarks = list(dict.fromkeys(m for r in rolls.results for m in _remarks(r)))  # each said once
        if remarks:
            text += "\n" + "\n".join(remarks)
    return _dice_text(text)


def roll_embed(rolls: RollSet, original: RollSet | None, *, label: str | None, who: str) -> discord.Embed:
    title = f"🎲 {label}" if label else f"🎲 {rolls.text}"
    embed = discord.Embed(title=_escaped(title)[:256], colour=ROLLED)
    _who(embed, who)
    if original is None:
        embed.description = roll_set_text(rolls)
    else:
        embed.description = "Re-roll:\n" + roll_set_text(rolls)
        embed.add_field(name="Original roll", value=_clip(roll_set_text(original), 1024), inline=False)
    _footer(embed, None, original is not None)
    return embed


def _dice_text(text: str) -> str:
    """The engine's breakdown (it marks dropped and replaced dice with ~~strike~~), clipped."""
    return _clip(text, DICE_TEXT_LIMIT)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
