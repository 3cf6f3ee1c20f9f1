"""Cross-reference checks of the kit fields of the warband-list data: the items one item names, what a
list row adds to its price, the limits a list counts, and the skills a fighter starts with.

They run on the parsed JSON like checks.py (whose ``Shared`` and ``Problems`` they use), after every
item of every file is collected, since an item may name one that another file defines:
- ``variant_of`` names another item, itself no variant (a club is a hammer, 000:921);
- ``made_as`` weapons are plain close-combat weapons (gromril, ithilmar);
- a package's ``contents`` and ``choices`` name items that are not packages themselves;
- a list row's ``multiple`` belongs to a ``made_as`` item, and its ``price_dice`` is a dice amount;
- a list limit names fighters of its list and items that exist, each kind with what it counts;
- a fighter's ``skills`` are on a skill list.
Every problem names its place and how to fix it, so a misspelt id fails loudly at load.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from engine.campaign.lists.checks import Problems, Shared, skill_key
from engine.campaign.lists.registry import NAMED_ONLY_SKILLS
from engine.dice.source import check_amount

ITEM_KINDS = ("close-combat", "missile", "blackpowder", "armour", "miscellaneous", "mutation")  # what a must-carry limit may count


class LimitKind(StrEnum):
    """How a list limit counts (rules_data/schema's $defs/list_limit; catalogue.ListLimit)."""

    TIMES = "times"  # the models of ``fighters`` are at most ``times`` the models of ``of``
    ONLY_WITH = "only-with"  # ``fighters`` only while the warband has one of ``of``
    TOGETHER = "together"  # the models of ``fighters`` are at most ``at_most`` in all
    MUST_CARRY = "must-carry"  # each warrior of ``fighters`` carries ``at_least`` of ``items`` or of ``item_kind``
    ITEM_AT_MOST = "item-at-most"  # the warband carries at most ``at_most`` of ``items``


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    return value if isinstance(value, list) else []


def check_item_links(shared: Shared, problems: Problems) -> None:
    """The items each collected item names: its variant, the weapons it may be made as, a package's contents."""
    for where, item in shared.item_rows:
        target = item.get("variant_of")
        if isinstance(target, str):
            facts = shared.item_facts.get(target)
            if facts is None:
                problems.add(where, f"variant_of '{target}' is not an item; name the item this is the same weapon as (e.g. 'hammer')")
            elif target == item.get("id") or facts.variant_of:
                problems.add(where, f"variant_of '{target}' must name the weapon itself, not one of its variants")
        made_as = item.get("made_as")
        if isinstance(made_as, dict):
            for weapon in _list(made_as, "weapons"):
                facts = shared.item_facts.get(weapon) if isinstance(weapon, str) else None
                if facts is None:
                    problems.add(where, f"made_as names '{weapon}', which is not an item")
                elif facts.kind != "close-combat" or facts.package or facts.made_as:
                    problems.add(where, f"made_as names '{weapon}', which is not a plain close-combat weapon")
        named = [*_list(item, "contents"), *(i for c in _list(item, "choices") if isinstance(c, dict)
                                             for o in _list(c, "options") if isinstance(o, dict) for i in _list(o, "items"))]
        for content in named:
            facts = shared.item_facts.get(content) if isinstance(content, str) else None
            if facts is None:
                problems.add(where, f"the package names '{content}', which is not an item; use an id from items.json or a list's items")
            elif facts.package:
                problems.add(where, f"the package names '{content}', another package; list that package's items instead")
        for k, choice in enumerate(_list(item, "choices")):
            if isinstance(choice, dict) and "default" in choice:
                problems.add(f"{where}: choices[{k}]", "a package's choice has no default: the buyer always picks; remove 'default'")


def check_list_kit(path: str, data: Any, shared: Shared, problems: Problems) -> None:
    """A warband list's rows (dice, multiples), limits and fighters' starting skills."""
    if not isinstance(data, dict):
        return
    for n, listing in enumerate(_list(data, "equipment_lists")):
        for k, row in enumerate(_list(listing, "items") if isinstance(listing, dict) else []):
            if not isinstance(row, dict):
                continue
            at = f"{path}: equipment_lists[{n}] ({listing.get('id')}): items[{k}]"
            item_id = row.get("item")
            facts = shared.item_facts.get(item_id) if isinstance(item_id, str) else None
            if "multiple" in row and facts is not None and not facts.made_as:
                problems.add(at, f"'{row.get('item')}' is not made as another weapon (no made_as): a list multiple means nothing for it")
            dice = row.get("price_dice")
            if isinstance(dice, str) and check_amount(dice):
                problems.add(at, f"price_dice: {check_amount(dice)}")
    fighter_ids = {f["id"] for f in _list(data, "fighters") if isinstance(f, dict) and isinstance(f.get("id"), str)}
    for n, limit in enumerate(_list(data, "limits")):
        if isinstance(limit, dict):
            _check_limit(f"{path}: limits[{n}] ({limit.get('kind')})", limit, fighter_ids, shared, problems)
    own_skills = {skill_key(s["name"]) for sl in _list(data, "skill_lists") if isinstance(sl, dict)
                  for s in _list(sl, "skills") if isinstance(s, dict) and isinstance(s.get("name"), str)}
    known = shared.skill_names | own_skills | {skill_key(name) for name in NAMED_ONLY_SKILLS}
    for n, fighter in enumerate(_list(data, "fighters")):
        for name in _list(fighter, "skills") if isinstance(fighter, dict) else []:
            if isinstance(name, str) and skill_key(name) not in known:
                problems.add(f"{path}: fighters[{n}] ({fighter.get('id')})",
                             f"skill '{name[:60]}' is on no skill list; check its spelling (e.g. 'Strongman')")


def _check_limit(where: str, limit: Mapping[str, Any], fighter_ids: set[str], shared: Shared, problems: Problems) -> None:
    if limit.get("kind") not in set(LimitKind):
        problems.add(where, f"kind '{str(limit.get('kind'))[:30]}' is not a limit kind; use one of: {', '.join(LimitKind)}")
        return
    if "item_kind" in limit and limit["item_kind"] not in ITEM_KINDS:
        problems.add(where, f"item_kind '{str(limit['item_kind'])[:30]}' is not an item kind; use one of: {', '.join(ITEM_KINDS)}")
    for key in ("fighters", "of"):
        for fighter in _list(limit, key):
            if isinstance(fighter, str) and fighter not in fighter_ids:
                problems.add(where, f"{key} names '{fighter}', which is not a fighter of this list; use one of: "
                                    + ", ".join(sorted(fighter_ids)))
    overlap = set(_list(limit, "fighters")) & set(_list(limit, "of"))
    if overlap:
        problems.add(where, f"{', '.join(sorted(overlap))} is both counted and counted against; name each fighter once")
    for item in _list(limit, "items"):
        if isinstance(item, str) and item not in shared.item_facts:
            problems.add(where, f"items names '{item}', which is not an item")
    if limit.get("kind") == "must-carry" and ("items" in limit) == ("item_kind" in limit):
        problems.add(where, "a must-carry limit counts either 'items' or one 'item_kind' (e.g. 'mutation'); give exactly one")
