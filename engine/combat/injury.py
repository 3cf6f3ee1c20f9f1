"""Injury rolls (000:611-627), usable alone by the `/injury` dice command.

``roll_injury`` rolls one injury and explains every die; ``injury_distribution`` gives the
exact odds of each result from the same rule code (``injury_rule``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import IntEnum

from engine.combat.citations import cite
from engine.combat.dice import Dice, RollDice, enumerate_outcomes
from engine.errors import LimitExceeded


class Injury(IntEnum):
    KNOCKED_DOWN = 1
    STUNNED = 2
    OUT_OF_ACTION = 3

    @property
    def words(self) -> str:
        return {1: "knocked down", 2: "stunned", 3: "out of action"}[self.value]


@dataclass(frozen=True)
class InjuryOptions:
    concussion: bool = False  # hammer/mace/club 000:930
    helmet: bool = False  # helmet 000:1321
    mandrake_root: bool = False  # 000:1389
    bonus: int = 0  # hunting arrows +1 (000:1417), master strike +2 (000:574)
    ignore_helmet: bool = False  # 002:680 'Clubbed' ignores helmet saves
    concussion_on_natural_roll: bool = False  # toggle, INVENTORY §5.8
    hard_to_kill: bool = False  # Dwarfs' Hard to Kill: 3-5 stunned, only 6 out of action


def injury_rule(dice: Dice, o: InjuryOptions) -> Injury:
    """One injury roll; the order of modifiers is INVENTORY §5.8's decision."""
    natural = dice.d6()
    total = natural + o.bonus
    # 000:615-627 1-2 knocked down, 3-4 stunned, 5-6 out of action (modified roll; 7+ stays out);
    # Hard to Kill: out of action only on a 6
    if total >= (6 if o.hard_to_kill else 5):
        result = Injury.OUT_OF_ACTION
    elif total >= 3:
        result = Injury.STUNNED
    else:
        result = Injury.KNOCKED_DOWN
    if dice.logging:
        extra = f" +{o.bonus} = {total}" if o.bonus else ""
        dice.say(f"Injury: rolled {natural}{extra} → {result.words}")
    # Decision (§5.8): concussion reads the same modified roll the table uses ("a roll of 2-4",
    # 000:930); the toggle concussion_on_natural_roll reads the natural die instead.
    if o.concussion:
        looked = natural if o.concussion_on_natural_roll else total
        if 2 <= looked <= 4 and result != Injury.STUNNED:
            result = Injury.STUNNED
            if dice.logging:
                dice.say(f"Concussion: {looked} counts as stunned ({cite('concussion')})")
    if result == Injury.STUNNED:
        # Decision (§5.8): Mandrake Root (000:1389) turns stunned into knocked down with no roll,
        # so it is applied before the helmet and makes the helmet roll unnecessary.
        if o.mandrake_root:
            result = Injury.KNOCKED_DOWN
            if dice.logging:
                dice.say(f"Mandrake Root or no pain: stunned becomes knocked down ({cite('mandrake-root')})")
        elif o.helmet and not o.ignore_helmet:
            if helmet_saves(dice):
                result = Injury.KNOCKED_DOWN
        elif o.helmet and dice.logging:
            dice.say(f"Helmet save not allowed: a Clubbed hit ({cite('crit-clubbed', 'core')})")
    return result


def helmet_saves(dice: Dice, against: str = "the stunned result") -> bool:
    """000:1321: an unmodified 4+ turns a stunned result into knocked down."""
    save = dice.d6()
    if dice.logging:
        dice.say(f"Helmet 4+ against {against}: rolled {save} → " + (f"knocked down instead ({cite('helmet')})" if save >= 4 else "failed"))
    return save >= 4


def worst_injury(dice: Dice, options: InjuryOptions, rolls: int, *, helmet_on_result: bool) -> Injury:
    """000:615 one injury roll per wound (the one taking him to 0 and every one after); the highest
    stands. ``helmet_on_result``: the helmet is rolled once, on that result (the default decision,
    ruleset toggle helmet_save_each_roll), not on each roll."""
    if helmet_on_result:
        options = replace(options, helmet=False)
    worst = max(injury_rule(dice, options) for _ in range(rolls))
    if dice.logging and rolls > 1:
        dice.say(f"The highest result stands: {worst.words} ({cite('injury-roll')}).")
    if helmet_on_result and worst == Injury.STUNNED and not options.mandrake_root and helmet_saves(dice):
        worst = Injury.KNOCKED_DOWN
    return worst


@dataclass
class InjuryResult:
    outcome: Injury
    dice: list[int]
    steps: list[str] = field(default_factory=list)
    edition: str = "lrb"

    @property
    def text(self) -> str:
        return f"The warrior is **{self.outcome.words}**."


def _options(concussion, helmet, mandrake_root, bonus, ruleset) -> InjuryOptions:
    if not isinstance(bonus, int) or not 0 <= bonus <= 6:
        raise LimitExceeded(f"An injury bonus of {bonus!r} is not allowed.", hint="Use a bonus from 0 to 6 (+1 hunting arrows, +2 master strike).")
    natural = ruleset.toggle("concussion_on_natural_roll") if ruleset is not None else False
    return InjuryOptions(bool(concussion), bool(helmet), bool(mandrake_root), bonus, False, natural)


def roll_injury(rng: random.Random, *, concussion: bool = False, helmet: bool = False, mandrake_root: bool = False,
                bonus: int = 0, edition: str | None = None, toggles: dict | None = None) -> InjuryResult:
    """Roll one injury with every die and step explained (000:611-627; same in 002 and 004)."""
    from engine.combat.ruleset import get_ruleset

    ruleset = get_ruleset(edition, toggles)
    dice = RollDice(rng)
    outcome = injury_rule(dice, _options(concussion, helmet, mandrake_root, bonus, ruleset))
    return InjuryResult(outcome, dice.rolled, dice.lines, ruleset.edition)


def injury_distribution(*, concussion: bool = False, helmet: bool = False, mandrake_root: bool = False,
                        bonus: int = 0, edition: str | None = None, toggles: dict | None = None) -> dict[Injury, float]:
    """Exact probability of each injury result, from the same code as ``roll_injury``."""
    from engine.combat.ruleset import get_ruleset

    ruleset = get_ruleset(edition, toggles)
    dist = enumerate_outcomes(injury_rule, _options(concussion, helmet, mandrake_root, bonus, ruleset))
    return {inj: dist.get(inj, 0.0) for inj in Injury}
