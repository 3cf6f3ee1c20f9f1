"""The warband lists and the trading post as objects (data: rules_data/warbands/).

``bundled_catalogue()`` reads every file once (cached): the warband lists, the trading post
(items.json), racial maxima (races*.json), shared special rules, the common and shared skill
lists (skills.json), hired swords (hired_swords.json) and the Dramatis Personae
(dramatis_personae.json). It checks every cross-reference (checks.py) and builds frozen objects
that point at each other, so a fighter type knows its race, equipment list and skill lists, and
a hired sword the items of each kit his employer may choose, without further lookups. Every
list, hired sword and character carries its grade (1a official, 1b widely used), which a server
may choose to play or not (engine/campaign/actions/server_tables.py).

The bundled files are validated against rules_data/schema/warbands.schema.json by the tests,
not at start: they do not change at run time, and the checks here still catch a broken
cross-reference. A server's own list (a house warband) always goes through the schema and
the same checks (``validate_house_list``), and ``Catalogue.with_house_lists`` adds it.

The seeds hold none of these figures (seeds/INVENTORY.md section 1); each file names the book
they come from and the community data they were read from (rules_data/warbands/README.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from rapidfuzz import fuzz, process

from engine.editions import RULES_DATA
from engine.errors import MordheimError, NotFoundError
from engine.campaign.lists import checks as list_checks
from engine.campaign.lists import kit_checks
from engine.campaign.lists.kit_checks import LimitKind  # noqa: F401 - part of this API (ListLimit.kind)
from engine.campaign.lists.names import closest
from engine.errors import InvalidData
from engine.campaign.lists.checks import COMMON_SKILL_LISTS, Problems, skill_key
from engine.campaign.lists.schema import SCHEMA_PATH, schema_problems  # noqa: F401 - SCHEMA_PATH is part of this API
from engine.campaign.model import Profile
from engine.campaign.rules.validation import clean_name

DATA_DIR = RULES_DATA / "warbands"
STATS_DIR = DATA_DIR.parent / "stats"
STATS_FILES = {"weapons.json": ("weapons", "upgrades"), "armour.json": ("armour",), "equipment.json": ("equipment",),
               # what the lists sell beyond the rulebook: its items, the ones that fight as another, the bundles
               "warband_kit.json": ("weapons", "armour", "equipment", "same_as", "kits")}

#: What a server admin sees at most for one house list; the rest is counted.
SHOWN_PROBLEMS = 25
NEAR_MISS = 85  # a warband type this close to a list's name is taken for a misspelling of it, not a custom type
USUAL_MAX_HEROES = 6
COMMON_SKILL_LIST_NAMES = {"combat": "Combat", "shooting": "Shooting", "academic": "Academic", "strength": "Strength", "speed": "Speed"}

Role = Literal["leader", "hero", "henchman"]
EMPTY: Mapping[str, Any] = MappingProxyType({})


def _empty() -> Mapping[str, Any]:
    return EMPTY


# ================================================================ the objects

@dataclass(frozen=True, kw_only=True)
class MadeAs:
    """A weapon of a special metal or smith, bought as '<prefix> <weapon>' ('Gromril axe'): the item's
    price plus ``multiple`` times the weapon's (gromril 4, 000:1054; ithilmar 3, 000:1060)."""

    prefix: str  # 'Gromril'
    multiple: int
    weapons: tuple[str, ...] = ()  # item ids it may be made as; empty: any close-combat weapon

    def may_be(self, weapon: Item) -> bool:
        """Whether ``weapon`` can be made this way (a plain close-combat weapon, of the listed ones if any)."""
        if weapon.made_as is not None or weapon.is_package:
            return False
        return weapon.id in self.weapons if self.weapons else weapon.kind == "close-combat"

    def name_of(self, weapon: Item) -> str:
        """The name the warrior carries it by: 'Gromril axe', 'Dark Elf sword'."""
        return f"{self.prefix} {weapon.name[:1].lower()}{weapon.name[1:]}"


@dataclass(frozen=True, kw_only=True)
class Item:
    id: str
    name: str
    kind: str
    price: int  # trading post price; with price_dice, the fixed part
    price_dice: str | None  # the variable part in the dice grammar ('3d6', 'd6*10'), or None
    price_note: str
    rarity: int | None  # None: common
    restricted_to: tuple[str, ...]  # warband ids that may buy it; empty: any
    combat: str | None  # the rules_data/stats id it fights as; None: the combat engine has no stats for it
    aliases: tuple[str, ...]
    source: str
    summary: str
    not_for: tuple[str, ...] = ()  # warband ids that may not buy it
    warband: str | None = None  # the list that defines it; None: items.json (the trading post)
    variant_of: str | None = None  # the item id this is the same weapon as (a club is a hammer, 000:921)
    made_as: MadeAs | None = None  # a weapon of a special metal or smith (gromril, ithilmar)
    later_multiple: int = 1  # price multiple when the warrior already carries one of its kind (mutations: 2)
    counts_as: str | None = None  # the weapon kind a miscellaneous item is used as or with (a net: missile, 000:1425)
    contents: tuple[Item, ...] = ()  # a priced package: what the buyer gets for its price
    choices: tuple[KitChoice, ...] = ()  # a package's options the buyer picks; each option's items join the contents

    @property
    def common(self) -> bool:
        return self.rarity is None

    @property
    def is_package(self) -> bool:
        """A priced package (a fighting style): bought as its contents, never carried itself."""
        return bool(self.contents or self.choices)

    @property
    def family(self) -> str:
        """The id of the weapon this is, whatever its name: 'hammer' for a club, a mace or a staff."""
        return self.variant_of or self.id

    def may_be_bought_by(self, warband_id: str) -> bool:
        return (not self.restricted_to or warband_id in self.restricted_to) and warband_id not in self.not_for

    def price_text(self) -> str:
        """The price as the rulebook writes it: '15 gc', '50 + 3D6 gc', '4 × the weapon's price', or the note."""
        if self.made_as is not None:
            weapon = "the weapon's price" if self.made_as.multiple == 1 else f"{self.made_as.multiple} × the weapon's price"
            return f"{weapon} + {self.price} gc" if self.price else weapon
        if self.price_note and not self.price and not self.price_dice:
            return self.price_note
        dice = f" + {self.price_dice.upper().replace('*', '×')}" if self.price_dice else ""
        return f"{self.price}{dice} gc"


