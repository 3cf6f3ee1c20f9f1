"""A wizard's (or priest's) first spell, rolled when he is hired.

"Each wizard starts with one randomly determined spell, but may gain more. Roll a D6 and consult
the appropriate chart." (000:1571). Which chart is his is one of his list's special rules: a
fighter type whose special rules name a spell list of rules_data/spells.json (Prayers of Sigmar,
Necromancy, Chaos Rituals, Lesser Magic, Magic of the Horned Rat) rolls one D6 on it. The spell
is kept as a skill entry ``Spells: NAME``, as a Dramatis Persona's spells are (skill_rules.py
passes those over when it checks skills against the skill lists).

A list whose chart the rulebook data does not hold (a supplement's magic) rolls nothing here:
the hire's answer says which chart to roll on at the table instead.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.dice import roll
from engine.editions import RULES_DATA

SPELLS_FILE = RULES_DATA / "spells.json"
STARTING_SPELLS = 1  # 000:1571
SPELL_PREFIX = "Spells: "  # how a spell is kept among a warrior's skills (as a Dramatis Persona's are)


@dataclass(frozen=True, kw_only=True)
class SpellChart:
    """One D6 chart of spells (000:1589 onwards): its name and the spell of each face."""

    list_id: str
    name: str
    by_face: dict[int, str]


@dataclass(frozen=True, kw_only=True)
class StartingSpell:
    """The spell a new wizard rolled: the chart, the die as shown, and the spell."""

    chart: str
    die: str
    spell: str

    @property
    def skill(self) -> str:
        return SPELL_PREFIX + self.spell

    def describe(self) -> str:
        return f"Starting spell ({self.chart}): {self.die} → {self.spell} (000:1571)"


@lru_cache(maxsize=4)
def spell_charts(path: Path = SPELLS_FILE) -> dict[str, SpellChart]:
    """The D6 spell charts of the rulebook data, by list id."""
    faces: dict[str, dict[int, str]] = {}
    names: dict[str, str] = {}
    for spell in json.loads(path.read_text(encoding="utf-8"))["spells"]:
        faces.setdefault(spell["list_id"], {})[int(spell["d6"])] = spell["name"]
        names[spell["list_id"]] = spell["list"]
    return {list_id: SpellChart(list_id=list_id, name=names[list_id], by_face=by_face) for list_id, by_face in faces.items()}


def charts_of(special_rules: tuple[str, ...] | list[str]) -> list[SpellChart]:
    """The spell charts a fighter type's special rules name (none for a warrior who casts nothing)."""
    charts = spell_charts()
    return [charts[rule] for rule in special_rules if rule in charts]


def roll_starting_spells(special_rules: tuple[str, ...] | list[str], rng: random.Random | None) -> list[StartingSpell]:
    """One D6 on each spell chart the fighter's rules name (000:1571), rolled with ``rng`` (a fresh
    generator when None); nothing, and no generator made, for one who casts none."""
    rolled = []
    for chart in charts_of(special_rules):
        rng = rng or random.Random()
        for _ in range(STARTING_SPELLS):
            die = roll("1d6", rng)
            assert isinstance(die.total, int)
            rolled.append(StartingSpell(chart=chart.name, die=die.render(), spell=chart.by_face[die.total]))
    return rolled
