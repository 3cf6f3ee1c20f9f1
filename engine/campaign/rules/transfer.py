"""Warband files: export to a versioned JSON shape, and check an import for every problem.

Format ``{"format": "mordheim-bot/warband", "version": 2, "exported_at", "warband": {...},
"warriors": [...], "battles": [...]}``; a warrior is ``Warrior.snapshot()``. The owner and
the server are not part of the file: an import belongs to whoever imports it, where they do.
Version 2 added the warband's list and stash and what a warrior's list entry says of it
(fighter type, race, skill lists, special rules, hand edits); version 3 the shards the warband's
post-battle sequences found (the standings count them); version 1 and 2 files still import.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.errors import MordheimError
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.campaign_rules import CampaignRules
from engine.campaign.lists.catalogue import Catalogue, WarbandList
from engine.campaign.model import Battle, Warband, Warrior
from engine.campaign.rules.validation import (
    CHARACTERISTICS,
    MAX_EXPERIENCE,
    MAX_GOLD,
    MAX_WYRDSTONE,
    LIST_MAX,
    RESULTS,
    ROLES,
    STATUSES,
    choice,
    clean_list,
    clean_name,
    clean_notes,
    clean_profile,
    name_key,
    whole_number,
)

FORMAT = "mordheim-bot/warband"
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
MAX_IMPORT_BYTES = 10 * 1024 * 1024
MAX_IMPORT_WARRIORS = 200
MAX_IMPORT_BATTLES = 5000
MAX_SHARDS_FOUND = 1_000_000
TOP_KEYS = {"format", "version", "exported_at", "warband", "warriors", "battles"}
WARBAND_KEYS = {"name", "type", "list", "notes", "gold_crowns", "wyrdstone_shards", "owner_id", "stash", "shards_found"}
WARRIOR_KEYS = {"name", "role", "type", "group_size", "profile", "equipment", "skills", "injuries", "experience", "status", "large",
                "fighter_type", "race", "skill_lists", "special_rules", "hand_edits"}
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")  # the warband lists' ids (rules_data/schema/warbands.schema.json)
BATTLE_KEYS = {"fought_on", "scenario", "opponents", "result", "notes"}


def export(warband: Warband, battles: list[Battle], at: str, *, shards_found: int = 0) -> dict[str, Any]:
    """The file of a warband; ``shards_found``: what its post-battle sequences found (and earlier imports brought)."""
    snap = warband.snapshot()
    del snap["owner_id"]
    snap["shards_found"] = shards_found
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": at,
        "warband": snap,
        "warriors": [w.snapshot() for w in warband.warriors],
        "battles": [b.snapshot() for b in sorted(battles, key=lambda b: (b.fought_on, b.id))],
    }


# No number in a warband file, a house list or the campaign tables is anywhere near this long (a
# Discord id is 20 digits); a longer one is refused while it is read, before Python's own limit on
# turning digits into an integer (4,300) would stop the reading with an error of its own.
MAX_DIGITS = 30


class _NotReadable(ValueError):
    """A number the file may not hold, found while reading it."""


def _whole_number(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _NotReadable(f"it holds a whole number {digits:,} digits long; numbers here have at most {MAX_DIGITS} digits")
    return int(text)


def _no_constant(text: str) -> Any:
    raise _NotReadable(f"it holds `{text}`, which is not a number JSON allows")


def parse_json(data: bytes | str, what: str) -> tuple[Any, list[str]]:
    """Parse JSON text, refusing anything over 10 MB before reading it, and numbers of more than 30
    digits, NaN and Infinity while reading it: the problem is returned in the list, never raised."""
    if len(data) > MAX_IMPORT_BYTES or (isinstance(data, str) and len(data.encode("utf-8", "replace")) > MAX_IMPORT_BYTES):
        return None, [f"{what} is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB; it was not read."]
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return None, [f"{what} is not UTF-8 text (byte {exc.start})."]
    try:
        return json.loads(data, parse_int=_whole_number, parse_constant=_no_constant), []
    except json.JSONDecodeError as exc:
        return None, [f"{what} is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."]
    except _NotReadable as exc:
        return None, [f"{what} was not read: {exc}."]
    except RecursionError:
        return None, [f"{what} is nested too deeply to read."]


def _check(problems: list[str], where: str, fn: Callable[..., Any]) -> Any:
    try:
        return fn()
    except MordheimError as exc:
        problems.append(f"{where}{exc.message}")
        return None


def _unknown(problems: list[str], where: str, data: Mapping[str, Any], allowed: set[str]) -> None:
    for key in data:
        if key not in allowed:
            problems.append(f"{where}unknown field `{str(key)[:40]}` (allowed: {', '.join(sorted(allowed))}).")


def _profile(raw: Any, problems: list[str], where: str) -> dict[str, int] | None:
    if not isinstance(raw, Mapping):
        problems.append(f"{where}the profile must map M WS BS S T W I A Ld to numbers.")
        return None
    try:  # nearly always whole and right: one check; a bad one is checked again value by value
        return clean_profile(raw)
    except MordheimError:
        # Each characteristic on its own, so a file with two bad values hears about both.
        checked: dict[str, int] = {}
        for key, value in raw.items():
            got = _check(problems, where, lambda k=key, v=value: clean_profile({k: v}, partial=True))
            if got:
                checked.update(got)
        missing = [c for c in CHARACTERISTICS if c not in checked and c.lower() not in {str(k).lower() for k in raw}]
        if missing:
            problems.append(f"{where}the profile is missing {', '.join(missing)}.")
        return checked


# How each field of a warrior snapshot is checked and normalised (a MordheimError says what is wrong).
FIELD_CHECKS: dict[str, Callable[[Any], Any]] = {
    "name": lambda v: clean_name(v, "The warrior name", forbid="/"),
    "role": lambda v: choice(v, ROLES, "Role"),
    "type": lambda v: clean_name(v, "The warrior type"),
    "group_size": lambda v: whole_number(v, "Group size"),
    "equipment": lambda v: clean_list(v, "Equipment"),
    "skills": lambda v: clean_list(v, "Skills"),
    "injuries": lambda v: clean_list(v, "Injuries"),
    "experience": lambda v: whole_number(v, "Experience"),
    "status": lambda v: choice(v, STATUSES, "Status"),
    "fighter_type": lambda v: optional_id(v, "The fighter type"),
    "race": lambda v: optional_id(v, "The race"),
    "skill_lists": lambda v: id_list(v, "Skill lists"),
    "special_rules": lambda v: id_list(v, "Special rules"),
    "hand_edits": lambda v: id_list(v, "Hand edits", pattern=r"^[a-z_]{1,20}$"),
}
# What a file may leave out of a warrior, and what it then is.
FIELD_DEFAULTS: dict[str, Any] = {"group_size": 1, "equipment": None, "skills": None, "injuries": None, "experience": 0,
                                  "status": "active", "large": False, "fighter_type": None, "race": None,
                                  "skill_lists": None, "special_rules": None, "hand_edits": None}


def check_warrior_fields(fields: Mapping[str, Any], rules: CampaignRules, where: str = "", *, role: str | None = None,
                         group_size: int | None = None) -> tuple[dict[str, Any], list[str]]:
    """The fields of a warrior snapshot that are present, each checked and normalised, and every
    problem. ``role`` and ``group_size`` are the warrior's when ``fields`` does not change them: a
    group's size is checked against its role whenever either is among the fields."""
    problems: list[str] = []
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if key == "profile":
            out["profile"] = _profile(value, problems, where)
        elif key == "large":
            if not isinstance(value, bool):
                problems.append(f"{where}`large` must be true or false.")
            out["large"] = value
        elif key in FIELD_CHECKS:
            out[key] = _check(problems, where, lambda k=key, v=value: FIELD_CHECKS[k](v))
    size, kind = out.get("group_size", group_size), out.get("role", role)
    if ("group_size" in fields or "role" in fields) and size is not None and kind is not None:
        if kind == "henchmen" and not 1 <= size <= rules.max_henchman_group_size:
            problems.append(f"{where}a henchman group has 1 to {rules.max_henchman_group_size} warriors, not {size}.")
        elif kind != "henchmen" and size != 1:
            problems.append(f"{where}a {kind} is one warrior; group size must be 1, not {size}.")
    xp = out.get("experience")
    if xp is not None and not 0 <= xp <= MAX_EXPERIENCE:
        problems.append(f"{where}experience must be 0 to {MAX_EXPERIENCE}, not {xp}.")
    return out, problems


