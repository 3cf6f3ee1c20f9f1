"""Sold to the pits: the hero in his kit against a pit fighter, fought to the end with the combat engine.

Serious injury 65 (rules_data/campaign/lrb.json ``sold-to-the-pits``): "fight the pit fighter";
who charges is rolled (a D6: 4+ the hero, else the pit fighter), and the fight goes on round
after round until one of them is out of action. Each round is ``engine.combat.resolve_round``
with the fighters as the round before left them: the side whose turn it is recovers first
(stunned -> knocked down, knocked down -> standing: 000:633-641), the charge only in the first
round, then the turns alternate. The pit fighter is the Hired Swords chapter's (the catalogue's
``pit-fighter``: profile and kit). The hero fights with what the rules library knows of his kit
(close-combat weapons, armour, equipment), his skills the engine plays and his type's list rules;
the rest is named as left out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.campaign.lists.catalogue import HiredSword
from engine.combat import Fighter, make_fighter, resolve_round
from engine.combat.fighter import trait_id
from engine.combat.items import Armour, Weapon, find_item
from engine.combat.special_rules import LIST_RULES
from engine.dice.source import Dice
from engine.errors import MordheimError, NotFoundError
from engine.profile import Profile

MAX_ROUNDS = 30  # a fight still going after this many rounds is left to the players
PIT_FIGHTER_NAME = "the pit fighter"


@dataclass(frozen=True)
class Combatant:
    """One side of the pit fight, as the campaign knows him."""

    name: str
    profile: Profile
    kit: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    special_rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class PitFight:
    won: bool | None  # the hero won; None: still standing after MAX_ROUNDS
    rounds: int
    lines: tuple[str, ...]  # round by round, in the game's words
    dice: tuple[str, ...]  # who charges, then each round's dice
    left_out: tuple[str, ...] = field(default=())  # kit and skills the fight could not use


def _fighter(c: Combatant, state: str, wounds: int, left_out: list[str]) -> Fighter:
    weapons: list[str] = []
    armour: list[str] = []
    equipment: list[str] = []
    for name in c.kit:
        try:
            item = find_item(name)
        except NotFoundError:
            left_out.append(f"{c.name}'s {name}")
            continue
        if isinstance(item, Weapon):
            if item.kind == "close" or item.has("hand-to-hand") or item.has("shoot-in-close-combat"):
                weapons.append(item.id)
        elif isinstance(item, Armour):
            armour.append(item.id)
        else:
            equipment.append(item.id)
    traits: list[str] = [LIST_RULES[r] for r in c.special_rules if r in LIST_RULES]
    for skill in c.skills:
        try:
            traits.append(trait_id(skill))
        except NotFoundError:
            left_out.append(f"{c.name}'s {skill}")
    p = c.profile
    profile = f"{p.M} {p.WS} {p.BS} {p.S} {p.T} {p.W} {p.I} {p.A} {p.Ld}"
    return make_fighter(c.name, profile, weapons=weapons, armour=armour, equipment=equipment, traits=sorted(set(traits)),
                        state=state, wounds=wounds)


def _recover(state: str) -> str:
    """At the start of his own turn (000:633-641)."""
    return {"stunned": "knocked down", "knocked down": "standing"}.get(state, state)


def fight(hero: Combatant, pit_fighter: Combatant, dice: Dice, rng: random.Random | None, *, edition: str | None = None,
          toggles: dict[str, bool] | None = None) -> PitFight:
    """The pit fight to the end: who charges from ``dice`` (shown, or typed), the rounds from ``rng``."""
    if hero.name.casefold() == PIT_FIGHTER_NAME:
        hero = Combatant(f"{hero.name} (the hero)", hero.profile, hero.kit, hero.skills, hero.special_rules)
    rng = rng or random.Random()
    face = dice.d6(f"Pit fight: who charges (4+ {hero.name})")
    sides = [hero, pit_fighter]
    turn = 0 if face >= 4 else 1  # whose turn it is: he strikes as the attacker of the round
    status = ["standing", "standing"]  # each side's, as the round before left him
    wounds = [hero.profile.W, pit_fighter.profile.W]
    left_out: list[str] = []
    lines = [f"{sides[turn].name} charges."]
    shown = [str(r) for r in dice.rolls]
    for rnd in range(1, MAX_ROUNDS + 1):
        if rnd > 1:
            status[turn] = _recover(status[turn])
        other = 1 - turn
        mine = _fighter(sides[turn], status[turn], wounds[turn], left_out if rnd == 1 else [])
        theirs = _fighter(sides[other], status[other], wounds[other], left_out if rnd == 1 else [])
        result = resolve_round([mine], [theirs], rng, edition=edition, toggles=toggles, charged=rnd == 1, first_round=rnd == 1)
        shown.append(f"Pit fight, round {rnd} ({sides[turn].name}'s turn): " + _rolled(result.dice, sides, status, result.outcomes))
        words = []
        for side in (0, 1):
            name = sides[side].name
            outcome = result.outcomes[name]
            wounds[side] = max(0, wounds[side] - result.wounds_lost.get(name, 0))
            if outcome in ("knocked down", "stunned", "out of action"):
                status[side] = outcome
            elif outcome == "fled":  # he ran from the pit: he lost
                status[side] = "out of action"
            words.append(f"{name} {outcome}")
        lines.append(f"Round {rnd}: " + ", ".join(words))
        down = [side for side in (0, 1) if status[side] == "out of action"]
        if down:
            won = 1 in down and 0 not in down
            return PitFight(won=won, rounds=rnd, lines=tuple(lines), dice=tuple(shown), left_out=tuple(dict.fromkeys(left_out)))
        turn = other
    return PitFight(won=None, rounds=MAX_ROUNDS, lines=tuple(lines), dice=tuple(shown), left_out=tuple(dict.fromkeys(left_out)))


def _rolled(dice: Iterable[object], sides: list[Combatant], before: list[str], outcomes: dict[str, str]) -> str:
    """A round's dice as shown; a round that rolls none says why: a stunned warrior an enemy can
    strike is out of action without a roll (seed 000:783), else neither could strike."""
    shown = " ".join(map(str, dice))
    if shown:
        return shown
    taken = [sides[side].name for side in (0, 1) if before[side] == "stunned" and outcomes[sides[side].name] == "out of action"]
    if taken:
        return f"no dice: {taken[0]} was stunned, so he is out of action without a roll"
    return "no dice: neither could strike"


def pit_fighter(hired_swords: Iterable[HiredSword]) -> Combatant:
    """The Hired Swords chapter's pit fighter from the server's catalogue of hired swords."""
    for hs in hired_swords:
        if hs.id == "pit-fighter":
            return Combatant(PIT_FIGHTER_NAME, hs.profile, tuple(i.name for i in hs.equipment), (),
                             tuple(r.id for r in hs.special_rules))
    raise MordheimError("This server's hired swords have no Pit Fighter to fight.",
                        hint="Fight it at the table (or with /fight) and say who won.")