@dataclass(frozen=True, kw_only=True)
class ListedItem:
    item: Item
    price: int  # what a warrior of this list pays; with price_dice, the fixed part
    note: str
    price_dice: str | None = None  # a variable part this list adds, rolled at purchase ('2d6')
    multiple: int | None = None  # a made_as item's multiple of the weapon's list price on this list (the Dwarfs' 3)


@dataclass(frozen=True, kw_only=True)
class EquipmentList:
    id: str
    name: str
    items: tuple[ListedItem, ...]

    def price_of(self, item_id: str) -> int | None:
        listed = self._by_id.get(item_id)
        return None if listed is None else listed.price

    def listed(self, item_id: str) -> ListedItem | None:
        return self._by_id.get(item_id)

    def listed_as(self, item: Item) -> ListedItem | None:
        """The row that sells ``item``: its own, else one of the same weapon under another name (a
        list that sells a hammer sells a club at the hammer's price, 000:921)."""
        return self._by_id.get(item.id) or self._by_family.get(item.family)

    def package_with(self, item: Item) -> ListedItem | None:
        """A package on this list that holds ``item`` (a fighting style holding a helmet), or None."""
        cached = self.__dict__.get("_package_index")
        if cached is None:
            cached = {}
            for row in self.items:
                for held in _package_items(row.item):
                    cached.setdefault(held.id, row)
            object.__setattr__(self, "_package_index", cached)
        return cached.get(item.id)

    @property
    def _by_id(self) -> Mapping[str, ListedItem]:
        # Built once per list; lists are frozen, so the mapping can never go stale.
        cached = self.__dict__.get("_index")
        if cached is None:
            cached = {listed.item.id: listed for listed in self.items}
            object.__setattr__(self, "_index", cached)
        return cached

    @property
    def _by_family(self) -> Mapping[str, ListedItem]:
        cached = self.__dict__.get("_family_index")
        if cached is None:
            cached = {}
            for listed in self.items:
                cached.setdefault(listed.item.family, listed)
            object.__setattr__(self, "_family_index", cached)
        return cached


def _package_items(package: Item) -> list[Item]:
    """Every item a package may give (its contents and each option's); [] for anything else."""
    return [*package.contents, *(i for c in package.choices for o in c.options for i in o.items)]


@dataclass(frozen=True, kw_only=True)
class Race:
    id: str
    name: str
    maximum: Profile
    source: str
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class SpecialRule:
    id: str
    name: str
    summary: str
    effects: Mapping[str, int] = field(default_factory=_empty)
    forbids: tuple[str, ...] = ()  # item kinds a fighter with this rule may never carry (no weapons or armour: all four)


@dataclass(frozen=True, kw_only=True)
class SkillTakers:
    """Who may take a skill (a skill's ``takers`` in the JSON; engine/campaign/rules/skill_rules.py applies it).
    A fighter is 'warband-id/fighter-id' for a list's fighter, or a hired sword's or character's id."""

    source: str
    leader: bool = False  # the warband's leader only
    casts_spells: bool = False  # only a warrior who casts spells or recites prayers (Catalogue.spellcasters)
    not_warbands: tuple[str, ...] = ()
    not_fighters: tuple[str, ...] = ()
    only_fighters: tuple[str, ...] = ()
    needs_skill: str | None = None  # a skill id he must have already
    at_most: int | None = None  # warriors of one warband who may have it


@dataclass(frozen=True, kw_only=True)
class Spellcasters:
    """What makes a warrior one who casts spells or recites prayers (skills.json ``spellcasters``)."""

    special_rules: frozenset[str] = frozenset()
    with_skill_and_item: tuple[tuple[str, str], ...] = ()  # (skill id, item id): Arcane Lore and a Tome of Magic
    source: str = ""


@dataclass(frozen=True, kw_only=True)
class Skill:
    id: str
    name: str
    summary: str
    list_id: str
    effects: Mapping[str, int] = field(default_factory=_empty)
    restriction: str = ""
    takers: SkillTakers | None = None


@dataclass(frozen=True, kw_only=True)
class SkillList:
    id: str
    name: str
    skills: tuple[Skill, ...]


@dataclass(frozen=True, kw_only=True)
class FighterType:
    id: str
    name: str
    role: Role
    cost: int  # per model
    experience: int
    minimum: int
    maximum: int | None  # None: any number
    no_more_than: str | None  # another fighter id whose model count this one may not exceed
    race: Race
    profile: Profile
    equipment_list: EquipmentList | None
    skill_lists: tuple[SkillList, ...]
    special_rules: tuple[SpecialRule, ...]
    starting_equipment: tuple[Item, ...]
    large: bool
    animal: bool
    summary: str
    limit_note: str
    skills: tuple[str, ...] = ()  # skills every model has from his hire (the Brutes' Strongman)

    @property
    def is_hero(self) -> bool:
        return self.role in ("leader", "hero")

    @property
    def gains_experience(self) -> bool:
        """False for animals (000:1499 for wardogs) and fighters whose rules say so (Zombies)."""
        return not self.animal and not any(r.id == "gains-no-experience" for r in self.special_rules)


