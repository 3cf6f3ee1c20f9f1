"""Embeds for /fight, /shoot and /odds: step-by-step logs in pages, odds as text bar charts.

Charts are monospace code blocks of at most ~34 characters a line, so they read on a phone.
Nothing is cut: a log longer than one embed is split into pages at line boundaries.
"""

from __future__ import annotations

import discord

from engine.combat import render_table
from engine.combat.duel import wins

FIGHT = discord.Colour.dark_red()
SHOT = discord.Colour.dark_green()
ODDS = discord.Colour.blurple()

PAGE_CHARS = 3000  # of the log per page; leaves room for the header within Discord's 4096/6000
FIELD_CHARS = 1000  # Discord allows 1024 in a field
CHART_WIDTH = 12
LABELS = {"unharmed": "Unharmed", "wounded": "Wounded", "knocked down": "Down", "stunned": "Stunned", "out of action": "OOA",
          "fled": "Fled", "netted": "Netted"}
OUTCOME_ORDER = ("unharmed", "wounded", "knocked down", "stunned", "out of action", "fled", "netted")
SOMETIMES = ("wounded", "fled", "netted")  # rows shown only when they can happen


def code(text: str) -> str:
    return f"```\n{text}\n```\n"


def pct(p: float) -> str:
    return f"{100 * p:.1f}%" if p >= 0.001 or p == 0 else "<0.1%"


def _log_chunks(lines: list[str], limit: int = PAGE_CHARS) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        # a single line longer than a page is split (never happens with the engine's lines, but nothing is lost)
        while len(line) > limit:
            chunks.append("\n".join(current + [line[:limit]]) if current else line[:limit])
            current, size, line = [], 0, line[limit:]
        if size + len(line) + 1 > limit and current:
            chunks.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current or not chunks:
        chunks.append("\n".join(current))
    return chunks


def log_pages(title: str, header: str, lines: list[str], outcome: str, footer: str, *, colour: discord.Colour) -> list[discord.Embed]:
    """The step-by-step log as embeds: header (who fights with what) on the first page, the
    outcome field on every page, the edition footer and the page number on each."""
    body = [ln for ln in lines if not ln.startswith("Edition:")]  # the footer names the edition
    chunks = _log_chunks(body)
    pages = []
    for i, chunk in enumerate(chunks):
        description = (header + "\n\n" + chunk) if i == 0 else chunk
        embed = discord.Embed(title=title[:256], description=description[:4096], colour=colour)
        embed.add_field(name="Outcome", value=outcome[:FIELD_CHARS] or "—", inline=False)
        page = f" · page {i + 1}/{len(chunks)}" if len(chunks) > 1 else ""
        embed.set_footer(text=(footer + page)[:2048])
        pages.append(embed)
    return pages


def outcome_text(result, fled: str | None = None) -> str:
    """'Defender: stunned (1 wound lost)' for each fighter in a RollResult; ``fled``, what
    fleeing is, after them when one fled."""
    parts = []
    for name, outcome in result.outcomes.items():
        lost = result.wounds_lost.get(name, 0)
        parts.append(f"**{name}**: {outcome}" + (f" ({lost} wound{'s' if lost != 1 else ''} lost)" if lost else ""))
    if fled and "fled" in result.outcomes.values():
        parts.append(f"*{fled}.*")
    return "\n".join(parts)


def fighters_header(fighters, notes: dict[str, list[str]] | None = None, not_modelled: list[str] | None = None) -> str:
    """Each fighter's profile and kit, what he fights with and what was left out, and the rules
    the engine does not apply in this fight."""
    lines = []
    for f in fighters:
        lines.append(f"**{f.name}**{f.describe()[len(f.name):]}")
        for note in (notes or {}).get(f.name, []):
            lines.append(f"  ↳ {note}")
    for note in not_modelled or []:
        lines.append(f"⚠ {note}")
    return "\n".join(lines)


# ----- odds ---------------------------------------------------------------------------------


def _at_least_rows(fighter) -> list[tuple[str, float]]:
    """P(at least N wounds lost) for N up to his Wounds (``FighterOdds.most_lost``): a W1 model
    has no "≥2 wounds" row, though a critical may cause him two (an injury roll more)."""
    return [(f"≥{n} wound{'s' if n > 1 else ''}", fighter.at_least(n)) for n in range(1, fighter.most_lost + 1)]


