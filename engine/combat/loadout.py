"""What a warrior fights with in close combat, chosen from what he carries as a player would.

A warrior has two hands (000:685). From his kit the engine picks, in this order:

1. a two-handed weapon, alone (000:967, 1000, 1046): no shield, buckler or second weapon;
2. else a spear, alone with a shield or buckler if he has one (Unwieldy, 000:1019);
3. else a morning star, with a shield if he has one but no second weapon or buckler (000:985);
4. else his best one-handed weapon, and in the other hand his shield or buckler if he carries
   one (a shield or buckler fills that hand: no extra attack beside it), otherwise his next-best
   one-handed weapon for the +1 Attack of 000:685.

Pistols (000:1177) are fired in the first turn of the combat only, since they fire once per
combat: beside a close-combat weapon a pistol gives +1 Attack (a brace gives no more than one
pistol would); a warrior with no close-combat weapon fights with his pistols, one attack each,
so a brace gives the "2 Attacks in the first turn". After that turn the pistols are empty and he
fights with his close-combat weapons, or bare-handed (000:903).

"Best" one-handed weapon: the higher Strength bonus, then the better save modifier, then a
sword's parry, then a hammer's concussion, a dagger last; the order typed breaks ties. A player
who wants another choice lists only the weapons he means to use.

Animals (trait ``animal``) and creatures that use no weapons (trait ``no-weapons``: Zombies,
Ghouls, the Possessed, Trolls) fight with teeth and claws: all their Attacks at their own
Strength, none of the fist rules (000:903: "Creatures such as Zombies, animals, etc").

Nothing here rolls a die: the choice is a pure function of the kit, remembered per kit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.combat.citations import cite
from engine.combat.fighter import Fighter
from engine.combat.items import Weapon, list_name, weapons as all_weapons
from engine.errors import MordheimError


@dataclass(frozen=True)
class Loadout:
    """What a warrior fights with, and the notes that say which and why."""

    main: Weapon  # his Attacks (a pistol only when he has no close-combat weapon)
    second: Weapon | None  # the other hand's +1 Attack (000:685); None if that hand is empty or holds a shield/buckler
    pistols: tuple[Weapon, ...]  # fired in the first turn (000:1177)
    crossbow_pistol: Weapon | None  # one shot in the first round, before blows (000:1155)
    shield: bool  # a shield in use in close combat (+1 save)
    buckler: bool  # a buckler in use (parry)
    notes: tuple[str, ...]
    main_index: int | None = None  # where main and second are in Fighter.weapons (None: fist, teeth and claws)
    second_index: int | None = None

    @property
    def fights_with_pistols_only(self) -> bool:
        return self.main.has("hand-to-hand")


# Each two-handed weapon's own line says it (000:967 flail, 1000 halberd, 1046 double-handed).
_TWO_HANDED_CITATION = {
    "halberd": "two-handed-halberd",
    "double-handed-weapon": "two-handed-double",
    "double-handed-hammer": "two-handed-double",
}


def fist() -> Weapon:
    return all_weapons()["fist"]


def natural_weapons() -> Weapon:
    return all_weapons()["natural-weapons"]


def _rank(w: Weapon) -> tuple:
    # the higher the better: Strength bonus, save modifier, parry, concussion, not a dagger
    return (w.strength_value, -w.save_modifier, w.has("parry"), w.has("concussion"), not w.has("enemy-armour-save-bonus"))


def _names(ws) -> str:
    return ", ".join(list_name(w).lower() for w in ws)


def choose_loadout(f: Fighter, lost: tuple[int, ...] = ()) -> Loadout:
    """The weapons ``f`` fights with; ``lost`` are indexes into ``f.weapons`` knocked away
    (Wild Sweep, 002:682 / 004:410). MordheimError only for a kit no reading allows to use."""
    return _choose(f, tuple(sorted(lost)))


@lru_cache(maxsize=1024)
def _choose(f: Fighter, lost: tuple[int, ...]) -> Loadout:
    kit = [(i, w) for i, w in enumerate(f.weapons) if i not in lost]  # (index in f.weapons, weapon)
    notes: list[str] = []
    if f.has("animal") or f.has("no-weapons"):
        what = "an animal" if f.has("animal") else "he"
        if kit:
            notes.append(f"{what} uses no weapons: {_names(w for _, w in kit)} left out")
        notes.append(f"fights with teeth and claws: all his Attacks at his own Strength, no fist rules ({cite('animals-ignore-fist')})")
        return Loadout(main=natural_weapons(), second=None, pistols=(), crossbow_pistol=None, shield=False, buckler=False,
                       notes=tuple(notes))

    crossbow_pistols = [w for _, w in kit if w.has("shoot-in-close-combat")]
    pistols = [(i, w) for i, w in kit if w.has("hand-to-hand")]
    close = [(i, w) for i, w in kit if w.kind == "close"]
    unusable = [w for _, w in kit if w.kind == "missile" and not (w.has("hand-to-hand") or w.has("shoot-in-close-combat"))]
    if unusable:
        if not (close or pistols or crossbow_pistols):
            thrown = " Throwing stars and knives cannot be used in close combat (" + cite("thrown-weapon-not-cc") + ")." \
                if any(w.has("thrown-weapon") for w in unusable) else ""
            raise MordheimError(
                f"{f.name} cannot fight in close combat with a {list_name(unusable[0]).lower()}: it is a missile weapon.{thrown}",
                hint="Give a close-combat weapon (sword, dagger, axe...) for the fight, or use /shoot. Pistols and crossbow "
                     f"pistols are the missile weapons with close-combat rules ({cite('crossbow-pistol-cc')}, {cite('pistol-cc')}).",
            )
        notes.append(f"not used in close combat: {_names(unusable)}")
    lances = [(i, w) for i, w in close if w.has("cavalry-weapon")]
    if lances and f.mounted != "warhorse":
        if len(close) == len(lances) and not pistols:
            raise MordheimError(f"{f.name} needs a warhorse to use a lance ({cite('lance-warhorse')}).",
                                hint="Add `warhorse` to the equipment or pick another weapon.")
        notes.append(f"lance left out: it needs a warhorse ({cite('lance-warhorse')})")
        close = [(i, w) for i, w in close if not w.has("cavalry-weapon")]

    shield, buckler = f.shield, f.buckler
    xbow = crossbow_pistols[0] if crossbow_pistols else None
    two_handed = [(i, w) for i, w in close if w.has("two-handed")]
    spears = [(i, w) for i, w in close if w.has("unwieldy")]
    morning_stars = [(i, w) for i, w in close if w.has("difficult-to-use")]
    if two_handed:
        main_i, main = max(two_handed, key=lambda iw: iw[1].strength_value)  # the first listed among equals
        left = [w for i, w in close + pistols if i != main_i]
        notes.append(f"fights with the {list_name(main).lower()} in both hands ({cite(_TWO_HANDED_CITATION.get(main.id, 'two-handed'))})")
        if left:
            notes.append(f"no second weapon beside it: {_names(left)} left out")
        if shield or buckler:
            notes.append(f"no {'shield' if shield else 'buckler'} in close combat"
                         + (" (the shield still counts against shooting)" if shield else ""))
        return Loadout(main=main, second=None, pistols=(), crossbow_pistol=xbow, shield=False, buckler=False, notes=tuple(notes),
                       main_index=main_i)
    for special, why in ((spears, "unwieldy"), (morning_stars, "difficult-to-use")):
        if special:
            main_i, main = special[0]
            left = [w for i, w in close + pistols if i != main_i]
            if left:
                notes.append(f"fights with the {list_name(main).lower()} alone: {_names(left)} left out ({cite(why)})")
            if buckler and why == "difficult-to-use":
                notes.append(f"no buckler beside a morning star ({cite(why)})")
                buckler = False
            return Loadout(main=main, second=None, pistols=(), crossbow_pistol=xbow, shield=shield, buckler=buckler,
                           notes=tuple(notes), main_index=main_i)

    ranked = sorted(close, key=lambda iw: _rank(iw[1]), reverse=True)  # sorted() keeps the typed order among equals
    fired = tuple(w for _, w in pistols[:2])
    if not ranked:
        if fired:
            shots = "both pistols" if len(fired) == 2 else "his pistol"
            notes.append(f"fights with {shots} in the first turn, then bare-handed ({cite('pistol-cc')}, {cite('fist')})")
            return Loadout(main=fired[0], second=None, pistols=fired, crossbow_pistol=xbow, shield=shield, buckler=buckler,
                           notes=tuple(notes), main_index=pistols[0][0])
        if kit:
            notes.append(f"no close-combat weapon: fights bare-handed ({cite('fist')})")
        return Loadout(main=fist(), second=None, pistols=(), crossbow_pistol=xbow, shield=shield, buckler=buckler, notes=tuple(notes))
    main_i, main = ranked[0]
    second_i, second = None, None
    if len(ranked) > 1:
        if shield or buckler:
            notes.append(f"{'shield' if shield else 'buckler'} in the other hand: no second weapon, "
                         f"{_names(w for _, w in ranked[1:])} left out ({cite('unwieldy')})")
        else:
            second_i, second = ranked[1]
            if len(ranked) > 2:
                notes.append(f"two weapons at most, one in each hand: {_names(w for _, w in ranked[2:])} left out ({cite('two-weapons')})")
    if fired:
        extra = " (a brace gives no more beside a close-combat weapon)" if len(fired) > 1 else ""
        instead = f", instead of the {list_name(second).lower()}'s" if second is not None else ""
        notes.append(f"fires a pistol in the first turn for +1 Attack{instead}{extra} ({cite('pistol-cc')})")
        fired = fired[:1]
    return Loadout(main=main, second=second, pistols=fired, crossbow_pistol=xbow, shield=shield, buckler=buckler, notes=tuple(notes),
                   main_index=main_i, second_index=second_i)