@dataclass(frozen=True, kw_only=True)
class ListLimit:
    """A limit of a warband list that counts models or kit ("no more than twice as many Goblins as Orcs")."""

    kind: LimitKind
    summary: str  # the limit in our words, shown when it is broken
    source: str
    fighters: tuple[str, ...] = ()  # fighter ids counted
    of: tuple[str, ...] = ()  # fighter ids counted against them (times, only-with)
    times: int = 1
    at_most: int = 0
    at_least: int = 1
    items: tuple[str, ...] = ()  # item ids (must-carry, item-at-most)
    item_kind: str | None = None  # or an item kind (must-carry: 'mutation')


@dataclass(frozen=True, kw_only=True)
class WarbandList:
    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    summary: str
    starting_gold: int
    max_warriors: int
    max_heroes: int = USUAL_MAX_HEROES
    special_rules: tuple[SpecialRule, ...]
    equipment_lists: Mapping[str, EquipmentList]
    skill_lists: Mapping[str, SkillList]  # the warband's own lists only
    fighters: tuple[FighterType, ...]
    items: Mapping[str, Item] = field(default_factory=_empty)  # items only this warband uses
    house: bool = False  # a server's own list
    grade: str | None = None  # 1a official, 1b widely used (rules_data/schema's $defs/grade); None: a house list without one
    limits: tuple[ListLimit, ...] = ()  # limits counting models or kit across fighter types

    @property
    def leader(self) -> FighterType:
        return next(f for f in self.fighters if f.role == "leader")

    def fighter_by_id(self, fighter_id: str) -> FighterType | None:
        """The fighter type of this id, or None (a dictionary look-up: rosters ask it for every warrior)."""
        cached = self.__dict__.get("_fighter_index")
        if cached is None:
            cached = {f.id: f for f in self.fighters}
            object.__setattr__(self, "_fighter_index", cached)
        return cached.get(fighter_id)

    def fighter(self, query: str) -> FighterType:
        """A fighter type by id, name or a plural of it ('Marksmen'); else NotFoundError with the closest."""
        key = lookup_key(query)
        by_key = self.__dict__.get("_fighter_keys")
        if by_key is None:  # built once: /hire asks it on every hire
            by_key = {}
            for f in self.fighters:
                by_key.setdefault(f.id.replace("-", " "), f)
                by_key.setdefault(lookup_key(f.name), f)
            object.__setattr__(self, "_fighter_keys", by_key)
        for candidate in _singulars(key):
            if candidate in by_key:
                return by_key[candidate]
        for candidate in _singulars(key):
            # 'captain' for 'Mercenary Captain', 'runner' for 'Night Runner': whole words, one match only
            inside = [f for f in self.fighters if f" {candidate} " in f" {lookup_key(f.name)} "]
            if candidate and len(inside) == 1:
                return inside[0]
        names = [f.name for f in self.fighters]
        raise NotFoundError(f"The {self.name} list has no fighter called '{query[:60]}'.",
                            suggestions=_closest(query, names) or names)


@dataclass(frozen=True, kw_only=True)
class KitOption:
    name: str  # 'Two axes'
    items: tuple[Item, ...]


@dataclass(frozen=True, kw_only=True)
class KitChoice:
    """Kit a hired sword's employer picks at hire (the Ogre's two hand weapons or a double-handed weapon)."""

    name: str  # 'Weapons'
    options: tuple[KitOption, ...]
    default: int | None  # the option already in the sword's equipment; None: none is, the employer must choose

    def option(self, query: str) -> KitOption | None:
        """The option ``query`` names (its name, any case), or None."""
        key = lookup_key(query)
        return next((o for o in self.options if lookup_key(o.name) == key), None)


@dataclass(frozen=True, kw_only=True)
class Companion:
    """A further model that comes with a hired sword or character (the Merchant's bodyguard, Ulli)."""

    name: str
    race: Race | None
    profile: Profile
    equipment: tuple[Item, ...]
    skills: tuple[str, ...]
    summary: str


@dataclass(frozen=True, kw_only=True)
class HiredSword:
    id: str
    name: str
    aliases: tuple[str, ...]
    source: str
    summary: str
    hire_fee: int
    upkeep: int
    rating: int | None  # what it adds to the warband rating; None: 5 + experience like a warrior
    experience: int
    race: Race
    profile: Profile
    equipment: tuple[Item, ...]
    skill_lists: tuple[SkillList, ...]
    special_rules: tuple[SpecialRule, ...]
    large: bool
    include: tuple[str, ...] | None  # None: any warband
    exclude: tuple[str, ...]
    grade: str | None = None
    skills: tuple[str, ...] = ()  # skills he has when hired, by name
    choices: tuple[KitChoice, ...] = ()
    hire_note: str = ""  # payment that is not plain gold, in our words; hire_fee and upkeep hold the gold part
    upkeep_note: str = ""  # what his upkeep asks after a battle besides the gold the bot takes: recorded by hand
    upkeep_in: str = ""  # what an upkeep that is not gold is paid in, in a few words ('1 wyrdstone shard')
    hire_shards: int = 0  # wyrdstone shards his hire takes from the treasury, with hire_fee (Nicodemus)
    upkeep_shards: int = 0  # wyrdstone shards his upkeep takes after each battle he fights, with upkeep
    companions: tuple[Companion, ...] = ()
    notes: tuple[str, ...] = ()  # rules and figures the engine does not apply, in our words

    @property
    def is_character(self) -> bool:
        """A Dramatis Persona (``DramatisPersona``), not a hired sword."""
        return False

    @property
    def kind(self) -> str:
        return "Dramatis Persona" if self.is_character else "hired sword"

    @property
    def upkeep_in_words(self) -> str:
        """'30 gc', '1 wyrdstone shard' (not gold), or 'none'."""
        return f"{self.upkeep} gc" if self.upkeep else self.upkeep_in or "none"

    def may_be_hired_by(self, warband_id: str) -> bool:
        return (self.include is None or warband_id in self.include) and warband_id not in self.exclude


