"""Which campaign tables and warband lists each server uses, and the admin actions that change them.

Campaign tables: the bundled ones (rules_data/campaign/), or the server's override. Warband
lists: the bundled catalogue (rules_data/warbands/) plus the server's own lists (house
warbands), each added or replacing the bundled list of the same id. One server's lists are
never visible from another: a server's catalogue is built from its own rows only.

Grades: every bundled list, hired sword and Dramatis Persona has a grade (1a official, 1b widely
used); a server may turn a grade off. Its warbands of that grade keep playing (marked as such),
but no new warband of a list of that grade is made, and no hired sword or character of that
grade is hired. A house list without a grade is always played.

They change rarely and are read by nearly every action, so they are kept in memory behind a
version stamp: every change to a server's settings writes a ledger row with no warband, so the
id of the server's newest such row is an exact version (one indexed read, which also sees a
change made by another process on the same database). Anyone may read them; only members with
Manage Server may change them, each change with its ledger row.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.campaign.actions.common import AUTOCOMPLETE_LIMIT, suggest
from engine.campaign.lists.catalogue import Catalogue, WarbandList, bundled_catalogue, lookup_key, validate_house_list
from engine.campaign.lists.names import Choice, ranked_choices
from engine.campaign.model import Actor, Entity, Warband
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import transfer
from engine.campaign.rules.campaign_rules import CampaignRules, build_rules, default_rules, validate_override, what_differs
from engine.errors import InvalidData, LimitExceeded, MordheimError, NotFoundError, PermissionDenied

MAX_HOUSE_LISTS = 50  # per server
MAX_HOUSE_LIST_BYTES = 256 * 1024
SERVERS_KEPT = 1024  # servers whose tables are kept in memory


@dataclass(frozen=True, kw_only=True)
class ServerTables:
    """What one server plays with: its warband lists and its campaign tables."""

    catalogue: Catalogue
    rules: CampaignRules
    house: tuple[tuple[str, str, str], ...]  # (list id, name, JSON) of the server's own lists
    override: Mapping[str, Any]  # what the server replaced of the bundled campaign tables
    grades_off: frozenset[str] = frozenset()  # grades of lists and hired swords the server does not play

    def warband_list(self, warband: Warband) -> WarbandList | None:
        """The list ``warband`` is built from, on this server; None for a custom type (or a list the
        server no longer has: the warband is then treated as custom)."""
        return self.catalogue.warbands.get(warband.list_id) if warband.list_id else None

    def plays(self, grade: str | None) -> bool:
        """Whether the server plays lists and hired swords of ``grade`` (None, a house list without one: always)."""
        return grade is None or grade not in self.grades_off

    def grade_off(self, warband: Warband) -> str | None:
        """The grade of ``warband``'s list when the server no longer plays it (the warband keeps playing); else None."""
        wlist = self.warband_list(warband)
        return wlist.grade if wlist is not None and not self.plays(wlist.grade) else None


def grade_refusal(name: str, grade: str) -> MordheimError:
    """Why a list, hired sword or character of a grade the server turned off cannot be taken, and how to turn it on."""
    return MordheimError(
        f"{name} is grade {grade}, and this server does not play grade {grade} any more: no new warband of such a list, "
        "and no hired sword or character of that grade, is taken.",
        hint=f"A member with Manage Server can turn it back on with `/admin warbands grade:{grade} play:True`. "
             "Warbands of that grade made before keep playing.",
    )


@dataclass(frozen=True, kw_only=True)
class HouseList:
    id: str
    name: str
    replaces: str | None  # the bundled list of the same id it stands in for
    broken: tuple[str, ...]  # problems that keep it out of the catalogue now (after an update of the bundled data)


@dataclass(frozen=True, kw_only=True)
class ServerLists:
    """What ``/settings show`` says about the lists and tables a server uses."""

    bundled: tuple[str, ...]  # names of the bundled lists in use (not replaced)
    house: tuple[HouseList, ...]
    campaign_override: tuple[str, ...]  # the campaign-table keys the server replaced
    grades: tuple[tuple[str, bool], ...] = ()  # every grade of the bundled data, and whether the server plays it


