"""A BattleScribe or NewRecruit roster of the "mordheim" catalogue, mapped to a warband file of ours.

The result is the file ``/warband export`` writes (engine/campaign/rules/transfer.py), so the
import that follows checks it exactly as it checks our own files. How the roster is read:

- The roster's force of a warband catalogue gives the warband list; the roster's name is the
  warband's name. A force of the hired swords' catalogue gives hired swords.
- Each selection of a fighter is a warrior: a hero one model, a henchman group as many as its
  model selections count. His name is the name given in the roster (else the entry's), his
  profile the roster's own (advances and injuries are in it already), his experience the number
  of his Experience selection.
- Under a warrior: items are his equipment (a henchman group's kit is counted per model), skills
  his skills, serious injuries his injuries; "Promoted" makes a henchman a hero; the trading
  post's and starting equipment's selections are walked into.
- The Stash holds the treasury: its Gold is the gold crowns, its Wyrdstone the shards, its items
  the stash.
- Every entry is found by its entry id (rules_data/battlescribe/mordheim.json) and, failing
  that, by its name in the server's lists. Whatever is found neither way is listed as not
  imported, with the warrior it belonged to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

from engine.campaign.lists.battlescribe import BattleScribeIds, Structure
from engine.campaign.lists.catalogue import Catalogue, FighterType, HiredSword, Item, WarbandList, lookup_key
from engine.campaign.rules.roster_file import ROSTER_NAMESPACE, RosterFileError
from engine.campaign.rules.transfer import FORMAT, VERSION
from engine.campaign.rules.validation import NAME_MAX
from engine.errors import NotFoundError

NS = f"{{{ROSTER_NAMESPACE}}}"
MAX_NUMBER = 10_000  # no count in a Mordheim roster comes near this; a bigger one is read as this
GRADE = re.compile(r"\s*\((1a|1b|1c|core)\)\s*$", re.I)
# The roster's characteristic names -> ours.
CHARACTERISTICS = {"M": "M", "WS": "WS", "BS": "BS", "S": "S", "T": "T", "W": "W", "I": "I", "A": "A", "LD": "Ld"}
ROLE_OF_FIGHTER = {"leader": "leader", "hero": "hero", "henchman": "henchmen"}


@dataclass(frozen=True)
class RosterReading:
    """What a roster maps to: the warband file to import, and what could not be mapped."""

    warband_file: dict[str, Any]
    roster_name: str
    list_name: str
    unmapped: tuple[str, ...]  # "Otto (Mercenary Captain): Conch Shell Horn"
    notes: tuple[str, ...]


@dataclass
class _Kit:
    """What the selections under one warrior (or the stash) add up to."""

    equipment: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    injuries: list[str] = field(default_factory=list)
    experience: int | None = None
    promoted: bool = False
    gold: int | None = None
    wyrdstone: int | None = None


def _children(selection: Element) -> list[Element]:
    return selection.findall(f"{NS}selections/{NS}selection")


def entry_id(selection: Element) -> str:
    """The id of the catalogue entry a selection was made from: the last of its path of links."""
    return selection.get("entryId", "").rsplit("::", 1)[-1]


def _number(selection: Element) -> int:
    try:
        return max(0, min(int(float(selection.get("number", "1"))), MAX_NUMBER))
    except ValueError:
        return 1


def plain_name(name: str) -> str:
    """An entry's name without the grade the catalogue adds ('Ogre Bodyguard (1a)' -> 'Ogre Bodyguard')."""
    return GRADE.sub("", name).strip()


