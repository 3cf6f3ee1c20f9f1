"""What a recorded battle adds to one warrior's experience beyond the three awards every battle
gives: its rulebook scenario's own awards and the underdog experience (the post-battle pre-fill).

Both come from what ``/battle record`` stored with the battle: the scenario's id (rules_data/
campaign/scenarios.json; none for a custom scenario, whose awards are entered by hand) and, for a
battle between two of the server's warbands, both ratings as they stood (engine/campaign/rules/
underdog.py, the Experience chapter's Underdogs). The usual three (survives, winning leader, per
enemy out of action) stay with engine/campaign/rules/experience.py and the server's tables.
"""

from __future__ import annotations

from engine.campaign.model import Battle
from engine.campaign.rules.scenarios import COMMON_AWARDS, AwardGained, WarriorOutcome, awards_for, scenario_with_id
from engine.campaign.rules.underdog import underdog_for_battle

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