@lru_cache(maxsize=128)
def _catalogue_of(lists: tuple[tuple[str, str], ...]) -> tuple[Catalogue, Mapping[str, tuple[str, ...]]]:
    """The bundled catalogue with these house lists ((id, JSON) each), and the problems of any that no longer fit.

    Keyed by the stored JSON itself, so two servers share a catalogue only when their lists are
    the same text, and a changed list is a new key. A list stored when it was valid can stop
    fitting after an update of the bundled data; it is then left out, with its problems kept.
    """
    catalogue = bundled_catalogue()
    broken: dict[str, tuple[str, ...]] = {}
    for list_id, text in lists:
        try:
            catalogue = catalogue.with_house_lists([json.loads(text)])
        except (InvalidData, ValueError) as exc:
            broken[list_id] = tuple(getattr(exc, "problems", None) or [str(exc)])
    return catalogue, broken


def _override_key(override: Mapping[str, Any]) -> str:
    return json.dumps(override, sort_keys=True)


@lru_cache(maxsize=128)
def _rules_of(override_key: str) -> CampaignRules:
    override = json.loads(override_key)
    return build_rules(override) if override else default_rules()


_kept: dict[tuple[str, int], tuple[Any, ServerTables]] = {}
_kept_lock = threading.Lock()


def _read(uow: UnitOfWork) -> ServerTables:
    house = tuple((h.list_id, h.name, h.data) for h in uow.tables.house_lists())
    override = uow.tables.campaign_override()
    catalogue = _catalogue_of(tuple((i, text) for i, _name, text in house))[0] if house else bundled_catalogue()
    return ServerTables(catalogue=catalogue, rules=_rules_of(_override_key(override)), house=house, override=override,
                        grades_off=frozenset(uow.tables.grades_off()))


def tables_of(uow: UnitOfWork) -> ServerTables:
    """The server's lists and tables, read in ``uow`` (built again only after the server changed them)."""
    memo = uow.memo.get("tables")
    if memo is not None:
        return memo
    key = (uow.database, uow.guild_id)
    version = uow.ledger.newest_setting()
    kept = _kept.get(key)
    if kept is not None and kept[0] == version:
        tables = kept[1]
    else:
        tables = _read(uow)
        with _kept_lock:
            _kept[key] = (version, tables)
            while len(_kept) > SERVERS_KEPT:
                _kept.pop(next(iter(_kept)))
    uow.memo["tables"] = tables
    return tables


_type_rows: dict[int, tuple[ServerTables, tuple[Choice, ...]]] = {}


def warband_type_choices(uow: UnitOfWork, prefix: str) -> list[tuple[str, str]]:
    """(label, value) for the warband lists a new warband may be built from here that ``prefix`` finds,
    at most 25, best first (engine/campaign/lists/names.py): a list whose name starts with it ("pir":
    Pirates), then one of whose other names or their words does, then one whose names and book hold every
    word typed ("nemesis": the Nemesis Crown's lists), then one holding it anywhere ("pir": Undead, by
    Vampire). Each label says the list's grade. Lists of a grade the server turned off are not offered.
    The rows are made once per server tables (they are frozen)."""
    tables = tables_of(uow)
    kept = _type_rows.get(id(tables))
    if kept is None or kept[0] is not tables:
        rows = []
        for w in sorted(tables.catalogue.warbands.values(), key=lambda w: w.name):
            if tables.plays(w.grade):
                grade = f"grade {w.grade}" if w.grade else ("house list" if w.house else "")
                label = f"{w.name} — {grade + ', ' if grade else ''}{w.starting_gold} gc, up to {w.max_warriors}"
                rows.append(Choice(w.name, (w.id, *w.aliases), w.source, label[:100], w.name))
        with _kept_lock:
            if len(_type_rows) > SERVERS_KEPT:
                _type_rows.clear()
            kept = _type_rows[id(tables)] = (tables, tuple(rows))
    return [(c.label, c.value) for c in ranked_choices(kept[1], prefix or "", AUTOCOMPLETE_LIMIT)]