class _Mapper:
    """One roster's reading: the ids, the server's lists, and what could not be mapped so far."""

    def __init__(self, ids: BattleScribeIds, catalogue: Catalogue) -> None:
        self.ids = ids
        self.catalogue = catalogue
        self.unmapped: list[str] = []
        self.notes: list[str] = []
        self._skills = skill_names(catalogue)

    # ---- single entries, by id and then by name
    def item(self, eid: str, name: str) -> Item | None:
        item_id = self.ids.items.get(eid)
        if item_id is not None and item_id in self.catalogue.items:
            return self.catalogue.items[item_id]
        try:
            return self.catalogue.item(name)
        except NotFoundError:
            return None

    def skill(self, eid: str, name: str) -> str | None:
        return self.ids.skills.get(eid) or self._skills.get(lookup_key(name))

    # ---- what lies under a warrior, or in the stash
    def kit(self, selection: Element, owner: str, *, per_model: int = 1, kit: _Kit | None = None) -> _Kit:
        kit = kit if kit is not None else _Kit()
        for child in _children(selection):
            eid, number, name = entry_id(child), _number(child), plain_name(child.get("name", ""))
            kind = self.ids.structure.get(eid)
            if eid in self.ids.injuries:  # its -1s are in the profile already
                kit.injuries.append(self.ids.injuries[eid])
            elif eid in self.ids.profile_changes or kind == Structure.NOTED:
                continue
            elif kind == Structure.EXPERIENCE:
                kit.experience = (kit.experience or 0) + number
            elif kind == Structure.PROMOTED:
                kit.promoted = True
            elif kind == Structure.GOLD:
                kit.gold = (kit.gold or 0) + number
            elif kind == Structure.WYRDSTONE:
                kit.wyrdstone = (kit.wyrdstone or 0) + number
            elif kind == Structure.CONTAINER or child.get("type") == "model":  # a unit's models: their kit is the group's
                self.kit(child, owner, per_model=per_model, kit=kit)
            elif eid not in self.ids.items and (skill := self.skill(eid, name)) is not None:
                kit.skills.append(skill)
            elif (item := self.item(eid, name)) is not None:
                kit.equipment += [item.name] * max(1, number // per_model)
            elif _children(child):
                self.kit(child, owner, per_model=per_model, kit=kit)
            else:
                self.unmapped.append(f"{owner}: {name or eid}" + (f" ×{number}" if number > 1 else ""))
        return kit

    # ---- warriors
    def fighter(self, selection: Element, wlist: WarbandList) -> FighterType | None:
        fighter_id = self.ids.fighters.get(wlist.id, {}).get(entry_id(selection))
        found = next((f for f in wlist.fighters if f.id == fighter_id), None)
        if found is not None:
            return found
        try:
            return wlist.fighter(plain_name(selection.get("name", "")))
        except NotFoundError:
            return None

    def hired_sword(self, selection: Element) -> HiredSword | None:
        sword_id = self.ids.hired_swords.get(entry_id(selection))
        if sword_id is not None and sword_id in self.catalogue.hired_swords:
            return self.catalogue.hired_swords[sword_id]
        try:
            return self.catalogue.hired_sword(plain_name(selection.get("name", "")))
        except NotFoundError:
            return None

    def warrior(self, selection: Element, kind: FighterType | HiredSword) -> dict[str, Any]:
        is_sword = isinstance(kind, HiredSword)
        models = [c for c in _children(selection) if c.get("type") == "model"]
        size = 1 if is_sword else sum(_number(m) for m in models) or max(1, _number(selection))
        name = selection.get("customName") or plain_name(selection.get("name", "")) or kind.name
        owner = f"{name} ({kind.name})"
        kit = self.kit(selection, owner, per_model=size)
        if is_sword:
            role = "hired_sword"
        else:
            assert isinstance(kind, FighterType)
            role = "hero" if kit.promoted and kind.role == "henchman" else ROLE_OF_FIGHTER[str(kind.role)]
        if role == "hero" and size > 1:
            self.notes.append(f"{owner}: a hero is one warrior; the roster had {size}, one was imported.")
            size = 1
        return {
            "name": name, "role": role, "type": kind.name, "group_size": size,
            "profile": self.profile(selection, models, kind, owner), "equipment": kit.equipment, "skills": kit.skills,
            "injuries": kit.injuries, "experience": kind.experience if kit.experience is None else kit.experience,
            "status": "active", "large": kind.large, "fighter_type": kind.id, "race": kind.race.id,
            "skill_lists": [s.id for s in kind.skill_lists], "special_rules": [r.id for r in kind.special_rules],
            "hand_edits": [],
        }

    def profile(self, selection: Element, models: list[Element], kind: FighterType | HiredSword, owner: str) -> dict[str, int]:
        """The roster's profile of the warrior (it holds his advances and injuries), else his list's."""
        for holder in (selection, *models):
            for profile in holder.findall(f"{NS}profiles/{NS}profile"):
                if profile.get("typeName") != "Model":
                    continue
                read: dict[str, int] = {}
                for characteristic in profile.iter(f"{NS}characteristic"):
                    ours = CHARACTERISTICS.get(characteristic.get("name", "").strip().upper())
                    value = (characteristic.text or "").strip()
                    if ours is not None and re.fullmatch(r"\d{1,2}", value):
                        read[ours] = int(value)
                if len(read) == len(CHARACTERISTICS):
                    return read
        self.notes.append(f"{owner}: the roster shows no whole profile; the list's profile was used.")
        return kind.profile.as_dict()


# The skills of the catalogues last read, by lookup key: a server's catalogue is one object while
# its lists do not change, so its index is built once (kept with the catalogue, so its id stays its own).
_SKILL_NAMES: dict[int, tuple[Catalogue, dict[str, str]]] = {}
SKILL_NAMES_KEPT = 16


def skill_names(catalogue: Catalogue) -> dict[str, str]:
    """Every skill of the catalogue's lists (common and warbands' own), its name by lookup key."""
    kept = _SKILL_NAMES.get(id(catalogue))
    if kept is not None and kept[0] is catalogue:
        return kept[1]
    names = {lookup_key(s.name): s.name for sl in catalogue.skill_lists.values() for s in sl.skills}
    for wlist in catalogue.warbands.values():
        names.update({lookup_key(s.name): s.name for sl in wlist.skill_lists.values() for s in sl.skills})
    _SKILL_NAMES[id(catalogue)] = (catalogue, names)
    while len(_SKILL_NAMES) > SKILL_NAMES_KEPT:
        _SKILL_NAMES.pop(next(iter(_SKILL_NAMES)))
    return names


def _forces(root: Element) -> Iterator[Element]:
    yield from root.iter(f"{NS}force")


def _warband_list(force: Element, ids: BattleScribeIds, catalogue: Catalogue) -> WarbandList | None:
    list_id = ids.catalogues.get(force.get("catalogueId", ""))
    if list_id is not None and list_id in catalogue.warbands:
        return catalogue.warbands[list_id]
    return catalogue.find_warband(plain_name(force.get("catalogueName", "")))


def _unique_names(warriors: list[dict[str, Any]]) -> None:
    """Names as our rosters allow them: at most 64 characters, no '/', no two alike ('Marksmen', 'Marksmen 2')."""
    seen: set[str] = set()
    for warrior in warriors:
        base = " ".join(str(warrior["name"]).replace("/", "-").split())[:NAME_MAX] or warrior["type"]
        name, n = base, 1
        while lookup_key(name) in seen:
            n += 1
            name = f"{base[:NAME_MAX - len(str(n)) - 1]} {n}"
        seen.add(lookup_key(name))
        warrior["name"] = name


def read_roster(root: Element, ids: BattleScribeIds, catalogue: Catalogue, at: str) -> RosterReading:
    """The warband file a roster maps to (``at``: its export stamp); RosterFileError for a roster of
    another game or of a warband none of the server's lists is."""
    if root.get("gameSystemId") != ids.game_system_id:
        system = (root.get("gameSystemName") or "another game").strip()[:60]
        raise RosterFileError(f"This roster was made for {system}, not {ids.game_system_name}: only rosters of the "
                              f"\"mordheim\" catalogue can be imported. Nothing was stored.")
    mapper = _Mapper(ids, catalogue)
    wlist: WarbandList | None = None
    warriors: list[dict[str, Any]] = []
    stash = _Kit()
    unknown_forces: list[str] = []
    for force in _forces(root):
        if force.get("catalogueId") in ids.hired_sword_catalogues:
            continue  # read once the warband's list is known
        found = _warband_list(force, ids, catalogue)
        if found is None or (wlist is not None and found is not wlist):
            unknown_forces.append(plain_name(force.get("catalogueName", "")) or "a force with no catalogue")
            continue
        wlist = found
        for selection in _children(force):
            kind = ids.structure.get(entry_id(selection))
            if kind == Structure.STASH:
                mapper.kit(selection, "stash", kit=stash)
            elif kind == Structure.NOTED:
                continue
            elif (fighter := mapper.fighter(selection, wlist)) is not None:
                warriors.append(mapper.warrior(selection, fighter))
            else:
                mapper.unmapped.append(f"{plain_name(selection.get('name', '')) or entry_id(selection)} "
                                       f"(not a fighter of the {wlist.name} list)")
    if wlist is None:
        named = ", ".join(f"'{n[:40]}'" for n in unknown_forces) or "none"
        raise RosterFileError(f"The roster's warband ({named}) is none of this server's warband lists, so it cannot be "
                              "imported. Nothing was stored.")
    for force in _forces(root):
        if force.get("catalogueId") in ids.hired_sword_catalogues:
            for selection in _children(force):
                sword = mapper.hired_sword(selection)
                if sword is not None:
                    warriors.append(mapper.warrior(selection, sword))
                else:
                    mapper.unmapped.append(f"{plain_name(selection.get('name', ''))} (not a hired sword the bot knows)")
    mapper.unmapped += [f"the force '{n[:40]}' (a second warband)" for n in unknown_forces]
    _unique_names(warriors)
    if stash.gold is None:
        mapper.notes.append("The roster's stash holds no gold: the treasury starts at 0 gc.")
    roster_name = (root.get("name") or "").strip() or wlist.name
    warband = {"name": roster_name[:NAME_MAX], "type": wlist.name, "list": wlist.id, "notes": "",
               "gold_crowns": stash.gold or 0, "wyrdstone_shards": stash.wyrdstone or 0, "stash": stash.equipment}
    mapper.unmapped += [f"stash: skill {s}" for s in stash.skills] + [f"stash: injury {i}" for i in stash.injuries]
    return RosterReading(
        warband_file={"format": FORMAT, "version": VERSION, "exported_at": at, "warband": warband, "warriors": warriors,
                      "battles": []},
        roster_name=roster_name, list_name=wlist.name, unmapped=tuple(mapper.unmapped), notes=tuple(mapper.notes),
    )
