"""Shooting (000:435-627): one shooter's shots at one target, as a ``Volley`` of the same steps
as close combat (to hit by BS, to wound, criticals, saves, injuries)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.combat.citations import cite
from engine.combat.dice import Dice
from engine.combat.fighter import Fighter, check_can_fight
from engine.combat.items import Weapon, list_name
from engine.combat.melee import initial_state
from engine.combat.ruleset import Ruleset
from engine.combat.sides import shooting_target, shot_slot
from engine.combat.state import Blows
from engine.combat.tables import bs_to_hit
from engine.combat.volley import SHOOTING, Volley
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
    ed = r.edition
    name = list_name(weapon).lower()
    if weapon.kind != "missile":
        raise MordheimError(f"A {name} is a close-combat weapon and cannot shoot.", hint="Pick a missile weapon (bow, crossbow, pistol...) or use /fight.")
    if shooter.profile.BS == 0:
        raise MordheimError(f"{shooter.name} has BS0 and cannot shoot ({cite('bs0')}).", hint="Give BS1 or more.")
    rng = sit.range_inches
    if rng is not None and (rng < 0 or rng > 100):
        raise MordheimError(f"A range of {rng}\" is not on a Mordheim table.", hint="Give a range from 0 to 100 inches.")
    if weapon.has("shot"):
        if sit.twice:
            raise MordheimError(f"A blunderbuss fires once per battle ({cite('blunderbuss-once')}).", hint="Untick twice.")
        if rng is not None and rng > 16:
            raise MordheimError(f"The blunderbuss's line is 16\" long ({cite('blunderbuss')}); the target at {rng:g}\" is beyond it.",
                                hint="Move closer.")
        return 0, 1, [f"every model in the 16\" × 1\" line is hit automatically at Strength 3 ({cite('blunderbuss')}); "
                      f"it fires once per battle ({cite('blunderbuss-once')})"]
    needed = bs_to_hit(shooter.profile.BS)
    reasons = [f"BS{shooter.profile.BS} needs {needed}+ ({cite('bs-chart', ed)})"]
    moved = sit.moved or (sit.stood_up and r.stood_up_counts_as_moving)
    thrown = weapon.has("thrown-weapon")
    max_range = weapon.range if isinstance(weapon.range, int) else None
    if rng is not None and max_range is not None and rng > max_range:
        raise MordheimError(f"The target at {rng:g}\" is out of range: a {name} reaches {max_range}\", so the shot misses "
                            f"automatically ({cite('out-of-range', ed)}).", hint="Move closer or pick a longer-ranged weapon.")
    if weapon.has("move-or-fire") and sit.moved:
        raise MordheimError(f"A {name} cannot be moved and fired in the same turn ({cite('move-or-fire')}).",
                            hint="Only pivoting or standing up is allowed; untick moved.")
    shots = 1
    if sit.twice:
        if weapon.has("fire-twice"):
            shots = 2
            needed += 1
            reasons.append(f"-1 firing twice ({cite('repeater-twice')})")
        elif weapon.has("fire-twice-at-half-range"):
            if sit.moved:
                raise MordheimError(f"A sling fires twice only if the slinger did not move ({cite('sling-twice')}).", hint="Untick moved or fire once.")
            if rng is not None and rng > 9:
                raise MordheimError(f"A sling firing twice cannot shoot over half range, 9\" ({cite('sling-twice')}).",
                                    hint="Fire once, or shoot a target within 9\".")
            shots = 2
            needed += 1
            reasons.append(f"-1 each for firing twice ({cite('sling-twice')})")
        else:
            raise MordheimError(f"A {name} cannot fire twice.", hint=f"Only slings and repeater crossbows can ({cite('sling-twice')}, {cite('repeater-twice')}).")
    if sit.cover:
        needed += 1
        reasons.append(f"-1 cover ({cite('cover', ed)})")
    steady = weapon.has("no-long-range-penalty") or weapon.has("no-range-penalty")
    if rng is not None and max_range is not None and rng > max_range / 2 and not thrown:
        if steady:
            reasons.append(f"no long-range penalty for a {name}")
        else:
            needed += 1
            reasons.append(f"-1 long range ({cite('long-range', ed)})")
    if moved and not thrown:
        needed += 1
        reasons.append(f"-1 moved ({cite('moving', ed)})" + (f" (stood up, {cite('stood-up-moving', 'core2')})" if sit.stood_up and not sit.moved else ""))
    if thrown and (moved or (rng is not None and max_range is not None and rng > max_range / 2)):
        reasons.append(f"no range or moving penalty for a throwing weapon ({cite('thrown-no-penalties')})")
    if sit.large_target or target.large_target:
        needed -= 1
        reasons.append(f"+1 large target ({cite('large-target', ed)})")
    for penalty, why in hard_to_see(target):
        needed += penalty
        reasons.append(why)
    if weapon.has("accuracy"):
        needed -= 1
        accuracy = f"duelling pistol accuracy ({cite('duelling-pistol-accuracy')})" if weapon.base == "duelling-pistol" else list_name(weapon).lower()
        reasons.append(f"+1 {accuracy}")
    if weapon.base in BOWS and shooter.carries("bows-hit+1"):
        needed -= 1
        reasons.append("+1 " + ", ".join(item.name.lower() for item in shooter.carried_with("bows-hit+1")))
    return needed, shots, reasons


def hard_to_see(target: Fighter) -> list[tuple[int, str]]:
    """-1 to hit with missiles for each item he wears that makes him hard to see: an Elven cloak
    (000:1411), an Amulet of the Moon, a censer's fog-enhancing shards."""
    out = []
    for item in target.carried_with("shoot-at-1"):
        where = f" ({cite('elven-cloak')})" if item.base == "elven-cloak" else ""
        out.append((1, f"-1 {item.name}{where}"))
    return out


class ShotRules:
    """One shooter's shots at one target as a volley: Roll mode and Odds mode."""

    def __init__(self, r: Ruleset, shooter: Fighter, target: Fighter, weapon: Weapon, sit: Situation) -> None:
        check_can_fight(target)
        self.r = r
        self.needed, self.shots, self.reasons = shot_plan(r, shooter, target, weapon, sit)
        self.target = target
        target_numbers = shooting_target(r, target)
        hunting = (sit.hunting_arrows or "hunting-arrows" in shooter.equipment) and weapon.base in BOWS
        automatic = f"hit by the blunderbuss's shot ({cite('blunderbuss')})" if weapon.has("shot") else None
        slot = shot_slot(r, shooter, weapon, self.shots, self.needed, target_numbers)
        self.volley = Volley(r, (slot,), target_numbers, names=(shooter.name, target.name), kind=SHOOTING,
                             target_status=initial_state(target).status, shot_reasons=tuple(self.reasons),
                             injury_bonus=1 if hunting else 0, automatic=automatic)
        if hunting:
            self.reasons.append(f"hunting arrows +1 on injury rolls ({cite('hunting-arrows')})")

    def start(self) -> Blows:
        m = initial_state(self.target)
        return Blows(m.wounds, m.status, lucky_charm=m.lucky_charm)

    def roll(self, dice: Dice) -> Blows:
        return self.volley.roll(dice, self.start())

    def odds(self) -> list[tuple[Blows, float]]:
        return self.volley.odds(self.start())
