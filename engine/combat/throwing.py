"""Things thrown in the shooting phase that are not weapons: a net (000:1425) and blessed water
(000:1405), each written once against ``Dice`` (rolled with a log, or enumerated for exact odds).

* Net: thrown 8" by BS, no range or moving penalties; if it hits, the target rolls a D6: equal to
  or under his Strength he rips it apart, over it he may not move, shoot or cast spells in his
  next turn (not otherwise affected).
* Blessed water: thrown twice the thrower's Strength in inches by BS, no range or moving
  modifiers; it causes 1 wound on an Undead, Daemon or Possessed model automatically, with no
  armour save (and does nothing to anyone else).

Other to-hit modifiers apply as to any missile (cover, a large target, an Elven cloak).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.combat.citations import cite
from engine.combat.dice import Dice
from engine.combat.fighter import Fighter
from engine.combat.injury import InjuryOptions, worst_injury
from engine.combat.items import Equipment
from engine.combat.ruleset import Ruleset
from engine.combat.shooting import hard_to_see
from engine.combat.state import KNOCKED_DOWN, STANDING, STATUS_OF, STATUS_WORDS
from engine.combat.tables import bs_to_hit
from engine.combat.volley import because
from engine.errors import MordheimError

THROWN = {"net": "thrown-8", "blessed-water": "thrown-2xS"}  # equipment id -> its thrown effect


class ThrowResult(NamedTuple):
    hit: bool
    outcome: str  # "unharmed", "netted", "wounded", or an injury / status in words
    wounds_lost: int


@dataclass(frozen=True)
class Throw:
    item: Equipment
    needed: int
    reasons: tuple[str, ...]
    target: Fighter
    ruleset: Ruleset


def is_thrown(item) -> bool:
    return isinstance(item, Equipment) and item.id in THROWN


def plan_throw(r: Ruleset, thrower: Fighter, target: Fighter, item: Equipment, *, range_inches: float | None = None,
               cover: bool = False, moved: bool = False, stood_up: bool = False, large_target: bool = False,
               twice: bool = False, hunting_arrows: bool = False) -> Throw:
    """The to-hit roll a throw needs, and why; MordheimError when it cannot be thrown."""
    ed = r.edition
    if twice:
        raise MordheimError(f"A {item.name.lower()} is thrown once.", hint="Untick twice.")
    if thrower.profile.BS == 0:
        raise MordheimError(f"{thrower.name} has BS0 and cannot throw ({cite('bs0')}).", hint="Give BS1 or more.")
    reach = 8 if item.id == "net" else 2 * thrower.strength
    rule = "net" if item.id == "net" else "blessed-water"
    if range_inches is not None and range_inches > reach:
        raise MordheimError(f"A {item.name.lower()} reaches {reach}\" ({cite(rule)}); the target at {range_inches:g}\" is beyond it.",
                            hint="Move closer.")
    needed = bs_to_hit(thrower.profile.BS)
    reasons = [f"BS{thrower.profile.BS} needs {needed}+ ({cite('bs-chart', ed)})",
               f"no range or moving penalty for a {item.name.lower()} ({cite(rule)})"]
    if cover:
        needed += 1
        reasons.append(f"-1 cover ({cite('cover', ed)})")
    if large_target or target.large_target:
        needed -= 1
        reasons.append(f"+1 large target ({cite('large-target', ed)})")
    for penalty, why in hard_to_see(target):
        needed += penalty
        reasons.append(why)
    return Throw(item=item, needed=needed, reasons=tuple(reasons), target=target, ruleset=r)


def throw_rule(dice: Dice, t: Throw) -> ThrowResult:
    """One throw, every die asked of ``dice``."""
    target = t.target
    roll = dice.d6()
    hit = t.ruleset.hit_succeeds(roll, t.needed)
    if dice.logging:
        dice.say(f"Throws the {t.item.name.lower()}: rolled {roll}, needed {because(t.needed, '; '.join(t.reasons))} → {'hit' if hit else 'miss'}")
    if not hit:
        return ThrowResult(hit=False, outcome="unharmed", wounds_lost=0)
    if t.item.id == "net":
        test = dice.d6()
        ripped = test <= target.strength
        if dice.logging:
            dice.say(f"{target.name} tries to rip the net: rolled {test}, needs {target.strength} or less → "
                     + ("rips it apart" if ripped else f"netted: he may not move, shoot or cast spells in his next turn ({cite('net')})"))
        return ThrowResult(hit=True, outcome="unharmed" if ripped else "netted", wounds_lost=0)
    if not any(target.has(kind) for kind in ("undead", "daemon", "possessed")):
        if dice.logging:
            dice.say(f"Blessed water harms only Undead, Daemons and Possessed ({cite('blessed-water')}): {target.name} is unharmed.")
        return ThrowResult(hit=True, outcome="unharmed", wounds_lost=0)
    status = STATUS_OF[target.state]
    if dice.logging:
        dice.say(f"Blessed water: 1 wound on {target.name}, automatically, with no armour save ({cite('blessed-water')}).")
    if target.wounds_left > 1:
        return ThrowResult(hit=True, outcome="wounded", wounds_lost=1)  # 000:613 a wound comes off
    options = InjuryOptions(helmet=target.helmet, mandrake_root=target.stunned_is_knocked_down,
                            concussion_on_natural_roll=t.ruleset.toggle("concussion_on_natural_roll"), hard_to_kill=target.has("hard-to-kill"))
    injury = int(worst_injury(dice, options, 1, helmet_on_result=target.helmet and not t.ruleset.helmet_save_each_roll))
    after = max(status, injury)  # 000:615 the wound that takes him to 0 rolls for injury
    if after > status or (after == KNOCKED_DOWN and status == STANDING):
        return ThrowResult(hit=True, outcome=STATUS_WORDS[after], wounds_lost=1)
    return ThrowResult(hit=True, outcome="wounded", wounds_lost=1)
