"""Writing the death of the leader: the hero who takes command gets the role and the Leader rule.

Called wherever a leader can leave the roster for good: ``store_warrior`` (``/warrior edit
status``, ``/warrior injure``, a captive sold to the slavers), ``/warrior remove`` and the
post-battle sequence's writes. The choice is the rule's (engine/campaign/rules/succession.py);
the heir's change is a ledger row of the same unit of work, so of the same batch as the loss:
undo takes both back. What happened is kept for the answer in ``notices(uow)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.campaign.lists.catalogue import WarbandList
from engine.campaign.model import Role, Warband, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import succession as rules
from engine.campaign.rules.succession import Succession
from engine.dice.source import Dice

SUCCESSION = "leader.succession"  # the ledger row of the heir taking command
_NOTICES = "succession.notices"  # uow.memo key: what the answer should say


def notices(uow: UnitOfWork) -> list[str]:
    """What this unit of work's successions said, in order (for the answer)."""
    return list(uow.memo.get(_NOTICES, ()))


def d6_of(rng: random.Random | None, dice: Dice | None = None) -> Callable[[str], int] | None:
    """A named D6 for a tie: the step's ``dice``, else the injected ``rng``; None when neither (the players roll)."""
    if dice is not None:
        return dice.d6
    if rng is not None:
        return Dice(rng).d6
    return None


def take_command(uow: UnitOfWork, band: Warband, departed: Warrior, warriors: Sequence[Warrior], wlist: WarbandList | None, *,
                 d6: Callable[[str], int] | None, write: Callable[[Warrior, dict], Warrior]) -> Succession:
    """Apply the rule after ``departed`` (the leader) left for good; ``warriors`` the roster now.
    ``write(heir, changes)`` stores the heir's new role and rules (a ledger row of this unit)."""
    found = rules.choose_heir(departed, warriors, wlist, d6)
    if found.heir is not None:
        rules_now = list(found.heir.special_rules)
        rules_now += [r for r in found.gains if r not in rules_now]
        found = Succession(write(found.heir, {"role": str(Role.LEADER), "special_rules": rules_now}),
                           found.gains, found.text, found.rolls)
    said = found.text + (f" (dice: {'; '.join(found.rolls)})" if found.rolls else "")
    uow.memo.setdefault(_NOTICES, []).append(said)
    return found


def step_down(uow: UnitOfWork, band: Warband, warriors: Sequence[Warrior], wlist: WarbandList, hired_fighter_id: str,
              write: Callable[[Warrior, dict], Warrior]) -> None:
    """A newly hired leader of the list's own type takes command back from the acting leader (the Undead's Vampire)."""
    acting = rules.steps_down(wlist, warriors, hired_fighter_id)
    if acting is None:
        return
    fighter = wlist.fighter_by_id(acting.fighter_type) if acting.fighter_type else None
    own = {r.id for r in fighter.special_rules} if fighter is not None else set()
    kept = [r for r in acting.special_rules if r != rules.LEADER_RULE or r in own]
    write(acting, {"role": str(Role.HERO), "special_rules": kept})
    uow.memo.setdefault(_NOTICES, []).append(
        f"{acting.name} gives up command to the new {wlist.leader.name} and leads no more ({rules.OWN_SUCCESSION[wlist.id].source}).")
