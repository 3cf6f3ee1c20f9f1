"""A Fighter: profile, what he carries, his traits and his state at the start of a fight.

A fighter carries a kit; what he fights with in close combat is chosen from it by
``engine.combat.loadout`` (as a player would), so a kit may hold more than two hands can use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from engine.combat.citations import cite
from engine.combat.items import Armour, Equipment, Weapon, find_item, list_name
from engine.combat.items import equipment as equipment_table
from engine.combat.profile import Profile, parse_profile
from engine.combat.special_rules import TRAIT_NAMES, TRAITS, require
from engine.errors import LimitExceeded, MordheimError, NotFoundError

MAX_ATTACKS = 12  # per fighter per round; keeps exact odds fast and catches typos like A50
STATES = ("standing", "knocked down", "stunned")

# make_fighter keywords kept for callers that name traits as flags (frenzy=True ...)
FLAG_TRAITS = {"frenzy": "frenzy", "hates": "hates", "causes_fear": "causes-fear", "immune_to_fear": "immune-to-fear",
               "large_target": "large-target", "animal": "animal", "stupidity": "stupidity"}


@dataclass(frozen=True)
class Fighter:
    name: str
    profile: Profile
    weapons: tuple[Weapon, ...] = ()  # everything he carries, missile weapons included
    body_armour: Armour | None = None
    shield: bool = False
    buckler: bool = False
    helmet: bool = False
    cloak: Armour | None = None  # worn over any armour (a Sea Dragon cloak)
    equipment: frozenset[str] = frozenset()
    gromril_weapon: bool = False
    ithilmar_weapon: bool = False
    traits: frozenset[str] = frozenset()  # ids of engine.combat.special_rules.TRAITS
    state: str = "standing"
    wounds: int | None = None  # wounds left; None = the profile's W
    notes: tuple[str, ...] = field(default=(), compare=False)  # what was left out when he was built, and why
    # each weapon's name as he carries it, beside ``weapons``: a weapon of several names is shown by
    # the one typed ("Club", not "Hammer"); empty: every weapon's own name
    weapon_names: tuple[str, ...] = field(default=(), compare=False)

    def weapon_name(self, weapon: Weapon) -> str:
        """``weapon``'s name as this fighter carries it (the first he carries of that weapon): a
        club is one weapon with the hammer (000:921) and fights as one, but is shown as a club."""
        if len(self.weapon_names) != len(self.weapons):
            return list_name(weapon)
        return next((n for w, n in zip(self.weapons, self.weapon_names) if w.id == weapon.id), list_name(weapon))

    # --- traits and equipment ------------------------------------------------------------------
    def has(self, trait: str) -> bool:
        return require(trait) in self.traits

    def carries(self, effect: str) -> bool:
        """Whether an item he carries has this equipment effect (engine.combat.special_rules)."""
        return require(effect) in self._effects

    def items_with(self, effect: str) -> int:
        """How many of the items he carries have this effect (two +1 Wound mutations give +2)."""
        return len(self.carried_with(effect))

    def carried_with(self, effect: str) -> list[Equipment]:
        """The items he carries that have this effect, by name."""
        require(effect)
        table = equipment_table()
        return sorted((table[e] for e in self.equipment if effect in table[e].effects), key=lambda item: item.name)

    @cached_property
    def _effects(self) -> frozenset[str]:
        table = equipment_table()
        return frozenset(x for e in self.equipment for x in table[e].effects)

    @property
    def is_frenzied(self) -> bool:
        return self.has("frenzy") or self.carries("gives-frenzy")  # 000:1373 Mad Cap Mushrooms; a bear-claw necklace

    @property
    def causes_fear(self) -> bool:
        return self.has("causes-fear") or self.carries("gives-fear")  # a hideous mutation

    @property
    def fear_immune(self) -> bool:
        # 000:849 fear-causers ignore fear tests; 000:1431 Bugman's ale (and Elven wine); 004:712 immune to psychology
        return (self.has("immune-to-fear") or self.has("immune-to-psychology") or self.causes_fear
                or self.carries("fear-immunity"))

    @property
    def stunned_is_knocked_down(self) -> bool:
        return self.carries("stunned-is-knocked-down") or self.has("no-pain")  # 000:1389 Mandrake Root; no pain

    @property
    def large_target(self) -> bool:
        return self.has("large-target")

    @property
    def size(self) -> int:
        """004:362-371 sizes: men and beasts are Small (1), monstrous creatures Large (2)."""
        return 2 if self.large_target else 1

    @property
    def mounted(self) -> str | None:
        if "warhorse" in self.equipment:
            return "warhorse"
        return "horse" if "horse" in self.equipment else None

    # --- derived characteristics ------------------------------------------------------------------
    @property
    def strength(self) -> int:
        return self.profile.S + (1 if "crimson-shade" in self.equipment else 0)  # 000:1381

    @property
    def toughness(self) -> int:
        return self.profile.T + self.items_with("toughness+1")  # 000:1389 Mandrake Root; Bloated Foulness

    @property
    def max_wounds(self) -> int:
        return self.profile.W + self.items_with("wounds+1")  # Blessings of Nurgle

    @property
    def wounds_left(self) -> int:
        return self.max_wounds if self.wounds is None else self.wounds

    def armour_save(self, *, shooting: bool) -> int | None:
        """Basic save before modifiers (000:586-590); a shield counts against shooting even
        with a two-handed weapon (000:967), but adds nothing to armour that says so (toughened
        leathers); a cloak worn over it adds its own. In close combat the loadout decides (see sides)."""
        save = self.body_armour.save if self.body_armour else None
        if self.shield and not (self.body_armour and self.body_armour.has("no-shield-bonus")):
            save = 6 if save is None else save - 1
        if self.cloak is not None:
            bonus = self.cloak.save_bonus if not shooting or self.cloak.shooting_save_bonus is None else self.cloak.shooting_save_bonus
            save = (7 if save is None else save) - bonus
        return save

    def describe(self) -> str:
        kit = list(self.weapon_names) if len(self.weapon_names) == len(self.weapons) else [list_name(w) for w in self.weapons]
        if self.body_armour:
            kit.append(self.body_armour.name)
        kit += [n for n, on in (("shield", self.shield), ("buckler", self.buckler), ("helmet", self.helmet)) if on]
        if self.cloak is not None:
            kit.append(self.cloak.name)
        kit += sorted(equipment_name(e) for e in self.equipment)
        kit += [TRAITS[t].names[0] for t in sorted(self.traits)]
        return f"{self.name} ({self.profile}){': ' + ', '.join(kit) if kit else ''}"


def trait_id(text: str) -> str:
    """The trait id a player's words name ("hatred" -> "hates"); NotFoundError with the closest."""
    key = " ".join(str(text).lower().replace("_", " ").replace("-", " ").split())
    if key in TRAIT_NAMES:
        return TRAIT_NAMES[key]
    if key.replace(" ", "-") in TRAITS:
        return key.replace(" ", "-")
    from rapidfuzz import process

    close = [m[0] for m in process.extract(key, list(TRAIT_NAMES), limit=3, score_cutoff=60)]
    raise NotFoundError(f"'{str(text)[:40]}' is not a trait or skill I know.", suggestions=close,
                        hint=None if close else "Traits: " + ", ".join(r.names[0] for r in TRAITS.values()) + ".")


