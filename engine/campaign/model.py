"""The campaign's types: what the engine hands around and what storage builds from its rows.

Plain frozen dataclasses and ``StrEnum``s, no database handles and no imports from the rest of
the campaign package, so ``engine/storage`` can build them without importing anything above
itself. A ``StrEnum`` member is its stored text ("leader", "win"...), so rows, JSON and old
comparisons with strings keep working.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from engine.profile import CHARACTERISTICS, Profile

__all__ = [
    "Actor", "Advance", "Battle", "BattleResult", "CaptiveRecord", "CHARACTERISTICS", "Entity", "HireChoice", "HirelingNote",
    "LedgerEntry", "Offer", "OwnedWarband", "Profile", "Rating", "RatingLine", "Role", "SearchRecord", "SequenceRecord",
    "SequenceStatus", "Step", "TreasuryAudit", "TreasuryView", "UpkeepRecord", "name_key", "Warband", "WarbandSheet",
    "WarbandSummary", "Warrior", "WarriorCost", "XpResult",
]

class Role(StrEnum):
    LEADER = "leader"
    HERO = "hero"
    HENCHMEN = "henchmen"  # a henchman group: one row, ``group_size`` models
    HIRED_SWORD = "hired_sword"


class Status(StrEnum):
    ACTIVE = "active"
    DEAD = "dead"
    RETIRED = "retired"
    CAPTURED = "captured"  # held by another warband (serious injury 61): away (no fighting, rating or income chart),
    # but he keeps his place on the roster: counted in its limits (size, heroes, his type's maximum) until he returns


# The injuries entry of a captive his captors sold to the slavers (engine/campaign/actions/captives.py):
# he is retired (gone, alive), and this says how he went.
SOLD_TO_THE_SLAVERS = "Sold to the slavers"


class BattleResult(StrEnum):
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"

    @property
    def opposite(self) -> BattleResult:
        """The other side's result of the same battle."""
        return {BattleResult.WIN: BattleResult.LOSS, BattleResult.LOSS: BattleResult.WIN}.get(self, BattleResult.DRAW)


class Entity(StrEnum):
    """What a ledger row changed."""

    WARBAND = "warband"
    WARRIOR = "warrior"
    BATTLE = "battle"
    SEARCH = "search"  # a hero's rare-item search (its offer bought or not)
    SETTINGS = "settings"  # a server setting (no warband)


class SequenceStatus(StrEnum):
    OPEN = "open"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Step(StrEnum):
    """The post-battle sequence's steps, in the rulebook's order (rules/sequence.py)."""

    SETUP = "setup"
    INJURIES = "injuries"
    EXPERIENCE = "experience"
    EXPLORATION = "exploration"
    INCOME = "income"
    UPKEEP = "upkeep"
    TRADING = "trading"
    DONE = "done"


NAME_MAX = 64  # the longest name, in characters (engine/campaign/rules/validation.py checks it)


def name_key(name: str) -> str:
    """The form names are compared in (and stored in ``name_key`` columns): two names that look the
    same are the same name. Case, runs of spaces, compatibility forms (full-width ``Ａｌｐｈａ``, the
    ligature ``ﬁ``) and invisible formatting characters (a zero-width space) do not matter: NFKC,
    formatting characters dropped, case folded, spaces collapsed. Changing it needs a migration
    that recomputes the stored keys (engine/storage/name_keys.py)."""
    if name.isascii():  # nearly every name: NFKC leaves ASCII as it is, and casefold is lower
        return " ".join(name.split()).casefold()
    return _unicode_name_key(name)


@lru_cache(maxsize=4096)
def _unicode_name_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    # folding case can undo a normal form (and NFKC can make new capitals): the Unicode standard's
    # compatibility caseless match is NFKC(casefold(NFKC(x)))
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


