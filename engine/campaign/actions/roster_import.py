"""Reading a BattleScribe or NewRecruit roster for ``/warband import``: what it would become, stored nowhere.

``read_roster_file`` reads the upload safely (rules/roster_file.py), maps it to a warband file of
ours (rules/battlescribe.py) and checks that file as an import into this server would be checked
(actions/warbands.py ``import_problems``). The member sees the preview and confirms; only then
does ``import_warband`` store the same file, checked again in its own transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.campaign.actions.server_tables import tables_of
from engine.campaign.actions.warbands import import_problems
from engine.campaign.lists.battlescribe import bundled_ids
from engine.campaign.model import Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules.battlescribe import read_roster
from engine.campaign.rules.roster_file import parse_roster

SOURCE = "a BattleScribe roster"  # where the ledger says an import came from


@dataclass(frozen=True, kw_only=True)
class RosterPreview:
    """A roster as it would be imported: confirm imports ``warband_file`` under ``name``."""

    warband_file: dict[str, Any]  # a /warband export file
    name: str  # the name it would be imported under
    warband_type: str
    gold_crowns: int
    wyrdstone_shards: int
    stash: tuple[str, ...]
    warriors: tuple[Warrior, ...]
    unmapped: tuple[str, ...]  # entries of the roster that are not imported, each with its warrior
    notes: tuple[str, ...]
    problems: tuple[str, ...]  # why it cannot be imported as it is (empty: it can)


def read_roster_file(uow: UnitOfWork, data: bytes, *, name: str | None = None) -> RosterPreview:
    """The preview of a ``.rosz`` or ``.ros`` upload for this server. RosterFileError (a
    MordheimError) for a file that is no readable Mordheim roster; nothing is written."""
    root = parse_roster(data)
    reading = read_roster(root, bundled_ids(), tables_of(uow).catalogue, uow.at)
    parsed, problems = import_problems(uow, reading.warband_file, name=name)
    warband = parsed["warband"] if parsed is not None else reading.warband_file["warband"]
    shown = parsed["warriors"] if parsed is not None else reading.warband_file["warriors"]
    shown_name = str(warband["name"]) if parsed is not None or not name else name.strip()
    return RosterPreview(
        warband_file=reading.warband_file, name=shown_name, warband_type=str(warband["type"]),
        gold_crowns=int(warband["gold_crowns"] or 0), wyrdstone_shards=int(warband["wyrdstone_shards"] or 0),
        stash=tuple(warband["stash"] or ()),
        warriors=tuple(Warrior.from_snapshot(w, id=n, warband=shown_name) for n, w in enumerate(shown)),
        unmapped=reading.unmapped, notes=reading.notes, problems=tuple(problems),
    )
