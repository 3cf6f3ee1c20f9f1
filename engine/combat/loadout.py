"""What a warrior fights with in close combat, chosen from what he carries as a player would.

A warrior has two hands (000:685). From his kit the engine picks, in this order:

1. a weapon that is cumbersome (fighting claws, a ball and chain): it alone, all battle long;
2. a pair (fighting claws, weeping blades): one in each hand, so +1 Attack as two weapons give
   (000:685), nothing else in his hands;
3. a two-handed weapon, alone (000:967, 1000, 1046): no shield, buckler or second weapon;
4. else a spear, alone with a shield or buckler if he has one (Unwieldy, 000:1019);
5. else a morning star, with a shield if he has one but no second weapon or buckler (000:985);
6. else his best one-handed weapon, and in the other hand an off-hand item if he has one (a
   spiked gauntlet, a great claw, a hook: the hand it fills takes no shield), or his shield or
   buckler (no extra attack beside it), or otherwise his next-best one-handed weapon for the +1
   Attack of 000:685. An off-hand item also bars two-handed weapons.

Besides the hands: a scorpion tail's attack, and an extra arm's one-handed weapon (``extras``).
A missile weapon that is also a close-combat weapon (the Amazons' sunstaff) fights as that.

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
Strength, none of the fist rules (000:903: "Creatures such as Zombies, animals, etc"); the
parts of their bodies that fight (a great claw, a scorpion tail) fight with them.

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
    second_index: int | None = None  # the same as main_index for a pair (fighting claws, weeping blades)
    extras: tuple[Weapon, ...] = ()  # one attack each besides the hands: a scorpion tail, an extra arm's weapon

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
    extras = [w for _, w in kit if w.has("extra-attack")]  # a scorpion tail: an attack of its own, no hand needed
    if extras:
        notes.append(f"{_names(extras)}: one attack more every round, besides his hands")
    kit = [(i, w) for i, w in kit if not w.has("extra-attack")]
    if f.has("animal") or f.has("no-weapons"):
        return _creature(f, kit, tuple(extras), notes)
    # a missile weapon that is also a close-combat weapon fights as that (the Amazons' sunstaff)
    kit = [(i, w.in_close_combat if w.in_close_combat is not None else w) for i, w in kit]

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

    cumbersome = [(i, w) for i, w in close if w.has("cumbersome")]
    if cumbersome:  # fighting claws, a ball and chain: no other weapon in the whole battle
        kept_i, kept = cumbersome[0]
        left = [w for i, w in close + pistols if i != kept_i] + crossbow_pistols
        if left:
            notes.append(f"no other weapon beside his {list_name(kept).lower()} in this battle: {_names(left)} left out")
        if kept.has("needs-mad-cap") and "mad-cap-mushrooms" not in f.equipment:
            notes.append(f"only a warrior under Mad Cap Mushrooms can wield a {list_name(kept).lower()}: he has none "
                         "(add them to his equipment); the fight takes him as given")
        close, pistols, crossbow_pistols = [(kept_i, kept)], [], []
    off_hand = [(i, w) for i, w in close if w.has("off-hand")]
    two_handed = [(i, w) for i, w in close if w.has("two-handed")]
    if off_hand and two_handed:
        notes.append(f"his {list_name(off_hand[0][1]).lower()} fills one hand: no two-handed weapon, {_names(w for _, w in two_handed)} left out")
        close = [(i, w) for i, w in close if not w.has("two-handed")]
        two_handed = []

    shield, buckler = f.shield, f.buckler
    xbow = crossbow_pistols[0] if crossbow_pistols else None
    pairs = [(i, w) for i, w in close if w.has("pair")]
    if pairs:  # one in each hand: +1 Attack as for two weapons (000:685), nothing else in his hands
        main_i, main = pairs[0]
        left = [w for i, w in close + pistols if i != main_i]
        notes.append(f"fights with his {list_name(main).lower()}, one in each hand: +1 Attack"
                     + (f"; {_names(left)} left out" if left else ""))
        if shield or buckler:
            notes.append(f"no {'shield' if shield else 'buckler'}: both hands hold his {list_name(main).lower()}")
        return Loadout(main=main, second=main, pistols=(), crossbow_pistol=xbow, shield=False, buckler=False, notes=tuple(notes),
                       main_index=main_i, second_index=main_i, extras=tuple(extras))
    spears = [(i, w) for i, w in close if w.has("unwieldy")]
    morning_stars = [(i, w) for i, w in close if w.has("difficult-to-use")]
    if two_handed:
        main_i, main = max(two_handed, key=lambda iw: iw[1].strength_value)  # the first listed among equals
        left = [w for i, w in close + pistols if i != main_i]
        notes.append(f"fights with the {list_name(main).lower()} in both hands ({cite(_TWO_HANDED_CITATION.get(main.base, 'two-handed'))})")
        if left:
            notes.append(f"no second weapon beside it: {_names(left)} left out")
        if shield or buckler:
            notes.append(f"no {'shield' if shield else 'buckler'} in close combat"
                         + (" (the shield still counts against shooting)" if shield else ""))
        return Loadout(main=main, second=None, pistols=(), crossbow_pistol=xbow, shield=False, buckler=False, notes=tuple(notes),
                       main_index=main_i, extras=tuple(extras))
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
                           notes=tuple(notes), main_index=main_i, extras=tuple(extras))

    # an off-hand item (a spiked gauntlet, a great claw, a hook) is never the main weapon while there is another
    ranked = sorted(close, key=lambda iw: (not iw[1].has("off-hand"), _rank(iw[1])), reverse=True)  # sorted() keeps the typed order among equals
    fired = tuple(w for _, w in pistols[:2])
    if not ranked:
        if fired:
            shots = "both pistols" if len(fired) == 2 else "his pistol"
            notes.append(f"fights with {shots} in the first turn, then bare-handed ({cite('pistol-cc')}, {cite('fist')})")
            return Loadout(main=fired[0], second=None, pistols=fired, crossbow_pistol=xbow, shield=shield, buckler=buckler,
                           notes=tuple(notes), main_index=pistols[0][0], extras=tuple(extras))
        if kit:
            notes.append(f"no close-combat weapon: fights bare-handed ({cite('fist')})")
        else:  # nothing given: say so, with what fists do (and why his Attacks come to one), and how to arm him
            one = ", one attack whatever his Attacks" if f.profile.A > 1 else ""
            notes.append(f"no weapon given: fights unarmed (fist: Strength -1, +1 to the enemy's armour save{one}; {cite('fist')}); "
                         + ("give him a weapon to use them all" if one else "give him a weapon to fight armed"))
        return Loadout(main=fist(), second=None, pistols=(), crossbow_pistol=xbow, shield=shield, buckler=buckler, notes=tuple(notes),
                       extras=tuple(extras))
    main_i, main = ranked[0]
    second_i, second = None, None
    rest = ranked[1:]
    off = next((iw for iw in rest if iw[1].has("off-hand")), None)
    if off is not None:  # it is that hand: no shield or buckler there
        second_i, second = off
        if shield or buckler:
            notes.append(f"no {'shield' if shield else 'buckler'}: his other hand is his {list_name(second).lower()}")
            shield = buckler = False
        rest = [iw for iw in rest if iw is not off]
        if rest:
            notes.append(f"two weapons at most, one in each hand: {_names(w for _, w in rest)} left out ({cite('two-weapons')})")
    elif rest:
        if shield or buckler:
            notes.append(f"{'shield' if shield else 'buckler'} in the other hand: no second weapon, "
                         f"{_names(w for _, w in rest)} left out ({cite('unwieldy')})")
        else:
            second_i, second = rest[0]
            rest = rest[1:]
            if rest:
                notes.append(f"two weapons at most, one in each hand: {_names(w for _, w in rest)} left out ({cite('two-weapons')})")
    if f.carries("extra-arm"):
        third = next((w for _, w in rest if not w.has("off-hand")), None)
        if third is not None:
            extras.append(third)
            notes.append(f"his extra arm wields the {list_name(third).lower()}: +1 Attack")
    if fired:
        extra = " (a brace gives no more beside a close-combat weapon)" if len(fired) > 1 else ""
        instead = f", instead of the {list_name(second).lower()}'s" if second is not None else ""
        notes.append(f"fires a pistol in the first turn for +1 Attack{instead}{extra} ({cite('pistol-cc')})")
        fired = fired[:1]
    return Loadout(main=main, second=second, pistols=fired, crossbow_pistol=xbow, shield=shield, buckler=buckler, notes=tuple(notes),
                   main_index=main_i, second_index=second_i, extras=tuple(extras))


def _creature(f: Fighter, kit: list[tuple[int, Weapon]], extras: tuple[Weapon, ...], notes: list[str]) -> Loadout:
    """An animal, or a creature that uses no weapons (000:903): teeth and claws, and the parts of
    his own body that fight (a Possessed's great claw, scorpion tail, extra arm)."""
    carried = [w for _, w in kit if not w.has("body-part")]
    claws = [(i, w) for i, w in kit if w.has("body-part") and w.has("off-hand")]
    if carried:
        notes.append(f"{'an animal' if f.has('animal') else 'he'} uses no weapons: {_names(carried)} left out")
    notes.append(f"fights with teeth and claws: all his Attacks at his own Strength, no fist rules ({cite('animals-ignore-fist')})")
    second_i, second = claws[0] if claws else (None, None)
    if f.carries("extra-arm"):
        extras += (natural_weapons(),)
        notes.append("his extra arm: +1 Attack, though he carries no weapon")
    return Loadout(main=natural_weapons(), second=second, pistols=(), crossbow_pistol=None, shield=False, buckler=False,
                   notes=tuple(notes), second_index=second_i, extras=extras)