def make_fighter(name: str = "Fighter", profile: str | Profile | None = None, *, weapons=(), armour=(), equipment=(),
                 traits=(), state: str = "standing", wounds: int | None = None, notes=(), **flags) -> Fighter:
    """Build a Fighter from names a user typed; unknown names raise NotFoundError with suggestions.

    ``traits`` are trait names or ids ("hates", "causes fear"); the flags ``frenzy``, ``hates``,
    ``causes_fear``, ``immune_to_fear``, ``large_target``, ``animal`` and ``stupidity`` say the same.
    """
    prof = parse_profile(profile)
    warnings = list(notes)
    armour_names = _names(armour)
    equipment_names = _names(equipment)
    ws: list[Weapon] = []
    shown: list[str] = []  # each weapon's name as typed, where it has several (list_name otherwise)
    gromril = ithilmar = False
    for wname in _names(weapons):
        moved = _not_a_weapon(wname)
        if moved is not None:
            kind, item = moved
            (armour_names if kind == "armour" else equipment_names).append(wname)
            warnings.append(f"{list_name(item).lower()} is {'armour' if kind == 'armour' else 'equipment'}, not a weapon: "
                            f"taken as {kind} (give it in the {kind} option)")
            continue
        key = wname.lower().strip()
        for prefix in ("gromril ", "ithilmar "):
            if key.startswith(prefix) and key != prefix.strip():
                gromril |= prefix == "gromril "
                ithilmar |= prefix == "ithilmar "
                wname = wname.strip()[len(prefix):]
                key = key[len(prefix):]
        if key.startswith("brace of ") and key != "brace of":
            w = find_item(wname.strip()[len("brace of "):], ("weapon",))
            if not w.has("hand-to-hand"):
                raise MordheimError(f"A brace is a pair of pistols; '{wname.strip()[:40]}' is not a pistol.",
                                    hint="Write `brace of pistols` or `brace of duelling pistols`.")
            ws += [w, w]
            shown += [list_name(w), list_name(w)]
            continue
        w = find_item(wname, ("weapon",))
        ws.append(w)
        shown.append(one_of_its_names(w, wname) or list_name(w))
    body = None
    cloak: Armour | None = None
    worn: set[str] = set()
    for aname in armour_names:
        a = find_item(aname, ("armour",))
        if a.slot == "body":
            if body is not None:
                raise MordheimError(f"{name} wears two suits of armour ({body.name}, {a.name}).", hint="Keep one body armour.")
            body = a
        elif a.slot == "cloak":
            if cloak is not None:
                warnings.append(f"{a.name.lower()} is given twice: a second one does nothing")
            cloak = a
        elif a.slot in worn:
            warnings.append(f"{a.name.lower()} is given twice: a second one does nothing")
        worn.add(a.slot)
    shield, buckler, helmet = ("shield" in worn), ("buckler" in worn), ("helmet" in worn)
    eq: set[str] = set()
    for ename in equipment_names:
        item = find_item(ename, ("equipment", "armour", "weapon"))
        if isinstance(item, Armour):
            raise MordheimError(f"{item.name} is armour, not equipment.", hint="Put it in the armour option.")
        if isinstance(item, Weapon):
            raise MordheimError(f"{item.name} is a weapon, not equipment.", hint="Put it in the weapons option.")
        if item.id in eq:
            warnings.append(f"{list_name(item).lower()} is given twice: a second one does nothing")
        eq.add(item.id)
    if any("gromril-weapon" in equipment_table()[e].effects for e in eq):
        gromril = True  # the trading post's "Gromril weapon", carried beside the weapon it is (000:1054)
    if any("ithilmar-weapon" in equipment_table()[e].effects for e in eq):
        ithilmar = True
    trait_ids = {trait_id(t) for t in _names(traits)}
    for flag, value in flags.items():
        if flag == "mounted":  # the mount is equipment (000:1481-1491)
            if value:
                eq.add("warhorse" if value == "warhorse" else "horse")
            continue
        if flag not in FLAG_TRAITS:
            raise TypeError(f"make_fighter() got an unexpected keyword argument {flag!r}")
        if value:
            trait_ids.add(FLAG_TRAITS[flag])
    st = str(state).lower().replace("_", " ").strip()
    if st not in STATES:
        raise MordheimError(f"'{state}' is not a state a fighter can be in.", hint="Use standing, knocked down or stunned.")
    most = prof.W + sum(1 for e in eq if "wounds+1" in equipment_table()[e].effects)
    if wounds is not None and not 0 <= wounds <= most:
        raise LimitExceeded(f"{name} has {wounds} wounds left but W{most}.", hint=f"Give 0 to {most} wounds left.")
    warnings += _profile_warnings(prof)
    return Fighter(name=name, profile=prof, weapons=tuple(ws), body_armour=body, shield=shield, buckler=buckler, helmet=helmet,
                   cloak=cloak, equipment=frozenset(eq), gromril_weapon=gromril, ithilmar_weapon=ithilmar, traits=frozenset(trait_ids),
                   state=st, wounds=wounds, notes=tuple(dict.fromkeys(warnings)), weapon_names=tuple(shown))


