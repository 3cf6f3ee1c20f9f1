"""The rulebook's scenarios as data (rules_data/campaign/scenarios.json): the 2D6 table, each scenario and what it awards.

Source: the Mordheim rulebook's and Living Rulebook's Scenarios chapter (listed in seed 000:85;
the chapter itself is not in the seeds, seeds/INVENTORY.md section 1). The data file names the
public transcriptions each figure was checked against, where they disagree and what was left out
(rules_data/campaign/README.md). Summaries there are our own words.

What other code calls, all pure:

- ``roll(dice)``: the scenario table, on two D6 from the engine's one source of dice (typed at
  the table or rolled by the bot; ``table_dice`` checks what was typed);
- ``scenario_by_name(text)``: a scenario by id, name, alias or number ("scenario 3"), spelling
  tolerant; a weak match names the closest instead of guessing;
- ``battle_scenario(text)``: what ``/battle record`` stores: a rulebook scenario's id, or a custom
  scenario (no id), refusing a near miss of a rulebook name;
- ``awards_for(scenario, outcome)``: the experience one warrior (a hero, or a henchman group as
  one) gains from the scenario, award by award.

The file is read and checked once per process; a table row naming no scenario, an award counting
a fact the engine does not know, or a gap in the table stops the load with every problem.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from rapidfuzz import fuzz, process

from engine.campaign.model import Role
from engine.dice.source import Dice, Roll, parse_entered
from engine.editions import RULES_DATA
from engine.errors import MordheimError, NotFoundError

SCENARIO_DATA = RULES_DATA / "campaign" / "scenarios.json"
TABLE_FACES = range(2, 13)  # every total of 2D6
CUSTOM_PREFIX = "custom:"  # "/battle record scenario:custom: ..." keeps a name that looks like a rulebook one
SURE_MATCH = 85  # rapidfuzz ratio at and above which a misspelt name is read as the scenario
CLEAR_LEAD = 5  # ... when no other scenario comes this close to it
NEAR_MISS = 85  # a battle's scenario this close to a rulebook name is asked about, not stored as custom
MAX_COUNTERS = 20  # wyrdstone counters one warrior can hold at the end of a battle (the most a table has is D3+1)
MAX_KILLS = 30  # enemies one warrior takes out of action in one battle (as engine/campaign/rules/experience.py)
# The awards every scenario of the rulebook gives (lrb.json experience_awards has the same three).
COMMON_AWARDS = frozenset({"survives", "winning-leader", "enemy-out-of-action"})


class Fact(StrEnum):
    """What of a warrior's battle an award counts (``WarriorOutcome`` holds each one)."""

    SURVIVED = "survived"
    WON = "won"
    ENEMIES_OUT_OF_ACTION = "enemies_out_of_action"
    WYRDSTONE_COUNTERS = "wyrdstone_counters"
    BROKE_THROUGH = "broke_through"
    ESCAPED_FIRST = "escaped_first"
    FOUND_CHEST = "found_chest"


class Recipients(StrEnum):
    """Who an award is for. Hired swords gain experience as henchmen do (LRB, Hired Swords chapter),
    so they share the henchmen's awards and not the heroes' (such as enemies out of action)."""

    LEADER = "leader"
    HEROES = "heroes"
    HEROES_AND_HENCHMEN = "heroes_and_henchmen"

    def include(self, role: Role) -> bool:
        if self is Recipients.LEADER:
            return role is Role.LEADER
        if self is Recipients.HEROES:
            return role in (Role.LEADER, Role.HERO)
        return True


@dataclass(frozen=True, kw_only=True)
class Award:
    id: str
    name: str
    amount: int
    fact: Fact
    who: Recipients
    summary: str


@dataclass(frozen=True, kw_only=True)
class ChestItem:
    item: str
    needs: int | None  # the D6 that finds it; None: always found


@dataclass(frozen=True, kw_only=True)
class Scenario:
    id: str
    number: int  # its number in the rulebook ("Scenario 3")
    name: str
    aliases: tuple[str, ...]
    attacker_and_defender: bool  # who is which: the lower-rated player chooses (the pre-battle sequence)
    warbands: int  # how many warbands it is written for (2 for each of the rulebook's)
    multiplayer: bool  # more may play it under the multiplayer rules (Town Cryer 5); False: never more than ``warbands``
    summary: str
    setup: str
    special_rules: str
    ending: str
    after_battle: str
    counters_are_shards: bool  # each wyrdstone counter held at the end is a shard for the warband (Wyrdstone Hunt)
    chest: tuple[ChestItem, ...]
    awards: tuple[Award, ...]
    source: str

    @property
    def title(self) -> str:
        return f"Scenario {self.number}: {self.name}"


@dataclass(frozen=True, kw_only=True)
class TableRow:
    low: int
    high: int
    scenario: Scenario | None  # None: the lower-rated player chooses
    summary: str


