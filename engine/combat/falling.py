"""Falling and jumping down (000:411-431), written once against ``Dice``: rolled or exact odds.

A fall is D3 hits at Strength equal to the height in inches, with no armour saves and no
critical hits (000:431). Jumping down takes an Initiative test for every full 2" and falls
from the top on any failure (000:415); a warrior may jump at most 6".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from engine.combat.citations import cite
from engine.combat.dice import Dice, RollDice, d3_of, enumerate_outcomes
from engine.combat.fighter import Fighter
from engine.combat.injury import Injury, InjuryOptions
from engine.combat.injury import worst_injury as worst_of
from engine.combat.movement import falling_hits, jump_tests
from engine.combat.ruleset import Ruleset, get_ruleset

MAX_FALL = 10  # movement.falling_hits: Strength 11+ is beyond any profile
MAX_JUMP = 6  # 000:415 "up to a maximum height of 6"" (movement.jump_tests)

LANDED = "landed safely"


class FallOutcome(NamedTuple):
    fell: bool  # False: every jumping test was passed
    wounds: int  # wounds lost
    status: str  # "unharmed" (fell but took no wound), "wounded", an Injury's words, or LANDED


@dataclass(frozen=True)
class _Fall:
    height: int
    toughness: int
    wounds_left: int
    initiative: int | None  # jumping down: test Initiative first; None = the model simply falls
    tests: int  # Initiative tests for jumping down (movement.jump_tests)
    ruleset: Ruleset
    injury: InjuryOptions
    helmet_on_result: bool  # INVENTORY §5.14 decision (ruleset toggle helmet_save_each_roll)


def lands_safely(dice: Dice, f: _Fall) -> bool:
    """Jumping down: one Initiative test for every full 2" (000:415); any failure is a fall."""
    initiative = f.initiative
    if initiative is None:
        raise ValueError("Only a warrior jumping down tests Initiative: this one simply falls.")
    tests = f.tests
    for n in range(1, tests + 1):
        roll = dice.d6()
        passed = roll != 6 and roll <= initiative  # 000:251 a 6 always fails
        if dice.logging:
            dice.say(f"Initiative test {n} of {tests}: rolled {roll}, needed {min(initiative, 5)} or less → "
                     + ("passed" if passed else f"failed: he falls ({cite('jumping-down')})"))
        if not passed:
            return False
    if dice.logging:
        dice.say(f"Every test passed: he lands safely and may carry on moving ({cite('jumping-down')})." if tests else
                 f"Less than 2\": no Initiative test is needed; he lands safely ({cite('jumping-down')}).")
    return True


def wounds_from_fall(dice: Dice, f: _Fall) -> int:
    """D3 hits at Strength = height, no armour saves, no critical hits (000:431): wounds caused."""
    d3_roll = dice.d6()  # a D3 is a D6 halved, rounding up (engine/combat/dice.py)
    hits = d3_of(d3_roll)
    needed = f.ruleset.to_wound_target(f.height, f.toughness)
    if dice.logging:
        need = f"{needed}+" if needed is not None else "no chance"
        dice.say(f"Falls {f.height}\": D3 hits, rolled {d3_roll} → {hits} hit{'s' if hits > 1 else ''} at Strength {f.height} against "
                 f"Toughness {f.toughness} ({need} to wound, no armour save, no critical hits; {cite('falling')})")
    wounds = 0
    for n in range(1, hits + 1):
        if needed is None:
            break
        roll = dice.d6()
        wounded = roll != 1 and roll >= needed
        wounds += wounded
        if dice.logging:
            dice.say(f"Hit {n} to wound: rolled {roll}, needed {needed}+ → " + ("wound" if wounded else "no wound"))
    return wounds


def worst_injury(dice: Dice, f: _Fall, rolls: int) -> Injury:
    """000:615-627 one injury roll per wound taking him to 0 or below; the worst stands (a
    helmet saves on that result, or on each roll with the house rule helmet_save_each_roll)."""
    return worst_of(dice, f.injury, rolls, helmet_on_result=f.helmet_on_result)


