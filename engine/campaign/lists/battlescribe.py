"""The BattleScribe "mordheim" catalogue's entry ids, mapped to the ids of our warband lists.

Read once from rules_data/battlescribe/mordheim.json (written by tools/battlescribe_ids.py; its
README says what each key holds). ``problems`` checks every id it maps to against a catalogue of
ours, so a renamed list, fighter or item fails a test instead of a member's import.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import Any

from engine.campaign.lists.catalogue import Catalogue
from engine.editions import RULES_DATA

IDS_FILE = RULES_DATA / "battlescribe" / "mordheim.json"


class Structure(StrEnum):
    """What an entry that is no warrior, item, skill or injury means to an import."""

    EXPERIENCE = "experience"  # its number is the warrior's experience
    GOLD = "gold"  # in the stash: its number is the treasury's gold crowns
    WYRDSTONE = "wyrdstone"  # in the stash: its number is the treasury's shards
    STASH = "stash"  # the warband's stash: gold, wyrdstone and kept items
    PROMOTED = "promoted"  # a henchman made a hero ("the lad's got talent")
    CONTAINER = "container"  # holds other entries (the trading post, starting equipment): walked into
    NOTED = "noted"  # nothing to keep (the leader's mark, the grade, an empty placeholder)


@dataclass(frozen=True)
class BattleScribeIds:
    game_system_id: str
    game_system_name: str
    catalogues: Mapping[str, str]  # catalogue id -> our warband list id
    hired_sword_catalogues: frozenset[str]
    fighters: Mapping[str, Mapping[str, str]]  # our list id -> entry id -> fighter id (catalogues share entry ids)
    hired_swords: Mapping[str, str]
    items: Mapping[str, str]
    skills: Mapping[str, str]  # -> the skill's name
    injuries: Mapping[str, str]  # -> the injury as /warrior injure writes it
    structure: Mapping[str, Structure]
    profile_changes: frozenset[str]

    def problems(self, catalogue: Catalogue) -> list[str]:
        """Every id this maps to that ``catalogue`` does not have (empty: all resolve)."""
        found: list[str] = []
        for cat_id, list_id in self.catalogues.items():
            if list_id not in catalogue.warbands:
                found.append(f"catalogue {cat_id}: no warband list `{list_id}`")
        for list_id, fighters in self.fighters.items():
            wlist = catalogue.warbands.get(list_id)
            for entry, fighter_id in fighters.items():
                if wlist is None or all(f.id != fighter_id for f in wlist.fighters):
                    found.append(f"fighter {entry}: no fighter `{list_id}/{fighter_id}`")
        found += [f"hired sword {e}: no `{s}`" for e, s in self.hired_swords.items() if s not in catalogue.hired_swords]
        found += [f"item {e}: no `{i}`" for e, i in self.items.items() if i not in catalogue.items]
        skills = {s.name for sl in catalogue.skill_lists.values() for s in sl.skills}
        skills |= {s.name for w in catalogue.warbands.values() for sl in w.skill_lists.values() for s in sl.skills}
        found += [f"skill {e}: no skill called `{s}`" for e, s in self.skills.items() if s not in skills]
        return found


def ids_from(data: Mapping[str, Any]) -> BattleScribeIds:
    """The ids of a file shaped as rules_data/battlescribe/mordheim.json."""
    def mapping(key: str) -> Mapping[str, str]:
        return MappingProxyType({str(k): str(v) for k, v in data[key].items()})

    fighters = {str(list_id): MappingProxyType({str(k): str(v) for k, v in of_list.items()})
                for list_id, of_list in data["fighters"].items()}
    return BattleScribeIds(
        game_system_id=str(data["game_system"]["id"]), game_system_name=str(data["game_system"]["name"]),
        catalogues=mapping("catalogues"), hired_sword_catalogues=frozenset(map(str, data["hired_sword_catalogues"])),
        fighters=MappingProxyType(fighters), hired_swords=mapping("hired_swords"), items=mapping("items"),
        skills=mapping("skills"), injuries=mapping("injuries"),
        structure=MappingProxyType({entry: Structure(kind) for entry, kind in mapping("structure").items()}),
        profile_changes=frozenset(map(str, data["profile_changes"])),
    )


@cache
def bundled_ids() -> BattleScribeIds:
    """The ids shipped with the bot, read once per process."""
    return ids_from(json.loads(IDS_FILE.read_text(encoding="utf-8")))
