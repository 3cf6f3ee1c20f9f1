"""Weapons, armour and equipment from rules_data/stats (000 only): loading and lookup."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from rapidfuzz import process

from engine.combat.special_rules import require, require_all
from engine.editions import RULES_DATA
from engine.errors import NotFoundError
from engine.rules.text import QueryRewriter
from engine.rules.text import key as word_key

STATS = RULES_DATA / "stats"
KINDS = ("weapon", "armour", "equipment")


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    aliases: tuple[str, ...]
    kind: str  # "close" | "missile"
    range: int | str | None
    strength_type: str  # "user" | "fixed"
    strength_value: int  # modifier for "user", value for "fixed"
    save_modifier: int
    special: frozenset[str]
    critical: str
    blackpowder: bool
    source: str
    summary: str

    def has(self, rule: str) -> bool:
        return require(rule) in self.special

    def strength(self, user_strength: int) -> int:
        if self.strength_type == "user":
            return user_strength + self.strength_value
        return self.strength_value


@dataclass(frozen=True)
class Armour:
    id: str
    name: str
    aliases: tuple[str, ...]
    slot: str
    save: int | None
    save_bonus: int
    special: frozenset[str]
    source: str
    summary: str

    def has(self, rule: str) -> bool:
        return require(rule) in self.special


@dataclass(frozen=True)
class Equipment:
    id: str
    name: str
    aliases: tuple[str, ...]
    effects: frozenset[str]
    combat: bool
    source: str
    summary: str


Item = Weapon | Armour | Equipment  # what find_item finds


def _read(name: str) -> dict:
    return json.loads((STATS / f"{name}.json").read_text(encoding="utf-8"))


@cache
def weapons() -> dict[str, Weapon]:
    out = {}
    for w in _read("weapons")["weapons"]:
        st = w["strength"]
        out[w["id"]] = Weapon(
            w["id"], w["name"], tuple(w["aliases"]), w["kind"], w["range"], st["type"],
            st.get("modifier", st.get("value", 0)), w["save_modifier"], require_all(w["special"], "weapon", w["id"]),
            w["critical"], w["blackpowder"], w["source"], w["summary"],
        )
    return out


@cache
def upgrades() -> dict[str, dict]:
    return {u["id"]: u for u in _read("weapons")["upgrades"]}


@cache
def armour() -> dict[str, Armour]:
    return {
        a["id"]: Armour(a["id"], a["name"], tuple(a["aliases"]), a["slot"], a["save"], a["save_bonus"],
                        require_all(a["special"], "weapon", a["id"]), a["source"], a["summary"])
        for a in _read("armour")["armour"]
    }


@cache
def equipment() -> dict[str, Equipment]:
    return {
        e["id"]: Equipment(e["id"], e["name"], tuple(e["aliases"]), require_all(e["effects"], "equipment", e["id"]), e["combat"],
                           e["source"], e["summary"])
        for e in _read("equipment")["equipment"]
    }


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
    raise NotFoundError(f"There is no {what} called '{str(name)[:40]}' in the 2005 rulebook (000).", suggestions=suggestions[:5])


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
