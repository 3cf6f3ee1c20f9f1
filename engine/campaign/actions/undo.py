"""Undo: take back the newest action on a warband that is not undone yet, as a whole.

Every action is one ledger batch (engine/storage/ledger.py). Undo reverts the batch's rows newest
first, each putting back its ``before``, and records each undo as a row of a new batch pointing
at the row it undoes. Which rows that is, of one warband or of every warband the action changed,
and who may take them back, is undo_scope.py's. A rare-item search is a record of dice already
rolled: undo passes over it, so undo never buys a second roll.
"""

from __future__ import annotations

from typing import Any

from engine.campaign.actions.common import changeable_warband, warband_by_id
from engine.campaign.actions.ledger_view import named_entries
from engine.campaign.actions.postbattle import close as close_sequence
from engine.campaign.actions.undo_scope import batch_to_undo
from engine.campaign.model import Actor, Entity, LedgerEntry, Warband
from engine.campaign.ports import UnitOfWork
from engine.errors import DuplicateKey, MordheimError

NOT_UNDOABLE = ("warband.create", "warband.import", "warband.delete")


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
            _close_sequence_after(uow, warband_id, entity_id)
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


def _close_sequence_after(uow: UnitOfWork, warband_id: int, battle_id: int) -> None:
    """Close the warband's open post-battle sequence that follows the battle just undone: with its battle
    gone it has nothing to apply (its steps taken are undone with their own batch, newer than the battle's)."""
    record = uow.sequences.open_of(warband_id)
    if record is not None and record.battle_id == battle_id:
        close_sequence(uow, record, reason="its battle was undone")


def undo_last_batch(uow: UnitOfWork, actor: Actor, warband: str) -> list[LedgerEntry]:
    """Take back the newest action not yet undone, every row of its batch, gold included, on every
    warband it changed; returns the undo rows written, the named warband's first, each warband's in
    the order written (the action's newest change first)."""
    band = changeable_warband(uow, actor, warband)
    entries = batch_to_undo(uow, actor, band)
    if not entries:
        raise MordheimError(f"{band.name} has no change left to undo.")
    blocked = next((e for e in entries if e.what in NOT_UNDOABLE), None)
    if blocked is not None:
        raise MordheimError(f"The last change to this warband is `{blocked.what}` (#{blocked.id}), which cannot be undone.",
                            hint="There is nothing earlier to undo; delete the warband if you want it gone.")
    bands = {band.id: band}
    for e in entries:
        if e.warband_id is not None and e.warband_id not in bands:
            bands[e.warband_id] = warband_by_id(uow, e.warband_id)
    try:
        written = uow.ledger.entries_by_id(_undo(uow, bands, band.id, entries))
    except DuplicateKey:  # a name it would restore is taken now
        first = entries[-1]
        raise MordheimError(f"Change #{first.id} ({first.what}) cannot be undone: a name it would restore is taken now.",
                            hint="Rename the other warband or warrior first.") from None
    named = []
    for wid, each in bands.items():  # the named warband first
        named += named_entries(uow, each, [e for e in written if (e.warband_id or band.id) == wid])
    return named


def _undo(uow: UnitOfWork, bands: dict[int, Warband], default_id: int, entries: list[LedgerEntry]) -> list[int]:
    """Revert ``entries`` (newest first), each on its own warband (``default_id``: a row that names
    none), with an undo row each; the ids of the undo rows."""
    names = {wid: b.name for wid, b in bands.items()}
    for entry in entries:
        warband_id = entry.warband_id if entry.warband_id is not None else default_id
        _revert(uow, warband_id, entry)
        if entry.entity == Entity.WARBAND and isinstance(entry.before, dict):
            # an undone rename: later rows name the warband as it is again
            names[warband_id] = entry.before.get("name", names[warband_id])
        uow.ledger.record(warband_id=warband_id, warband_name=names[warband_id], what=f"undo {entry.what}",
                          entity=entry.entity or Entity.WARBAND, entity_id=entry.entity_id, before=entry.after,
                          after=entry.before, reason=f"undo of #{entry.id}", undoes_id=entry.id)
    for warband_id in bands:
        uow.warbands.touch(warband_id)
    return uow.flush()


def undo_last(uow: UnitOfWork, actor: Actor, warband: str) -> LedgerEntry:
    """``undo_last_batch``'s first undo row (the others are in the ledger beside it, in the same batch)."""
    return undo_last_batch(uow, actor, warband)[0]