def _admin_only(actor: Actor, what: str) -> None:
    if not actor.is_admin:
        raise PermissionDenied(f"Only members with Manage Server can {what}.")


# ---------------------------------------------------------------------- campaign tables
def parse_campaign_override(override: Mapping[str, Any] | str | bytes | None) -> dict[str, Any]:
    """A server's override of the campaign tables from JSON or a mapping, checked (InvalidData with every problem)."""
    given: Any = override
    if isinstance(override, (str, bytes)):
        given, problems = transfer.parse_json(override, "The campaign file")
        if problems:
            raise InvalidData("The campaign file", problems)
    if given is not None and not isinstance(given, Mapping):
        raise InvalidData("The campaign file", ["The file must hold one JSON object of tables (see rules_data/campaign)."])
    checked = what_differs(dict(given or {}))
    problems = validate_override(checked)
    if problems:
        raise InvalidData("The campaign file", problems)
    return checked


def set_campaign_rules(uow: UnitOfWork, actor: Actor, given: Mapping[str, Any] | str | bytes | None) -> CampaignRules:
    """Replace campaign tables for this server (JSON text or a mapping, see rules_data/campaign);
    None or {} clears. InvalidData with every problem, and nothing stored, when anything is wrong."""
    _admin_only(actor, "change the campaign rules")
    override = parse_campaign_override(given)
    old = uow.tables.campaign_override()
    uow.tables.set_campaign_override(dict(override), uow.at)
    changed = old != override
    uow.ledger.record(warband_id=None, warband_name="", what="settings.campaign_rules", entity=Entity.SETTINGS, entity_id=None,
                      before={"campaign_rules": old} if changed else {}, after={"campaign_rules": dict(override)} if changed else {})
    return _rules_of(_override_key(override))


# ---------------------------------------------------------------------- grades
def set_grade(uow: UnitOfWork, actor: Actor, grade: str, play: bool) -> tuple[tuple[str, bool], ...]:
    """Play or stop playing the lists, hired swords and characters of ``grade``; every grade and
    whether it is played now. The change is seen at once by every action (a settings ledger row
    moves the stamp ``tables_of`` keeps the server's tables behind)."""
    _admin_only(actor, "choose the grades this server plays")
    grades = bundled_catalogue().grades()
    wanted = " ".join(str(grade or "").split()).lower()
    if wanted not in grades:
        raise MordheimError(f"'{str(grade)[:20]}' is not a grade of the warband lists.", hint=f"Choose one of: {', '.join(grades)}.")
    old = frozenset(uow.tables.grades_off())
    new = old - {wanted} if play else old | {wanted}
    if not set(grades) - new:
        raise MordheimError("A server plays at least one grade of warband lists.",
                            hint="Turn another grade on first (`/admin warbands grade: play:True`).")
    if new != old:
        uow.tables.set_grades_off(tuple(sorted(new)), uow.at)
        uow.ledger.record(warband_id=None, warband_name="", what="settings.grades", entity=Entity.SETTINGS, entity_id=None,
                          before={"grades_off": sorted(old)}, after={"grades_off": sorted(new)},
                          reason=f"grade {wanted} {'played' if play else 'turned off'}")
    return tuple((g, g not in new) for g in grades)


# ---------------------------------------------------------------------- warband lists
def parse_house_list(data: Mapping[str, Any] | str | bytes) -> Mapping[str, Any]:
    """A house list's JSON as data (LimitExceeded for a file too big, InvalidData for broken JSON)."""
    if isinstance(data, (str, bytes)):
        if len(data) > MAX_HOUSE_LIST_BYTES:
            raise LimitExceeded(f"A warband list file may be at most {MAX_HOUSE_LIST_BYTES // 1024} KB; this one is "
                                f"{len(data) // 1024} KB.")
        parsed, problems = transfer.parse_json(data, "The warband list")
        if problems:
            raise InvalidData("The warband list", problems)
        return parsed
    return data