@dataclass(frozen=True, kw_only=True)
class DramatisPersona(HiredSword):
    """A named character (Aenur, Johann the Knife...): hired like a hired sword, one per warband,
    with his own fee, upkeep and rating; he never gains experience."""

    gear: tuple[SpecialRule, ...] = ()  # his own named weapons and artefacts, which nobody else may buy
    spells: tuple[str, ...] = ()

    @property
    def is_character(self) -> bool:
        return True


# ================================================================ lookups

def lookup_key(text: str) -> str:
    """How names are compared: case, hyphens, apostrophes and runs of spaces do not matter."""
    text = text.casefold().replace("'", "").replace("’", "")
    return " ".join(re.sub(r"[-_]", " ", text).split())


def _singulars(key: str) -> list[str]:
    """The key and what it may be the plural of: 'beastmen' -> 'beastman', 'zombies' -> 'zombie'."""
    forms = [key]
    for plural, singular in (("men", "man"), ("ies", "y"), ("es", ""), ("s", "")):
        if key.endswith(plural):
            forms.append(key[: -len(plural)] + singular)
    return forms


def _closest(query: str, names: Iterable[str], limit: int = 5) -> list[str]:
    return closest(names, query, limit)  # engine/campaign/lists/names.py: nothing rather than a poor match


def _index(entries: Iterable[Any], names: Any) -> dict[str, Any]:
    """Lookup keys (id, name, aliases) -> entry; the first entry to claim a key keeps it."""
    index: dict[str, Any] = {}
    for entry in entries:
        for name in names(entry):
            index.setdefault(lookup_key(name), entry)
    return index


@dataclass(frozen=True, kw_only=True)
class Catalogue:
    """Every list a server can use; immutable. One for the bundled data, one per server with house lists."""

    warbands: Mapping[str, WarbandList]
    items: Mapping[str, Item]  # the trading post and every list's own items
    races: Mapping[str, Race]
    skill_lists: Mapping[str, SkillList]  # skills.json: the five common lists and those several warbands share
    special_rules: Mapping[str, SpecialRule]
    hired_swords: Mapping[str, HiredSword]
    dramatis_personae: Mapping[str, DramatisPersona] = field(default_factory=_empty)
    spellcasters: Spellcasters = field(default_factory=Spellcasters)  # who casts spells, for skills only they may take
    _raw_warbands: Mapping[str, Mapping[str, Any]] = field(default_factory=_empty, repr=False)  # the JSON each list came from
    _warband_index: dict[str, WarbandList] = field(init=False, repr=False, compare=False)
    _item_index: dict[str, Item] = field(init=False, repr=False, compare=False)
    _sword_index: dict[str, HiredSword] = field(init=False, repr=False, compare=False)
    _character_index: dict[str, DramatisPersona] = field(init=False, repr=False, compare=False)
    _skill_index: dict[str, Skill] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_warband_index", _index(self.warbands.values(), lambda w: (w.id, w.name, *w.aliases)))
        object.__setattr__(self, "_item_index", _index(self.items.values(), lambda i: (i.id, i.name, *i.aliases)))
        object.__setattr__(self, "_sword_index", _index(self.hired_swords.values(), lambda s: (s.id, s.name, *s.aliases)))
        object.__setattr__(self, "_character_index", _index(self.dramatis_personae.values(), lambda s: (s.id, s.name, *s.aliases)))
        every = [*self.skill_lists.values(), *(sl for w in self.warbands.values() for sl in w.skill_lists.values())]
        object.__setattr__(self, "_skill_index", _index((s for sl in every for s in sl.skills), lambda s: (s.name,)))

    # ---- warbands
    def find_warband(self, query: str) -> WarbandList | None:
        """The list a warband type names (id, name or alias), or None: a custom type."""
        return self._warband_index.get(lookup_key(query))

    def near_warband(self, query: str) -> WarbandList | None:
        """The list a type not naming one is a misspelling of ('Skavn': Skaven), or None."""
        found = process.extractOne(lookup_key(query), list(self._warband_index), scorer=fuzz.ratio, score_cutoff=NEAR_MISS)
        return None if found is None else self._warband_index[found[0]]

    def warband(self, query: str) -> WarbandList:
        found = self.find_warband(query)
        if found is None:
            raise NotFoundError(f"There is no warband list called '{query[:60]}'.",
                                suggestions=_closest(query, self.warband_names()))
        return found

    def warband_names(self) -> list[str]:
        return sorted(w.name for w in self.warbands.values())

    # ---- items and hired swords
    def item(self, query: str) -> Item:
        found = self._item_index.get(lookup_key(query))
        if found is None:
            raise NotFoundError(f"There is no item called '{query[:60]}'.",
                                suggestions=self._closest_items(query))
        return found

    def _closest_items(self, query: str) -> list[str]:
        """The names of the items closest to ``query`` by their names or other names ("cutlas": Sword, a cutlass)."""
        named_by = {n: i.name for i in self.items.values() for n in (i.name, *i.aliases)}
        return list(dict.fromkeys(named_by[n] for n in _closest(query, named_by, limit=10)))[:5]

    def hired_sword(self, query: str) -> HiredSword:
        found = self._sword_index.get(lookup_key(query))
        if found is None:
            raise NotFoundError(f"There is no hired sword called '{query[:60]}'.",
                                suggestions=_closest(query, [s.name for s in self.hired_swords.values()]))
        return found

    def character(self, query: str) -> DramatisPersona:
        found = self._character_index.get(lookup_key(query))
        if found is None:
            raise NotFoundError(f"There is no Dramatis Persona called '{query[:60]}'.",
                                suggestions=_closest(query, [s.name for s in self.dramatis_personae.values()]))
        return found

    def hireling(self, hireling_id: str) -> HiredSword | None:
        """The hired sword or Dramatis Persona of this id (what a hired warrior's ``fighter_type`` holds), or None."""
        return self.hired_swords.get(hireling_id) or self.dramatis_personae.get(hireling_id)

    def skill_named(self, name: str) -> Skill | None:
        """The skill of this name on any skill list (the common, the shared and every list's own), or None."""
        return self._skill_index.get(lookup_key(name))

    def grades(self) -> tuple[str, ...]:
        """Every grade a list, hired sword or character of this catalogue has, in order (1a, 1b...)."""
        found = {w.grade for w in self.warbands.values()} | {s.grade for s in self.hired_swords.values()}
        found |= {c.grade for c in self.dramatis_personae.values()}
        return tuple(sorted(g for g in found if g))

    def trading_post(self) -> list[Item]:
        """The items anyone may look for (items.json), by name."""
        return sorted((i for i in self.items.values() if i.warband is None), key=lambda i: i.name)

    # ---- house lists
    def with_house_lists(self, lists: Iterable[Mapping[str, Any]]) -> Catalogue:
        """This catalogue with a server's own lists added, or replacing the list of the same id.

        Each list is checked as ``validate_house_list`` does, against the catalogue that already
        holds the lists before it (so two house lists cannot define one item id twice);
        InvalidData lists every problem of the first list that has any.
        """
        catalogue = self
        for data in lists:
            catalogue = catalogue._with_house_list(data)
        return catalogue

    def _with_house_list(self, data: Mapping[str, Any]) -> Catalogue:
        problems = validate_house_list(data, self)
        if problems:
            name = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else "A house list"
            raise InvalidData(f"The house list {str(name)[:60]}", problems)
        replaced = self.warbands.get(str(data["id"]))
        items = {item_id: item for item_id, item in self.items.items() if not (replaced and item_id in replaced.items)}
        built = _build_warband(data, _Shared(items=items, races=self.races, skill_lists=self.skill_lists,
                                             special_rules=self.special_rules), house=True)
        return Catalogue(
            warbands=MappingProxyType({**self.warbands, built.id: built}), items=MappingProxyType({**items, **built.items}),
            races=self.races, skill_lists=self.skill_lists, special_rules=self.special_rules, hired_swords=self.hired_swords,
            dramatis_personae=self.dramatis_personae, spellcasters=self.spellcasters,
            _raw_warbands=MappingProxyType({**self._raw_warbands, built.id: data}),
        )

    def raw_warband(self, warband_id: str) -> Mapping[str, Any] | None:
        return self._raw_warbands.get(warband_id)


