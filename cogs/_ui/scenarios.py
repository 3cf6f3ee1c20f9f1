"""What /battle shows of scenarios: one scenario, a roll on the scenario table, a recorded battle's
scenario and underdog lines, and the scenario autocomplete. Drawing only; the engine decides."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs._ui.campaign import safe
from cogs._ui.embeds import EMBED_FIELD_LIMIT, INFO, NEUTRAL, clip
from cogs._ui.warrior_choices import labelled_choices
from engine.campaign.model import Battle
from engine.campaign.rules.scenarios import COMMON_AWARDS, Scenario, ScenarioRoll, scenario_book, scenario_with_id, scenarios_like
from engine.campaign.rules.underdog import underdog_for_battle

FOOTER = ("Mordheim rulebook / Living Rulebook, Scenarios chapter: figures checked against public transcriptions "
          "(rules_data/campaign/scenarios.json), the text in our own words.")
SIDES = ("Attacker and defender: unless the set-up says who is which, the player whose warband has the lower rating "
         "chooses (the pre-battle sequence).")


async def scenario_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The rulebook's scenarios a name being typed may mean, shown as 'Scenario 3: Wyrdstone Hunt'."""
    return labelled_choices([(s.title, s.name) for s in scenarios_like(current or "")])


def _award_lines(scenario: Scenario) -> list[str]:
    return [f"**+{a.amount} {a.name}** — {a.summary}" for a in scenario.awards]


def _chest_lines(scenario: Scenario) -> list[str]:
    return [f"{c.item}: " + ("always" if c.needs is None else f"on a D6 of {c.needs}+") for c in scenario.chest]


def add_scenario_fields(embed: discord.Embed, scenario: Scenario) -> discord.Embed:
    """Set-up, special rules, ending, what is found after the battle, and the experience awards."""
    fields = [("Set-up", scenario.setup), ("Special rules", scenario.special_rules), ("Ending", scenario.ending)]
    if scenario.attacker_and_defender:
        fields.append(("Sides", SIDES))
    if scenario.after_battle:
        fields.append(("After the battle", scenario.after_battle))
    if scenario.chest:
        fields.append(("The chest holds", "\n".join(_chest_lines(scenario))))
    fields.append(("Experience", "\n".join(_award_lines(scenario))))
    for name, value in fields:
        embed.add_field(name=name, value=clip(value, EMBED_FIELD_LIMIT), inline=False)
    return embed


def scenario_embed(scenario: Scenario) -> discord.Embed:
    """``/battle scenario name:``: one scenario in short."""
    embed = discord.Embed(title=scenario.title, description=scenario.summary, colour=INFO)
    embed.set_footer(text=FOOTER)
    return add_scenario_fields(embed, scenario)


def roll_embed(rolled: ScenarioRoll) -> discord.Embed:
    """``/battle scenario``: the scenario table's dice, and the scenario they give (or who chooses)."""
    faces = " + ".join(str(f) for f in rolled.roll.faces)
    where = "typed at the table" if rolled.roll.entered else "rolled by the bot"
    dice = f"🎲 2D6: {faces} = **{rolled.total}** ({where})"
    scenario = rolled.scenario
    if scenario is None:
        names = ", ".join(f"**{s.name}**" for s in scenario_book().scenarios)
        embed = discord.Embed(title=f"Scenario table: {rolled.total}, choose",
                              description=f"{dice}\n{rolled.row.summary}\nThe rulebook's scenarios: {names}.\n"
                                          "Read one with `/battle scenario name:`.", colour=NEUTRAL)
    else:
        embed = discord.Embed(title=f"Scenario table: {rolled.total}, {scenario.title}",
                              description=f"{dice}\n{scenario.summary}", colour=INFO)
        add_scenario_fields(embed, scenario)
    embed.add_field(name="Before the battle", value=clip(scenario_book().pre_battle, EMBED_FIELD_LIMIT), inline=False)
    embed.set_footer(text=FOOTER)
    return embed


def _extra_awards(battle: Battle) -> str:
    scenario = scenario_with_id(battle.scenario_id)
    if scenario is None:
        return ""
    extra = [f"+{a.amount} {a.name.lower()}" for a in scenario.awards if a.id not in COMMON_AWARDS]
    return f"; its own experience: {', '.join(extra)}" if extra else ""


def battle_scenario_line(battle: Battle) -> str | None:
    """What the recorded scenario is: a rulebook one (and what it awards beyond the usual) or a custom one."""
    if not battle.scenario:
        return None
    if battle.custom_scenario:
        return f"Custom scenario **{safe(battle.scenario)}**: not one of the rulebook's, so no scenario awards are known."
    scenario = scenario_with_id(battle.scenario_id)
    title = scenario.title if scenario else safe(battle.scenario)
    return f"Scenario: **{title}**{_extra_awards(battle)} (`/battle scenario name:{battle.scenario}`)."


def underdog_line(ours: Battle, theirs: Battle | None) -> str | None:
    """Who is the underdog of a battle between two of the server's warbands, and what it gains."""
    if theirs is None or ours.rating is None or ours.opponent_rating is None:
        return None
    for side in (ours, theirs):
        bonus = underdog_for_battle(side)
        if bonus:
            return (f"Underdog: **{safe(side.warband)}** (rating {side.rating} against {side.opponent_rating}) — "
                    f"+{bonus} experience for each of its warriors who gains experience from the battle.")
    gap = abs(ours.rating - ours.opponent_rating)
    return f"Ratings {ours.rating} and {ours.opponent_rating}: a gap of {gap}, no underdog experience (it starts above 50)."