ROLES = tuple(Role)
STATUSES = tuple(Status)
RESULTS = tuple(BattleResult)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts, where: the server, the member, and whether they have Manage Server there."""

    guild_id: int
    member_id: int
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class Warrior:
    id: int
    warband: str
    name: str
    role: Role
    warrior_type: str
    group_size: int  # models in a henchman group; 1 for everyone else
    profile: Profile
    equipment: tuple[str, ...]
    skills: tuple[str, ...]
    injuries: tuple[str, ...]
    experience: int
    status: Status
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
        return self.role in (Role.LEADER, Role.HERO)

    @property
    def is_hired_sword(self) -> bool:
        return self.role == Role.HIRED_SWORD

    @property
    def is_active(self) -> bool:
        return self.status == Status.ACTIVE

    @property
    def holds_place(self) -> bool:
        """On the roster for its limits: active, or held captive (he comes back to his place)."""
        return self.status in (Status.ACTIVE, Status.CAPTURED)

    @property
    def fate(self) -> str:
        """His status in words for the roster: a retired captive sold to the slavers says so."""
        if self.status == Status.RETIRED and SOLD_TO_THE_SLAVERS in self.injuries:
            return "sold to the slavers, gone for good"
        return str(self.status)

    @property
    def from_list(self) -> bool:
        """Hired from the warband's list (or a hired sword from the catalogue), not made by hand."""
        return self.fighter_type is not None

    def snapshot(self) -> dict[str, Any]:
        """The warrior as JSON: the export format and the ledger's before/after."""
        return {
            "name": self.name,
            "role": str(self.role),
            "type": self.warrior_type,
            "group_size": self.group_size,
            "profile": self.profile.as_dict(),
            "equipment": list(self.equipment),
            "skills": list(self.skills),
            "injuries": list(self.injuries),
            "experience": self.experience,
            "status": str(self.status),
            "large": self.large,
            "fighter_type": self.fighter_type,
            "race": self.race,
            "skill_lists": list(self.skill_lists),
            "special_rules": list(self.special_rules),
            "hand_edits": list(self.hand_edits),
        }

    @classmethod
    def from_snapshot(cls, snapshot: dict[str, Any], *, id: int, warband: str) -> Warrior:  # noqa: A002 - the row's id
        """The warrior a (checked) snapshot describes; keys a hand-made snapshot leaves out take their defaults."""
        return cls(
            id=id,
            warband=warband,
            name=snapshot["name"],
            role=Role(snapshot["role"]),
            warrior_type=snapshot["type"],
            group_size=snapshot.get("group_size", 1),
            profile=Profile(**snapshot["profile"]),
            equipment=tuple(snapshot.get("equipment", ())),
            skills=tuple(snapshot.get("skills", ())),
            injuries=tuple(snapshot.get("injuries", ())),
            experience=snapshot.get("experience", 0),
            status=Status(snapshot.get("status", Status.ACTIVE)),
            large=bool(snapshot.get("large", False)),
            fighter_type=snapshot.get("fighter_type"),
            race=snapshot.get("race"),
            skill_lists=tuple(snapshot.get("skill_lists", ())),
            special_rules=tuple(snapshot.get("special_rules", ())),
            hand_edits=tuple(snapshot.get("hand_edits", ())),
        )


@dataclass(frozen=True, slots=True)
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
    list_id: str | None = None  # the warband list it is built from; None: a custom type
    grade_off: str | None = None  # its list's grade when the server no longer plays that grade


@dataclass(frozen=True)
class OwnedWarband:
    """A warband one member owns, and the server it belongs to (what a direct message may offer them)."""

    guild_id: int
    name: str
    warband_type: str


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
    thresholds: tuple[int, ...] = ()  # the experience totals of every advance of its role (the campaign tables)


@dataclass(frozen=True)
class WarriorCost:
    """What a warrior cost: the list's hire cost (every model) or a hired sword's fee, and its kit."""

    hire: int  # 0 when made by hand (no list says what it cost)
    kit: int  # items carried at list price (trading post price off the list), every model; the first dagger free
    unpriced: tuple[str, ...] = ()  # items no list or trading post knows, not counted
    listed: bool = True  # hired from a list or as a hired sword; False: made by hand (hire 0 says nothing then)

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
    list_grade: str | None = None  # the grade of its list (1a, 1b)
    grade_off: bool = False  # the server no longer plays its list's grade: it keeps playing, no new ones are made
    hirelings: tuple[HirelingNote, ...] = ()  # what its hired swords and characters bring beyond a warrior's card


@dataclass(frozen=True)
class HirelingNote:
    """What the roster sheet says of a hired sword or Dramatis Persona beyond his card."""

    warrior: str
    what: str  # 'Dramatis Persona, grade 1a' or 'hired sword, grade 1b'
    upkeep: int
    lines: tuple[str, ...]  # payment that is not gold, companions, gear, spells, what the bot does not apply
    upkeep_in: str = ""  # what an upkeep that is not gold is paid in ('1 wyrdstone shard')


@dataclass(frozen=True)
class InjuryReport:
    """``/warrior injure``'s answer: the warrior as stored, the chart's result and every die rolled
    for it (the D66 when the bot rolled it, an effect's own dice), and any advance its experience reached."""

    warrior: Warrior
    injury: str  # the chart's name: "Survives against the odds"
    dice: tuple[str, ...]  # each roll as the channel shows it: "Serious injury: D66 66"
    experience_gained: int = 0  # "Survives against the odds": +1
    advances: tuple[int, ...] = ()  # thresholds crossed: one advance roll each
    next_advance: int | None = None
    results: tuple[str, ...] = ()  # what each of its effects did, in the game's words ("Dead — re-rolled")