# ================================================================ building

@dataclass(frozen=True)
class _Shared:
    """What a warband list is built against."""

    items: Mapping[str, Item]
    races: Mapping[str, Race]
    skill_lists: Mapping[str, SkillList]
    special_rules: Mapping[str, SpecialRule]


def _profile(data: Mapping[str, int]) -> Profile:
    return Profile(**{c: data[c] for c in list_checks.CHARACTERISTICS})


def _effects(data: Mapping[str, Any]) -> Mapping[str, int]:
    return MappingProxyType(dict(data.get("effects") or {})) if data.get("effects") else EMPTY


def _build_item(data: Mapping[str, Any], *, warband: str | None = None) -> Item:
    """The item without its package contents, which name other items (``_with_contents`` adds them)."""
    rarity = data["rarity"]
    made_as = data.get("made_as")
    return Item(
        id=data["id"], name=data["name"], kind=data["kind"], price=data["price"], price_dice=data.get("price_dice"),
        price_note=data.get("price_note", ""), rarity=None if rarity == "common" else rarity, restricted_to=tuple(data.get("restricted_to") or ()),
        not_for=tuple(data.get("not_for") or ()), combat=data.get("combat"), aliases=tuple(data.get("aliases") or ()),
        source=data["source"], summary=data["summary"], warband=warband, variant_of=data.get("variant_of"),
        made_as=MadeAs(prefix=made_as["prefix"], multiple=made_as["multiple"], weapons=tuple(made_as.get("weapons", ())))
        if made_as else None,
        later_multiple=data.get("later_multiple", 1), counts_as=data.get("counts_as"),
    )


def _with_contents(items: Mapping[str, Item], raw: Iterable[Mapping[str, Any]]) -> dict[str, Item]:
    """``items`` with each package's contents and choices built from the other items (checked not to be packages)."""
    built = dict(items)
    for data in raw:
        if data.get("contents") or data.get("choices"):
            choices = tuple(_build_choice(c, items) for c in data.get("choices", ()))
            built[data["id"]] = replace(items[data["id"]], contents=tuple(items[i] for i in data.get("contents", ())),
                                        choices=choices)
    return built


def _build_rule(data: Mapping[str, Any]) -> SpecialRule:
    return SpecialRule(id=data["id"], name=data["name"], summary=data["summary"], effects=_effects(data),
                       forbids=tuple(data.get("forbids") or ()))


def _build_skill_list(data: Mapping[str, Any]) -> SkillList:
    skills = tuple(
        Skill(id=s["id"], name=s["name"], summary=s["summary"], list_id=data["id"], effects=_effects(s), restriction=s.get("restriction", ""),
              takers=_build_takers(s["takers"]) if s.get("takers") else None)
        for s in data["skills"]
    )
    return SkillList(id=data["id"], name=data["name"], skills=skills)


def _build_takers(data: Mapping[str, Any]) -> SkillTakers:
    return SkillTakers(source=data["source"], leader=bool(data.get("leader")), casts_spells=bool(data.get("casts_spells")),
                       not_warbands=tuple(data.get("not_warbands", ())), not_fighters=tuple(data.get("not_fighters", ())),
                       only_fighters=tuple(data.get("only_fighters", ())), needs_skill=data.get("needs_skill"),
                       at_most=data.get("at_most"))