def injury_rolls(f: _Fall, wounds: int) -> int:
    return max(0, wounds - f.wounds_left + 1)


def _after_wounds(dice: Dice, f: _Fall, wounds: int) -> FallOutcome:
    if wounds == 0:
        return FallOutcome(True, 0, "unharmed")
    rolls = injury_rolls(f, wounds)
    if dice.logging:
        left = f"{f.wounds_left - wounds} left." if not rolls else f"no wounds left, {rolls} injury roll{'s' if rolls > 1 else ''}."
        dice.say(f"Loses {wounds} wound{'s' if wounds > 1 else ''}: {left}")
    if not rolls:
        return FallOutcome(True, wounds, "wounded")
    return FallOutcome(True, f.wounds_left, worst_injury(dice, f, rolls).words)


def fall_rule(dice: Dice, f: _Fall) -> FallOutcome:
    """One fall (or jump): every die asked of ``dice``, the outcome in the game's words."""
    if f.initiative is not None and lands_safely(dice, f):
        return FallOutcome(False, 0, LANDED)
    return _after_wounds(dice, f, wounds_from_fall(dice, f))


def _spec(who: Fighter, height: int, jump: bool, edition, toggles) -> _Fall:
    falling_hits(height)  # checks the height: 1-10"
    tests = jump_tests(height) if jump else 0  # checks the jump: at most 6"
    ruleset = get_ruleset(edition, toggles)
    return _Fall(
        height=height,
        toughness=who.toughness,
        wounds_left=who.wounds_left,
        initiative=who.profile.I if jump else None,
        tests=tests,
        ruleset=ruleset,
        injury=InjuryOptions(helmet=who.helmet, mandrake_root=who.stunned_is_knocked_down,
                             concussion_on_natural_roll=ruleset.toggle("concussion_on_natural_roll"), hard_to_kill=who.has("hard-to-kill")),
        helmet_on_result=who.helmet and not ruleset.helmet_save_each_roll,
    )


@dataclass
class FallResult:
    outcome: FallOutcome
    lines: list[str]
    dice: list[int]
    edition: str


def roll_fall(who: Fighter, height: int, rng: random.Random, *, jump: bool = False, edition=None, toggles=None) -> FallResult:
    """Roll a fall (or a jump down) with every die and step explained."""
    spec = _spec(who, height, jump, edition, toggles)
    dice = RollDice(rng)
    outcome = fall_rule(dice, spec)
    return FallResult(outcome, dice.lines, dice.rolled, spec.ruleset.edition)


def fall_odds(who: Fighter, height: int, *, jump: bool = False, edition=None, toggles=None) -> dict[str, float]:
    """Exact probability of each result (``LANDED``, unharmed, wounded, or an injury).

    The same steps as ``fall_rule``, each enumerated over its own dice and chained (enumerating
    the whole fall at once would walk millions of die sequences for a three-injury fall).
    """
    spec = _spec(who, height, jump, edition, toggles)
    out: dict[str, float] = {}
    falls = 1.0
    if jump:
        landed = enumerate_outcomes(lands_safely, spec).get(True, 0.0)
        out[LANDED] = landed
        falls = 1.0 - landed
    for wounds, p in enumerate_outcomes(wounds_from_fall, spec).items():
        rolls = injury_rolls(spec, wounds)
        if wounds == 0 or not rolls:
            key = "unharmed" if wounds == 0 else "wounded"
            out[key] = out.get(key, 0.0) + falls * p
            continue
        for injury, q in enumerate_outcomes(worst_injury, spec, rolls).items():
            out[injury.words] = out.get(injury.words, 0.0) + falls * p * q
    order = [LANDED, "unharmed", "wounded"] + [i.words for i in Injury]
    return {k: out[k] for k in order if out.get(k, 0.0) > 0.0}
