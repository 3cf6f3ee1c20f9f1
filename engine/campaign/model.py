"""What the warband keeper hands back: plain frozen dataclasses, no database handles."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.campaign.rules.validation import CHARACTERISTICS, name_key

PROFILE_COLUMNS = {c: c.lower() for c in CHARACTERISTICS}  # "Ld" -> "ld"


@dataclass(frozen=True)
class Profile:
    M: int
    WS: int
    BS: int
    S: int
    T: int
    W: int
    I: int  # noqa: E741 - the game's name for Initiative
    A: int
    Ld: int

    def as_dict(self) -> dict[str, int]:
        return {c: getattr(self, c) for c in CHARACTERISTICS}

    def __str__(self) -> str:
        return " ".join(f"{c}{getattr(self, c)}" for c in CHARACTERISTICS)


@dataclass(frozen=True)
class Warrior:
    id: int
    warband: str
    name: str
    role: str  # leader | hero | henchmen | hired_sword
    warrior_type: str
    group_size: int  # models in a henchman group; 1 for everyone else
    profile: Profile
    equipment: tuple[str, ...]
    skills: tuple[str, ...]
    injuries: tuple[str, ...]
    experience: int
    status: str  # active | dead | retired
    large: bool  # large creature: counts 20 towards the rating
    # What the warband list says of it (rules_data/warbands/); None/empty for a warrior made by hand.
    fighter_type: str | None = None  # the list's fighter id, or the hired sword's id
    race: str | None = None  # race id: its maximum profile caps the characteristics
    skill_lists: tuple[str, ...] = ()  # skill list ids it may learn from
    special_rules: tuple[str, ...] = ()  # special rule ids (the list's own or the shared ones)
    hand_edits: tuple[str, ...] = ()  # fields changed by hand since it was hired from the list

    @property
    def is_hero(self) -> bool:
        """Leader or hero: counts towards the warband's heroes (hired swords do not)."""
        return self.role in ("leader", "hero")

    @property
    def is_hired_sword(self) -> bool:
        return self.role == "hired_sword"

    @property
    def from_list(self) -> bool:
        """Hired from the warband's list (or a hired sword from the catalogue), not made by hand."""
        return self.fighter_type is not None

    def snapshot(self) -> dict[str, Any]:
        """The warrior as JSON: the export format and the ledger's before/after."""
        return {
            "name": self.name,
            "role": self.role,
            "type": self.warrior_type,
            "group_size": self.group_size,
            "profile": self.profile.as_dict(),
            "equipment": list(self.equipment),
            "skills": list(self.skills),
            "injuries": list(self.injuries),
            "experience": self.experience,
            "status": self.status,
            "large": self.large,
            "fighter_type": self.fighter_type,
            "race": self.race,
            "skill_lists": list(self.skill_lists),
            "special_rules": list(self.special_rules),
            "hand_edits": list(self.hand_edits),
        }


@dataclass(frozen=True)
class Warband:
    id: int
    guild_id: int
    owner_id: int
    name: str
    warband_type: str
    notes: str
    gold_crowns: int
    wyrdstone_shards: int
    created_at: str
    updated_at: str
    warriors: tuple[Warrior, ...] = ()
    list_id: str | None = None  # the warband list it was built from; None: a custom type
    stash: tuple[str, ...] = ()  # items kept by the warband, not carried by anyone

    def snapshot(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.warband_type,
            "list": self.list_id,
            "owner_id": self.owner_id,
            "notes": self.notes,
            "gold_crowns": self.gold_crowns,
            "wyrdstone_shards": self.wyrdstone_shards,
            "stash": list(self.stash),
        }


@dataclass(frozen=True)
class WarbandSummary:
    name: str
    owner_id: int
    warband_type: str
    gold_crowns: int
    wyrdstone_shards: int


@dataclass(frozen=True)
class RatingLine:
    what: str  # e.g. "Marksmen (3 x henchmen)"
    points: int
    how: str  # e.g. "3 x (5 + 4 xp)"


@dataclass(frozen=True)
class Rating:
    total: int
    lines: tuple[RatingLine, ...]
    rule: str  # the rule in words, from the campaign data


@dataclass(frozen=True)
class Advance:
    warrior: str
    role: str
    experience: int
    next_advance: int | None  # experience total of the next advance; None when no more remain


@dataclass(frozen=True)
class WarriorCost:
    """What a warrior cost: the list's hire cost (every model) or a hired sword's fee, and its kit."""

    hire: int  # 0 when made by hand (no list says what it cost)
    kit: int  # items carried at list price (trading post price off the list), every model; the first dagger free
    unpriced: tuple[str, ...] = ()  # items no list or trading post knows, not counted

    @property
    def total(self) -> int:
        return self.hire + self.kit


@dataclass(frozen=True)
class HireChoice:
    """A fighter type of the warband's list, and how many more the warband may hire now."""

    name: str
    role: str  # leader | hero | henchman
    cost: int  # per model
    room: int  # 0: none now
    why_not: str  # the limit in the way when room is 0


@dataclass(frozen=True)
class WarbandSheet:
    """Everything ``/warband show`` displays."""

    warband: Warband
    rating: Rating
    advances: tuple[Advance, ...]
    models: int  # active warriors, counting each henchman in a group (hired swords do not count)
    max_models: int
    max_models_reasons: tuple[str, ...]
    record: dict[str, int]  # battles: win/loss/draw counts
    list_name: str | None = None  # the warband list it is built from; None: a custom type
    list_source: str = ""
    list_missing: bool = False  # it names a list this server does not have (any more)
    costs: dict[int, WarriorCost] = field(default_factory=dict)  # warrior id -> cost
    value: int = 0  # every active warrior's cost, kit included
    stash_value: int = 0
    heroes: int = 0
    max_heroes: int = 6
    can_hire: tuple[HireChoice, ...] = ()