def clean_warrior(raw: Any, rules: CampaignRules, where: str = "") -> tuple[dict[str, Any] | None, list[str]]:
    """A whole warrior snapshot with every value checked and normalised, or the list of its problems."""
    if not isinstance(raw, Mapping):
        return None, [f"{where}a warrior must be an object."]
    problems: list[str] = []
    _unknown(problems, where, raw, WARRIOR_KEYS)
    for key in ("name", "role", "type", "profile"):
        if key not in raw:
            problems.append(f"{where}`{key}` is missing.")
    out, found = check_warrior_fields({**FIELD_DEFAULTS, **raw}, rules, where)
    problems.extend(found)
    for key in ("name", "role", "type", "profile"):
        out.setdefault(key, None)
    return (None if problems else out), problems


def optional_id(value: Any, what: str) -> str | None:
    """None, or a kebab-case id of the warband lists (``mercenary-captain``)."""
    if value is None:
        return None
    if not isinstance(value, str) or not _ID.match(value) or len(value) > 60:
        raise MordheimError(f"{what} `{str(value)[:40]}` is not an id of the warband lists (like `mercenary-captain`).")
    return value


def id_list(values: Any, what: str, *, pattern: str = _ID.pattern) -> list[str]:
    """A list of ids (at most 40), each like ``combat`` or ``mercenary-captain``."""
    if values is None:
        return []
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        raise MordheimError(f"{what} must be a list of ids.")
    if len(values) > LIST_MAX:
        raise MordheimError(f"{what} has {len(values)} entries; the limit is {LIST_MAX}.")
    bad = [v for v in values if not isinstance(v, str) or not re.match(pattern, v) or len(v) > 60]
    if bad:
        raise MordheimError(f"{what}: `{str(bad[0])[:40]}` is not an id.")
    return list(values)


