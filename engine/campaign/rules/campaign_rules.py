"""Campaign rules as data (rules_data/campaign/lrb.json), with a server's validated override.

The seeds have no campaign tables (seeds/INVENTORY.md section 1); the data file names its
source and the one place it disagrees with a seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.editions import RULES_DATA
from engine.campaign.rules.tables import TABLE_KEYS, Effect, PostBattleTables, build_tables, check_injury_effects, injury_effects, validate_tables
from engine.errors import MordheimError

CAMPAIGN_DATA = RULES_DATA / "campaign" / "lrb.json"
OVERRIDABLE = (
    "hero_advance_xp",
    "henchman_advance_xp",
    "rating",
    "max_henchman_group_size",
    "max_heroes",
    "max_warband_size",
    "halfling_cookbook",
    "henchman_out_of_action",
    "serious_injuries",
    *TABLE_KEYS,
)
NOT_OVERRIDABLE = ("id", "source", "discrepancies", "serious_injuries_source")
# Keys the campaign tables had before the warband lists answered them, and where they went.
MOVED_TO_LISTS = {
    "warband_size_by_type": "warband sizes come from the warband lists now; give a warband type its own size with "
                            "a house list (`/admin warbands`)",
}
D66_ROLLS = tuple(10 * a + b for a in range(1, 7) for b in range(1, 7))


@dataclass(frozen=True)
class SeriousInjury:
    low: int
    high: int
    name: str
    dead: bool = False
    id: str = ""
    summary: str = ""
    effects: tuple[Effect, ...] = ()  # what it does to the warrior (engine.campaign.rules.injuries applies them)


@dataclass(frozen=True)
class CampaignRules:
    source: str
    hero_advance_xp: tuple[int, ...]
    henchman_advance_xp: tuple[int, ...]
    rating_per_warrior: int
    rating_per_large_creature: int
    rating_per_experience: int
    max_henchman_group_size: int
    max_heroes: int
    max_warband_size: int  # for custom warband types; a warband list gives its own
    cookbook_item: str
    cookbook_bonus: int
    cookbook_excluded_types: tuple[str, ...]
    henchman_dead_rolls: tuple[int, int]
    serious_injuries: tuple[SeriousInjury, ...]
    tables: PostBattleTables  # advances, exploration, income, experience awards
    overridden: tuple[str, ...] = field(default=())

    # ---- experience -----------------------------------------------------------------
    def thresholds(self, role: str) -> tuple[int, ...]:
        # Hired swords gain experience the way henchmen do (LRB Hired Swords chapter; not in the seeds).
        return self.henchman_advance_xp if role in ("henchmen", "hired_sword") else self.hero_advance_xp

    def next_advance(self, role: str, experience: int) -> int | None:
        """The experience total of the next advance, or None when no advances remain."""
        return next((t for t in self.thresholds(role) if t > experience), None)

    def advances_between(self, role: str, before: int, after: int) -> list[int]:
        """Thresholds crossed when experience goes from ``before`` to ``after``: one advance each."""
        return [t for t in self.thresholds(role) if before < t <= after]

    # ---- injuries -------------------------------------------------------------------
    def serious_injury(self, d66: int) -> SeriousInjury:
        for entry in self.serious_injuries:
            if d66 in D66_ROLLS and entry.low <= d66 <= entry.high:
                return entry
        raise MordheimError(f"{d66} is not a D66 roll.", hint="Both digits run from 1 to 6, e.g. 11, 36, 64.")

    def henchman_survives(self, d6: int) -> bool:
        """Henchmen (and wardogs) out of action: 1-2 dead, 3-6 alive (seed 000:1499)."""
        low, high = self.henchman_dead_rolls
        return not low <= d6 <= high

    def roll_serious_injury(self, rng: random.Random) -> tuple[int, SeriousInjury]:
        d66 = 10 * rng.randint(1, 6) + rng.randint(1, 6)
        return d66, self.serious_injury(d66)


@cache
def _base_data() -> dict[str, Any]:
    return json.loads(CAMPAIGN_DATA.read_text(encoding="utf-8"))


def _thresholds(value: Any, key: str, problems: list[str]) -> None:
    if not isinstance(value, list) or not value or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v < 10_000 for v in value):
        problems.append(f"{key} must be a non-empty list of whole numbers above 0.")
    elif any(b <= a for a, b in zip(value, value[1:])):
        problems.append(f"{key} must go up: each advance needs more experience than the one before.")


def _small_int(value: Any, key: str, problems: list[str], low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append(f"{key} must be a whole number from {low} to {high}.")


def validate_data(data: Any) -> list[str]:
    """Every problem with a campaign-rules mapping (a whole file, or a server's override)."""
    if not isinstance(data, dict):
        return ["Campaign rules must be a JSON object, e.g. {\"max_warband_size\": 16}."]
    problems: list[str] = []
    for key, value in data.items():
        if key in MOVED_TO_LISTS:
            problems.append(f"`{key}` is no longer a campaign rule: {MOVED_TO_LISTS[key]}.")
        elif key not in OVERRIDABLE and key not in NOT_OVERRIDABLE:
            problems.append(f"`{str(key)[:40]}` is not a campaign rule. Known: " + ", ".join(OVERRIDABLE) + ".")
        elif key in ("hero_advance_xp", "henchman_advance_xp"):
            _thresholds(value, key, problems)
        elif key == "rating":
            if not isinstance(value, dict):
                problems.append("rating must be an object with per_warrior, per_large_creature, per_experience.")
            else:
                for k in ("per_warrior", "per_large_creature", "per_experience"):
                    if k in value:
                        _small_int(value[k], f"rating.{k}", problems, 0, 1000)
        elif key in ("max_henchman_group_size", "max_heroes"):
            _small_int(value, key, problems, 1, 50)
        elif key == "max_warband_size":
            _small_int(value, key, problems, 1, 100)
        elif key == "halfling_cookbook":
            if not isinstance(value, dict) or not isinstance(value.get("item", "x"), str):
                problems.append("halfling_cookbook must be an object with item, bonus, excluded_types.")
            elif "bonus" in value:
                _small_int(value["bonus"], "halfling_cookbook.bonus", problems, 0, 10)
        elif key == "henchman_out_of_action":
            dead = value.get("dead") if isinstance(value, dict) else None
            if not (isinstance(dead, list) and len(dead) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in dead) and dead[0] <= dead[1]):
                problems.append("henchman_out_of_action.dead must be a D6 range such as [1, 2].")
        elif key == "serious_injuries":
            problems.extend(_validate_injuries(value) or check_injury_effects(value))
    problems.extend(validate_tables({k: v for k, v in data.items() if k in TABLE_KEYS}))
    return problems