@dataclass(frozen=True, kw_only=True)
class ScenarioRoll:
    """One roll on the scenario table, with its dice as the channel shows them."""

    roll: Roll
    row: TableRow

    @property
    def total(self) -> int:
        return self.roll.total

    @property
    def scenario(self) -> Scenario | None:
        """The scenario rolled, or None when the lower-rated player chooses (2 and 12)."""
        return self.row.scenario


@dataclass(frozen=True, kw_only=True)
class UnderdogBand:
    low: int
    high: int | None  # None: and above
    experience: int


@dataclass(frozen=True, kw_only=True)
class ScenarioBook:
    """Everything scenarios.json holds, checked."""

    scenarios: tuple[Scenario, ...]  # in the rulebook's order
    table: tuple[TableRow, ...]
    table_source: str
    pre_battle: str
    underdog_bands: tuple[UnderdogBand, ...]
    underdog_summary: str
    underdog_receives: str
    underdog_source: str
    source: str

    def with_id(self, scenario_id: str) -> Scenario | None:
        return next((s for s in self.scenarios if s.id == scenario_id), None)

    def row(self, total: int) -> TableRow:
        return next(r for r in self.table if r.low <= total <= r.high)


@dataclass(frozen=True, kw_only=True)
class WarriorOutcome:
    """One warrior's battle, as the scenario's awards count it. A henchman group is one warrior
    here (experience is kept per group); its counts are its members' together."""

    role: Role
    survived: bool = True  # lived through the battle (out of action but alive counts); a group: any member did
    warband_won: bool = False
    enemies_out_of_action: int = 0
    wyrdstone_counters: int = 0  # held when the battle ended
    broke_through: bool = False  # Breakthrough: reached the defender's table edge
    escaped_first: bool = False  # Street Fight: the first Hero off the far end of the street
    found_chest: bool = False  # Hidden Treasure
    gains_experience: bool = True  # False for animals and others whose entry says they never do

    def count(self, fact: Fact) -> int:
        """How many times an award counting ``fact`` is given: 0 or 1 for a yes/no fact."""
        if fact is Fact.SURVIVED:
            return int(self.survived)
        if fact is Fact.WON:
            return int(self.warband_won)
        if fact is Fact.ENEMIES_OUT_OF_ACTION:
            return self.enemies_out_of_action
        if fact is Fact.WYRDSTONE_COUNTERS:
            return self.wyrdstone_counters
        if fact is Fact.BROKE_THROUGH:
            return int(self.broke_through)
        if fact is Fact.ESCAPED_FIRST:
            return int(self.escaped_first)
        return int(self.found_chest)


@dataclass(frozen=True, kw_only=True)
class AwardGained:
    award: str  # the award's id ("wyrdstone-counter")
    name: str
    amount: int

    def __str__(self) -> str:
        return f"+{self.amount} {self.name}"


@dataclass(frozen=True, kw_only=True)
class BattleScenario:
    """A battle's scenario as ``/battle record`` stores it."""

    name: str  # the rulebook's name, or the custom text; "" for none
    scenario_id: str | None  # None: a custom scenario (or none)

    @property
    def custom(self) -> bool:
        return bool(self.name) and self.scenario_id is None


# ------------------------------------------------------------------ reading the file
def _problems(data: dict[str, Any]) -> list[str]:
    """What the schema cannot say: cross-references, the table's coverage, the underdog bands."""
    problems: list[str] = []
    ids = [s["id"] for s in data["scenarios"]]
    if len(ids) != len(set(ids)):
        problems.append("two scenarios share an id")
    covered: dict[int, int] = {}
    for row in data["scenario_table"]["rows"]:
        if row.get("scenario") is not None and row["scenario"] not in ids:
            problems.append(f"the table's row {row['from']}-{row['to']} names no scenario: '{row['scenario']}'")
        for total in range(row["from"], row["to"] + 1):
            covered[total] = covered.get(total, 0) + 1
    if sorted(covered) != list(TABLE_FACES) or any(n != 1 for n in covered.values()):
        problems.append("the scenario table must cover every 2D6 total from 2 to 12 exactly once")
    for s in data["scenarios"]:
        for a in s["awards"]:
            if a["fact"] not in set(Fact) or a["who"] not in set(Recipients):
                problems.append(f"{s['id']}: award '{a['id']}' counts '{a['fact']}' for '{a['who']}', which the engine does not know")
    expected = 0
    for band in data["underdog"]["rows"]:
        if band["from"] != expected:
            problems.append(f"the underdog bands must run on from 0: a band starts at {band['from']}, not {expected}")
        if band["to"] is None:
            break
        expected = band["to"] + 1
    if data["underdog"]["rows"][-1]["to"] is not None:
        problems.append("the last underdog band must be open-ended ('to': null)")
    return problems