def _build_spellcasters(data: Mapping[str, Any] | None) -> Spellcasters:
    if not data:
        return Spellcasters()
    return Spellcasters(special_rules=frozenset(data["special_rules"]), source=data["source"],
                        with_skill_and_item=tuple((pair[0], pair[1]) for pair in data.get("with_skill_and_item", ())))


def _build_race(data: Mapping[str, Any]) -> Race:
    return Race(id=data["id"], name=data["name"], maximum=_profile(data["maximum"]), source=data["source"], note=data.get("note", ""))


def _build_warband(data: Mapping[str, Any], shared: _Shared, *, house: bool = False) -> WarbandList:
    """The list built against ``shared``, which holds its own items already when they were built first."""
    own_items = {i["id"]: shared.items.get(i["id"]) or _build_item(i, warband=data["id"]) for i in data.get("items", ())}
    if any(i.id not in shared.items for i in own_items.values()):  # a house list's own packages name the items it may use
        every = _with_contents({**shared.items, **own_items}, data.get("items", ()))
        own_items = {item_id: every[item_id] for item_id in own_items}
    items = {**shared.items, **own_items}
    own_rules = {r["id"]: _build_rule(r) for r in data["special_rules"]}
    rules = {**shared.special_rules, **own_rules}
    own_skill_lists = {s["id"]: _build_skill_list(s) for s in data.get("skill_lists", ())}
    skill_lists = {**shared.skill_lists, **own_skill_lists}
    equipment_lists = {
        e["id"]: EquipmentList(
            id=e["id"], name=e["name"],
            items=tuple(ListedItem(item=items[row["item"]], price=row["price"], note=row.get("note", ""),
                                   price_dice=row.get("price_dice"), multiple=row.get("multiple")) for row in e["items"]),
        )
        for e in data["equipment_lists"]
    }
    fighters = tuple(
        FighterType(
            id=f["id"], name=f["name"], role=f["role"], cost=f["cost"], experience=f["experience"], minimum=f["min"],
            maximum=f["max"], no_more_than=f.get("no_more_than"), race=shared.races[f["race"]], profile=_profile(f["profile"]),
            equipment_list=equipment_lists[f["equipment_list"]] if f["equipment_list"] else None,
            skill_lists=tuple(skill_lists[s] for s in f["skill_lists"]),
            special_rules=tuple(rules[r] for r in f["special_rules"]),
            starting_equipment=tuple(items[i] for i in f.get("starting_equipment", ())),
            large=f.get("large", False), animal=f.get("animal", False), summary=f.get("summary", ""), limit_note=f.get("limit_note", ""),
            skills=tuple(f.get("skills", ())),
        )
        for f in data["fighters"]
    )
    return WarbandList(
        id=data["id"], name=data["name"], aliases=tuple(data.get("aliases", ())), source=data["source"], summary=data["summary"],
        starting_gold=data["starting_gold"], max_warriors=data["max_warriors"], max_heroes=data.get("max_heroes", USUAL_MAX_HEROES),
        special_rules=tuple(own_rules.values()), equipment_lists=MappingProxyType(equipment_lists),
        skill_lists=MappingProxyType(own_skill_lists), fighters=fighters, items=MappingProxyType(own_items), house=house,
        grade=data.get("grade"), limits=tuple(_build_limit(lim) for lim in data.get("limits", ())),
    )


def _build_limit(data: Mapping[str, Any]) -> ListLimit:
    return ListLimit(kind=LimitKind(data["kind"]), summary=data["summary"], source=data["source"],
                     fighters=tuple(data.get("fighters", ())), of=tuple(data.get("of", ())), times=data.get("times", 1),
                     at_most=data.get("at_most", 0), at_least=data.get("at_least", 1), items=tuple(data.get("items", ())),
                     item_kind=data.get("item_kind"))


def _build_companion(data: Mapping[str, Any], shared: _Shared) -> Companion:
    return Companion(name=data["name"], race=shared.races.get(data.get("race") or ""), profile=_profile(data["profile"]),
                     equipment=tuple(shared.items[i] for i in data.get("equipment", ())), skills=tuple(data.get("skills", ())),
                     summary=data.get("summary", ""))


def _build_choice(data: Mapping[str, Any], items: Mapping[str, Item]) -> KitChoice:
    options = tuple(KitOption(name=o["name"], items=tuple(items[i] for i in o["items"])) for o in data["options"])
    return KitChoice(name=data["name"], options=options, default=data.get("default"))


def _hireling_fields(data: Mapping[str, Any], shared: _Shared) -> dict[str, Any]:
    """What a hired sword and a Dramatis Persona share, built from either's JSON."""
    hiring = data["may_be_hired_by"]
    include = hiring["include"]
    return dict(
        id=data["id"], name=data["name"], aliases=tuple(data.get("aliases", ())), source=data["source"], summary=data["summary"],
        hire_fee=data["hire_fee"], upkeep=data["upkeep"], rating=data.get("rating"), experience=data.get("experience", 0),
        race=shared.races[data["race"]], profile=_profile(data["profile"]), equipment=tuple(shared.items[i] for i in data["equipment"]),
        skill_lists=tuple(shared.skill_lists[s] for s in data.get("skill_lists", ())),
        special_rules=tuple(_build_rule(r) for r in data["special_rules"]), large=data.get("large", False),
        include=None if include == "any" else tuple(include), exclude=tuple(hiring.get("exclude", ())),
        grade=data.get("grade"), skills=tuple(data.get("skills", ())), hire_note=data.get("hire_note", ""),
        upkeep_note=data.get("upkeep_note", ""), upkeep_in=data.get("upkeep_in", ""),
        hire_shards=int(data.get("hire_shards", 0)), upkeep_shards=int(data.get("upkeep_shards", 0)),
        choices=tuple(_build_choice(c, shared.items) for c in data.get("choices", ())),
        companions=tuple(_build_companion(c, shared) for c in data.get("companions", ())),
        notes=tuple(data.get("notes", ())),
    )


