"""The two changes every action is made of: a warband's fields, and a warrior, each with its ledger row.

Only what changed is checked and written, and the ledger row holds only the changed fields
(before and after); a change to a warrior marks his warband changed, written once when the unit
of work ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.campaign.actions import succession
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.model import Entity, Warband, Warrior, name_key
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import transfer
from engine.campaign.rules.succession import leaves_for_good
from engine.campaign.rules.validation import SAME_NAME_HINT
from engine.errors import LimitExceeded, MordheimError

MAX_WARRIOR_ROWS = 200  # per warband, dead and retired included
# What a warband list decides about a warrior: changing one of these by hand (``/warrior edit``,
# ``/warrior equip``) on a warrior hired from a list marks it as a hand edit. Name, status,
# injuries and experience are the campaign's own bookkeeping.
LIST_DECIDED = ("role", "type", "group_size", "profile", "equipment", "skills", "large")


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only the fields that changed, on both sides."""
    keys = [k for k in after if before.get(k) != after[k]]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


def change_warband(uow: UnitOfWork, warband: Warband, changes: Mapping[str, Any], *, what: str, reason: str) -> Warband:
    """Change the warband's snapshot keys (e.g. ``gold_crowns``) and record what changed; the warband as it is now."""
    before, after = diff(warband.snapshot(), changes)
    if not after:
        return warband
    new = uow.warbands.update(warband, after, uow.at)
    uow.ledger.record(warband_id=warband.id, warband_name=new.name, what=what, entity=Entity.WARBAND, entity_id=warband.id,
                      before=before, after=after, reason=reason)
    return new


def with_hand_edits(old: Warrior, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` plus, for a warrior hired from a list, the list-decided fields it changes by hand."""
    if not old.from_list:
        return changes
    before = old.snapshot()
    edited = [k for k in LIST_DECIDED if k in changes and changes[k] != before[k] and k not in old.hand_edits]
    return {**changes, "hand_edits": [*old.hand_edits, *edited]} if edited else changes


def roster_refusal(uow: UnitOfWork, warband: Warband, before: Sequence[Warrior], after: Sequence[Warrior]) -> str | None:
    """The first limit the roster ``after`` breaks that ``before`` did not (a roster already over a
    limit, after hand edits say, can still be changed in other ways); None when there is none."""
    tables = tables_of(uow)
    wlist = tables.warband_list(warband)
    new = transfer.roster_problems(tables.rules, warband.warband_type, after, wlist)
    if new:  # rare: only then is the roster before the change worth checking
        old = set(transfer.roster_problems(tables.rules, warband.warband_type, before, wlist))
        new = [p for p in new if p not in old]
    return new[0] if new else None


def store_warrior(uow: UnitOfWork, warband: Warband, old: Warrior | None, changes: Mapping[str, Any], *, what: str,
                  reason: str, warriors: Sequence[Warrior] | None = None, check_roster: bool = True,
                  checked: bool = False, rng: random.Random | None = None) -> Warrior:
    """Store a new warrior (``old`` None: ``changes`` is his whole snapshot) or ``old`` with the
    snapshot keys in ``changes``, after checking what changed, and record it. Returns him as stored.

    ``warriors``: the warband's warriors as the caller read them in this unit (read again when
    needed: for a new name, or to check the roster). ``check_roster=False`` skips the
    whole-roster limits: for a caller whose own checks are stricter (a hire), or who applies what
    the rules decided rather than what the owner chose (a post-battle step). ``checked=True``: every
    value was checked already (a hire builds the warrior from the list's own data, checked when the
    lists were loaded, and a name it cleaned), so the values are not checked again.

    A leader who leaves for good (dead, retired) is succeeded in the same unit (``leader_gone``);
    ``rng`` rolls the D6 of a tie, else the players are told to roll it."""
    before_snapshot = old.snapshot() if old is not None else {}
    _before, after = diff(before_snapshot, changes) if old is not None else ({}, dict(changes))
    if old is not None and not after:
        return old
    if not checked:
        rules = tables_of(uow).rules
        if old is None:
            cleaned, problems = transfer.clean_warrior(after, rules)
        else:
            cleaned, problems = transfer.check_warrior_fields(after, rules, role=old.role, group_size=old.group_size)
        if problems or cleaned is None:
            raise MordheimError(problems[0])
        after = {**after, **cleaned}
    new_snapshot = {**before_snapshot, **after}
    renamed = old is None or ("name" in after and name_key(old.name) != name_key(after["name"]))
    if renamed or check_roster:
        everyone = list(uow.warriors.of_warband(warband.id, warband.name) if warriors is None else warriors)
        others = [w for w in everyone if old is None or w.id != old.id]
        same = next((w for w in others if name_key(w.name) == name_key(new_snapshot["name"])), None) if renamed else None
        if same is not None:
            raise MordheimError(f"{warband.name} already has a warrior called '{same.name}'.", hint=SAME_NAME_HINT)
        if check_roster:
            refusal = roster_refusal(uow, warband, everyone, [*others, Warrior.from_snapshot(new_snapshot, id=0, warband=warband.name)])
            if refusal:
                raise MordheimError(refusal, hint="Change the roster or ask an admin to change the campaign rules.")
        if old is None and len(others) >= MAX_WARRIOR_ROWS:
            raise LimitExceeded(f"A warband may keep at most {MAX_WARRIOR_ROWS} warriors, dead and retired included.",
                                hint="Remove warriors who are long gone.")
    if old is None:
        warrior_id = uow.warriors.add(warband.id, new_snapshot, uow.at)
        before, recorded = None, new_snapshot
    else:
        warrior_id = old.id
        uow.warriors.update(warrior_id, after, uow.at)
        before, recorded = {k: before_snapshot.get(k) for k in after}, after
    uow.ledger.record(warband_id=warband.id, warband_name=warband.name, what=what, entity=Entity.WARRIOR, entity_id=warrior_id,
                      before=before, after=recorded, reason=reason)
    uow.warbands.touch(warband.id)
    stored = Warrior.from_snapshot(new_snapshot, id=warrior_id, warband=warband.name)
    if old is not None and leaves_for_good(old, str(stored.status)):
        leader_gone(uow, warband, old, rng=rng)
    return stored


def leader_gone(uow: UnitOfWork, warband: Warband, departed: Warrior, *, rng: random.Random | None = None) -> None:
    """``departed``, the leader, left the roster for good (already written): the rule's heir takes
    command, written as a ledger row of this unit (engine/campaign/actions/succession.py)."""
    now = [w for w in uow.warriors.of_warband(warband.id, warband.name) if w.id != departed.id]

    def write(heir: Warrior, changes: dict[str, Any]) -> Warrior:
        return store_warrior(uow, warband, heir, changes, what=succession.SUCCESSION, warriors=now, check_roster=False,
                             reason=f"takes command after {departed.name}")

    succession.take_command(uow, warband, departed, now, tables_of(uow).warband_list(warband),
                            d6=succession.d6_of(rng), write=write)
