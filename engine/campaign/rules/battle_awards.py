"""What a recorded battle adds to one warrior's experience beyond the three awards every battle
gives: its rulebook scenario's own awards and the underdog experience (the post-battle pre-fill).

Both come from what ``/battle record`` stored with the battle: the scenario's id (rules_data/
campaign/scenarios.json; none for a custom scenario, whose awards are entered by hand) and, for a
battle between two of the server's warbands, both ratings as they stood (engine/campaign/rules/
underdog.py, the Experience chapter's Underdogs). The usual three (survives, winning leader, per
enemy out of action) stay with engine/campaign/rules/experience.py and the server's tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.campaign.model import Battle, Role
from engine.campaign.rules.scenarios import COMMON_AWARDS, AwardGained, Fact, WarriorOutcome, awards_for, scenario_with_id
from engine.campaign.rules.underdog import underdog_for_battle

FEATS = (Fact.BROKE_THROUGH, Fact.ESCAPED_FIRST, Fact.FOUND_CHEST)  # a scenario's own yes/no deed, at most one each
FEAT_DONE = {Fact.BROKE_THROUGH: "broke through", Fact.ESCAPED_FIRST: "escaped first", Fact.FOUND_CHEST: "found the chest"}

UNDERDOG = "underdog"  # the award id of the underdog experience


def battle_extra_experience(battle: Battle, outcome: WarriorOutcome) -> tuple[AwardGained, ...]:
    """The scenario's own awards for ``outcome`` (a wyrdstone counter, breaking through...), then the
    underdog experience when ``battle``'s warband was the lower rated; () for a warrior who did not
    survive or never gains experience, and for a custom scenario without stored ratings."""
    scenario = scenario_with_id(battle.scenario_id)
    gained = [a for a in awards_for(scenario, outcome) if a.award not in COMMON_AWARDS] if scenario else []
    bonus = underdog_for_battle(battle)
    if bonus and outcome.survived and outcome.gains_experience:
        gained.append(AwardGained(award=UNDERDOG, name="Underdog", amount=bonus))
    return tuple(gained)


@dataclass(frozen=True, kw_only=True)
class ScenarioAsks:
    """What the post-battle sequence asks of each warrior for the battle's rulebook scenario: the
    wyrdstone counters he carried (Wyrdstone Hunt), and who did its feat (breaking through,
    escaping first, finding the chest), named as the scenario names the award."""

    counters: bool = False
    feat: str | None = None  # the award's name, e.g. "Breaking through"; None: the scenario has none
    feat_done: str | None = None  # the deed said of one who did it, e.g. "broke through"


def scenario_asks(battle: Battle | None) -> ScenarioAsks:
    """What ``battle``'s scenario awards beyond the usual three and needs told (nothing for a custom one)."""
    scenario = scenario_with_id(battle.scenario_id) if battle is not None else None
    if scenario is None:
        return ScenarioAsks()
    facts = {a.fact: a for a in scenario.awards if a.id not in COMMON_AWARDS}
    fact = next((f for f in FEATS if f in facts), None)
    return ScenarioAsks(counters=Fact.WYRDSTONE_COUNTERS in facts, feat=facts[fact].name if fact else None,
                        feat_done=FEAT_DONE[fact] if fact else None)


def outcome_of(*, role: str, survived: bool, won: bool, kills: int, counters: int, feat: bool,
               gains_experience: bool) -> WarriorOutcome:
    """One warrior's battle as the scenario's awards count it; ``feat`` sets every yes/no deed (a
    scenario awards at most one of them, so the others count nothing)."""
    return WarriorOutcome(role=Role(role), survived=survived, warband_won=won, enemies_out_of_action=kills,
                          wyrdstone_counters=counters, broke_through=feat, escaped_first=feat, found_chest=feat,
                          gains_experience=gains_experience)
