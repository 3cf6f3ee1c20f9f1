"""Finding a weapon, armour or equipment by what a player types: exact name, alias, the
abbreviations /rule accepts, then fuzzy. The tables themselves are loaded by
``engine.combat.item_data`` (the rulebook's, and what the warband lists sell beyond it); a kit
sold as a bundle and an item the engine does not model are found here too."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache

from rapidfuzz import process

from engine.combat.item_data import STATS, Armour, Equipment, Item, Kit, Unmodelled, Weapon, armour, equipment, kits, unmodelled, weapons
from engine.editions import RULES_DATA
from engine.errors import NotFoundError
from engine.rules.text import QueryRewriter
from engine.rules.text import key as word_key

KINDS = ("weapon", "armour", "equipment")


def _table(kind: str) -> Mapping[str, Item]:
    tables: dict[str, Callable[[], Mapping[str, Item]]] = {"weapon": weapons, "armour": armour, "equipment": equipment}
    return tables[kind]()


def _norm(text: str) -> str:
    return " ".join(str(text).lower().replace("_", " ").replace("-", " ").replace("’", "'").split())


def _name_index(kinds: tuple[str, ...], keyed) -> dict[str, tuple[str, str]]:
    """keyed(name/alias/id) -> (kind, id); the first item wins a shared key."""
    idx: dict[str, tuple[str, str]] = {}
    for kind in kinds:
        for item in _table(kind).values():
            for name in (item.id, item.name, *item.aliases):
                idx.setdefault(keyed(name), (kind, item.id))
    return idx


@cache
def _index(kinds: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    return _name_index(kinds, _norm)


@cache
def _rewriter() -> QueryRewriter:
    """The abbreviations ``/rule`` understands ("2h" -> "double handed"), from the rules overlay."""
    synonyms = json.loads((RULES_DATA / "overlay" / "synonyms.json").read_text(encoding="utf-8"))
    return QueryRewriter(synonyms.get("synonyms", {}), [])


@cache
def _word_index(kinds: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Like ``_index`` but keyed the way the rules lookup keys words (singular, no punctuation)."""
    return _name_index(kinds, word_key)


def _alias_match(name: str, kinds: tuple[str, ...]):
    """The item ``name`` names once the abbreviations ``/rule`` accepts are spelt out, or None."""
    found = _word_index(kinds).get(_rewriter().rewrite(name)) or _word_index(kinds).get(word_key(name))
    return _table(found[0])[found[1]] if found else None


def find_item(name: str, kinds: tuple[str, ...] = KINDS):
    """The item called ``name`` (id, name or alias, any case): exact, then alias (also the
    abbreviations ``/rule`` accepts, such as "2h sword"), then fuzzy.

    Raises ``NotFoundError`` with the closest names when nothing matches well.
    """
    key = _norm(name)
    idx = _index(tuple(kinds))
    if key in idx:
        kind, item_id = idx[key]
        return _table(kind)[item_id]
    alias = _alias_match(name, tuple(kinds))
    if alias is not None:
        return alias
    what = " or ".join(k for k in kinds)
    best = process.extract(key, list(idx), limit=8, score_cutoff=55)
    suggestions: list[str] = []
    for match, score, _ in best:
        kind, item_id = idx[match]
        label = _table(kind)[item_id].id
        if label not in suggestions:
            suggestions.append(label)
    if best and best[0][1] >= 92 and len(suggestions) == 1:
        kind, item_id = idx[best[0][0]]
        return _table(kind)[item_id]
    raise NotFoundError(f"There is no {what} called '{str(name)[:40]}' in the rulebook or the warband lists.",
                        suggestions=suggestions[:5])


def list_name(item) -> str:
    """The item's name as it can stand in a comma-separated list: "Hammer, staff, mace or club"
    would read as four items, so names with a comma give their first part ("Hammer")."""
    return item.name.split(",")[0].strip()


def search_items(prefix: str, kinds: tuple[str, ...] | list[str] = KINDS, limit: int = 25) -> list[str]:
    """Names for autocomplete: items whose name, id or alias starts with / contains ``prefix``
    (abbreviations ``/rule`` accepts, such as "2h", spelt out). Every name is safe in a
    comma-separated list (``list_name``) and is found again by ``find_item``."""
    kinds = tuple(kinds)
    out = _search(_norm(prefix), kinds)
    if not out and prefix.strip():
        out = _search(_norm(_rewriter().rewrite(prefix)), kinds)
    if not out and prefix.strip():
        names = {list_name(item) for kind in kinds for item in _table(kind).values()}
        out = [m[0] for m in process.extract(_norm(prefix), list(names), limit=limit, score_cutoff=50)]
    return out[:limit]


def _search(key: str, kinds: tuple[str, ...]) -> list[str]:
    starts, contains = [], []
    for kind in kinds:
        for item in _table(kind).values():
            keys = [_norm(k) for k in (item.name, item.id, *item.aliases)]
            if not key or any(k.startswith(key) for k in keys):
                starts.append(list_name(item))
            elif key and any(key in k for k in keys):
                contains.append(list_name(item))
    return sorted(starts) + sorted(contains)


def _by_name(table: Mapping) -> dict[str, str]:
    return {_norm(n): row.id for row in table.values() for n in (row.id, row.name, *row.aliases)}


@cache
def _kit_index() -> dict[str, str]:
    return _by_name(kits())


@cache
def _unmodelled_index() -> dict[str, str]:
    return _by_name(unmodelled())


def find_kit(name: str) -> Kit | None:
    """The bundle ``name`` is (a Pit Fighter's "Orc style"), or None: exact names only."""
    found = _kit_index().get(_norm(name))
    return kits()[found] if found else None


def find_unmodelled(name: str) -> Unmodelled | None:
    """The item ``name`` is when its effect on a fight is not modelled (and why), or None."""
    found = _unmodelled_index().get(_norm(name))
    return unmodelled()[found] if found else None


def unused_notes(names) -> list[str]:
    """What to say of carried items the fight does not use: the ones whose effect on a fight is
    not modelled, each with why, and the rest in one line (a tome of magic has no part in a fight)."""
    notes, rest = [], []
    for name in names:
        found = find_unmodelled(name)
        if found is not None:
            notes.append(f"{found.name}: not modelled here ({found.why})")
        else:
            rest.append(name)
    if rest:
        notes.append("no part in a fight (see /rule for what they do): " + ", ".join(rest[:6]) + (" …" if len(rest) > 6 else ""))
    return notes


__all__ = ["KINDS", "STATS", "Armour", "Equipment", "Item", "Kit", "Unmodelled", "Weapon", "armour", "equipment", "find_item",
           "find_kit", "find_unmodelled", "kits", "list_name", "search_items", "unmodelled", "unused_notes", "weapons"]
