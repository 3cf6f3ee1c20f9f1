"""What members do to one warrior: recruit by hand, edit, remove, equip, experience, injuries;
and finding warriors by name.

Each changing function is one action in one unit of work for one ``Actor`` (the warband's owner
or a member with Manage Server).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.campaign.actions.captives import captor_of_battle
from engine.campaign.actions.changes import leader_gone, store_warrior, with_hand_edits
from engine.campaign.actions.common import AUTOCOMPLETE_LIMIT, changeable_warband, suggest, warband_named, warrior_named
from engine.campaign.actions.server_tables import tables_of
from engine.dice.source import Dice
from engine.campaign.model import Actor, Entity, InjuryReport, Role, Status, Warrior, XpResult, name_key
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules.campaign_rules import CampaignRules, SeriousInjury
from engine.campaign.rules.campaign_warrior import CampaignWarrior, gains_experience
from engine.campaign.rules.injuries import apply_injury
from engine.campaign.rules.kit_names import canonical
from engine.campaign.rules.succession import leaves_for_good
from engine.campaign.rules.validation import (
    MAX_EXPERIENCE,
    ROLES,
    STATUSES,
    choice,
    clean_list,
    clean_name,
    clean_notes,
    clean_profile,
    whole_number,
)
from engine.errors import LimitExceeded, MordheimError, NotFoundError


def add_warrior(uow: UnitOfWork, actor: Actor, warband: str, name: str, *, role: str, warrior_type: str,
                profile: Mapping[str, int], group_size: int = 1, equipment: Iterable[str] = (), skills: Iterable[str] = (),
                experience: int = 0, large: bool = False) -> Warrior:
    """Recruit a leader, hero or henchman group by hand. ``profile`` maps M WS BS S T W I A Ld to 0-10."""
    new = {
        "name": clean_name(name, "The warrior name", forbid="/"),
        "role": choice(role, ROLES, "Role"),
        "type": clean_name(warrior_type, "The warrior type"),
        "group_size": whole_number(group_size, "Group size"),
        "profile": clean_profile(profile),
        "equipment": [canonical(tables_of(uow).catalogue, e) for e in clean_list(equipment, "Equipment")],
        "skills": clean_list(skills, "Skills"),
        "injuries": [],
        "experience": whole_number(experience, "Experience"),
        "status": "active",
        "large": bool(large),
    }
    return store_warrior(uow, changeable_warband(uow, actor, warband), None, new, what="warrior.add", reason="recruited")


def _change(uow: UnitOfWork, actor: Actor, warband: str, warrior: str,
            change: Callable[[Warrior, CampaignRules], dict[str, Any]], *, what: str, reason: str = "",
            rng: random.Random | None = None) -> Warrior:
    band = changeable_warband(uow, actor, warband)
    old = warrior_named(uow, band, warrior)
    return store_warrior(uow, band, old, change(old, tables_of(uow).rules), what=what, reason=reason, rng=rng)


def edit_warrior(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, *, name: str | None = None,
                 role: str | None = None, warrior_type: str | None = None, profile: Mapping[str, int] | None = None,
                 group_size: int | None = None, skills: Iterable[str] | None = None, injuries: Iterable[str] | None = None,
                 experience: int | None = None, status: str | None = None, large: bool | None = None,
                 reason: str = "", rng: random.Random | None = None) -> Warrior:
    """Change any field; ``profile`` may name only the characteristics that change."""
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = clean_name(name, "The warrior name", forbid="/")
    if role is not None:
        changes["role"] = choice(role, ROLES, "Role")
    if warrior_type is not None:
        changes["type"] = clean_name(warrior_type, "The warrior type")
    partial = clean_profile(profile, partial=True) if profile is not None else {}
    if group_size is not None:
        changes["group_size"] = whole_number(group_size, "Group size")
    if skills is not None:
        changes["skills"] = clean_list(skills, "Skills")
    if injuries is not None:
        changes["injuries"] = clean_list(injuries, "Injuries")
    if experience is not None:
        changes["experience"] = whole_number(experience, "Experience")
    if status is not None:
        changes["status"] = choice(status, STATUSES, "Status")
    if large is not None:
        changes["large"] = bool(large)
    reason = clean_notes(reason, "The reason")

    def change(old: Warrior, _rules: CampaignRules) -> dict[str, Any]:
        return with_hand_edits(old, {**changes, "profile": {**old.profile.as_dict(), **partial}})

    return _change(uow, actor, warband, warrior, change, what="warrior.edit", reason=reason, rng=rng)


def remove_warrior(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, *, reason: str = "",
                   rng: random.Random | None = None) -> None:
    """Take a warrior off the roster for good (use status 'dead' or 'retired' to keep the record).
    A leader removed is succeeded as a dead one is (engine/campaign/rules/succession.py); ``rng``
    rolls the D6 of a tie."""
    reason = clean_notes(reason, "The reason")
    band = changeable_warband(uow, actor, warband)
    old = warrior_named(uow, band, warrior)
    uow.warriors.delete(old.id)
    uow.ledger.record(warband_id=band.id, warband_name=band.name, what="warrior.remove", entity=Entity.WARRIOR,
                      entity_id=old.id, before=old.snapshot(), after=None, reason=reason)
    uow.warbands.touch(band.id)
    if leaves_for_good(old, None):
        leader_gone(uow, band, old, rng=rng)


def equip(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, item: str) -> Warrior:
    """Give the warrior an item by hand; a name the lists know is kept in their spelling ('sword' -> 'Sword')."""
    item = canonical(tables_of(uow).catalogue, clean_name(item, "The item"))
    return _change(uow, actor, warband, warrior, lambda w, _r: with_hand_edits(w, {"equipment": [*w.equipment, item]}),
                   what="warrior.equip", reason=item)


def unequip(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, item: str) -> Warrior:
    item = clean_name(item, "The item")

    def change(w: Warrior, _r: CampaignRules) -> dict[str, Any]:
        keys = [name_key(e) for e in w.equipment]
        if name_key(item) not in keys:
            raise NotFoundError(f"{w.name} does not carry '{item}'.", suggestions=suggest(w.equipment, item),
                                hint=None if w.equipment else f"{w.name} carries nothing.")
        kit = list(w.equipment)
        del kit[keys.index(name_key(item))]
        return with_hand_edits(w, {"equipment": kit})

    return _change(uow, actor, warband, warrior, change, what="warrior.unequip", reason=item)


def add_xp(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, gained: int, *, reason: str = "") -> XpResult:
    """Add experience (negative corrects a mistake); returns the advances the warrior reached."""
    gained = whole_number(gained, "Experience")
    if gained == 0:
        raise MordheimError("Give the experience gained, e.g. 1 or 2.")
    band = changeable_warband(uow, actor, warband)
    old = warrior_named(uow, band, warrior)
    if old.status != Status.ACTIVE:
        raise MordheimError(f"{old.name} is {old.status} and cannot gain experience.")
    total = old.experience + gained
    if total < 0:
        raise MordheimError(f"{old.name} has {old.experience} experience; removing {-gained} would go below 0.")
    if total > MAX_EXPERIENCE:
        raise LimitExceeded(f"Experience is capped at {MAX_EXPERIENCE}.")
    rules = tables_of(uow).rules
    w = store_warrior(uow, band, old, {"experience": total}, what="experience", reason=clean_notes(reason, "The reason"))
    if not gains_experience(w.special_rules):  # kept as typed; it reaches no advance
        return XpResult(w, (), None, gains_experience=False)
    return XpResult(w, tuple(rules.advances_between(w.role, old.experience, w.experience)), rules.next_advance(w.role, w.experience))


def _typed_d66(text: str) -> int | None:
    """A D66 typed as its two digits ('36'), else None (a name). Digits only as ASCII ones ('²' is
    a digit to Python but no number), and never more than two read as a number (a 6,000-digit one
    is past what Python turns into an integer)."""
    if not (text.isascii() and text.isdigit()):
        return None
    if len(text) > 2:
        raise MordheimError(f"{text[:12]}{'…' if len(text) > 12 else ''} is not a D66 roll.",
                            hint="Both digits run from 1 to 6, e.g. 11, 36, 64.")
    return int(text)


def _chart_entry(rules: CampaignRules, injury: str | int) -> SeriousInjury:
    text = str(injury).strip()
    d66 = _typed_d66(text)
    if d66 is not None:
        return rules.serious_injury(d66)
    for entry in rules.serious_injuries:
        if name_key(entry.name) == name_key(text):
            return entry
    if name_key(text) in ("killed", "dies", "died"):
        return next(e for e in rules.serious_injuries if e.dead)
    raise NotFoundError(f"'{text[:40]}' is not on the serious injury chart.",
                        suggestions=suggest([e.name for e in rules.serious_injuries], text), hint=None)


def _hold_captive(uow: UnitOfWork, warband_id: int, w: Warrior) -> None:
    """A hero captured by hand (61) is held as the post-battle injuries step holds one, so that
    `/postbattle captives` deals with him: by the newest battle's one opposing warband of this server,
    else by one his owner names there among several, else by a warband outside the server
    (actions/captives.py's decisions)."""
    newest = uow.battles.of_warband(warband_id, "", limit=1)
    battle_id = newest[0].id if newest else None
    captor, _maybe = captor_of_battle(uow, battle_id, warband_id)
    uow.captives.add(warband_id=warband_id, warrior_id=w.id, captor_id=captor.id if captor else None,
                     battle_id=battle_id, batch_id=uow.ledger.batch_id, at=uow.at)


def injure(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, injury: str | int, *, reason: str = "",
           rng: random.Random | None = None) -> Warrior:
    """``injure_reported``'s warrior, as stored."""
    return injure_reported(uow, actor, warband, warrior, injury, reason=reason, rng=rng).warrior


def injure_reported(uow: UnitOfWork, actor: Actor, warband: str, warrior: str, injury: str | int, *, reason: str = "",
                    rng: random.Random | None = None) -> InjuryReport:
    """Apply a serious injury by name or D66 roll (e.g. 'Leg wound', 22, or 'roll' for the bot to
    roll the D66 with ``rng``); every effect of the chart is applied (rules/injuries.py): a Leg
    wound takes 1 M, Robbed takes every item, an Arm wound rolls its D6 with ``rng``. The report
    has every die rolled and the advances an effect's experience reached (Survives against the odds).

    A henchman group can only lose a model ('dead'): henchmen out of action die on 1-2
    (seed 000:1499) and have no serious injury chart; the last one lost marks the group dead.
    """
    reason = clean_notes(reason, "The reason")
    dice = Dice(rng)  # the D66 and the effect's own dice, all shown
    d66: int | None = None
    if name_key(str(injury)) == "roll":
        injury = d66 = dice.d66("Serious injury")
    else:
        d66 = _typed_d66(str(injury).strip())
    chosen: list[SeriousInjury] = []
    effects: list[str] = []  # what the injury's effects did, in words (each roll of Multiple injuries)

    def change(w: Warrior, rules: CampaignRules) -> dict[str, Any]:
        if w.status != Status.ACTIVE:
            raise MordheimError(f"{w.name} is already {w.status}.")
        entry = _chart_entry(rules, injury)
        chosen.append(entry)
        if w.role == Role.HENCHMEN:
            if not entry.dead:
                raise MordheimError("Henchmen have no serious injuries: one out of action either dies (1-2) or is fine (3-6).",
                                    hint="Use 'Dead' to remove one model from the group.")
            return {"group_size": w.group_size - 1} if w.group_size > 1 else {"status": "dead"}
        if entry.dead:
            return {"status": "dead", "injuries": [*w.injuries, entry.name]}
        if name_key(entry.name) == "full recovery":
            return {}
        applied = apply_injury(CampaignWarrior.from_warrior(w, rules.tables.default_maximum), entry, rules, dice, d66=d66)
        effects.extend(applied.results)
        hurt = applied.warrior
        return {"status": hurt.status, "profile": hurt.profile.as_dict(), "equipment": list(hurt.equipment),
                "injuries": list(hurt.injuries), "experience": hurt.experience}

    band = changeable_warband(uow, actor, warband)
    old = warrior_named(uow, band, warrior)
    rules = tables_of(uow).rules
    stored = store_warrior(uow, band, old, change(old, rules), what="injury", reason=reason or str(injury)[:64],
                           rng=rng)
    if stored.status == Status.CAPTURED and old.status != Status.CAPTURED:
        _hold_captive(uow, band.id, stored)
    gained = stored.experience - old.experience
    shown = tuple(str(r) for r in dice.rolls)
    if gained <= 0 or stored.status != Status.ACTIVE or not gains_experience(stored.special_rules):
        return InjuryReport(stored, chosen[0].name, shown, max(gained, 0), results=tuple(effects))
    return InjuryReport(stored, chosen[0].name, shown, gained,
                        tuple(rules.advances_between(stored.role, old.experience, stored.experience)),
                        rules.next_advance(stored.role, stored.experience), results=tuple(effects))


# ---------------------------------------------------------------------- finding warriors
def get_warrior(uow: UnitOfWork, warband: str, warrior: str) -> Warrior:
    """One stored warrior; ``.profile.as_dict()`` gives M WS BS S T W I A Ld for combat."""
    return warrior_named(uow, warband_named(uow, warband), warrior)


def find_warrior(uow: UnitOfWork, query: str) -> Warrior:
    """'Warband/Warrior', or just a warrior name if only one warband in the server has it."""
    if not isinstance(query, str) or not query.strip():
        raise MordheimError("Name the warrior, as `Warband/Warrior` or just `Warrior`.")
    if "/" in query:
        warband, _, warrior = query.rpartition("/")
        return get_warrior(uow, warband, warrior)
    found = uow.warriors.called(query, 26)
    if len(found) == 1:
        return found[0][1]
    if found:
        paths = [f"{band}/{w.name}" for band, w in found]
        raise NotFoundError(f"Several warbands have a warrior called '{query.strip()[:64]}'.", suggestions=paths,
                            hint="Say which: " + ", ".join(f"`{p}`" for p in paths[:5]))
    raise NotFoundError(f"No warband in this server has a warrior called '{query.strip()[:64]}'.",
                        suggestions=suggest(uow.warriors.paths(5000), query))


def warrior_names_for_autocomplete(uow: UnitOfWork, warband: str, prefix: str) -> list[str]:
    warband_id = uow.warbands.id_called(warband or "")
    if warband_id is None:
        return []
    return uow.warriors.names_matching(warband_id, name_key(prefix or "")[:64], AUTOCOMPLETE_LIMIT)


def warrior_paths_for_autocomplete(uow: UnitOfWork, query: str, *, limit: int = AUTOCOMPLETE_LIMIT) -> list[str]:
    """Up to 25 ``Warband/Warrior`` paths in this server matching ``query`` (what ``find_warrior`` takes).

    A query with ``/`` matches the warband part and the warrior part; otherwise the warrior's
    name or the warband's ("Reik" offers every warrior of the Reiklanders), warriors whose name
    starts with it first, then warbands whose name does. Other servers' warriors never match.
    """
    limit = max(0, min(limit, AUTOCOMPLETE_LIMIT))
    band, slash, man = (query or "").rpartition("/")
    return uow.warriors.paths_matching(name_key(band)[:64] if slash else None, name_key(man)[:64], limit)