def roster_problems(
    rules: CampaignRules, warband_type: str, warriors: Sequence[Warrior], wlist: WarbandList | None = None
) -> list[str]:
    """Whole-warband limits (one leader, heroes, size, numbers of each list type) and unique names."""
    problems = roster_rules.limit_problems(rules, wlist, warband_type, warriors)
    seen: set[str] = set()
    for w in warriors:
        key = name_key(w.name)
        if key in seen:
            problems.append(f"Two warriors are called '{w.name}'; names must differ.")
        seen.add(key)
    return problems


def clean_battle(raw: Mapping[str, Any], where: str = "", problems: list[str] | None = None) -> dict[str, Any]:
    """A battle record checked and normalised; raises the first problem unless ``problems`` collects them."""
    collect = problems is not None
    problems = problems if problems is not None else []

    def optional_name(key: str, what: str) -> str:
        value = raw.get(key) or ""
        return clean_name(value, what) if str(value).strip() else ""

    def date() -> str:
        value = raw.get("fought_on")
        try:
            return dt.date.fromisoformat(str(value)).isoformat()
        except ValueError:
            raise MordheimError(f"The date `{str(value)[:20]}` is not a date like 2024-05-31.") from None

    out = {
        "fought_on": _check(problems, where, date),
        "scenario": _check(problems, where, lambda: optional_name("scenario", "The scenario")),
        "opponents": _check(problems, where, lambda: optional_name("opponents", "The opponents")),
        "result": _check(problems, where, lambda: choice(raw.get("result"), RESULTS, "The result")),
        "notes": _check(problems, where, lambda: clean_notes(raw.get("notes"))),
    }
    if problems and not collect:
        raise MordheimError(problems[0])
    return out


