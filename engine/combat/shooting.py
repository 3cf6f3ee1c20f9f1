"""Shooting (000:435-627): one shooter's shots at one target, as a volley of the same steps."""

from __future__ import annotations

from dataclasses import dataclass

from engine.combat.fighter import Fighter, check_defender
from engine.combat.items import Weapon
from engine.combat.melee import AttackSpec, RoundRules, Side, step_caches
from engine.combat.ruleset import Ruleset
from engine.combat.tables import bs_to_hit
from engine.errors import MordheimError

BOWS = {"short-bow", "bow", "long-bow", "elf-bow"}  # 000:1417 hunting arrows


@dataclass(frozen=True)
class Situation:
    range_inches: float | None = None
    cover: bool = False
    moved: bool = False
    stood_up: bool = False
    large_target: bool = False
    twice: bool = False  # sling / repeater crossbow fire twice
    hunting_arrows: bool = False


def shot_plan(r: Ruleset, shooter: Fighter, target: Fighter, weapon: Weapon, sit: Situation) -> tuple[int, int, list[str]]:
    """(to-hit needed, number of shots, reasons) after checking range and move-or-fire."""
    if weapon.kind != "missile":
        raise MordheimError(f"A {weapon.name.lower()} is a close-combat weapon and cannot shoot.", hint="Pick a missile weapon (bow, crossbow, pistol...) or use /fight.")
    if weapon.has("shot"):
        raise MordheimError("The blunderbuss hits every model in a 16\" x 1\" line automatically (000:1221); there is nothing to roll to hit.", hint="Roll to wound S3 against each model in the line.")
    if shooter.profile.BS == 0:
        raise MordheimError(f"{shooter.name} has BS0 and cannot shoot (000:232).", hint="Give BS1 or more.")
    reasons = [f"BS{shooter.profile.BS} needs {bs_to_hit(shooter.profile.BS)}+ (000:518-519)"]
    needed = bs_to_hit(shooter.profile.BS)
    moved = sit.moved or (sit.stood_up and r.stood_up_counts_as_moving)
    thrown = weapon.has("thrown-weapon")
    rng = sit.range_inches
    max_range = weapon.range if isinstance(weapon.range, int) else None
    if rng is not None and (rng < 0 or rng > 100):
        raise MordheimError(f"A range of {rng}\" is not on a Mordheim table.", hint="Give a range from 0 to 100 inches.")
    if rng is not None and max_range is not None and rng > max_range:
        raise MordheimError(f"The target at {rng}\" is out of range: a {weapon.name.lower()} reaches {max_range}\", so the shot misses automatically (000:505).", hint="Move closer or pick a longer-ranged weapon.")
    if weapon.has("move-or-fire") and sit.moved:
        raise MordheimError(f"A {weapon.name.lower()} cannot be moved and fired in the same turn (000:1108).", hint="Only pivoting or standing up is allowed; untick moved.")
    shots = 1
    if sit.twice:
        if weapon.has("fire-twice"):
            shots = 2
            needed += 1
            reasons.append("-1 firing twice (000:1145)")
        elif weapon.has("fire-twice-at-half-range"):
            if sit.moved:
                raise MordheimError("A sling fires twice only if the slinger did not move (000:1120).", hint="Untick moved or fire once.")
            if rng is not None and rng > 9:
                raise MordheimError("A sling firing twice cannot shoot over half range, 9\" (000:1120).", hint="Fire once, or shoot a target within 9\".")
            shots = 2
            needed += 1
            reasons.append("-1 each for firing twice (000:1120)")
        else:
            raise MordheimError(f"A {weapon.name.lower()} cannot fire twice.", hint="Only slings and repeater crossbows can (000:1120, 000:1145).")
    if sit.cover:
        needed += 1
        reasons.append("-1 cover (000:541)")
    if rng is not None and max_range is not None and rng > max_range / 2 and not thrown:
        needed += 1
        reasons.append("-1 long range (000:543)")
    if moved and not thrown:
        needed += 1
        reasons.append("-1 moved (000:545)" + (" (stood up, 004:499)" if sit.stood_up and not sit.moved else ""))
    if sit.large_target or target.large_target:
        needed -= 1
        reasons.append("+1 large target (000:546)")
    if "elven-cloak" in target.equipment:
        needed += 1
        reasons.append("-1 Elven cloak (000:1411)")
    if weapon.has("accuracy"):
        needed -= 1
        reasons.append("+1 duelling pistol accuracy (000:1199)")
    return needed, shots, reasons


class ShotRules(RoundRules):
    """One shooter's shots as a volley: to hit by BS, then the same wound/save/injury steps."""

    shooting = True

    def __init__(self, r: Ruleset, shooter: Fighter, target: Fighter, weapon: Weapon, sit: Situation):
        check_defender(target)
        needed, shots, reasons = shot_plan(r, shooter, target, weapon, sit)
        self.r = r
        self.reasons = reasons
        self.needed = needed
        self.first_round = False
        self.charger = None
        self.names = (shooter.name, target.name)
        s = weapon.strength(shooter.strength)
        if weapon.blackpowder and "superior-blackpowder" in shooter.equipment:
            s += 1  # 000:1514
        if "dark-venom" in shooter.equipment and not weapon.blackpowder:
            s += 1  # 000:1367
        spec = AttackSpec(weapon.name, shots, s, r.save_modifier(s, weapon.save_modifier, weapon.blackpowder), False,
                          weapon.critical, False, "black-lotus" in shooter.equipment and not weapon.blackpowder, 0, needed, False, weapon.id)
        self._injury_options: dict = {}
        self._hit_plans: dict = {}
        self.injury_bonus = 1 if (sit.hunting_arrows or "hunting-arrows" in shooter.equipment) and weapon.id in BOWS else 0
        empty = ()
        shooter_side = Side(shooter, 0, 0, 2, (), (spec,), False, False, True, False, 1, 0, None, False, False, shooter.toughness, shooter.strength)
        target_side = Side(target, 0, 0, 2, (), empty, False, False, True, False, 1, 0, target.armour_save(shooting=True),
                           target.helmet, "mandrake-root" in target.equipment, target.toughness, target.strength)
        self.sides = (shooter_side, target_side)
        steps = self.volley_steps(("shot", 0), shots)
        self.segments = [("plain", steps, step_caches(steps), {})]
        self.steps = steps