@dataclass(frozen=True)
class XpResult:
    warrior: Warrior
    advances: tuple[int, ...]  # thresholds crossed: one advance roll each
    next_advance: int | None


@dataclass(frozen=True)
class Battle:
    id: int
    warband: str
    warband_id: int
    fought_on: str
    scenario: str
    opponents: str
    result: str
    notes: str
    recorded_by: int

    def snapshot(self) -> dict[str, Any]:
        return {
            "fought_on": self.fought_on,
            "scenario": self.scenario,
            "opponents": self.opponents,
            "result": self.result,
            "notes": self.notes,
        }


@dataclass(frozen=True)
class LedgerEntry:
    id: int
    warband: str
    what: str
    before: Any
    after: Any
    reason: str
    member_id: int
    created_at: str
    undoes_id: int | None
    undone: bool
    batch_id: int | None = None  # the member action this row belongs to; undo takes a batch back whole

    def changes(self) -> list[tuple[str, Any, Any]]:
        """(field, before, after) for each field an update changed; empty for create/delete."""
        if not isinstance(self.before, dict) or not isinstance(self.after, dict):
            return []
        return [(k, self.before.get(k), self.after.get(k)) for k in self.after if self.before.get(k) != self.after.get(k)]


@dataclass(frozen=True)
class TreasuryAudit:
    gold_crowns: int
    wyrdstone_shards: int
    ledger_gold_crowns: int
    ledger_wyrdstone_shards: int

    @property
    def balanced(self) -> bool:
        return (self.gold_crowns, self.wyrdstone_shards) == (self.ledger_gold_crowns, self.ledger_wyrdstone_shards)


def _names(column: str) -> tuple[str, ...]:
    """A stored JSON list of names; most are empty, and a roster sheet reads 90 of them."""
    return () if column == "[]" else tuple(json.loads(column))


_WARRIORS_KEPT = 4096
_warriors: dict[tuple, Warrior] = {}


def warrior_from_row(row: dict[str, Any], warband: str) -> Warrior:
    """The warrior a stored row describes. Rows read before (every column equal) give back the
    same frozen object: a roster rebuilt after one change re-reads only what changed."""
    key = (warband, *row.values())
    warrior = _warriors.get(key)
    if warrior is None:
        warrior = _warrior_from_row(row, warband)
        if len(_warriors) >= _WARRIORS_KEPT:
            _warriors.clear()
        _warriors[key] = warrior
    return warrior


def _warrior_from_row(row: dict[str, Any], warband: str) -> Warrior:
    return Warrior(
        id=row["id"],
        warband=warband,
        name=row["name"],
        role=row["role"],
        warrior_type=row["warrior_type"],
        group_size=row["group_size"],
        profile=Profile(**{c: row[col] for c, col in PROFILE_COLUMNS.items()}),
        equipment=_names(row["equipment"]),
        skills=_names(row["skills"]),
        injuries=_names(row["injuries"]),
        experience=row["experience"],
        status=row["status"],
        large=bool(row["large"]),
        # a snapshot made by hand (``/warrior add``) may leave out what only list warriors have
        fighter_type=row.get("fighter_type"),
        race=row.get("race"),
        skill_lists=_names(row.get("skill_lists", "[]")),
        special_rules=_names(row.get("special_rules", "[]")),
        hand_edits=_names(row.get("hand_edits", "[]")),
    )


def warband_from_row(row: dict[str, Any], warriors: tuple[Warrior, ...] = ()) -> Warband:
    return Warband(
        id=row["id"],
        guild_id=row["guild_id"],
        owner_id=row["owner_id"],
        name=row["name"],
        warband_type=row["warband_type"],
        notes=row["notes"],
        gold_crowns=row["gold_crowns"],
        wyrdstone_shards=row["wyrdstone_shards"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        warriors=warriors,
        list_id=row["list_id"],
        stash=_names(row["stash"]),
    )


def battle_from_row(row: dict[str, Any], warband: str) -> Battle:
    return Battle(
        id=row["id"],
        warband=warband,
        warband_id=row["warband_id"],
        fought_on=row["fought_on"],
        scenario=row["scenario"],
        opponents=row["opponents"],
        result=row["result"],
        notes=row["notes"],
        recorded_by=row["recorded_by"],
    )


def warrior_columns(snapshot: dict[str, Any]) -> dict[str, Any]:
    """Table columns for the keys present in a (possibly partial) warrior snapshot."""
    out: dict[str, Any] = {}
    for key, value in snapshot.items():
        if key == "name":
            out["name"] = value
            out["name_key"] = name_key(value)
        elif key == "type":
            out["warrior_type"] = value
        elif key == "profile":
            out.update({PROFILE_COLUMNS[c]: v for c, v in value.items()})
        elif key in ("equipment", "skills", "injuries", "skill_lists", "special_rules", "hand_edits"):
            out[key] = json.dumps(list(value)) if value else "[]"  # most are empty (see _names)
        elif key == "large":
            out["large"] = int(bool(value))
        else:
            out[key] = value
    return out


def warband_columns(snapshot: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in snapshot.items():
        if key == "name":
            out["name"] = value
            out["name_key"] = name_key(value)
        elif key == "type":
            out["warband_type"] = value
        elif key == "list":
            out["list_id"] = value
        elif key == "stash":
            out["stash"] = json.dumps(list(value))
        elif key in ("owner_id", "notes", "gold_crowns", "wyrdstone_shards"):
            out[key] = value
    return out