def problems(
    data: bytes | str | Mapping[str, Any], rules: CampaignRules, name_taken: Callable[[str], bool], catalogue: Catalogue,
    *, name: str | None = None,
) -> tuple[dict[str, Any] | None, list[str]]:
    """(normalised data, []) when the file can be imported, else (None, every problem).

    ``catalogue`` is the importing server's: a warband of a list it does not have is refused.
    ``name`` (checked already, as a new warband's is) replaces the name the file gives.
    """
    if isinstance(data, (bytes, bytearray, str)):
        data, unreadable = parse_json(bytes(data) if isinstance(data, bytearray) else data, "The file")
        if unreadable:
            return None, unreadable
    if not isinstance(data, Mapping):
        return None, ["The file must hold one JSON object, as `/warband export` writes."]
    found: list[str] = []
    _unknown(found, "", data, TOP_KEYS)
    if data.get("format") != FORMAT:
        found.append(f"`format` must be \"{FORMAT}\", not {json.dumps(data.get('format'))[:40]}.")
    version = data.get("version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        found.append(f"`version` {json.dumps(version)[:20]} is not supported; this bot reads versions "
                     f"{', '.join(map(str, READABLE_VERSIONS))}"
                     + (" (the file was made by a newer bot)." if newer else "."))
    warband = data.get("warband")
    out_warband: dict[str, Any] = {}
    if not isinstance(warband, Mapping):
        found.append("`warband` is missing or not an object.")
        warband = {}
    else:
        _unknown(found, "warband: ", warband, WARBAND_KEYS)
    if name is None:
        name = _check(found, "warband: ", lambda: clean_name(warband.get("name"), "The warband name"))
    wtype = _check(found, "warband: ", lambda: clean_name(warband.get("type"), "The warband type"))
    if name and name_taken(name):
        found.append(f"warband: this server already has a warband called '{name}'; import it under another name "
                     "with `/warband import name:`, or rename the existing one.")
    out_warband.update(name=name, type=wtype, notes=_check(found, "warband: ", lambda: clean_notes(warband.get("notes"))),
                       list=_check(found, "warband: ", lambda: optional_id(warband.get("list"), "The warband list")),
                       stash=_check(found, "warband: ", lambda: clean_list(warband.get("stash"), "The stash")))
    for key, what, limit in (("gold_crowns", "Gold crowns", MAX_GOLD), ("wyrdstone_shards", "Wyrdstone shards", MAX_WYRDSTONE),
                             ("shards_found", "Shards found", MAX_SHARDS_FOUND)):
        n = _check(found, "warband: ", lambda k=key, w=what: whole_number(warband.get(k, 0), w))
        if n is not None and not 0 <= n <= limit:
            found.append(f"warband: {what.lower()} must be 0 to {limit:,}, not {n}.")
        out_warband[key] = n

    warriors_raw = data.get("warriors", [])
    warriors: list[dict[str, Any]] = []
    if not isinstance(warriors_raw, list):
        found.append("`warriors` must be a list.")
    elif len(warriors_raw) > MAX_IMPORT_WARRIORS:
        found.append(f"`warriors` has {len(warriors_raw)} entries; the limit is {MAX_IMPORT_WARRIORS}.")
    else:
        for n, raw in enumerate(warriors_raw):
            label = raw.get("name") if isinstance(raw, Mapping) else None
            where = f"warriors[{n}]" + (f" ({str(label)[:40]})" if isinstance(label, str) else "") + ": "
            warrior, probs = clean_warrior(raw, rules, where)
            found.extend(probs)
            if warrior:
                warriors.append(warrior)
        wlist = catalogue.warbands.get(out_warband["list"]) if out_warband.get("list") else None
        if out_warband.get("list") and wlist is None:
            found.append(f"warband: this server has no warband list `{out_warband['list']}`; add it with `/admin warbands`, "
                         "or remove `list` from the file to import it as a custom warband.")
        if len(warriors) == len(warriors_raw) and wtype:
            stored = [Warrior.from_snapshot(w, id=n, warband="") for n, w in enumerate(warriors)]
            found.extend(roster_problems(rules, wtype, stored, wlist))

    battles_raw = data.get("battles", [])
    battles: list[dict[str, Any]] = []
    if not isinstance(battles_raw, list):
        found.append("`battles` must be a list.")
    elif len(battles_raw) > MAX_IMPORT_BATTLES:
        found.append(f"`battles` has {len(battles_raw)} entries; the limit is {MAX_IMPORT_BATTLES}.")
    else:
        for n, raw in enumerate(battles_raw):
            where = f"battles[{n}]: "
            if not isinstance(raw, Mapping):
                found.append(f"{where}a battle must be an object.")
                continue
            _unknown(found, where, raw, BATTLE_KEYS)
            battles.append(clean_battle(raw, where, found))
    if found:
        return None, found
    return {"warband": out_warband, "warriors": warriors, "battles": battles}, []
