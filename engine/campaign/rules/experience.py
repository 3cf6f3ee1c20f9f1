"""Experience after a battle: the awards every scenario shares, and the advances they reach.

The awards are data (rules_data/campaign/lrb.json ``experience_awards``): +1 for surviving
(heroes, henchman groups and hired swords that fought and live), +1 for the winning leader, +1
per enemy a hero takes out of action (hired swords gain experience as henchmen do: see
campaign_warrior.py). Whatever the scenario adds is entered once per warrior. Animals and
fighters whose rules say so gain nothing (``CampaignWarrior.gains_experience``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.rules.tables import ExperienceAward
from engine.errors import MordheimError

MAX_KILLS = 30  # enemies one warrior takes out of action in one battle
MAX_SCENARIO = 20


@dataclass(frozen=True)
class Earned:
    award: str  # the award's name, or "Scenario"
    amount: int


def battle_experience(warrior: CampaignWarrior, awards: tuple[ExperienceAward, ...], *, won: bool,
                      enemies_out_of_action: int = 0, scenario: int = 0) -> tuple[Earned, ...]:
    """What ``warrior`` (as he is after injuries) earns for the battle he fought."""
    if not 0 <= enemies_out_of_action <= MAX_KILLS:
        raise MordheimError(f"{enemies_out_of_action} enemies out of action is not possible here (0-{MAX_KILLS}).")
    if not -MAX_SCENARIO <= scenario <= MAX_SCENARIO:
        raise MordheimError(f"Scenario experience must be between -{MAX_SCENARIO} and {MAX_SCENARIO}.")
    if enemies_out_of_action and not warrior.is_hero:
        what = "a hired sword" if warrior.role == "hired_sword" else "a henchman group"
        raise MordheimError(f"{warrior.name} is {what}: only heroes gain experience for enemies they take out of action.",
                            hint="Give the scenario's experience instead, if any.")
    if not warrior.gains_experience:
        return ()
    by_id = {a.id: a for a in awards}
    earned: list[Earned] = []
    if warrior.status != "dead" and "survives" in by_id:
        earned.append(Earned(by_id["survives"].name, by_id["survives"].amount))
    if won and warrior.role == "leader" and warrior.status != "dead" and "winning-leader" in by_id:
        earned.append(Earned(by_id["winning-leader"].name, by_id["winning-leader"].amount))
    if enemies_out_of_action and "enemy-out-of-action" in by_id:
        a = by_id["enemy-out-of-action"]
        earned.append(Earned(f"{a.name} ×{enemies_out_of_action}", a.amount * enemies_out_of_action))
    if scenario:
        earned.append(Earned("Scenario", scenario))
    return tuple(earned)
