"""Undo: take back the newest action on a warband that is not undone yet, as a whole.

Every action is one ledger batch (engine/storage/ledger.py). Undo reverts the batch's rows newest
first, each putting back its ``before``, and records each undo as a row of a new batch pointing
at the row it undoes. A rare-item search is a record of dice already rolled: undo passes over it,
so undo never buys a second roll.
"""

from __future__ import annotations

from typing import Any

from engine.campaign.actions.common import changeable_warband
from engine.campaign.actions.ledger_view import named_entries
from engine.campaign.model import Actor, Entity, LedgerEntry
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules.game_state import GAME_RECORDS
from engine.errors import DuplicateKey, MordheimError

NOT_UNDOABLE = ("warband.create", "warband.import", "warband.delete")
# Records of what happened rather than changes to take back: a rare-item search (dice already
# rolled: undo never buys a second roll), a post-battle sequence closed before its end, and what
# the battle tracker recorded at the table (its own Undo takes a mark back; the battles a game
# records at its end are ordinary battle rows, which undo takes back).
PASSED_OVER_BY_UNDO = ("trade.search", "postbattle.cancel", *GAME_RECORDS)


def _stale(entry: LedgerEntry) -> MordheimError:
    return MordheimError(f"Change #{entry.id} cannot be undone: the {entry.entity} no longer looks as that change left it.",
                         hint="Make the correction by hand instead.")


def _current(uow: UnitOfWork, entity: Entity, entity_id: int) -> dict[str, Any] | None:
    """What the entity looks like now, in the ledger's terms (a snapshot); None when it is gone."""
    if entity == Entity.WARBAND:
        warband = uow.warbands.get(entity_id)
        return None if warband is None else warband.snapshot()
    if entity == Entity.SEARCH:
        bought = uow.searches.bought(entity_id)
        return None if bought is None else {"bought": bought}
    if entity == Entity.WARRIOR:
        warrior = uow.warriors.get(entity_id)
        return None if warrior is None else warrior.snapshot()
    battle = uow.battles.get(entity_id)
    return None if battle is None else battle.snapshot()


def _revert(uow: UnitOfWork, warband_id: int, entry: LedgerEntry) -> None:
    """Put back ``entry.before``; MordheimError when the data no longer matches ``entry.after``
    (which happens only if something changed the database outside the engine)."""
    entity, entity_id = entry.entity, entry.entity_id
    if entity is None or entity_id is None or entity == Entity.SETTINGS:
        raise _stale(entry)
    current = _current(uow, entity, entity_id)
    if entry.before is None:  # it was created: remove it
        if current is None:
            raise _stale(entry)
        if entity == Entity.WARRIOR:
            uow.warriors.delete(entity_id)
        elif entity == Entity.BATTLE:
            uow.battles.delete(entity_id)
        else:
            raise _stale(entry)
        return
    if entry.after is None:  # it was removed: put it back under its old id
        if entity == Entity.WARRIOR:
            uow.warriors.add(warband_id, entry.before, uow.at, warrior_id=entity_id)
        elif entity == Entity.BATTLE:
            uow.battles.add(warband_id, entry.before, recorded_by=uow.member_id, at=uow.at, battle_id=entity_id)
        else:
            raise _stale(entry)
        return
    if current is None or any(current.get(k) != v for k, v in entry.after.items()):
        raise _stale(entry)
    if entity == Entity.SEARCH:  # a found rare item bought (or its purchase undone)
        uow.searches.set_bought(entity_id, bool(entry.before["bought"]))
    elif entity == Entity.WARBAND:
        uow.warbands.put_back(entity_id, entry.before, uow.at)
    elif entity == Entity.WARRIOR:
        uow.warriors.update(entity_id, entry.before, uow.at)
    else:
        raise _stale(entry)


def undo_last_batch(uow: UnitOfWork, actor: Actor, warband: str) -> list[LedgerEntry]:
    """Take back the newest action not yet undone, every row of its batch, gold included; returns
    the undo rows written, in the order written (the action's newest change first)."""
    band = changeable_warband(uow, actor, warband)
    entries = uow.ledger.newest_undoable_batch(band.id, PASSED_OVER_BY_UNDO)
    if not entries:
        raise MordheimError(f"{band.name} has no change left to undo.")
    blocked = next((e for e in entries if e.what in NOT_UNDOABLE), None)
    if blocked is not None:
        raise MordheimError(f"The last change to this warband is `{blocked.what}` (#{blocked.id}), which cannot be undone.",
                            hint="There is nothing earlier to undo; delete the warband if you want it gone.")
    try:
        written = _undo(uow, band.id, band.name, entries)
    except DuplicateKey:  # a name it would restore is taken now
        first = entries[-1]
        raise MordheimError(f"Change #{first.id} ({first.what}) cannot be undone: a name it would restore is taken now.",
                            hint="Rename the other warband or warrior first.") from None
    return named_entries(uow, band, uow.ledger.entries_by_id(written))


def _undo(uow: UnitOfWork, warband_id: int, name: str, entries: list[LedgerEntry]) -> list[int]:
    for entry in entries:
        _revert(uow, warband_id, entry)
        if entry.entity == Entity.WARBAND and isinstance(entry.before, dict):
            name = entry.before.get("name", name)  # an undone rename: later rows name the warband as it is again
        uow.ledger.record(warband_id=warband_id, warband_name=name, what=f"undo {entry.what}",
                          entity=entry.entity or Entity.WARBAND, entity_id=entry.entity_id, before=entry.after,
                          after=entry.before, reason=f"undo of #{entry.id}", undoes_id=entry.id)
    uow.warbands.touch(warband_id)
    return uow.flush()


def undo_last(uow: UnitOfWork, actor: Actor, warband: str) -> LedgerEntry:
    """``undo_last_batch``'s first undo row (the others are in the ledger beside it, in the same batch)."""
    return undo_last_batch(uow, actor, warband)[0]
