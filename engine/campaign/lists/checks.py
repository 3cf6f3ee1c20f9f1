"""Cross-reference checks of the warband-list data (rules_data/warbands/), on the raw JSON.

The schema (rules_data/schema/warbands.schema.json) checks each file's shape; these checks
check what one file says about another: that every equipment list, item, skill list,
special rule, race and fighter a list names exists, that ids are defined once, and that no
race maximum is below a starting profile. They work on the parsed JSON, before any object is
built, so that a server's own list with mistakes gets every problem back at once.

Every problem is one line that starts with where it is (``lists/reikland.json: fighters[3]
(marksman): ...``) and, where there is one, says how to fix it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.campaign.lists.registry import NAMED_ONLY_SKILLS

CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")

#: The five skill lists every warband shares (skills.json); always resolvable, even
#: before skills.json exists, so that a list can name them.
COMMON_SKILL_LISTS = ("combat", "shooting", "academic", "strength", "speed")

#: The warband ids issue 8 plans (lists_api.md); a hired sword may name one of them before
#: its file exists on a branch.
PLANNED_WARBANDS = (
    "reikland", "middenheim", "marienburg", "cult-of-the-possessed", "witch-hunters", "sisters-of-sigmar",
    "undead", "skaven", "orc-mob", "dwarf-treasure-hunters", "beastmen-raiders", "averlanders", "ostlanders",
    "kislevites", "carnival-of-chaos", "shadow-warriors", "dark-elves", "lizardmen", "norse", "tomb-guardians",
    "forest-goblins", "pit-fighters",
)


def skill_key(name: str) -> str:
    """How skill names are compared: case, hyphens, apostrophes and runs of spaces do not matter."""
    return " ".join(re.sub(r"[-_]", " ", name.casefold().replace("'", "").replace("’", "")).split())


@dataclass(frozen=True)
class ItemFacts:
    """What the kit checks need to know of an item another one names (kit_checks.py)."""

    kind: str
    variant_of: str | None = None
    package: bool = False
    made_as: bool = False


@dataclass
class Shared:
    """What any list may refer to besides its own definitions: the files shared by every list."""

    items: dict[str, str] = field(default_factory=dict)  # item id -> the file defining it
    races: dict[str, dict[str, Any]] = field(default_factory=dict)  # race id -> its JSON
    rules: set[str] = field(default_factory=set)  # special_rules.json ids
    skill_lists: set[str] = field(default_factory=lambda: set(COMMON_SKILL_LISTS))
    item_restrictions: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)  # id -> (only, not_for)
    combat_ids: frozenset[str] | None = None  # rules_data/stats ids an item may fight as; None: not checked
    skill_names: set[str] = field(default_factory=set)  # skill_key of every skill of skills.json and of every list's own lists
    item_facts: dict[str, ItemFacts] = field(default_factory=dict)  # item id -> what the kit checks read of it
    item_rows: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (where, JSON) of every item collected here


class Problems:
    """Collects problem lines, each prefixed with the file (and the part of it) it is about."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, where: str, text: str) -> None:
        self.lines.append(f"{where}: {text}")


def _choices(ids: Iterable[str], limit: int = 12) -> str:
    ids = sorted(ids)
    shown = ", ".join(ids[:limit])
    return shown + (f" (and {len(ids) - limit} more)" if len(ids) > limit else "")