@dataclass(frozen=True)
class XpResult:
    warrior: Warrior
    advances: tuple[int, ...]  # thresholds crossed: one advance roll each
    next_advance: int | None
    gains_experience: bool = True  # False: an animal, a Dramatis Persona; no advance, whatever is typed


@dataclass(frozen=True, slots=True)
class Battle:
    id: int
    warband: str
    warband_id: int
    fought_on: str
    scenario: str
    opponents: str
    result: BattleResult
    notes: str
    recorded_by: int
    opponent_warband_id: int | None = None  # the other warband of the server, when recorded on both sides
    pair_id: int | None = None  # both sides' rows carry the first row's id
    scenario_id: str | None = None  # the rulebook scenario (rules_data/campaign/scenarios.json); None: custom or none
    rating: int | None = None  # the warband's rating when the battle was recorded (against a warband of the server)
    opponent_rating: int | None = None  # and the opponent's, then

    @property
    def custom_scenario(self) -> bool:
        """A scenario was named, and it is not one of the rulebook's."""
        return bool(self.scenario) and self.scenario_id is None

    def snapshot(self) -> dict[str, Any]:
        """The battle as an export file carries it: what was typed. An import finds the scenario's id
        again from its name; the ratings belong to a pair of this server's warbands and stay here."""
        return {
            "fought_on": self.fought_on,
            "scenario": self.scenario,
            "opponents": self.opponents,
            "result": str(self.result),
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
    entity: Entity | None = None
    entity_id: int | None = None
    subject: str | None = None  # the warrior the row changed, by name (filled when the ledger is read to show)
    warband_id: int | None = None  # the warband the row changed (None: a server setting)

    def changes(self) -> list[tuple[str, Any, Any]]:
        """(field, before, after) for each field an update changed; empty for create/delete."""
        if not isinstance(self.before, dict) or not isinstance(self.after, dict):
            return []
        return [(k, self.before.get(k), self.after.get(k)) for k in self.after if self.before.get(k) != self.after.get(k)]


@dataclass(frozen=True, kw_only=True)
class TreasuryView:
    """`/warband treasury` with no amount: what the warband holds, and where it came from lately."""

    sheet: WarbandSheet  # gold, shards, the stash and its worth
    changes: tuple[LedgerEntry, ...]  # the newest changes to gold or shards, newest first


@dataclass(frozen=True)
class TreasuryAudit:
    gold_crowns: int
    wyrdstone_shards: int
    ledger_gold_crowns: int
    ledger_wyrdstone_shards: int

    @property
    def balanced(self) -> bool:
        return (self.gold_crowns, self.wyrdstone_shards) == (self.ledger_gold_crowns, self.ledger_wyrdstone_shards)


@dataclass(frozen=True, slots=True)
class SequenceRecord:
    """A stored post-battle sequence (its state is rules/sequence.py's ``SequenceState`` as JSON)."""

    id: int
    warband_id: int
    battle_id: int | None
    started_by: int
    step: Step
    state_json: str
    batch_id: int | None  # the ledger batch of its changes (None until one)
    version: int  # grows with every step: a button carrying an older one is refused
    status: SequenceStatus
    created_at: str
    updated_at: str
    message_ref: str = ""  # where it is shown, 'channel id:message id' ('' before it was posted)


@dataclass(frozen=True, slots=True)
class CaptiveRecord:
    """A warrior held by another warband (serious injury 61), and what became of him."""

    id: int
    warband_id: int  # his own warband
    warrior_id: int
    captor_id: int | None  # the warband holding him; None: one outside this server's campaign
    battle_id: int | None
    batch_id: int | None  # the ledger batch that captured him (undone: he was never taken)
    ransom: int | None  # what the captor asks; None: no ransom offered yet
    outcome: str  # '' while held; ransomed | exchanged | sold
    created_at: str


@dataclass(frozen=True, slots=True)
class UpkeepRecord:
    """A hired sword's upkeep paid for one battle."""

    warrior_id: int
    battle_id: int
    gold: int
    batch_id: int | None  # undone: not paid


@dataclass(frozen=True, slots=True)
class SearchRecord:
    """A hero's search for a rare item after a battle (kept so a found item can be bought later)."""

    id: int
    warband_id: int
    warrior_id: int | None
    searcher: str
    item_id: str
    item_name: str
    rarity: int
    roll: str  # the dice as shown, e.g. '2d6 (5, 4) = 9'
    modifier: int
    total: int
    found: bool
    price: int | None  # what the found item costs; None when not found
    price_roll: str  # a variable price's dice as shown
    battles: int  # battles the warband had recorded when searching
    bought: bool
    created_at: str


@dataclass(frozen=True, kw_only=True)
class Offer:
    """A rare item a hero found and the warband has not bought yet."""

    id: int
    item: str
    item_id: str
    price: int
    searcher: str
    price_roll: str