def _build_hired_sword(data: Mapping[str, Any], shared: _Shared) -> HiredSword:
    return HiredSword(**_hireling_fields(data, shared))


def _build_character(data: Mapping[str, Any], shared: _Shared) -> DramatisPersona:
    return DramatisPersona(**_hireling_fields(data, shared), gear=tuple(_build_rule(g) for g in data.get("gear", ())),
                           spells=tuple(data.get("spells", ())))


# ================================================================ the bundled files

def _kind_of(relative: str) -> str | None:
    """The schema kind of a file under rules_data/warbands/, by its path (lists_api.md)."""
    name = relative.rsplit("/", 1)[-1]
    if relative.startswith("lists/"):
        return "warband"
    if name == "items.json":
        return "items"
    if name.startswith("races") and name.endswith(".json"):
        return "races"
    return {"special_rules.json": "special_rules", "skills.json": "skills", "hired_swords.json": "hired_swords",
            "dramatis_personae.json": "dramatis_personae"}.get(name)


def read_bundled_files(directory: Path = DATA_DIR) -> dict[str, tuple[str, Any]]:
    """Every data file under ``directory``: relative path -> (schema kind, parsed JSON)."""
    files: dict[str, tuple[str, Any]] = {}
    for path in sorted(directory.rglob("*.json")):
        relative = path.relative_to(directory).as_posix()
        kind = _kind_of(relative)
        if kind is not None:
            files[relative] = (kind, json.loads(path.read_text(encoding="utf-8")))
    return files


@cache
def combat_ids() -> frozenset[str]:
    """The ids of rules_data/stats (weapons, upgrades, armour, equipment): what an item may fight as."""
    ids: set[str] = set()
    for name, keys in STATS_FILES.items():
        data = json.loads((STATS_DIR / name).read_text(encoding="utf-8"))
        ids |= {entry["id"] for key in keys for entry in data[key]}
    return frozenset(ids)


def cross_reference_problems(files: Mapping[str, tuple[str, Any]]) -> list[str]:
    """Every problem between the files (ids, items, lists, rules, races, maxima); [] when all resolve."""
    problems = Problems()
    shared = list_checks.collect_shared(files, problems, combat_ids=combat_ids())
    warband_files = {path: data for path, (kind, data) in sorted(files.items()) if kind == "warband" and isinstance(data, dict)}
    for path, data in warband_files.items():
        list_checks.collect_warband_items(path, data, shared, problems)
    kit_checks.check_item_links(shared, problems)
    warband_ids: dict[str, str] = {}
    for path, data in warband_files.items():
        warband_id = data.get("id")
        if warband_id in warband_ids:
            problems.add(path, f"warband id '{warband_id}' is already used by {warband_ids[warband_id]}")
        warband_ids[str(warband_id)] = path
        if path != f"lists/{warband_id}.json":
            problems.add(path, f"the file of warband '{warband_id}' must be lists/{warband_id}.json")
        list_checks.check_warband(path, data, shared, problems)
        kit_checks.check_list_kit(path, data, shared, problems)
    for data in warband_files.values():  # a hired sword or character may name a skill of any list
        shared.skill_names |= {skill_key(s["name"]) for sl in data.get("skill_lists") or () if isinstance(sl, dict)
                               for s in sl.get("skills") or () if isinstance(s, dict) and isinstance(s.get("name"), str)}
    hireling_ids: dict[str, str] = {}
    for path, (kind, data) in sorted(files.items()):
        if kind == "hired_swords":
            list_checks.check_hired_swords(path, data, shared, set(warband_ids), problems, hireling_ids)
        elif kind == "dramatis_personae":
            list_checks.check_dramatis_personae(path, data, shared, set(warband_ids), problems, hireling_ids)
    _check_names(files, problems)
    return problems.lines


def _check_names(files: Mapping[str, tuple[str, Any]], problems: Problems) -> None:
    """No name or alias finds two warbands, two items or two hired swords."""
    rows: dict[str, list[tuple[str, str, list[Any]]]] = {"warband": [], "item": [], "hired sword": []}
    for path, (kind, data) in sorted(files.items()):
        if not isinstance(data, dict):
            continue
        if kind == "warband" and isinstance(data.get("id"), str):
            rows["warband"].append((path, data["id"], [data["id"], data.get("name"), *(data.get("aliases") or [])]))
        if kind in ("warband", "items"):
            rows["item"] += list_checks.named_entries(path, "items", data.get("items") or [])
        if kind == "hired_swords":  # a name finds one hired sword or character: the two are one kind here
            rows["hired sword"] += list_checks.named_entries(path, "hired_swords", data.get("hired_swords") or [])
        if kind == "dramatis_personae":
            rows["hired sword"] += list_checks.named_entries(path, "dramatis_personae", data.get("dramatis_personae") or [])
    for kind, named in rows.items():
        list_checks.check_names(kind, named, {}, problems, lookup_key)


