"""The post-battle sequence as a state: which step, who fought, what is waiting for a choice.

The rulebook's order (Mordheim rulebook, Campaigns: the post-battle sequence): serious injuries,
experience (with advances), exploration, selling wyrdstone, then trading and hiring. The hired
swords' upkeep, due "after each battle he fights" and paid from the treasury "in the same way as
buying new weapons or recruiting new warriors" (Hired Swords chapter, LRB p. 105), is its own
step between selling wyrdstone and trading; a sequence with no hired sword to pay passes over it. A step is
taken once; the state says which one is next and what the player still has to choose. It is
plain data (``to_json``/``from_json``) so a service can store it and resume after a restart.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

# json.dumps(..., ensure_ascii=False, separators=(",", ":")), made once (json.dumps makes one per call)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

STEP_TITLES = {  # the steps, in order
    "setup": "Who fought, and who was taken out of action",
    "injuries": "1. Injuries",
    "experience": "2. Experience",
    "exploration": "3. Exploration",
    "income": "4. Selling wyrdstone",
    "upkeep": "5. Hired swords' upkeep",
    "trading": "6. Trading and hiring",
    "done": "Finished",
}


@dataclass(frozen=True)
class Fighter:
    """A warrior (or henchman group) of the warband in this battle."""

    warrior_id: int
    name: str
    hero: bool  # leader or hero: the serious injury chart, experience for enemies out of action
    models: int  # the group's size when the battle was fought
    fought: bool = True
    out_of_action: int = 0  # heroes 0 or 1; henchmen: models taken out of action
    kills: int = 0  # enemies he took out of action (heroes)
    scenario: int = 0  # experience the scenario gives him, typed by hand (a custom scenario's, say)
    hired_sword: bool = False  # rolls a D6 out of action and gains experience as a henchman (rules/campaign_warrior.py)
    counters: int = 0  # wyrdstone counters he carried (a rulebook scenario's award counts them): see ``counters_held``
    feat: bool = False  # he did the scenario's own feat: broke through, escaped first, found the chest
    taken_by: int | None = None  # the warband (id) whose warrior took him out of action, as the game tracker recorded it

    @property
    def counters_held(self) -> int:
        """The counters he still held when the battle ended: none when he was taken out of action,
        for "a carrier taken out of action drops his counters where he fell" (Wyrdstone Hunt's
        special rules, rules_data/campaign/scenarios.json). Of a henchman group only how many
        models fell is known, not which carried them: its counters count unless every model fell
        (scenarios.json ``discrepancies``)."""
        single = self.hero or self.hired_sword or self.models <= 1
        fell = self.out_of_action >= 1 if single else self.out_of_action >= self.models
        return 0 if fell else self.counters

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> Fighter:
        """``Fighter(**stored)``, for a fighter as ``SequenceState.to_json`` stored him, made without the
        dataclass's ``__init__``: a frozen one sets its eleven fields one at a time, and a state is
        parsed with all its fighters on every step whose state is no longer kept in memory. A stored
        fighter missing a field or with an unknown one goes through ``__init__``, which refuses him."""
        if not _FIGHTER_NEEDS <= stored.keys() <= _FIGHTER_FIELDS:
            return cls(**stored)
        fighter = object.__new__(cls)
        fighter.__dict__.update(_FIGHTER_DEFAULTS)  # a field added since he was stored
        fighter.__dict__.update(stored)
        return fighter


_FIGHTER_FIELDS = frozenset(f.name for f in fields(Fighter))
_FIGHTER_DEFAULTS = {f.name: f.default for f in fields(Fighter) if f.default is not MISSING}
_FIGHTER_NEEDS = _FIGHTER_FIELDS - _FIGHTER_DEFAULTS.keys()


@dataclass(frozen=True)
class Pending:
    """Something the player must choose before the sequence goes on."""

    kind: str  # pit_fight | choose | skill | talent | place_hero
    warrior_id: int
    name: str
    options: tuple[str, ...] = ()  # characteristics to choose from, or heroes for a place
    note: str = ""


@dataclass(frozen=True)
class SequenceState:
    step: str
    won: bool
    battle: str  # "battle 7 (win, Skirmish)" for the summary
    fighters: tuple[Fighter, ...]
    pending: tuple[Pending, ...] = ()
    lines: tuple[str, ...] = ()  # the public summary, one line per event
    dice: tuple[str, ...] = ()  # every die, as shown in the channel
    raised: tuple[tuple[int, str], ...] = ()  # (warrior id, characteristic) a henchman group raised
    missed: tuple[tuple[int, int], ...] = ()  # (warrior id, games) he must sit out
    captured: tuple[int, ...] = ()  # warriors held by the enemy
    explore_dice: tuple[int, ...] = ()
    shards_found: int = 0  # by exploring, and by the scenario's counters (extra["scenario_shards"]): the standings count both
    gold_found: int = 0
    items_found: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # to know or record by hand: who sat out, a captive's fate, an upkeep beyond gold
    shards_sold: int = 0
    gold_from_sale: int = 0
    explored: bool = False
    sold: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # JSON: experience_done, the awards, the exploration's lines
    line_steps: tuple[str, ...] = ()  # the step each of ``lines`` came from (the summary's sections); shorter before issue 16
    found_notes: tuple[str, ...] = ()  # what exploring found that is not an item for the stash (a blessing, a free Zombie...)

    def fighter(self, warrior_id: int) -> Fighter | None:
        return next((f for f in self.fighters if f.warrior_id == warrior_id), None)

    def to_json(self) -> str:
        # The text json.dumps(asdict(self)) wrote, at a sixth of the cost (asdict deep-copies every
        # value; every step saves the state): JSON writes tuples as lists itself, so only the
        # fighters and pending choices need turning into dicts, fields in declaration order as
        # asdict gives them. tests/engine/test_campaign_postbattle.py compares the two.
        data = {name: getattr(self, name) for name in _STATE_FIELDS}
        data["fighters"] = [vars(x) for x in self.fighters]
        data["pending"] = [vars(x) for x in self.pending]
        return _ENCODER.encode(data)

    @classmethod
    def from_json(cls, text: str) -> SequenceState:
        raw = json.loads(text)
        return cls(
            step=raw["step"], won=raw["won"], battle=raw["battle"],
            fighters=tuple(Fighter.from_stored(f) for f in raw["fighters"]),
            pending=tuple(Pending(**{**p, "options": tuple(p["options"])}) for p in raw["pending"]),
            lines=tuple(raw["lines"]), dice=tuple(raw["dice"]),
            raised=tuple((int(a), str(b)) for a, b in raw["raised"]),
            missed=tuple((int(a), int(b)) for a, b in raw["missed"]),
            captured=tuple(raw["captured"]), explore_dice=tuple(raw["explore_dice"]),
            shards_found=raw["shards_found"], gold_found=raw["gold_found"], items_found=tuple(raw["items_found"]),
            notes=tuple(raw["notes"]), shards_sold=raw["shards_sold"], gold_from_sale=raw["gold_from_sale"],
            explored=raw["explored"], sold=raw["sold"], extra=raw.get("extra", {}), line_steps=tuple(raw.get("line_steps", ())),
            found_notes=tuple(raw.get("found_notes", ())),
        )


_STATE_FIELDS = tuple(f.name for f in fields(SequenceState))  # in declaration order, as asdict gives them