def _items(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def _ids(entries: Iterable[Any]) -> list[str]:
    return [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]


# ---------------------------------------------------------------- shared files

def collect_shared(files: Mapping[str, tuple[str, Any]], problems: Problems, *, combat_ids: frozenset[str] | None = None) -> Shared:
    """Index items.json, races*.json, special_rules.json and skills.json; report ids defined twice.

    ``files`` maps a path relative to rules_data/warbands/ to (kind, parsed JSON).
    """
    shared = Shared(combat_ids=combat_ids)
    race_files: dict[str, str] = {}
    for path, (kind, data) in sorted(files.items()):
        if not isinstance(data, dict):
            continue
        if kind == "items":
            for n, item in enumerate(_items(data, "items")):
                _add_item(shared, path, f"items[{n}]", item, problems)
        elif kind == "races":
            for n, race in enumerate(_items(data, "races")):
                if not isinstance(race, dict) or not isinstance(race.get("id"), str):
                    continue
                if race["id"] in shared.races:
                    problems.add(f"{path}: races[{n}] ({race['id']})", f"race already defined in {race_files[race['id']]}; define each race once")
                else:
                    shared.races[race["id"]] = race
                    race_files[race["id"]] = path
        elif kind == "special_rules":
            for n, rule_id in enumerate(_ids(_items(data, "special_rules"))):
                if rule_id in shared.rules:
                    problems.add(f"{path}: special_rules[{n}] ({rule_id})", "special rule id defined twice")
                shared.rules.add(rule_id)
        elif kind == "skills":
            listed = _ids(_items(data, "skill_lists"))
            for missing in sorted(set(COMMON_SKILL_LISTS) - set(listed)):
                problems.add(path, f"the common skill list '{missing}' is missing")
            for n, entry in enumerate(_items(data, "skill_lists")):
                if isinstance(entry, dict):
                    _check_skill_ids(f"{path}: skill_lists[{n}] ({entry.get('id')})", entry, problems)
                    shared.skill_names |= {skill_key(s["name"]) for s in _items(entry, "skills")
                                           if isinstance(s, dict) and isinstance(s.get("name"), str)}
            shared.skill_lists |= set(listed)
    return shared


def _add_item(shared: Shared, path: str, where: str, item: Any, problems: Problems) -> None:
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        return
    item_id = item["id"]
    if item_id in shared.items:
        problems.add(f"{path}: {where} ({item_id})", f"item id already defined in {shared.items[item_id]}; an item id must be unique across items.json and every list")
        return
    shared.items[item_id] = path
    combat = item.get("combat")
    if isinstance(combat, str) and shared.combat_ids is not None and combat not in shared.combat_ids:
        problems.add(f"{path}: {where} ({item_id})", f"combat '{combat}' is not a weapon, armour or equipment id of rules_data/stats; use one (e.g. 'hammer' for a mace) or null")
    shared.item_restrictions[item_id] = (tuple(item.get("restricted_to") or ()), tuple(item.get("not_for") or ()))
    shared.item_facts[item_id] = ItemFacts(kind=str(item.get("kind")), variant_of=item.get("variant_of"),
                                           package=bool(item.get("contents") or item.get("choices")), made_as=bool(item.get("made_as")))
    shared.item_rows.append((f"{path}: {where} ({item_id})", item))


def _check_skill_ids(where: str, skill_list: Mapping[str, Any], problems: Problems) -> None:
    seen: set[str] = set()
    for n, skill_id in enumerate(_ids(_items(skill_list, "skills"))):
        if skill_id in seen:
            problems.add(f"{where}: skills[{n}] ({skill_id})", "skill id used twice in this list")
        seen.add(skill_id)


# ---------------------------------------------------------------- one warband list

def collect_warband_items(path: str, data: Any, shared: Shared, problems: Problems) -> None:
    """Add a list's own items to ``shared.items`` (ids must stay unique).

    Every list's items are collected before any list is checked: one list may name an item
    another list defines (lists_api.md), whatever order the files come in.
    """
    if isinstance(data, dict):
        for n, item in enumerate(_items(data, "items")):
            _add_item(shared, path, f"items[{n}]", item, problems)


def check_warband(path: str, data: Any, shared: Shared, problems: Problems) -> None:
    """Every cross-reference problem of one warband list against the shared files and every list's items."""
    if not isinstance(data, dict):
        return
    warband_id = data.get("id") if isinstance(data.get("id"), str) else "?"
    own_rules = _unique_ids(path, "special_rules", _items(data, "special_rules"), problems)
    for rule_id in sorted(own_rules & shared.rules):
        problems.add(f"{path}: special_rules ({rule_id})", f"'{rule_id}' is already a shared rule in special_rules.json; refer to it from the fighters instead of defining it again, or give yours another id")
    own_skill_lists = _unique_ids(path, "skill_lists", _items(data, "skill_lists"), problems)
    for list_id in sorted(own_skill_lists & set(COMMON_SKILL_LISTS)):
        problems.add(f"{path}: skill_lists ({list_id})", f"'{list_id}' is one of the five common skill lists; give the warband's own list another id")
    for n, entry in enumerate(_items(data, "skill_lists")):
        if isinstance(entry, dict):
            _check_skill_ids(f"{path}: skill_lists[{n}] ({entry.get('id')})", entry, problems)
    equipment_lists = _unique_ids(path, "equipment_lists", _items(data, "equipment_lists"), problems)
    fighters = _items(data, "fighters")
    fighter_ids = _unique_ids(path, "fighters", fighters, problems)

    for n, listing in enumerate(_items(data, "equipment_lists")):
        if isinstance(listing, dict):
            _check_equipment_list(f"{path}: equipment_lists[{n}] ({listing.get('id')})", str(warband_id), listing, shared, problems)

    rules = own_rules | shared.rules
    skill_lists = own_skill_lists | shared.skill_lists
    leaders = 0
    for n, fighter in enumerate(fighters):
        if not isinstance(fighter, dict):
            continue
        where = f"{path}: fighters[{n}] ({fighter.get('id')})"
        leaders += fighter.get("role") == "leader"
        _check_fighter(where, fighter, equipment_lists, skill_lists, rules, fighter_ids, shared, problems)
    if fighters and leaders != 1:
        problems.add(path, f"a warband needs exactly one fighter type with role 'leader', this one has {leaders}")
    _check_sizes(path, data, fighters, problems)


def _unique_ids(path: str, key: str, entries: list[Any], problems: Problems) -> set[str]:
    seen: set[str] = set()
    for n, entry_id in enumerate(_ids(entries)):
        if entry_id in seen:
            problems.add(f"{path}: {key}[{n}] ({entry_id})", f"id used twice in {key}; give each one its own id")
        seen.add(entry_id)
    return seen


def _check_equipment_list(where: str, warband_id: str, listing: Mapping[str, Any], shared: Shared, problems: Problems) -> None:
    seen: set[str] = set()
    for n, row in enumerate(_items(listing, "items")):
        if not isinstance(row, dict) or not isinstance(row.get("item"), str):
            continue
        item_id = row["item"]
        at = f"{where}: items[{n}]"
        if item_id in seen:
            problems.add(at, f"'{item_id}' is listed twice; list each item once with its price")
        seen.add(item_id)
        if item_id not in shared.items:
            problems.add(at, f"item '{item_id}' is not defined; use an id from items.json or add it to this list's 'items'")
            continue
        if not isinstance(row.get("price"), int) or isinstance(row.get("price"), bool):
            problems.add(at, f"'{item_id}' has no price; give the price this list sells it at")
        only, not_for = shared.item_restrictions.get(item_id, ((), ()))
        if only and warband_id not in only:
            problems.add(at, f"'{item_id}' may only be bought by {', '.join(only)}; remove it or define an item of this warband's own")
        if warband_id in not_for:
            problems.add(at, f"'{item_id}' may not be bought by {warband_id}; remove it from the list")


def _check_fighter(where: str, fighter: Mapping[str, Any], equipment_lists: set[str], skill_lists: set[str], rules: set[str],
                   fighter_ids: set[str], shared: Shared, problems: Problems) -> None:
    listing = fighter.get("equipment_list")
    if isinstance(listing, str) and listing not in equipment_lists:
        problems.add(where, f"equipment list '{listing}' is not defined; use one of: {_choices(equipment_lists) or 'none defined'} (or null)")
    if fighter.get("animal") and listing is not None:
        problems.add(where, "an animal carries no equipment; set equipment_list to null")
    for list_id in _items(fighter, "skill_lists"):
        if isinstance(list_id, str) and list_id not in skill_lists:
            problems.add(where, f"skill list '{list_id}' is not defined; use one of: {_choices(skill_lists)}")
    for rule_id in _items(fighter, "special_rules"):
        if isinstance(rule_id, str) and rule_id not in rules:
            problems.add(where, f"special rule '{rule_id}' is not defined; define it in the warband's special_rules or use one of special_rules.json: {_choices(shared.rules)}")
    for item_id in _items(fighter, "starting_equipment"):
        if isinstance(item_id, str) and item_id not in shared.items:
            problems.add(where, f"starting equipment '{item_id}' is not an item; use an id from items.json or this list's 'items'")
    other = fighter.get("no_more_than")
    if isinstance(other, str) and (other not in fighter_ids or other == fighter.get("id")):
        problems.add(where, f"no_more_than names '{other}', which is not another fighter of this warband; use one of: {_choices(fighter_ids - {fighter.get('id')})}")
    low, high = fighter.get("min"), fighter.get("max")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.add(where, f"min {low} is above max {high}")
    if fighter.get("role") == "leader" and (low != 1 or high != 1):
        problems.add(where, "the leader must have min 1 and max 1")
    _check_race(where, fighter, shared, problems)


def _check_race(where: str, fighter: Mapping[str, Any], shared: Shared, problems: Problems, *, capped: bool = True) -> None:
    """The fighter's race exists and (when ``capped``) caps no characteristic below his starting profile."""
    race_id = fighter.get("race")
    if not isinstance(race_id, str):
        return
    race = shared.races.get(race_id)
    if race is None:
        problems.add(where, f"race '{race_id}' is not defined; use one of: {_choices(shared.races)}")
        return
    if not capped:
        return
    profile, maximum = fighter.get("profile"), race.get("maximum")
    if not isinstance(profile, dict) or not isinstance(maximum, dict):
        return
    above = [f"{c} {profile[c]} > {maximum[c]}" for c in CHARACTERISTICS
             if isinstance(profile.get(c), int) and isinstance(maximum.get(c), int) and profile[c] > maximum[c]]
    if above:
        problems.add(where, f"starting profile is above the {race_id} maximum ({', '.join(above)}); raise the race maximum or use another race")


def _check_sizes(path: str, data: Mapping[str, Any], fighters: list[Any], problems: Problems) -> None:
    size, heroes = data.get("max_warriors"), data.get("max_heroes", 6)
    typed = [f for f in fighters if isinstance(f, dict) and isinstance(f.get("min"), int)]
    needed = sum(f["min"] for f in typed)
    if isinstance(size, int) and needed > size:
        problems.add(path, f"the fighters' minimum counts add up to {needed}, more than max_warriors {size}")
    needed_heroes = sum(f["min"] for f in typed if f.get("role") in ("leader", "hero"))
    if isinstance(heroes, int) and needed_heroes > heroes:
        problems.add(path, f"the heroes' minimum counts add up to {needed_heroes}, more than max_heroes {heroes}")
    gold = data.get("starting_gold")
    cost = sum(f["min"] * f["cost"] for f in typed if isinstance(f.get("cost"), int))
    if isinstance(gold, int) and cost > gold:
        problems.add(path, f"the fighters every warband must hire (min counts) cost {cost} gc, more than the starting gold {gold}")


# ---------------------------------------------------------------- names players type

def check_names(kind: str, named: Iterable[tuple[str, str, Iterable[str]]], claimed: dict[str, str], problems: Problems,
                key: Any) -> None:
    """Each name or alias (``key``-normalised) may find one thing only: a lookup must not guess.

    ``named`` holds (where, id, names) rows; ``claimed`` maps names already taken to their id
    and is filled in.
    """
    for where, thing_id, names in named:
        for name in names:
            if not isinstance(name, str):
                continue
            owner = claimed.setdefault(key(name), thing_id)
            if owner != thing_id:
                problems.add(where, f"the {kind} name or alias '{name[:40]}' already names {kind} '{owner}'; drop it or make it distinct")


def named_entries(path: str, key: str, entries: Iterable[Any]) -> list[tuple[str, str, list[Any]]]:
    """(where, id, [id, name, *aliases]) for each entry of a file's list ``key``."""
    return [(f"{path}: {key}[{n}] ({e['id']})", e["id"], [e["id"], e.get("name"), *(e.get("aliases") or [])])
            for n, e in enumerate(entries) if isinstance(e, dict) and isinstance(e.get("id"), str)]


# ---------------------------------------------------------------- hired swords and Dramatis Personae

def check_hired_swords(path: str, data: Any, shared: Shared, warband_ids: set[str], problems: Problems,
                       hireling_ids: dict[str, str] | None = None) -> None:
    """Every cross-reference of hired_swords.json: items, kit choices, skill lists, skills, races, companions, hirers.

    ``hireling_ids`` (id -> file) is shared with ``check_dramatis_personae``: a hired warrior
    keeps the id of what he was hired as, so no hired sword and character may share one.
    """
    if not isinstance(data, dict):
        return
    _unique_ids(path, "hired_swords", _items(data, "hired_swords"), problems)
    for n, sword in enumerate(_items(data, "hired_swords")):
        if not isinstance(sword, dict):
            continue
        where = f"{path}: hired_swords[{n}] ({sword.get('id')})"
        for list_id in _items(sword, "skill_lists"):
            if isinstance(list_id, str) and list_id not in shared.skill_lists:
                problems.add(where, f"skill list '{list_id}' is not defined; use one of: {_choices(shared.skill_lists)}")
        _check_choices(where, sword, shared, problems)
        _check_hireling(where, sword, shared, warband_ids, problems, hireling_ids, path)


def check_dramatis_personae(path: str, data: Any, shared: Shared, warband_ids: set[str], problems: Problems,
                            hireling_ids: dict[str, str] | None = None) -> None:
    """Every cross-reference of dramatis_personae.json: items, skills, races, companions, who may hire them."""
    if not isinstance(data, dict):
        return
    _unique_ids(path, "dramatis_personae", _items(data, "dramatis_personae"), problems)
    for n, character in enumerate(_items(data, "dramatis_personae")):
        if isinstance(character, dict):
            # a character never advances, so his race only says what he is: he may stand above its maximum (Aenur's WS 8)
            _check_hireling(f"{path}: dramatis_personae[{n}] ({character.get('id')})", character, shared, warband_ids, problems,
                            hireling_ids, path, capped=False)


def _check_hireling(where: str, entry: Mapping[str, Any], shared: Shared, warband_ids: set[str], problems: Problems,
                    hireling_ids: dict[str, str] | None, path: str, *, capped: bool = True) -> None:
    """What a hired sword and a character share: id, items, skills, race, companions, who may hire him."""
    entry_id = entry.get("id")
    if hireling_ids is not None and isinstance(entry_id, str):
        if entry_id in hireling_ids and hireling_ids[entry_id] != path:
            problems.add(where, f"id '{entry_id}' is already a hired sword or character of {hireling_ids[entry_id]}; give it another")
        hireling_ids.setdefault(entry_id, path)
    for item_id in _items(entry, "equipment"):
        if isinstance(item_id, str) and item_id not in shared.items:
            problems.add(where, f"equipment '{item_id}' is not an item; use an id from items.json or a list's 'items'")
    _check_skill_names(where, _items(entry, "skills"), shared, problems)
    _check_race(where, entry, shared, problems, capped=capped)
    for k, companion in enumerate(_items(entry, "companions")):
        if not isinstance(companion, dict):
            continue
        at = f"{where}: companions[{k}] ({companion.get('name')})"
        for item_id in _items(companion, "equipment"):
            if isinstance(item_id, str) and item_id not in shared.items:
                problems.add(at, f"equipment '{item_id}' is not an item; use an id from items.json or a list's 'items'")
        _check_skill_names(at, _items(companion, "skills"), shared, problems)
        race = companion.get("race")
        if isinstance(race, str) and race not in shared.races:
            problems.add(at, f"race '{race}' is not defined; use one of: {_choices(shared.races)}")
    known_warbands = warband_ids | set(PLANNED_WARBANDS)
    hiring: dict[str, Any] = entry["may_be_hired_by"] if isinstance(entry.get("may_be_hired_by"), dict) else {}
    include = hiring.get("include")
    named = (include if isinstance(include, list) else []) + _items(hiring, "exclude")
    for warband_id in named:
        if isinstance(warband_id, str) and warband_id not in known_warbands:
            problems.add(where, f"may_be_hired_by names '{warband_id}', which is not a warband id")


def _check_skill_names(where: str, names: list[Any], shared: Shared, problems: Problems) -> None:
    """A skill named by name is on a skill list (skills.json, a list's own), or in the registry of
    skills the data names but no list holds (registry.NAMED_ONLY_SKILLS)."""
    named_only = {skill_key(n) for n in NAMED_ONLY_SKILLS}
    for name in names:
        if isinstance(name, str) and skill_key(name) not in shared.skill_names and skill_key(name) not in named_only:
            problems.add(where, f"skill '{name[:60]}' is on no skill list; check its spelling, or add it to a list (skills.json or "
                                "the warband's own) or to NAMED_ONLY_SKILLS in engine/campaign/lists/registry.py")


def _check_choices(where: str, sword: Mapping[str, Any], shared: Shared, problems: Problems) -> None:
    for k, choice in enumerate(_items(sword, "choices")):
        if not isinstance(choice, dict):
            continue
        options = _items(choice, "options")
        default = choice.get("default")
        at = f"{where}: choices[{k}] ({choice.get('name')})"
        if isinstance(default, int) and not 0 <= default < len(options):
            problems.add(at, f"default {default} is not an option's index (0 to {len(options) - 1})")
        for option in options:
            for item_id in _items(option, "items") if isinstance(option, dict) else []:
                if isinstance(item_id, str) and item_id not in shared.items:
                    problems.add(at, f"option '{option.get('name')}' names '{item_id}', which is not an item")
        if isinstance(default, int) and 0 <= default < len(options) and isinstance(options[default], dict):
            carried = list(_items(sword, "equipment"))
            for item_id in _items(options[default], "items"):
                if item_id in carried:
                    carried.remove(item_id)
                else:
                    problems.add(at, f"the default option '{options[default].get('name')}' gives '{item_id}', which his "
                                     "equipment does not list; list the default option's items in 'equipment'")
