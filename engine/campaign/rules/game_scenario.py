"""The scenario a tracked game is played under: its name, the scenario table's id, its rules in short.

A game keeps the scenario as it was chosen at ``/game start`` and shows one short line of it on
the tracker. A ``ScenarioSource`` turns what was typed (a name or an id) into a scenario table's
entry and offers its entries while a player types; the tracker's default is ``RulebookScenarios``,
the rulebook's nine (engine/campaign/rules/scenarios.py, the table `/battle scenario` rolls), so a
game's battles are recorded under the scenario's id and its awards reach the post-battle
sequence. Anything else typed is played as a custom scenario.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.campaign.rules import scenarios as rulebook
from engine.campaign.rules.campaign_rules import CampaignRules
from engine.campaign.rules.validation import NAME_MAX, clean_name
from engine.errors import MordheimError

SUMMARY_MAX = 300  # one short line on the tracker


@dataclass(frozen=True, kw_only=True)
class GameScenario:
    name: str  # as players call it: "Wyrdstone Hunt"
    scenario_id: str | None = None  # the scenario table's id; None for a scenario typed in
    summary: str = ""  # its special rules in short, for the tracker's line


class ScenarioSource(Protocol):
    """Scenarios a game may be played under (the campaign's scenario table), per server's tables."""

    def find(self, tables: CampaignRules, text: str) -> GameScenario | None:
        """The scenario ``text`` names (its name or id), or None when it names none."""
        ...

    def choices(self, tables: CampaignRules, prefix: str) -> list[GameScenario]:
        """Scenarios whose name starts with (then contains) ``prefix``, for autocomplete."""
        ...


def scenario_for_game(text: str, tables: CampaignRules, source: ScenarioSource | None) -> GameScenario:
    """The scenario ``text`` names: the source's entry when it knows it, else the text as typed
    (an empty text is an ordinary fight, 'Skirmish')."""
    if not isinstance(text, str):
        raise MordheimError("The scenario must be text.")
    typed = " ".join(text.split())
    if not typed:
        return GameScenario(name="Skirmish")
    typed = clean_name(typed, "The scenario")  # as a battle record keeps it: 1-64 characters, no mentions
    found = source.find(tables, typed) if source is not None else None
    if found is not None:
        return GameScenario(name=found.name[:NAME_MAX], scenario_id=found.scenario_id, summary=found.summary[:SUMMARY_MAX])
    return GameScenario(name=typed)


class RulebookScenarios:
    """The rulebook's scenarios as a ``ScenarioSource``: a name, alias or id typed exactly (case
    and spacing aside) finds one; anything else stays the player's own scenario."""

    def find(self, tables: CampaignRules, text: str) -> GameScenario | None:
        found = rulebook.exact_scenario(text) or rulebook.scenario_with_id(text.strip().casefold())
        return None if found is None else _game_scenario(found)

    def choices(self, tables: CampaignRules, prefix: str) -> list[GameScenario]:
        return [_game_scenario(s) for s in rulebook.scenarios_like(prefix)]


def _game_scenario(s: rulebook.Scenario) -> GameScenario:
    return GameScenario(name=s.name, scenario_id=s.id, summary=s.summary[:SUMMARY_MAX])