def _scenario(raw: dict[str, Any]) -> Scenario:
    return Scenario(
        id=raw["id"], number=int(raw["number"]), name=raw["name"], aliases=tuple(raw["aliases"]),
        attacker_and_defender=bool(raw["attacker_and_defender"]), warbands=int(raw["warbands"]),
        multiplayer=bool(raw["multiplayer"]), summary=raw["summary"], setup=raw["setup"],
        special_rules=raw["special_rules"], ending=raw["ending"], after_battle=raw.get("after_battle", ""),
        counters_are_shards=bool(raw.get("counters_are_shards", False)),
        chest=tuple(ChestItem(item=c["item"], needs=c["needs"]) for c in raw.get("chest", ())),
        awards=tuple(Award(id=a["id"], name=a["name"], amount=int(a["amount"]), fact=Fact(a["fact"]), who=Recipients(a["who"]),
                           summary=a["summary"]) for a in raw["awards"]),
        source=raw["source"],
    )


def build_book(data: dict[str, Any]) -> ScenarioBook:
    """The book of ``data`` (scenarios.json's shape); ValueError listing every problem."""
    problems = _problems(data)
    if problems:
        raise ValueError("rules_data/campaign/scenarios.json: " + "; ".join(problems))
    scenarios = tuple(_scenario(s) for s in data["scenarios"])
    by_id = {s.id: s for s in scenarios}
    table = tuple(TableRow(low=r["from"], high=r["to"], scenario=by_id.get(r.get("scenario", "")), summary=r.get("summary", ""))
                  for r in data["scenario_table"]["rows"])
    underdog = data["underdog"]
    return ScenarioBook(
        scenarios=scenarios, table=table, table_source=data["scenario_table"]["source"], pre_battle=data["pre_battle"]["summary"],
        underdog_bands=tuple(UnderdogBand(low=b["from"], high=b["to"], experience=b["experience"]) for b in underdog["rows"]),
        underdog_summary=underdog["summary"], underdog_receives=underdog["receives"], underdog_source=underdog["source"],
        source=data["source"],
    )


@cache
def scenario_book() -> ScenarioBook:
    """The bundled scenarios, read and checked once per process."""
    return build_book(json.loads(SCENARIO_DATA.read_text(encoding="utf-8")))


# ------------------------------------------------------------------ the table
def table_dice(entered: str | None, rng: random.Random) -> Dice:
    """The dice of one roll on the table: the two D6 a player typed ("3 4"), or the bot's ``rng``."""
    faces = parse_entered(entered)
    if faces and len(faces) != 2:
        raise MordheimError(f"The scenario table is rolled on 2D6: you typed {len(faces)} dice.",
                            hint="Type both dice as rolled, e.g. `3 4`, or leave `dice` empty for the bot to roll.")
    return Dice(rng, faces)


def roll(dice: Dice) -> ScenarioRoll:
    """Roll 2D6 on the scenario table (the dice shown in ``dice.rolls`` too)."""
    faces = dice.dice(2, "Scenario table")
    return ScenarioRoll(roll=dice.rolls[-1], row=scenario_book().row(sum(faces)))


# ------------------------------------------------------------------ names
def _key(text: str) -> str:
    text = text.casefold().replace("'", "").replace("’", "")
    return " ".join(text.replace("-", " ").replace("_", " ").replace(":", " ").split())


def _answers_to(s: Scenario) -> tuple[str, ...]:
    """The lookup keys of every name ``s`` answers to: id, name, aliases, 'scenario N', 'NAME scenario'."""
    return tuple(_key(n) for n in (s.name, s.id, *s.aliases, f"scenario {s.number}", f"{s.name} scenario"))


@cache
def _names() -> dict[str, Scenario]:
    """Lookup key -> the scenario answering to it."""
    names: dict[str, Scenario] = {}
    for s in scenario_book().scenarios:
        for name in _answers_to(s):
            names.setdefault(name, s)
    return names


def scenario_with_id(scenario_id: str | None) -> Scenario | None:
    """The scenario a battle row stores (None for a custom scenario or none)."""
    return scenario_book().with_id(scenario_id) if scenario_id else None


def exact_scenario(text: str) -> Scenario | None:
    """The scenario ``text`` names exactly (case, hyphens and apostrophes aside), or None."""
    return _names().get(_key(text)) if isinstance(text, str) else None


def _closest(text: str) -> list[tuple[Scenario, float]]:
    """Scenarios by how close their names come to ``text``, best first (each scenario once)."""
    found = process.extract(_key(text), list(_names()), scorer=fuzz.ratio, limit=None, score_cutoff=50)
    best: dict[str, tuple[Scenario, float]] = {}
    for name, score, _index in found:
        s = _names()[name]
        if s.id not in best or score > best[s.id][1]:
            best[s.id] = (s, score)
    return sorted(best.values(), key=lambda pair: -pair[1])