def build_catalogue(files: Mapping[str, tuple[str, Any]]) -> Catalogue:
    """The catalogue of checked files; InvalidData when a cross-reference does not resolve."""
    problems = cross_reference_problems(files)
    if problems:
        raise InvalidData("The warband lists in rules_data/warbands", problems)
    by_kind: dict[str, list[Any]] = {}
    for _path, (kind, data) in sorted(files.items()):
        by_kind.setdefault(kind, []).append(data)
    items = {i["id"]: _build_item(i) for d in by_kind.get("items", ()) for i in d["items"]}
    races = {r["id"]: _build_race(r) for d in by_kind.get("races", ()) for r in d["races"]}
    rules = {r["id"]: _build_rule(r) for d in by_kind.get("special_rules", ()) for r in d["special_rules"]}
    skill_lists = {s: SkillList(id=s, name=f"{COMMON_SKILL_LIST_NAMES[s]} skills", skills=()) for s in COMMON_SKILL_LISTS}
    skill_lists |= {s["id"]: _build_skill_list(s) for d in by_kind.get("skills", ()) for s in d["skill_lists"]}
    # A list may name another list's own item, and a hired sword may carry one: every item is built first.
    items |= {i["id"]: _build_item(i, warband=w["id"]) for w in by_kind.get("warband", ()) for i in w.get("items", ())}
    items = _with_contents(items, [*(i for d in by_kind.get("items", ()) for i in d["items"]),
                                   *(i for w in by_kind.get("warband", ()) for i in w.get("items", ()))])
    shared = _Shared(items=items, races=races, skill_lists=skill_lists, special_rules=rules)
    warbands = {w["id"]: _build_warband(w, shared) for w in by_kind.get("warband", ())}
    swords = {h["id"]: _build_hired_sword(h, shared) for d in by_kind.get("hired_swords", ()) for h in d["hired_swords"]}
    characters = {c["id"]: _build_character(c, shared) for d in by_kind.get("dramatis_personae", ()) for c in d["dramatis_personae"]}
    return Catalogue(
        warbands=MappingProxyType(warbands), items=MappingProxyType(items), races=MappingProxyType(races),
        skill_lists=MappingProxyType(skill_lists), special_rules=MappingProxyType(rules), hired_swords=MappingProxyType(swords),
        dramatis_personae=MappingProxyType(characters),
        spellcasters=_build_spellcasters(next((d["spellcasters"] for d in by_kind.get("skills", ()) if d.get("spellcasters")), None)),
        _raw_warbands=MappingProxyType({w["id"]: w for w in by_kind.get("warband", ())}),
    )


@cache
def bundled_catalogue() -> Catalogue:
    """The lists shipped with the bot, read and checked once per process."""
    return build_catalogue(read_bundled_files())


# ================================================================ a server's own list

def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _unusable_names(data: dict[str, Any]) -> list[str]:
    """The list's name, aliases and fighters' and items' names that a warband or warrior could not
    be given (``clean_name``: a mention, a control character...): members type them, and a name
    offered as you type that is then refused is of no use."""
    named = [("name", data.get("name")), *((f"aliases[{n}]", a) for n, a in enumerate(_list(data, "aliases"))),
             *((f"fighters[{n}].name", f.get("name")) for n, f in enumerate(_list(data, "fighters")) if isinstance(f, dict)),
             *((f"items[{n}].name", i.get("name")) for n, i in enumerate(_list(data, "items")) if isinstance(i, dict))]
    problems = []
    for where, name in named:
        if not isinstance(name, str):
            continue  # the schema says what is wrong with it
        try:
            clean_name(name, f"`{name[:40]}`")
        except MordheimError as exc:
            problems.append(f"{where}: {exc} Give it a name members can type.")
    return problems


def validate_house_list(data: Any, base: Catalogue) -> list[str]:
    """Every problem of a server's own warband list, each naming the field and how to fix it; [] when usable.

    The list may use the items, races, skill lists and special rules of ``base`` and its own
    items; it may replace a bundled list by using its id. At most SHOWN_PROBLEMS lines are
    returned, the last one counting the rest.
    """
    if not isinstance(data, dict):
        return ["(the whole file): a warband list must be a JSON object like rules_data/warbands/lists/reikland.json"]
    problems = schema_problems(data, "warband")
    checks = Problems()
    replaced = base.raw_warband(data["id"]) if isinstance(data.get("id"), str) else None
    shared = list_checks.Shared(
        items={i.id: f"the {i.warband} list" if i.warband else "items.json (the trading post)"
               for i in base.items.values() if not (replaced and i.warband == replaced.get("id"))},
        races={r.id: {"id": r.id, "maximum": r.maximum.as_dict()} for r in base.races.values()},
        rules=set(base.special_rules),
        skill_lists=set(base.skill_lists),
        item_restrictions={i.id: (i.restricted_to, i.not_for) for i in base.items.values()},
        combat_ids=combat_ids(),
        skill_names={list_checks.skill_key(s.name) for sl in (*base.skill_lists.values(),
                                                              *(sl for w in base.warbands.values() for sl in w.skill_lists.values()))
                     for s in sl.skills},
        item_facts={i.id: list_checks.ItemFacts(kind=i.kind, variant_of=i.variant_of, package=i.is_package, made_as=i.made_as is not None)
                    for i in base.items.values() if not (replaced and i.warband == replaced.get("id"))},
    )
    list_checks.collect_warband_items("", data, shared, checks)
    kit_checks.check_item_links(shared, checks)
    list_checks.check_warband("", data, shared, checks)
    kit_checks.check_list_kit("", data, shared, checks)
    others = [w for w in base.warbands.values() if not (replaced and w.id == replaced.get("id"))]
    names = [n for n in (data.get("id"), data.get("name"), *_list(data, "aliases")) if isinstance(n, str)]
    list_checks.check_names("warband", [("", data["id"] if isinstance(data.get("id"), str) else "?", names)],
                            {lookup_key(n): w.id for w in others for n in (w.id, w.name, *w.aliases)}, checks, lookup_key)
    taken = {lookup_key(n): i.id for i in base.items.values() if not (replaced and i.warband == replaced.get("id"))
             for n in (i.id, i.name, *i.aliases)}
    list_checks.check_names("item", list_checks.named_entries("", "items", _list(data, "items")), taken, checks, lookup_key)
    problems += [line.removeprefix(": ") for line in checks.lines]
    problems += _unusable_names(data)
    if len(problems) > SHOWN_PROBLEMS:
        more = len(problems) - (SHOWN_PROBLEMS - 1)
        problems = problems[: SHOWN_PROBLEMS - 1] + [f"... and {more} more problems"]
    return problems
