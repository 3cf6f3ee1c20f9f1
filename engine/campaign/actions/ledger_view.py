"""Ledger rows made readable: each row that changed a warrior names him, so `/warband log` and
`/warband undo` say whose experience or kit changed (an undo row names him too, beside the
"undo experience" it took back); a row that added or removed a battle says which battle (its
date, result, opponent and scenario), its undo too.

The name is the warrior's as he is now (a renamed warrior shows his new name); a warrior since
deleted is named by the row that added or removed him, when that row is among those shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from dataclasses import replace

from engine.campaign.model import Entity, LedgerEntry, Warband
from engine.campaign.ports import UnitOfWork


def named_entries(uow: UnitOfWork, warband: Warband, entries: Sequence[LedgerEntry]) -> list[LedgerEntry]:
    """``entries`` with ``subject`` (the name of the warrior each changed, or the battle each added
    or removed, in words) filled in."""
    names = {w.id: w.name for w in uow.warriors.of_warband(warband.id, warband.name)}
    for e in entries:  # a warrior deleted since: the name his own add or remove row carries
        if e.entity == Entity.WARRIOR and e.entity_id is not None and e.entity_id not in names:
            kept = e.before if isinstance(e.before, dict) else e.after
            if isinstance(kept, dict) and kept.get("name"):
                names[e.entity_id] = str(kept["name"])
    return [_named(e, names) for e in entries]


def _named(entry: LedgerEntry, names: Mapping[int, str]) -> LedgerEntry:
    """``entry`` with its ``subject``: the warrior's name, or the battle in words."""
    if entry.entity == Entity.WARRIOR and entry.entity_id is not None:
        return replace(entry, subject=names.get(entry.entity_id))
    battle = entry.after if isinstance(entry.after, Mapping) else entry.before
    if entry.entity == Entity.BATTLE and isinstance(battle, Mapping):
        return replace(entry, subject=battle_words(battle))
    return entry


def battle_words(battle: Mapping[str, Any]) -> str:
    """A battle as its ledger row keeps it, in words: 'the battle of 2025-03-01 (win vs Skaven
    Scurriers, Skirmish)'."""
    how = [str(battle.get("result") or "")]
    if battle.get("opponents"):
        how[0] += f" vs {battle['opponents']}"
    if battle.get("scenario"):
        how.append(str(battle["scenario"]))
    return f"the battle of {battle.get('fought_on') or 'an unknown day'} ({', '.join(x for x in how if x) or 'no result'})"
