"""Weapons, armour, equipment and kits as the combat engine reads them from rules_data/stats.

Two sources, one table per kind:

* ``weapons.json``, ``armour.json``, ``equipment.json``: the 2005 rulebook's (seed 000), each
  entry citing its lines;
* ``warband_kit.json``: what the warband lists sell beyond it (the Skaven's fighting claws, the
  Sisters' steel whip, the Orcs' ball and chain, the supplements' weapons...), each entry naming
  the published source it comes from. Its ``same_as`` rows are items that fight exactly as
  another (a choppa as a morning star): a copy under their own name, whose ``base`` is the
  original's id. Its ``kits`` are items sold as a bundle (the Pit Fighters' styles), its
  ``not_modelled`` the items whose effect on a fight the engine does not apply, with why.

Every special-rule id is checked against ``engine.combat.special_rules`` as it loads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, TypeVar

from engine.combat.special_rules import require, require_all
from engine.editions import RULES_DATA

STATS = RULES_DATA / "stats"
WARBAND_KIT = "warband_kit"  # the file of what the warband lists sell beyond the rulebook


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
    counts_as: str | None = None  # a same_as copy: the id of the weapon it fights as
    in_close_combat: Weapon | None = None  # a missile weapon that is also a close-combat weapon (the Amazons' sunstaff)
    not_modelled: tuple[str, ...] = ()  # its rules a fight does not apply, in our words

    def has(self, rule: str) -> bool:
        return require(rule) in self.special

    @property
    def base(self) -> str:
        """The id of the weapon it fights as: its own, or the original's for a same_as copy."""
        return self.counts_as or self.id

    def strength(self, user_strength: int) -> int:
        if self.strength_type == "user":
            return user_strength + self.strength_value
        return self.strength_value


@dataclass(frozen=True)
class Armour:
    id: str
    name: str
    aliases: tuple[str, ...]
    slot: str  # "body" | "shield" | "buckler" | "helmet" | "cloak" (worn over any armour)
    save: int | None
    save_bonus: int  # added to the save in close combat (a shield's +1, a cloak's)
    special: frozenset[str]
    source: str
    summary: str
    shooting_save_bonus: int | None = None  # a cloak's bonus against shooting when it differs from save_bonus
    counts_as: str | None = None
    not_modelled: tuple[str, ...] = ()

    def has(self, rule: str) -> bool:
        return require(rule) in self.special

    @property
    def base(self) -> str:
        return self.counts_as or self.id


@dataclass(frozen=True)
class Equipment:
    id: str
    name: str
    aliases: tuple[str, ...]
    effects: frozenset[str]
    combat: bool
    source: str
    summary: str
    counts_as: str | None = None
    not_modelled: tuple[str, ...] = ()

    @property
    def base(self) -> str:
        return self.counts_as or self.id


@dataclass(frozen=True)
class Kit:
    """Items sold as one bundle (a Pit Fighter's fighting style): he fights with its items."""

    id: str
    name: str
    aliases: tuple[str, ...]
    items: tuple[str, ...]  # item names, as a player would type them
    choice: str  # where the bundle offers a choice, which one the fight takes ("" when none)
    source: str
    summary: str


@dataclass(frozen=True)
class Unmodelled:
    """An item whose effect on a fight the engine does not apply, and why (said when he carries it)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    why: str
    source: str


Item = Weapon | Armour | Equipment  # what find_item finds


def _read(name: str) -> dict:
    return json.loads((STATS / f"{name}.json").read_text(encoding="utf-8"))


def _weapon(w: dict[str, Any]) -> Weapon:
    st = w["strength"]
    close = w.get("in_close_combat")
    in_close = None
    if close is not None:
        cst = close["strength"]
        in_close = Weapon(
            w["id"], w["name"], tuple(w["aliases"]), "close", None, cst["type"], cst.get("modifier", cst.get("value", 0)),
            close.get("save_modifier", 0), require_all(close["special"], "weapon", w["id"]), close["critical"], False,
            w["source"], w["summary"],
        )
    return Weapon(
        w["id"], w["name"], tuple(w["aliases"]), w["kind"], w["range"], st["type"],
        st.get("modifier", st.get("value", 0)), w["save_modifier"], require_all(w["special"], "weapon", w["id"]),
        w["critical"], w["blackpowder"], w["source"], w["summary"], in_close_combat=in_close,
        not_modelled=tuple(w.get("not_modelled", ())),
    )


def _armour(a: dict[str, Any]) -> Armour:
    return Armour(a["id"], a["name"], tuple(a["aliases"]), a["slot"], a["save"], a["save_bonus"],
                  require_all(a["special"], "weapon", a["id"]), a["source"], a["summary"],
                  shooting_save_bonus=a.get("shooting_save_bonus"), not_modelled=tuple(a.get("not_modelled", ())))


def _equipment(e: dict[str, Any]) -> Equipment:
    return Equipment(e["id"], e["name"], tuple(e["aliases"]), require_all(e["effects"], "equipment", e["id"]), e["combat"],
                     e["source"], e["summary"], not_modelled=tuple(e.get("not_modelled", ())))


_Row = TypeVar("_Row", Weapon, Armour, Equipment)


def _copies(table: dict[str, _Row]) -> dict[str, _Row]:
    """The warband kit's same_as rows whose original is in ``table``: copies under their own names."""
    out = {}
    for row in _read(WARBAND_KIT)["same_as"]:
        original = table.get(row["as"])
        if original is not None:
            out[row["id"]] = replace(original, id=row["id"], name=row["name"], aliases=tuple(row["aliases"]), source=row["source"],
                                     summary=row["summary"], counts_as=original.base,
                                     not_modelled=tuple(row.get("not_modelled", ())))
    return out


@cache
def weapons() -> dict[str, Weapon]:
    out = {w["id"]: _weapon(w) for w in _read("weapons")["weapons"]}
    out.update((w["id"], _weapon(w)) for w in _read(WARBAND_KIT)["weapons"])
    out.update(_copies(out))
    return out


@cache
def upgrades() -> dict[str, dict]:
    return {u["id"]: u for u in _read("weapons")["upgrades"]}


@cache
def armour() -> dict[str, Armour]:
    out = {a["id"]: _armour(a) for a in _read("armour")["armour"]}
    out.update((a["id"], _armour(a)) for a in _read(WARBAND_KIT)["armour"])
    out.update(_copies(out))
    return out


@cache
def equipment() -> dict[str, Equipment]:
    out = {e["id"]: _equipment(e) for e in _read("equipment")["equipment"]}
    out.update((e["id"], _equipment(e)) for e in _read(WARBAND_KIT)["equipment"])
    out.update(_copies(out))
    return out


@cache
def kits() -> dict[str, Kit]:
    return {k["id"]: Kit(k["id"], k["name"], tuple(k["aliases"]), tuple(k["items"]), k.get("choice", ""), k["source"], k["summary"])
            for k in _read(WARBAND_KIT)["kits"]}


@cache
def unmodelled() -> dict[str, Unmodelled]:
    return {u["id"]: Unmodelled(u["id"], u["name"], tuple(u["aliases"]), u["why"], u["source"])
            for u in _read(WARBAND_KIT)["not_modelled"]}