def set_house_list(uow: UnitOfWork, actor: Actor, given: Mapping[str, Any] | str | bytes) -> WarbandList:
    """Add the server's own warband list (JSON text or a mapping), or replace the one with the same
    id (bundled or its own).

    Checked like the bundled lists (``validate_house_list``: schema and cross-references, every
    problem listed); InvalidData and nothing stored when anything is wrong.
    """
    _admin_only(actor, "change this server's warband lists")
    data = parse_house_list(given)
    stored = uow.tables.house_lists()
    list_id = data.get("id") if isinstance(data, Mapping) else None
    others = tuple((h.list_id, h.data) for h in stored if h.list_id != list_id)
    base = _catalogue_of(others)[0] if others else bundled_catalogue()
    problems = validate_house_list(data, base)
    if problems:
        raise InvalidData("The warband list", problems)
    if len(others) >= MAX_HOUSE_LISTS:
        raise LimitExceeded(f"A server may keep at most {MAX_HOUSE_LISTS} warband lists of its own.",
                            hint="Remove one with `/admin warbands remove:`.")
    built = base.with_house_lists([data]).warbands[data["id"]]
    replaced = any(h.list_id == list_id for h in stored)
    uow.tables.put_house_list(list_id=built.id, name=built.name, data=json.dumps(data, ensure_ascii=False),
                              added_by=actor.member_id, at=uow.at)
    uow.ledger.record(warband_id=None, warband_name="", what="settings.house_list", entity=Entity.SETTINGS, entity_id=None,
                      before={"house_list": built.id, "replaced": True} if replaced else None,
                      after={"house_list": built.id, "name": built.name}, reason="replaced" if replaced else "added")
    return built


def remove_house_list(uow: UnitOfWork, actor: Actor, query: str) -> str:
    """Remove one of the server's own lists (by id or name); returns its name. Warbands built from
    it stay as they are and are treated as custom until a list with that id is back."""
    _admin_only(actor, "change this server's warband lists")
    stored = uow.tables.house_lists()
    key = lookup_key(query or "")
    found = next((h for h in stored if key in (lookup_key(h.list_id), lookup_key(h.name))), None)
    if found is None:
        names = [h.name for h in stored]
        raise NotFoundError(f"This server has no warband list of its own called '{(query or '')[:60]}'.",
                            suggestions=suggest(names, query or ""),
                            hint=None if names else "It has none; the bundled lists cannot be removed.")
    uow.tables.remove_house_list(found.list_id)
    uow.ledger.record(warband_id=None, warband_name="", what="settings.house_list", entity=Entity.SETTINGS, entity_id=None,
                      before={"house_list": found.list_id, "name": found.name}, after=None, reason="removed")
    return found.name


def house_list_named(uow: UnitOfWork, query: str) -> tuple[WarbandList, Catalogue] | None:
    """The server's own warband list whose id, name or an alias is ``query`` (names compared as
    lookups compare them), with the server's catalogue; None when no list of its own is called so."""
    tables = tables_of(uow)
    wanted = lookup_key(query or "")
    if not wanted or not tables.house:
        return None
    for list_id, _name, _text in tables.house:
        wlist = tables.catalogue.warbands.get(list_id)
        if wlist is not None and wanted in {lookup_key(n) for n in (wlist.id, wlist.name, *wlist.aliases)}:
            return wlist, tables.catalogue
    return None


def server_lists(uow: UnitOfWork) -> ServerLists:
    """The lists this server uses (bundled and its own) and what it replaced of the campaign tables."""
    tables = tables_of(uow)
    bundled = bundled_catalogue()
    broken = _catalogue_of(tuple((i, text) for i, _name, text in tables.house))[1] if tables.house else {}
    house = tuple(HouseList(id=list_id, name=name, broken=broken.get(list_id, ()),
                            replaces=bundled.warbands[list_id].name if list_id in bundled.warbands else None)
                  for list_id, name, _text in tables.house)
    replaced = {h.id for h in house if not h.broken}
    return ServerLists(bundled=tuple(sorted(w.name for w in bundled.warbands.values() if w.id not in replaced)),
                       house=house, campaign_override=tuple(sorted(tables.override)),
                       grades=tuple((g, tables.plays(g)) for g in bundled.grades()))
