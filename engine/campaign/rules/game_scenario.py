"""The scenario a tracked game is played under: its name, the scenario table's id, its rules in short.

A game keeps the scenario as it was chosen at ``/game start`` and shows one short line of it on
the tracker. A ``ScenarioSource`` turns what was typed (a name or an id) into a scenario table's
entry and offers its entries while a player types; the tracker's default is ``RulebookScenarios``,
the rulebook's nine (engine/campaign/rules/scenarios.py, the table `/battle scenario` rolls), so a
game's battles are recorded under the scenario's id and its awards reach the post-battle
sequence. A near miss of one of its names is refused (as `/battle record` refuses it); anything
else typed, or a name after `custom:`, is played as a custom scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from engine.campaign.rules import scenarios as rulebook
from engine.campaign.rules.campaign_rules import CampaignRules
from engine.campaign.rules.validation import NAME_MAX, clean_name
from engine.dice.source import Dice
from engine.errors import MordheimError

SUMMARY_MAX = 300  # one short line on the tracker
ROLL_WORDS = frozenset({"roll", "rolled", "random", "roll the table"})  # a scenario typed as one of these is rolled


@dataclass(frozen=True, kw_only=True)
class GameScenario:
    name: str  # as players call it: "Wyrdstone Hunt"
    scenario_id: str | None = None  # the scenario table's id; None for a scenario typed in
    summary: str = ""  # its special rules in short, for the tracker's line
    rolled: str = ""  # the scenario table's dice when it was rolled, as the tracker's log shows them
    warbands: int | None = None  # how many warbands it is written for; None: not said (a scenario typed in)
    multiplayer: bool = True  # more than ``warbands`` may play it (under multiplayer rules); False: never more

    def fit_for(self, warbands: int) -> str:
        """What the game's log says of playing it with ``warbands`` warbands ('' when it is written for
        them); MordheimError when it cannot be played by so many (rules_data/campaign/scenarios.json)."""
        if self.warbands is None or warbands <= self.warbands:
            return ""
        if not self.multiplayer:
            raise MordheimError(f"{self.name} is a scenario for {self.warbands} warbands, and {warbands} were named.",
                                hint=f"Start it with {self.warbands}, choose another scenario (or `roll` again), or play "
                                     f"your own version as `custom: {self.name}`.")
        return (f"{self.name} is written for {self.warbands} warbands: with {warbands}, set up by the multiplayer rules "
                "(Town Cryer 5, Chaos on the Streets).")


class ScenarioSource(Protocol):
    """Scenarios a game may be played under (the campaign's scenario table), per server's tables."""

    def find(self, tables: CampaignRules, text: str) -> GameScenario | None:
        """The scenario ``text`` names (its name or id), or None when it names none."""
        ...

    def choices(self, tables: CampaignRules, prefix: str) -> list[GameScenario]:
        """Scenarios whose name starts with (then contains) ``prefix``, for autocomplete."""
        ...

    def roll(self, tables: CampaignRules, dice: Dice) -> GameScenario:
        """One roll on the scenario table, or a refusal saying who chooses instead."""
        ...


def scenario_for_game(text: str, tables: CampaignRules, source: ScenarioSource | None,
                      dice: Dice | None = None) -> GameScenario:
    """The scenario ``text`` names: the source's entry when it knows it, rolled on its table when
    the text is 'roll' (with ``dice``), else the text as typed (an empty text is an ordinary
    fight, 'Skirmish')."""
    if not isinstance(text, str):
        raise MordheimError("The scenario must be text.")
    typed = " ".join(text.split())
    if not typed:
        return GameScenario(name="Skirmish")
    if typed.casefold() in ROLL_WORDS:
        if source is None or dice is None:
            raise MordheimError("This server has no scenario table to roll on.", hint="Name the scenario you play.")
        return source.roll(tables, dice)
    if typed.casefold().startswith(rulebook.CUSTOM_PREFIX):  # a name of one's own that looks like a rulebook one
        custom = typed[len(rulebook.CUSTOM_PREFIX):].strip()
        if not custom:
            raise MordheimError("Name the custom scenario after `custom:`.", hint="For example `custom: Bridge of Sighs`.")
        return GameScenario(name=clean_name(custom, "The scenario"))
    typed = clean_name(typed, "The scenario")  # as a battle record keeps it: 1-64 characters, no mentions
    found = source.find(tables, typed) if source is not None else None
    if found is not None:
        return replace(found, name=found.name[:NAME_MAX], summary=found.summary[:SUMMARY_MAX])
    return GameScenario(name=typed)


class RulebookScenarios:
    """The rulebook's scenarios as a ``ScenarioSource``: a name, alias or id typed exactly (case
    and spacing aside) finds one; anything else stays the player's own scenario."""

    def find(self, tables: CampaignRules, text: str) -> GameScenario | None:
        """A near miss of a rulebook name ('Wyrdston Hunt') is refused as `/battle record` refuses it
        (rules/scenarios.py ``battle_scenario``: pick the rulebook's, or write `custom: NAME`)."""
        found = rulebook.exact_scenario(text) or rulebook.scenario_with_id(text.strip().casefold())
        if found is None:
            rulebook.battle_scenario(text)  # refuses a near miss; anything else is the players' own
        return None if found is None else _game_scenario(found)

    def choices(self, tables: CampaignRules, prefix: str) -> list[GameScenario]:
        return [_game_scenario(s) for s in rulebook.scenarios_like(prefix)]

    def roll(self, tables: CampaignRules, dice: Dice) -> GameScenario:
        """2D6 on the rulebook's scenario table (scenarios.json); a 2 or a 12 lets the player
        whose warband has the lower rating choose, which the bot cannot do for him."""
        rolled = rulebook.roll(dice)
        if rolled.scenario is None:
            raise MordheimError(f"The scenario table rolled {rolled.roll}: {rolled.row.summary}",
                                hint="Start the game again with the scenario chosen in `scenario`.")
        return replace(_game_scenario(rolled.scenario), rolled=f"{rolled.roll} → {rolled.scenario.name}")


def _game_scenario(s: rulebook.Scenario) -> GameScenario:
    return GameScenario(name=s.name, scenario_id=s.id, summary=s.summary[:SUMMARY_MAX], warbands=s.warbands,
                        multiplayer=s.multiplayer)