def one_of_its_names(item: Weapon, typed: str) -> str | None:
    """The name ``typed`` when it is one of several a weapon goes by ("Hammer, staff, mace or
    club", 000:921): "Club" for "club"; None for any other name (the item's own is shown)."""
    names = [n.strip() for n in re.split(r",|\bor\b", item.name) if n.strip()]
    key = " ".join(typed.lower().split())
    if len(names) < 2:
        return None
    found = next((n for n in names if n.lower() == key), None)
    return None if found is None else found[0].upper() + found[1:]


def _not_a_weapon(text: str) -> tuple[str, Armour | Equipment] | None:
    """("armour" | "equipment", the item) when ``text`` names no weapon but armour or equipment
    (a shield typed among the weapons); None when it names a weapon or nothing at all (the
    weapon lookup then says what it found)."""
    key = text.lower().strip()
    for prefix in ("gromril ", "ithilmar ", "brace of "):
        key = key.removeprefix(prefix)
    try:
        find_item(key, ("weapon",))
        return None
    except NotFoundError:
        pass
    try:
        item = find_item(key, ("armour", "equipment"))
    except NotFoundError:
        return None
    return ("armour", item) if isinstance(item, Armour) else ("equipment", item)


def _profile_warnings(prof: Profile) -> list[str]:
    """What a profile says that a fight cannot take as it is: no Strength or no Toughness (a 0
    is no ability at all, 000:234, which the wound chart, from 1 up, does not have)."""
    out = []
    if prof.S == 0:
        out.append(f"S0 means no Strength at all ({cite('characteristic-zero')}): the wound chart starts at 1, so his blows "
                   "are taken as Strength 1; check the profile")
    if prof.T == 0:
        out.append(f"T0 means no Toughness at all ({cite('characteristic-zero')}): the wound chart starts at 1, so blows "
                   "against him are taken as against Toughness 1; check the profile")
    return out


def equipment_name(item_id: str) -> str:
    """An equipment id as players write it ("mandrake-root" -> "Mandrake root")."""
    found = equipment_table().get(item_id)
    return list_name(found) if found is not None else item_id.replace("-", " ")


def _names(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [p.strip() for p in value.replace(";", ",").split(",") if p.strip()]
    return [str(v) for v in value]


def check_can_fight(f: Fighter) -> None:
    """A fighter that cannot be in a fight at all: explained, with how to fix it."""
    if f.profile.W == 0:
        raise MordheimError(f"{f.name} has 0 Wounds on its profile.",
                            hint="A warrior's profile has W1 or more; use the wounds option for wounds already lost.")