def fighter_odds_field(fighter, fled: str | None = None) -> tuple[str, str]:
    """One fighter's outcome chart, expected wounds lost and P(at least N wounds); ``fled``, what
    fleeing is (``engine.combat.api.fled_means``), under a chart that has a Fled row."""
    # "wounded but standing" cannot happen to a one-Wound fighter, and only a fighter left alone
    # against several can flee: leave out those rows when they are exactly 0
    rows = [(LABELS[k], fighter.outcomes.get(k, 0.0)) for k in OUTCOME_ORDER
            if k not in SOMETIMES or fighter.outcomes.get(k, 0.0) > 0]
    chart = render_table(rows, CHART_WIDTH)
    at_least = _at_least_rows(fighter)
    text = code(chart) + f"Expected wounds lost: **{fighter.expected_wounds:.2f}**"
    if at_least:
        text += "\nAt least N wounds:\n" + code(render_table(at_least, CHART_WIDTH))
    elif fighter.outcomes.get("out of action", 0.0) > 0:  # a stunned model attacked in close combat (000:783)
        text += "\nNo wound is lost: he goes out of action without losing one."
    else:
        text += "\nNo chance of losing a wound."
    if fled and fighter.outcomes.get("fled", 0.0) > 0:
        text += ("\n" if text.endswith("\n") else "\n\n") + f"*{fled}.*"
    return f"{fighter.name}", text[:FIELD_CHARS]


def odds_embed(result, title: str, header: str, footer: str, *, what: str, show_engine_title: bool = False,
               fled: str | None = None) -> discord.Embed:
    """A shot's or a round's odds: one chart per fighter shown. ``show_engine_title`` adds the
    engine's own title under the header (for a shot it says what is needed to hit, and why);
    ``fled`` says what fleeing is, under each chart with a Fled row."""
    description = f"{header}\n\n{result.title}" if show_engine_title else header
    embed = discord.Embed(title=title[:256], description=description[:4096], colour=ODDS)
    for fighter in result.fighters:
        name, value = fighter_odds_field(fighter, fled)
        embed.add_field(name=f"{name} — {what}"[:256], value=value, inline=False)
    embed.set_footer(text=footer[:2048])
    return embed


def _rounds_rows(rounds: dict[int, float], finished: float) -> list[tuple[str, float]]:
    """Rounds the duel ended in, with a long tail folded into one 'N+' row so it fits a phone."""
    rows: list[tuple[str, float]] = []
    seen = 0.0
    items = sorted(rounds.items())
    for i, (rnd, p) in enumerate(items):
        rest = sum(q for _, q in items[i:])
        if len(rows) >= 7 or (seen >= 0.995 * finished and rest > 0):
            if rest > 0:
                rows.append((f"Round {rnd}+", rest))
            break
        rows.append((f"Round {rnd}", p))
        seen += p
    return rows


def duel_embed(duel, header: str, footer: str, max_rounds: int) -> discord.Embed:
    a, b = duel.names
    rows = [(f"{a} {wins(a)}", duel.win), (f"{b} {wins(b)}", duel.lose)]
    if duel.both > 0.0005:
        rows.append(("Both out", duel.both))
    rows.append(("Unfinished", duel.unfinished))
    embed = discord.Embed(title=f"Odds: {a} vs {b}, a duel to the end"[:256], description=header[:4096], colour=ODDS)
    # under the chart, whether it is exact or simulated (and how closely): engine/combat/duel.py
    embed.add_field(name="Who wins", value=(code(render_table(rows, CHART_WIDTH)) + duel.how_computed())[:FIELD_CHARS], inline=False)
    finished = 1 - duel.unfinished
    expected = sum(k * p for k, p in duel.rounds.items()) / finished if finished > 1e-12 else float("nan")
    summary = f"Average length: **{expected:.1f}** rounds (of those that end)" if finished > 1e-12 else "No duel ends within the limit."
    if duel.unfinished > 0.0005:
        summary += f"\nUnfinished after {max_rounds} rounds: {pct(duel.unfinished)}"
    rounds = _rounds_rows(duel.rounds, finished)
    value = summary + ("\nRound it ends in:\n" + code(render_table(rounds, CHART_WIDTH)) if rounds else "")
    embed.add_field(name="How long", value=value[:FIELD_CHARS], inline=False)
    embed.set_footer(text=footer[:2048])
    return embed
