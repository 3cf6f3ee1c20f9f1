"""A Fighter (profile + weapons + armour + equipment + state) and loadout validation."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.combat.items import Armour, Weapon, find_item, weapons as all_weapons
from engine.combat.profile import Profile, parse_profile
from engine.errors import LimitExceeded, MordheimError

MAX_ATTACKS = 12  # per fighter per round; keeps exact odds fast and catches typos like A50
STATES = ("standing", "knocked down", "stunned")


@dataclass(frozen=True)
class Fighter:
    name: str
    profile: Profile
    weapons: tuple[Weapon, ...] = ()
    body_armour: Armour | None = None
    shield: bool = False
    buckler: bool = False
    helmet: bool = False
    equipment: frozenset[str] = frozenset()
    gromril_weapon: bool = False
    ithilmar_weapon: bool = False
    frenzy: bool = False
    hates: bool = False
    causes_fear: bool = False
    immune_to_fear: bool = False
    mounted: str | None = None  # "warhorse" / "horse"
    large_target: bool = False
    state: str = "standing"
    wounds: int | None = None  # wounds left; None = the profile's W

    # --- derived characteristics -------------------------------------------------------
    @property
    def strength(self) -> int:
        return self.profile.S + (1 if "crimson-shade" in self.equipment else 0)  # 000:1381

    @property
    def toughness(self) -> int:
        return self.profile.T + (1 if "mandrake-root" in self.equipment else 0)  # 000:1389

    @property
    def wounds_left(self) -> int:
        return self.profile.W if self.wounds is None else self.wounds

    @property
    def is_frenzied(self) -> bool:
        return self.frenzy or "mad-cap-mushrooms" in self.equipment  # 000:1373

    @property
    def fear_immune(self) -> bool:
        return self.immune_to_fear or self.causes_fear or "bugmans-ale" in self.equipment  # 000:1431, 000:851

    def close_weapons(self) -> list[Weapon]:
        return [w for w in self.weapons if w.kind == "close"]

    def pistols(self) -> list[Weapon]:
        return [w for w in self.weapons if w.has("hand-to-hand")][:2]

    def armour_save(self, *, shooting: bool) -> int | None:
        """Basic save before modifiers (000:586-590); a shield counts against shooting even
        with a two-handed weapon (000:967)."""
        save = self.body_armour.save if self.body_armour else None
        if self.shield:
            save = 6 if save is None else save - 1
        return save

    def can_parry(self) -> tuple[bool, bool, bool]:
        """(can parry, two swords, sword and buckler)."""
        swords = sum(1 for w in self.close_weapons() if w.has("parry"))
        return (swords > 0 or self.buckler), swords >= 2, (swords > 0 and self.buckler)

    def describe(self) -> str:
        kit = [w.name for w in self.weapons]
        if self.body_armour:
            kit.append(self.body_armour.name)
        kit += [n for n, on in (("shield", self.shield), ("buckler", self.buckler), ("helmet", self.helmet)) if on]
        kit += sorted(self.equipment)
        return f"{self.name} ({self.profile}){': ' + ', '.join(kit) if kit else ''}"


def make_fighter(name: str = "Fighter", profile: str | Profile | None = None, *, weapons=(), armour=(), equipment=(),
                 state: str = "standing", wounds: int | None = None, **flags) -> Fighter:
    """Build a Fighter from names a user typed; unknown names raise NotFoundError with suggestions."""
    prof = parse_profile(profile)
    ws: list[Weapon] = []
    gromril = ithilmar = False
    for wname in _names(weapons):
        key = wname.lower().strip()
        for prefix in ("gromril ", "ithilmar "):
            if key.startswith(prefix) and key != prefix.strip():
                gromril |= prefix == "gromril "
                ithilmar |= prefix == "ithilmar "
                wname = wname.strip()[len(prefix):]
        if key in ("brace of pistols", "brace of duelling pistols"):
            w = find_item(wname.replace("brace of ", ""), ("weapon",))
            ws += [w, w]
            continue
        ws.append(find_item(wname, ("weapon",)))
    body = None
    shield = buckler = helmet = False
    for aname in _names(armour):
        a = find_item(aname, ("armour",))
        if a.slot == "body":
            if body is not None:
                raise MordheimError(f"{name} wears two suits of armour ({body.name}, {a.name}).", hint="Keep one body armour.")
            body = a
        elif a.slot == "shield":
            shield = True
        elif a.slot == "buckler":
            buckler = True
        else:
            helmet = True
    eq = set()
    for ename in _names(equipment):
        item = find_item(ename, ("equipment", "armour", "weapon"))
        if isinstance(item, Armour):
            raise MordheimError(f"{item.name} is armour, not equipment.", hint="Put it in the armour option.")
        if isinstance(item, Weapon):
            raise MordheimError(f"{item.name} is a weapon, not equipment.", hint="Put it in the weapons option.")
        eq.add(item.id)
    if "warhorse" in eq:
        flags.setdefault("mounted", "warhorse")
    elif "horse" in eq:
        flags.setdefault("mounted", "horse")
    st = str(state).lower().replace("_", " ").strip()
    if st not in STATES:
        raise MordheimError(f"'{state}' is not a state a fighter can be in.", hint="Use standing, knocked down or stunned.")
    if wounds is not None and not 0 <= wounds <= prof.W:
        raise LimitExceeded(f"{name} has {wounds} wounds left but W{prof.W}.", hint=f"Give 0 to {prof.W} wounds left.")
    return Fighter(name, prof, tuple(ws), body, shield, buckler, helmet, frozenset(eq), gromril, ithilmar,
                   state=st, wounds=wounds, **flags)


def _names(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.replace(";", ",").split(",") if p.strip()]
    return [str(v) for v in value]


def check_close_combat_loadout(f: Fighter) -> None:
    """Raise MordheimError explaining what is wrong with this close-combat loadout."""
    close = f.close_weapons()
    for w in f.weapons:
        if w.kind == "missile" and not (w.has("hand-to-hand") or w.has("shoot-in-close-combat")):
            extra = " Throwing weapons cannot be used in close combat (000:1131)." if w.has("thrown-weapon") else ""
            raise MordheimError(
                f"{f.name} cannot fight in close combat with a {w.name.lower()}: it is a missile weapon.{extra}",
                hint="Give a close-combat weapon (sword, dagger, axe...) for the fight, or use /shoot. "
                     "Pistols and crossbow pistols are the missile weapons with close-combat rules (000:1155, 000:1177).",
            )
    two_handed = [w for w in close if w.has("two-handed")]
    if two_handed:
        w = two_handed[0]
        if f.shield or f.buckler:
            raise MordheimError(
                f"{f.name} cannot use a {'shield' if f.shield else 'buckler'} with a {w.name.lower()} in close combat: it needs both hands (000:967).",
                hint="Remove the shield/buckler for the fight (a shield still gives +1 against shooting) or pick a one-handed weapon.",
            )
        if len(close) > 1 or f.pistols():
            raise MordheimError(f"{f.name} cannot use a second weapon with a {w.name.lower()}: it needs both hands (000:967).", hint="Keep only the two-handed weapon.")
    for w in close:
        if w.has("difficult-to-use") and (f.buckler or len(close) > 1):
            raise MordheimError(f"A morning star allows no second weapon or buckler (000:985); {f.name} has one.", hint="Drop the second weapon or buckler (a shield is allowed).")
        if w.has("unwieldy") and len(close) > 1:
            raise MordheimError(f"A spear allows only a shield or buckler in the other hand (000:1019).", hint="Drop the second weapon.")
        if w.has("cavalry-weapon") and f.mounted != "warhorse":
            raise MordheimError(f"{f.name} needs a warhorse to use a lance (000:1033).", hint="Add `warhorse` to the equipment or pick another weapon.")
    if len(close) > 2:
        raise MordheimError(f"{f.name} has {len(close)} close-combat weapons; a warrior fights with one in each hand (000:683).", hint="Give at most two.")
    if f.profile.W == 0:
        raise MordheimError(f"{f.name} has W0 and cannot be in a fight.", hint="Give W1 or more.")


def check_defender(f: Fighter) -> None:
    if f.profile.W == 0:
        raise MordheimError(f"The defender {f.name} has 0 Wounds on its profile.", hint="A warrior's profile has W1 or more; use the wounds option for wounds already lost.")


def default_weapon() -> Weapon:
    return all_weapons()["fist"]