def _validate_injuries(value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        return ["serious_injuries must be a list of {from, to, name} covering every D66 roll 11-66."]
    problems: list[str] = []
    covered: dict[int, str] = {}
    for n, entry in enumerate(value):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            problems.append(f"serious_injuries[{n}] needs a name.")
            continue
        low, high = entry.get("from"), entry.get("to", entry.get("from"))
        if low not in D66_ROLLS or high not in D66_ROLLS or high < low:
            problems.append(f"serious_injuries[{n}] ({entry['name'][:40]}): from/to must be D66 rolls (11-66, digits 1-6).")
            continue
        for roll in D66_ROLLS:
            if low <= roll <= high:
                if roll in covered:
                    problems.append(f"D66 roll {roll} is both {covered[roll]} and {entry['name'][:40]}.")
                covered[roll] = entry["name"][:40]
    missing = [r for r in D66_ROLLS if r not in covered]
    if missing and not problems:
        problems.append("serious_injuries does not cover D66 rolls " + ", ".join(map(str, missing)) + ".")
    return problems


def what_differs(given: dict[str, Any]) -> dict[str, Any]:
    """The part of a server's campaign file that changes the bundled tables: its keys less the
    data's own description (``NOT_OVERRIDABLE``: a copy of lrb.json carries its id and sources)
    and less any table it gives exactly as bundled (a whole copy with one table edited is that one
    table's override)."""
    base = _base_data()

    def same(key: str, value: Any) -> bool:  # as JSON text: 1.0 is no whole number, though 1.0 == 1
        return key in base and json.dumps(base[key], sort_keys=True) == json.dumps(value, sort_keys=True)

    return {k: v for k, v in given.items() if k not in NOT_OVERRIDABLE and not same(k, v)}


def validate_override(override: Any) -> list[str]:
    """Every problem with a server's campaign-rules override; empty when it can be used."""
    problems = validate_data(override)
    if isinstance(override, dict):
        for key in NOT_OVERRIDABLE:
            if key in override:
                problems.append(f"`{key}` cannot be overridden.")
        if not problems:
            # The merged rules must still make sense (e.g. a partial rating object).
            try:
                build_rules(override)
            except (KeyError, TypeError, ValueError) as exc:
                problems.append(f"The override is incomplete: {exc}.")
    return problems


def build_rules(override: dict[str, Any] | None = None) -> CampaignRules:
    """The rules of lrb.json with ``override``'s top-level keys replacing the data's."""
    data = dict(_base_data())
    override = override or {}
    for key, value in override.items():
        if key == "rating" or key == "halfling_cookbook":
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    rating = data["rating"]
    book = data["halfling_cookbook"]
    return CampaignRules(
        source=data["source"],
        hero_advance_xp=tuple(data["hero_advance_xp"]),
        henchman_advance_xp=tuple(data["henchman_advance_xp"]),
        rating_per_warrior=int(rating["per_warrior"]),
        rating_per_large_creature=int(rating["per_large_creature"]),
        rating_per_experience=int(rating["per_experience"]),
        max_henchman_group_size=int(data["max_henchman_group_size"]),
        max_heroes=int(data["max_heroes"]),
        max_warband_size=int(data["max_warband_size"]),
        cookbook_item=str(book["item"]),
        cookbook_bonus=int(book["bonus"]),
        cookbook_excluded_types=tuple(" ".join(t.split()).casefold() for t in book["excluded_types"]),
        henchman_dead_rolls=(int(data["henchman_out_of_action"]["dead"][0]), int(data["henchman_out_of_action"]["dead"][1])),
        serious_injuries=tuple(_injury(e, _base_data()["serious_injuries"]) for e in data["serious_injuries"]),
        tables=build_tables(data),
        overridden=tuple(sorted(override)),
    )


def _injury(entry: dict[str, Any], bundled: list[dict[str, Any]]) -> SeriousInjury:
    ident, summary, effects = injury_effects(entry, bundled)
    name = entry["name"].strip()
    dead = bool(entry.get("dead", name.casefold() == "dead")) or any(e.op == "dead" for e in effects)
    return SeriousInjury(low=int(entry["from"]), high=int(entry.get("to", entry["from"])), name=name, dead=dead,
                         id=ident, summary=summary, effects=effects)


@cache
def default_rules() -> CampaignRules:
    return build_rules(None)
