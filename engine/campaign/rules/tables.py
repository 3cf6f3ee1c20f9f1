"""The post-battle tables as validated data: rules_data/campaign/lrb.json, or a server's override.

Each table is read once into frozen dataclasses. ``validate_tables`` lists every problem in a
server's replacement (naming the key and how to fix it) before anything uses it, so the engine
can trust what it reads. A serious injury chart in the older names-only shape still works:
each row takes the effects of the bundled row of the same name (``injury_effects``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dice.source import check_amount
from engine.campaign.model import Profile
from engine.campaign.rules.validation import CHARACTERISTICS

TABLE_KEYS = ("hero_advances", "henchman_advances", "experience_awards", "exploration", "income", "default_maximum")
EFFECT_OPS = ("dead", "multiple", "characteristic", "roll", "miss_games", "rule", "retire_if_repeated",
              "lose_equipment", "captured", "pit_fight", "experience")
ADVANCE_KINDS = ("skill", "roll", "choose", "characteristic", "talent")


# ------------------------------------------------------------------ serious injuries
@dataclass(frozen=True)
class Effect:
    """One thing a serious injury does; ``op`` says which fields matter (see EFFECT_OPS)."""

    op: str
    characteristic: str = ""  # characteristic: which one
    change: int = 0  # characteristic: by how much
    rolls: str = ""  # multiple: how many more rolls ("D6")
    reroll: tuple[str, ...] = ()  # multiple: injury ids rolled again
    results: tuple[InjuryRollResult, ...] = ()  # roll: the D6 sub-table
    games: str = ""  # miss_games: "1" or "D3"
    rule: str = ""  # rule: what the warrior now has ("frenzy", "causes fear", ...)
    amount: int = 0  # experience: how much
    win_gold: int = 0  # pit_fight
    win_experience: int = 0
    dead_from: int = 0  # pit_fight: the D66 range that kills a loser
    dead_to: int = 0


@dataclass(frozen=True)
class InjuryRollResult:
    low: int
    high: int
    name: str
    summary: str
    effects: tuple[Effect, ...]


def _whole_in(value: Any, low: int, high: int) -> bool:
    """Whether ``value`` is a whole number from ``low`` to ``high``: not 2.0 (which ``in range``
    lets through) nor True, so that the checks after it may build ranges and tables from it."""
    return type(value) is int and low <= value <= high


def _effects(raw: Any) -> tuple[Effect, ...]:
    out = []
    for e in raw or ():
        results = tuple(
            InjuryRollResult(low=int(r["from"]), high=int(r["to"]), name=str(r["name"]), summary=str(r.get("summary", "")),
                             effects=_effects(r.get("effects")))
            for r in e.get("results", ())
        )
        out.append(Effect(
            op=e["op"], characteristic=e.get("characteristic", ""), change=int(e.get("change", 0)), rolls=str(e.get("rolls", "")),
            reroll=tuple(e.get("reroll", ())), results=results, games=str(e.get("games", "")), rule=str(e.get("rule", "")),
            amount=int(e.get("amount", 0)), win_gold=int(e.get("win_gold", 0)), win_experience=int(e.get("win_experience", 0)),
            dead_from=int(e.get("dead_from", 0)), dead_to=int(e.get("dead_to", 0)),
        ))
    return tuple(out)


def injury_effects(entry: dict[str, Any], bundled: list[dict[str, Any]]) -> tuple[str, str, tuple[Effect, ...]]:
    """(id, summary, effects) of one chart row. A row without effects (the older names-only
    shape of a server's override) takes the bundled row of the same name; a name the bundled
    chart lacks has no effect beyond being recorded, unless it is marked dead."""
    name = " ".join(str(entry["name"]).split()).casefold()
    same = next((b for b in bundled if " ".join(b["name"].split()).casefold() == name), None)
    ident = entry.get("id") or (same or {}).get("id") or name.replace(" ", "-")
    summary = entry.get("summary") or (same or {}).get("summary", "")
    if "effects" in entry:
        return ident, summary, _effects(entry["effects"])
    if same is not None:
        return ident, summary, _effects(same.get("effects"))
    dead = entry.get("dead", name == "dead")
    return ident, summary, (Effect(op="dead"),) if dead else ()


def _check_effects(raw: Any, where: str, ids: set[str], problems: list[str]) -> None:
    if not isinstance(raw, list):
        problems.append(f"{where}.effects must be a list, e.g. [{{\"op\": \"characteristic\", \"characteristic\": \"M\", \"change\": -1}}].")
        return
    for n, e in enumerate(raw):
        at = f"{where}.effects[{n}]"
        if not isinstance(e, dict) or e.get("op") not in EFFECT_OPS:
            problems.append(f"{at}.op must be one of: " + ", ".join(EFFECT_OPS) + ".")
            continue
        op = e["op"]
        if op == "characteristic" and (e.get("characteristic") not in CHARACTERISTICS or not isinstance(e.get("change"), int)
                                       or not -3 <= e["change"] <= 3 or e["change"] == 0):
            problems.append(f"{at}: a characteristic effect needs characteristic (M, WS, ... Ld) and change (-3 to 3, not 0).")
        elif op == "multiple":
            if check_amount(str(e.get("rolls", ""))):
                problems.append(f"{at}.rolls must be a dice amount such as D6.")
            if not isinstance(e.get("reroll", []), list) or any(r not in ids for r in e.get("reroll", [])):
                problems.append(f"{at}.reroll must list injury ids of this chart (" + ", ".join(sorted(ids))[:200] + ").")
        elif op == "roll":
            results = e.get("results")
            if not isinstance(results, list) or not results:
                problems.append(f"{at}.results must list the D6 results, e.g. [{{\"from\": 1, \"to\": 3, \"name\": ..., \"effects\": [...]}}].")
                continue
            covered = []
            for m, r in enumerate(results):
                if not isinstance(r, dict) or not isinstance(r.get("name"), str) or not _whole_in(r.get("from"), 1, 6) or not _whole_in(r.get("to"), 1, 6):
                    problems.append(f"{at}.results[{m}] needs a name and from/to between 1 and 6.")
                    continue
                covered += list(range(r["from"], r["to"] + 1))
                _check_effects(r.get("effects", []), f"{at}.results[{m}]", ids, problems)
            if sorted(covered) != [1, 2, 3, 4, 5, 6]:
                problems.append(f"{at}.results must cover each D6 face 1-6 exactly once.")
        elif op == "miss_games" and check_amount(str(e.get("games", ""))):
            problems.append(f"{at}.games must be a number or dice amount such as 1 or D3.")
        elif op == "rule" and (not isinstance(e.get("rule"), str) or not e["rule"].strip()):
            problems.append(f"{at}.rule must say what the warrior now has, e.g. \"frenzy\".")
        elif op == "experience" and (not isinstance(e.get("amount"), int) or not 1 <= e["amount"] <= 20):
            problems.append(f"{at}.amount must be a whole number from 1 to 20.")
        elif op == "pit_fight" and not (isinstance(e.get("dead_from"), int) and isinstance(e.get("dead_to"), int)
                                         and 11 <= e["dead_from"] <= e["dead_to"] <= 66):
            problems.append(f"{at}: a pit fight needs dead_from and dead_to, a D66 range such as 11 and 35.")


def check_injury_effects(chart: list[Any]) -> list[str]:
    """Problems with the effects of a serious injury chart whose rows are otherwise valid."""
    problems: list[str] = []
    ids = {str(e.get("id") or " ".join(str(e.get("name", "")).split()).casefold().replace(" ", "-")) for e in chart if isinstance(e, dict)}
    for n, entry in enumerate(chart):
        if isinstance(entry, dict) and "effects" in entry:
            _check_effects(entry["effects"], f"serious_injuries[{n}]", ids, problems)
    return problems


# ------------------------------------------------------------------ advances
@dataclass(frozen=True)
class RolledOption:
    low: int
    high: int
    characteristic: str


@dataclass(frozen=True)
class AdvanceResult:
    """One row of an advance table (2D6 ``low``-``high``)."""

    low: int
    high: int
    kind: str  # skill | roll (a D6 picks the characteristic) | choose (the player picks) | characteristic | talent
    name: str
    summary: str = ""
    options: tuple[RolledOption, ...] = ()  # kind "roll"
    characteristics: tuple[str, ...] = ()  # kind "choose" or "characteristic"

    def pair(self) -> tuple[str, ...]:
        """The characteristics this result is about (the 'other option' when one is at maximum)."""
        return tuple(o.characteristic for o in self.options) or self.characteristics


@dataclass(frozen=True)
class AdvanceTable:
    source: str
    results: tuple[AdvanceResult, ...]
    at_maximum: str
    max_gain: int | None = None  # henchmen: most each characteristic may rise over the starting profile

    def result(self, total: int) -> AdvanceResult:
        return next(r for r in self.results if r.low <= total <= r.high)


def _advance_table(raw: dict[str, Any]) -> AdvanceTable:
    return AdvanceTable(
        source=raw.get("source", ""),
        results=tuple(
            AdvanceResult(low=r["from"], high=r["to"], kind=r["kind"], name=r["name"], summary=r.get("summary", ""),
                          options=tuple(RolledOption(o["from"], o["to"], o["characteristic"]) for o in r.get("options", ())),
                          characteristics=tuple(r.get("characteristics", ())))
            for r in raw["results"]
        ),
        at_maximum=raw.get("at_maximum", ""),
        max_gain=raw.get("max_gain"),
    )


def _check_advances(raw: Any, key: str, problems: list[str]) -> None:
    if not isinstance(raw, dict) or not isinstance(raw.get("results"), list):
        problems.append(f"{key} must be an object with results: a list of 2D6 rows.")
        return
    covered: list[int] = []
    for n, r in enumerate(raw["results"]):
        at = f"{key}.results[{n}]"
        if not isinstance(r, dict) or r.get("kind") not in ADVANCE_KINDS or not isinstance(r.get("name"), str):
            problems.append(f"{at} needs a name and a kind: " + ", ".join(ADVANCE_KINDS) + ".")
            continue
        if not _whole_in(r.get("from"), 2, 12) or not _whole_in(r.get("to"), 2, 12) or r["to"] < r["from"]:
            problems.append(f"{at}: from/to must be 2D6 totals (2-12).")
            continue
        covered += list(range(r["from"], r["to"] + 1))
        if r["kind"] == "roll":
            opts = r.get("options")
            faces = sorted(f for o in opts or () if isinstance(o, dict) and o.get("characteristic") in CHARACTERISTICS
                           and _whole_in(o.get("from"), 1, 6) and _whole_in(o.get("to"), 1, 6)
                           for f in range(o["from"], o["to"] + 1)) if isinstance(opts, list) else []
            if faces != [1, 2, 3, 4, 5, 6]:
                problems.append(f"{at}.options must give a characteristic for each D6 face 1-6.")
        elif r["kind"] in ("choose", "characteristic"):
            chars = r.get("characteristics")
            if not isinstance(chars, list) or not chars or any(c not in CHARACTERISTICS for c in chars):
                problems.append(f"{at}.characteristics must list characteristics (M, WS, BS, S, T, W, I, A, Ld).")
    if sorted(covered) != list(range(2, 13)):
        problems.append(f"{key}.results must cover each 2D6 total 2-12 exactly once.")
    gain = raw.get("max_gain")
    if gain is not None and (not isinstance(gain, int) or not 1 <= gain <= 10):
        problems.append(f"{key}.max_gain must be a whole number from 1 to 10.")


# ------------------------------------------------------------------ experience
@dataclass(frozen=True)
class ExperienceAward:
    id: str
    name: str
    amount: int
    summary: str


# ------------------------------------------------------------------ exploration
@dataclass(frozen=True)
class FoundItem:
    item: str  # item id (the warband lists' ids)
    name: str
    count: str  # "1", "D3", ...


@dataclass(frozen=True)
class Outcome:
    """What a place (or one of its dice results) gives. Dice amounts are rolled when it is found."""

    gold: str = ""
    shards: str = ""
    items: tuple[FoundItem, ...] = ()
    note: str = ""
    miss_games: str = ""  # the chosen hero misses games (the Well)
    hero_lost: bool = False  # the chosen hero never comes back (the Pit)
    leader_experience: int = 0
    heroes_experience: str = ""  # shared among the heroes as the player likes
    count: str = ""  # how many of what the note names (D3 zombies)
    on_gold_die: Outcome | None = None  # also found when the gold die shows ``face``
    face: int = 0
    on_double: Outcome | None = None  # found instead of the gold when the gold dice are a double
    roll: PlaceRoll | None = None  # a further D6


@dataclass(frozen=True)
class PlaceRollResult:
    low: int
    high: int
    name: str
    outcome: Outcome


@dataclass(frozen=True)
class PlaceRoll:
    die: str
    results: tuple[PlaceRollResult, ...]

    def result(self, face: int) -> PlaceRollResult:
        return next(r for r in self.results if r.low <= face <= r.high)


@dataclass(frozen=True)
class PlaceTest:
    characteristic: str  # "T" (D6 at or under) or "Ld" (2D6 at or under)
    who: str  # "hero" (the player chooses) or "leader"
    passed: Outcome
    failed: Outcome
    auto_pass: tuple[str, ...] = ()  # warband ids that pass without rolling


@dataclass(frozen=True)
class Variant:
    warbands: tuple[str, ...] | None  # None: every other warband
    name: str
    outcome: Outcome


@dataclass(frozen=True)
class EachItem:
    needs: int  # a D6 at or above this finds it
    name: str
    outcome: Outcome


@dataclass(frozen=True)
class Place:
    count: int  # 2 doubles, 3 triples, ... 6 six of a kind
    face: int
    id: str
    name: str
    summary: str
    outcome: Outcome = field(default_factory=Outcome)
    roll: PlaceRoll | None = None
    test: PlaceTest | None = None
    variants: tuple[Variant, ...] = ()
    each: tuple[EachItem, ...] = ()
    optional: bool = False  # the player may decline (the Pit)

    def variant(self, warband_id: str | None) -> Variant | None:
        if not self.variants:
            return None
        return next((v for v in self.variants if v.warbands and warband_id in v.warbands),
                    next(v for v in self.variants if v.warbands is None))


@dataclass(frozen=True)
class ShardsBand:
    low: int
    high: int | None
    shards: int


@dataclass(frozen=True)
class ExplorationTable:
    source: str
    dice_per_hero: int
    dice_for_win: int
    shards_by_total: tuple[ShardsBand, ...]
    places: tuple[Place, ...]
    dice_kept: int | None = None  # the most dice an exploration keeps of those it rolls (None: all)

    def shards(self, total: int) -> int:
        for band in self.shards_by_total:
            if total >= band.low and (band.high is None or total <= band.high):
                return band.shards
        return 0

    def place(self, count: int, face: int) -> Place | None:
        """The place for ``count`` dice showing ``face``; more than six of a kind reads as six."""
        count = min(count, max(p.count for p in self.places))
        return next((p for p in self.places if p.count == count and p.face == face), None)


_OUTCOME_KEYS = ("gold", "shards", "items", "note", "miss_games", "hero_lost", "leader_experience", "heroes_experience",
                 "count", "on_gold_die", "on_double", "roll", "face")


def _outcome(raw: dict[str, Any] | None) -> Outcome:
    raw = raw or {}
    return Outcome(
        gold=str(raw.get("gold", "")), shards=str(raw.get("shards", "")),
        items=tuple(FoundItem(i["item"], i["name"], str(i.get("count", "1"))) for i in raw.get("items", ())),
        note=raw.get("note", ""), miss_games=str(raw.get("miss_games", "")), hero_lost=bool(raw.get("hero_lost", False)),
        leader_experience=int(raw.get("leader_experience", 0)), heroes_experience=str(raw.get("heroes_experience", "")),
        count=str(raw.get("count", "")),
        on_gold_die=_outcome(raw["on_gold_die"]) if "on_gold_die" in raw else None,
        face=int((raw.get("on_gold_die") or {}).get("face", 0)),
        on_double=_outcome(raw["on_double"]) if "on_double" in raw else None,
        roll=_place_roll(raw["roll"]) if "roll" in raw else None,
    )


def _place_roll(raw: dict[str, Any]) -> PlaceRoll:
    return PlaceRoll(raw.get("die", "D6"), tuple(PlaceRollResult(r["from"], r["to"], r["name"], _outcome(r)) for r in raw["results"]))


def _place(raw: dict[str, Any]) -> Place:
    test = raw.get("test")
    return Place(
        count=raw["count"], face=raw["face"], id=raw["id"], name=raw["name"], summary=raw.get("summary", ""),
        outcome=_outcome(raw.get("outcome")),
        roll=_place_roll(raw["roll"]) if "roll" in raw else None,
        test=PlaceTest(test["characteristic"], test["who"], _outcome(test.get("pass")), _outcome(test.get("fail")),
                       tuple(test.get("auto_pass", ()))) if test else None,
        variants=tuple(Variant(tuple(v["warbands"]) if v.get("warbands") else None, v["name"], _outcome(v))
                       for v in raw.get("variants", ())),
        each=tuple(EachItem(e["needs"], e["name"], _outcome(e)) for e in raw.get("each", ())),
        optional=bool(raw.get("optional", False)),
    )


def _check_outcome(raw: Any, at: str, problems: list[str]) -> None:
    if raw is None:
        return
    if not isinstance(raw, dict):
        problems.append(f"{at} must be an object (gold, shards, items, note, ...).")
        return
    for key in ("gold", "shards", "miss_games", "heroes_experience", "count"):
        if key in raw and check_amount(str(raw[key])):
            problems.append(f"{at}.{key}: " + str(check_amount(str(raw[key]))))
    items = raw.get("items", [])
    for n, item in enumerate(items if isinstance(items, list) else [None]):
        if not isinstance(item, dict) or not isinstance(item.get("item"), str) or not isinstance(item.get("name"), str) \
                or check_amount(str(item.get("count", "1"))):
            problems.append(f"{at}.items[{n}] needs item (an id), name, and count (e.g. 1 or D3).")
    for key in ("on_gold_die", "on_double"):
        if key in raw:
            _check_outcome(raw[key], f"{at}.{key}", problems)
    if "roll" in raw:
        _check_place_roll(raw["roll"], f"{at}.roll", problems)


def _check_place_roll(raw: Any, at: str, problems: list[str]) -> None:
    results = raw.get("results") if isinstance(raw, dict) else None
    if not isinstance(results, list):
        problems.append(f"{at} must have results: D6 rows with from, to, name.")
        return
    faces = []
    for n, r in enumerate(results):
        if not isinstance(r, dict) or not _whole_in(r.get("from"), 1, 6) or not _whole_in(r.get("to"), 1, 6) or not isinstance(r.get("name"), str):
            problems.append(f"{at}.results[{n}] needs a name and from/to between 1 and 6.")
            continue
        faces += list(range(r["from"], r["to"] + 1))
        _check_outcome({k: v for k, v in r.items() if k in _OUTCOME_KEYS}, f"{at}.results[{n}]", problems)
    if sorted(faces) != [1, 2, 3, 4, 5, 6]:
        problems.append(f"{at}.results must cover each D6 face 1-6 exactly once.")


def _check_exploration(raw: Any, problems: list[str]) -> None:
    if not isinstance(raw, dict):
        problems.append("exploration must be an object with shards_by_total and multiples.")
        return
    bands = raw.get("shards_by_total")
    if not isinstance(bands, list) or not bands or not all(
            isinstance(b, dict) and isinstance(b.get("from"), int) and isinstance(b.get("shards"), int)
            and (b.get("to") is None or isinstance(b.get("to"), int)) for b in bands):
        problems.append("exploration.shards_by_total must list {from, to, shards} rows (to null on the last).")
    for key in ("dice_per_hero", "dice_for_win"):
        if not isinstance(raw.get(key, 1), int) or not 0 <= raw.get(key, 1) <= 3:
            problems.append(f"exploration.{key} must be 0 to 3.")
    if raw.get("dice_kept") is not None and not _whole_in(raw.get("dice_kept"), 1, 12):
        problems.append("exploration.dice_kept must be 1 to 12 (or left out: every die rolled is kept).")
    places = raw.get("multiples")
    if not isinstance(places, list):
        problems.append("exploration.multiples must list the places found by doubles, triples and more.")
        return
    seen: set[tuple[int, int]] = set()
    for n, p in enumerate(places):
        at = f"exploration.multiples[{n}]"
        if not isinstance(p, dict) or not _whole_in(p.get("count"), 2, 6) or not _whole_in(p.get("face"), 1, 6) \
                or not isinstance(p.get("name"), str) or not isinstance(p.get("id"), str):
            problems.append(f"{at} needs id, name, count (2-6) and face (1-6).")
            continue
        if (p["count"], p["face"]) in seen:
            problems.append(f"{at}: {p['count']} x {p['face']} is listed twice.")
        seen.add((p["count"], p["face"]))
        _check_outcome(p.get("outcome"), f"{at}.outcome", problems)
        if "roll" in p:
            _check_place_roll(p["roll"], f"{at}.roll", problems)
        test = p.get("test")
        if test is not None:
            if not isinstance(test, dict) or test.get("characteristic") not in ("T", "Ld") or test.get("who") not in ("hero", "leader"):
                problems.append(f"{at}.test needs characteristic (T or Ld) and who (hero or leader).")
            else:
                _check_outcome(test.get("pass"), f"{at}.test.pass", problems)
                _check_outcome(test.get("fail"), f"{at}.test.fail", problems)
        variants = p.get("variants", [])
        if variants and (not isinstance(variants, list) or sum(1 for v in variants if isinstance(v, dict) and not v.get("warbands")) != 1):
            problems.append(f"{at}.variants must end with exactly one row for every other warband (warbands: null).")
        for m, e in enumerate(p.get("each", [])):
            if not isinstance(e, dict) or not _whole_in(e.get("needs"), 1, 6) or not isinstance(e.get("name"), str):
                problems.append(f"{at}.each[{m}] needs a name and needs (the D6 score, 1-6).")
    missing = [f"{c}x{f}" for c in range(2, 7) for f in range(1, 7) if (c, f) not in seen]
    if missing:
        problems.append("exploration.multiples lacks " + ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "") + ".")


# ------------------------------------------------------------------ income
@dataclass(frozen=True)
class IncomeTable:
    source: str
    size_columns: tuple[tuple[int, int | None], ...]
    rows: tuple[tuple[int, tuple[int, ...]], ...]  # (shards, gold per size column)

    def column(self, warband_size: int) -> int:
        for n, (low, high) in enumerate(self.size_columns):
            if warband_size >= low and (high is None or warband_size <= high):
                return n
        return len(self.size_columns) - 1 if warband_size > 0 else 0

    def gold(self, shards: int, warband_size: int) -> int:
        """Gold crowns for selling ``shards`` at once; more than the last row reads the last row."""
        if shards <= 0:
            return 0
        row = next((gold for n, gold in self.rows if n == shards), self.rows[-1][1] if shards > self.rows[-1][0] else None)
        if row is None:  # a gap in a server's table: the nearest smaller row
            row = max((r for r in self.rows if r[0] < shards), key=lambda r: r[0])[1]
        return row[self.column(warband_size)]


def _check_income(raw: Any, problems: list[str]) -> None:
    cols = raw.get("size_columns") if isinstance(raw, dict) else None
    rows = raw.get("rows") if isinstance(raw, dict) else None
    if not isinstance(cols, list) or not cols or not isinstance(rows, list) or not rows:
        problems.append("income must have size_columns ({from, to} warband sizes) and rows ({shards, gold: one per column}).")
        return
    for n, r in enumerate(rows):
        if not isinstance(r, dict) or not isinstance(r.get("shards"), int) or r["shards"] < 1 or not isinstance(r.get("gold"), list) \
                or len(r["gold"]) != len(cols) or not all(isinstance(g, int) and 0 <= g <= 10_000 for g in r["gold"]):
            problems.append(f"income.rows[{n}] needs shards (1 or more) and gold: {len(cols)} whole numbers, one per size column.")
    if isinstance(rows[0], dict) and rows[0].get("shards") != 1:
        problems.append("income.rows must start at 1 shard.")


# ------------------------------------------------------------------ all of them
@dataclass(frozen=True)
class PostBattleTables:
    hero_advances: AdvanceTable
    henchman_advances: AdvanceTable
    awards: tuple[ExperienceAward, ...]
    exploration: ExplorationTable
    income: IncomeTable
    default_maximum: Profile  # racial maximum used when a warrior's race is unknown


def build_tables(data: dict[str, Any]) -> PostBattleTables:
    """The tables of a merged campaign-rules mapping (bundled data with a server's override)."""
    exp = data["exploration"]
    income = data["income"]
    return PostBattleTables(
        hero_advances=_advance_table(data["hero_advances"]),
        henchman_advances=_advance_table(data["henchman_advances"]),
        awards=tuple(ExperienceAward(a["id"], a["name"], int(a["amount"]), a.get("summary", "")) for a in data["experience_awards"]["awards"]),
        exploration=ExplorationTable(
            source=exp.get("source", ""), dice_per_hero=int(exp.get("dice_per_hero", 1)), dice_for_win=int(exp.get("dice_for_win", 1)),
            shards_by_total=tuple(ShardsBand(b["from"], b.get("to"), b["shards"]) for b in exp["shards_by_total"]),
            places=tuple(_place(p) for p in exp["multiples"]),
            dice_kept=None if exp.get("dice_kept") is None else int(exp["dice_kept"]),
        ),
        income=IncomeTable(
            source=income.get("source", ""),
            size_columns=tuple((c["from"], c.get("to")) for c in income["size_columns"]),
            rows=tuple((r["shards"], tuple(r["gold"])) for r in income["rows"]),
        ),
        default_maximum=Profile(**{c: int(data["default_maximum"]["profile"][c]) for c in CHARACTERISTICS}),
    )


def validate_tables(data: dict[str, Any]) -> list[str]:
    """Every problem with the post-battle keys present in ``data`` (a whole file or an override)."""
    problems: list[str] = []
    for key in ("hero_advances", "henchman_advances"):
        if key in data:
            _check_advances(data[key], key, problems)
    if "experience_awards" in data:
        awards = data["experience_awards"].get("awards") if isinstance(data["experience_awards"], dict) else None
        if not isinstance(awards, list) or not all(isinstance(a, dict) and isinstance(a.get("id"), str) and isinstance(a.get("name"), str)
                                                   and isinstance(a.get("amount"), int) and 0 <= a["amount"] <= 10 for a in awards):
            problems.append("experience_awards.awards must list {id, name, amount (0-10)} rows.")
    if "exploration" in data:
        _check_exploration(data["exploration"], problems)
    if "income" in data:
        _check_income(data["income"], problems)
    if "default_maximum" in data:
        profile = data["default_maximum"].get("profile") if isinstance(data["default_maximum"], dict) else None
        if not isinstance(profile, dict) or any(not isinstance(profile.get(c), int) or not 1 <= profile[c] <= 10 for c in CHARACTERISTICS):
            problems.append("default_maximum.profile must give M, WS, BS, S, T, W, I, A and Ld, each 1-10.")
    return problems