def scenarios_like(text: str) -> list[Scenario]:
    """The scenarios a name being typed may mean (for autocomplete): every one for nothing typed,
    else those whose names start with it, then contain it, then the closest by spelling."""
    scenarios = list(scenario_book().scenarios)
    typed = _key(text or "")
    if not typed:
        return scenarios
    exact = exact_scenario(typed)  # "scenario 3" among them
    named = {s.id: [_key(n) for n in (s.name, s.id, *s.aliases)] for s in scenarios}
    starting = [s for s in scenarios if any(n.startswith(typed) for n in named[s.id])]
    containing = [s for s in scenarios if any(typed in n for n in named[s.id])]
    close = [s for s, score in _closest(typed) if score >= 60]
    return list(dict.fromkeys([*([exact] if exact else []), *starting, *containing, *close]))


def scenario_by_name(text: str) -> Scenario:
    """The scenario ``text`` names: exactly, or misspelt but clearly one scenario ("wyrdstone hnut");
    otherwise NotFoundError naming the closest."""
    if not isinstance(text, str) or not text.strip():
        raise MordheimError("Name a scenario.", hint="For example `Wyrdstone Hunt`, or `scenario 3`.")
    found = exact_scenario(text)
    if found is not None:
        return found
    ranked = _closest(text)
    if ranked and ranked[0][1] >= SURE_MATCH and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= CLEAR_LEAD):
        return ranked[0][0]
    missing = f"The rulebook has no scenario called '{text.strip()[:60]}'."
    if ranked:
        raise NotFoundError(missing, suggestions=[s.name for s, _score in ranked[:5]])
    raise NotFoundError(missing, hint="Its scenarios: " + ", ".join(f"`{s.name}`" for s in scenario_book().scenarios) + ".")


def battle_scenario(text: str) -> BattleScenario:
    """A battle's scenario as typed: a rulebook scenario (stored under its id and name), a custom one
    (no id; ``custom:`` in front keeps a name that looks like a rulebook one), or none. A near miss
    of a rulebook name is refused, saying both ways to fix it, rather than stored without awards."""
    text = (text or "").strip()
    if not text:
        return BattleScenario(name="", scenario_id=None)
    if text.casefold().startswith(CUSTOM_PREFIX):
        custom = text[len(CUSTOM_PREFIX):].strip()
        if not custom:
            raise MordheimError("Name the custom scenario after `custom:`.", hint="For example `custom: Bridge of Sighs`.")
        return BattleScenario(name=custom, scenario_id=None)
    found = exact_scenario(text)
    if found is not None:
        return BattleScenario(name=found.name, scenario_id=found.id)
    ranked = _closest(text)
    if ranked and ranked[0][1] >= NEAR_MISS:
        near = ranked[0][0]
        raise MordheimError(
            f"'{text[:60]}' is close to the rulebook's scenario `{near.name}`, but not the same.",
            hint=f"Pick `{near.name}` from the list, or write `custom: {text[:60]}` to record a custom scenario.",
        )
    return BattleScenario(name=text, scenario_id=None)


# ------------------------------------------------------------------ experience
def _checked(outcome: WarriorOutcome) -> None:
    if not 0 <= outcome.enemies_out_of_action <= MAX_KILLS:
        raise MordheimError(f"{outcome.enemies_out_of_action} enemies out of action is not possible here (0-{MAX_KILLS}).")
    if not 0 <= outcome.wyrdstone_counters <= MAX_COUNTERS:
        raise MordheimError(f"{outcome.wyrdstone_counters} wyrdstone counters is not possible here (0-{MAX_COUNTERS}).")


def awards_for(scenario: Scenario, outcome: WarriorOutcome) -> tuple[AwardGained, ...]:
    """The experience one warrior gains from ``scenario``, award by award, in the rulebook's order.
    A warrior who did not survive, or who never gains experience, gains none."""
    _checked(outcome)
    if not outcome.survived or not outcome.gains_experience:
        return ()
    gained = []
    for award in scenario.awards:
        times = outcome.count(award.fact) if award.who.include(outcome.role) else 0
        if times:
            name = award.name if times == 1 else f"{award.name} ×{times}"
            gained.append(AwardGained(award=award.id, name=name, amount=award.amount * times))
    return tuple(gained)


def scenario_only_experience(scenario: Scenario, outcome: WarriorOutcome) -> int:
    """What ``awards_for`` gives beyond the three awards every battle gives (lrb.json
    ``experience_awards``): the number the post-battle sequence's scenario experience holds."""
    return sum(a.amount for a in awards_for(scenario, outcome) if a.award not in COMMON_AWARDS)
