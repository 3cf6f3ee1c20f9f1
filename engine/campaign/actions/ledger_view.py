"""Ledger rows made readable: each row that changed a warrior names him, so `/warband log` and
`/warband undo` say whose experience or kit changed (an undo row names him too, beside the
"undo experience" it took back).

The name is the warrior's as he is now (a renamed warrior shows his new name); a warrior since
deleted is named by the row that added or removed him, when that row is among those shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.campaign.model import Entity, LedgerEntry, Warband
from engine.campaign.ports import UnitOfWork


def named_entries(uow: UnitOfWork, warband: Warband, entries: Sequence[LedgerEntry]) -> list[LedgerEntry]:
    """``entries`` with ``subject`` (the name of the warrior each changed) filled in."""
    names = {w.id: w.name for w in uow.warriors.of_warband(warband.id, warband.name)}
    for e in entries:  # a warrior deleted since: the name his own add or remove row carries
        if e.entity == Entity.WARRIOR and e.entity_id is not None and e.entity_id not in names:
            kept = e.before if isinstance(e.before, dict) else e.after
            if isinstance(kept, dict) and kept.get("name"):
                names[e.entity_id] = str(kept["name"])
    return [replace(e, subject=names.get(e.entity_id)) if e.entity == Entity.WARRIOR and e.entity_id is not None else e
            for e in entries]
