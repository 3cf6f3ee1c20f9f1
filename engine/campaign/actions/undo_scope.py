"""Which ledger rows one `/warband undo` takes back, and who may: a warband's own batch, one side of
a battle, or every side of an action that changed several warbands at once.

Decisions:
- An action whose one batch changed several warbands (a captive ransomed, exchanged, sold to
  the slavers, killed for a Zombie or sacrificed, or any later action written that way) is taken
  back as one piece or not at all: one side alone would leave the other its gain (the captor
  kept the slavers' gold and the kit while the captive came back to be sold again).
  `/warband undo` of any of those warbands takes back every one's rows together.
- So only a member who may change every warband it changed may take it back: the owner of them
  all, or a member with Manage Server. Anyone else is refused, told which warband's action it
  was and who can undo it. The member who made it may not undo it alone either: a captor could
  otherwise sell, undo and sell again until the slavers' D6 suits him (undo never buys a second
  roll).
- It must be the newest change not yet undone of every warband it changed (undo goes newest
  first): a warband that changed since is named, to be undone first.
- A warband deleted since has no rows to put back: the rows of the warbands still here are taken
  back, as its undo did before it was deleted.
- A battle recorded on several warbands (`/battle record opponent:`, the end of a `/game`, whose
  batch also holds each side's post-battle sequence) stays undone side by side: each owner takes
  back his own side (README: "each owner can undo his side"). That gives no one a double gain:
  a side's battle row carries no gold, kit or experience, nothing in such a batch passes from one
  warband to another, and each side's gains come from its own post-battle rows, which its own
  undo takes back with its battle. And it is how the owner of a warband named as an opponent,
  without his say, takes the result off his warband.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.campaign.actions.captives import (EXCHANGED, KILLED, KIT_KEPT, RAISED, RANSOM, RANSOMED, SACRIFICE, SACRIFICED,
                                              SALE, SOLD)
from engine.campaign.model import Actor, LedgerEntry, Warband
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules.game_state import GAME_RECORDS
from engine.errors import MordheimError, PermissionDenied
from engine.words import possessive

# Records of what happened rather than changes to take back: a rare-item search (dice already
# rolled: undo never buys a second roll), a post-battle sequence closed before its end, and what
# the battle tracker recorded at the table (its own Undo takes a mark back; the battles a game
# records at its end are ordinary battle rows, which undo takes back).
PASSED_OVER_BY_UNDO = ("trade.search", "postbattle.cancel", *GAME_RECORDS)
BATTLE_ROW = "battle"  # a battle added to one side (actions/warbands.add_battle)


def batch_to_undo(uow: UnitOfWork, actor: Actor, band: Warband) -> list[LedgerEntry]:
    """The rows `/warband undo` of ``band`` takes back, newest first (empty: nothing left to undo):
    its newest batch not yet undone, with that batch's rows on other warbands when it changed them
    too; MordheimError (PermissionDenied) when the member may not take them all back or another of
    them changed since. The member may change ``band`` (checked by the caller)."""
    own = uow.ledger.newest_undoable_batch(band.id, PASSED_OVER_BY_UNDO)
    if not own or own[0].batch_id is None:
        return own
    whole = uow.ledger.batch_rows(own[0].batch_id, PASSED_OVER_BY_UNDO)
    other_ids = dict.fromkeys(e.warband_id for e in whole if e.warband_id is not None and e.warband_id != band.id)
    if not other_ids or records_a_battle(whole):
        return own
    others = [w for w in (uow.warbands.get(i) for i in other_ids) if w is not None]  # a deleted one has nothing to put back
    if not others:
        return own
    bands = {band.id: band, **{w.id: w for w in others}}
    taken = [e for e in whole if e.warband_id in bands]
    words = deed_words(uow, taken, bands)
    _refuse_unless_may_change_all(actor, band, others, words, taken[-1].id)
    for other in others:
        newest = uow.ledger.newest_undoable_batch(other.id, PASSED_OVER_BY_UNDO)
        if not newest or newest[0].batch_id != own[0].batch_id:
            raise MordheimError(f"{other.name} has changed since {words} (#{taken[-1].id}), which changed {band.name} too: "
                                f"undo takes {other.name}'s newer changes back first.",
                                hint=f"Run `/warband undo name:{other.name}` until that change is the newest, then undo it.")
    return taken


def records_a_battle(rows: Sequence[LedgerEntry]) -> bool:
    """The batch records a battle on its sides: each side's rows are its own (taken back side by side)."""
    return any(e.what == BATTLE_ROW for e in rows)


def _refuse_unless_may_change_all(actor: Actor, band: Warband, others: Sequence[Warband], words: str, first_id: int) -> None:
    if actor.is_admin or all(w.owner_id == actor.member_id for w in others):
        return
    names = _listing([band.name, *(w.name for w in others)])
    every = "both" if len(others) == 1 else "all of them"
    raise PermissionDenied(
        f"The newest change to {band.name} was {words} (#{first_id}); it changed {names}, so only someone who may change "
        f"{every} (a member with Manage Server, or one who owns {every}) can undo it.",
        hint=f"Ask a member with Manage Server to run `/warband undo`: it takes back {names} together.")


def deed_words(uow: UnitOfWork, rows: Sequence[LedgerEntry], bands: Mapping[int, Warband]) -> str:
    """What the batch ``rows`` did, in words: "Night Stalkers' sale of Hans to the slavers"."""
    first: dict[str, LedgerEntry] = {}
    for e in reversed(rows):  # oldest first: the first row of each kind
        first.setdefault(e.what, e)

    def band(e: LedgerEntry) -> str:
        found = bands.get(e.warband_id) if e.warband_id is not None else None
        return found.name if found is not None else e.warband

    def warrior(e: LedgerEntry) -> str:
        found = uow.warriors.get(e.entity_id) if e.entity_id is not None else None
        return found.name if found is not None else "a warrior"

    if SALE in first and SOLD in first:
        return f"{possessive(band(first[SALE]))} sale of {warrior(first[SOLD])} to the slavers"
    if KILLED in first and RAISED in first:
        return f"{possessive(band(first[RAISED]))} killing of {warrior(first[KILLED])} for a Zombie"
    captor_row = first.get(SACRIFICE) or first.get(KIT_KEPT)
    if SACRIFICED in first and captor_row is not None:
        return f"{possessive(band(captor_row))} sacrifice of {warrior(first[SACRIFICED])}"
    if RANSOM in first and RANSOMED in first:
        return f"{possessive(band(first[RANSOMED]))} ransom of {warrior(first[RANSOMED])} from {band(first[RANSOM])}"
    exchanged = [e for e in reversed(rows) if e.what == EXCHANGED]
    if len(exchanged) >= 2:
        return f"the exchange of {warrior(exchanged[0])} of {band(exchanged[0])} for {warrior(exchanged[1])} of {band(exchanged[1])}"
    oldest = rows[-1]
    return f"{possessive(band(oldest))} `{oldest.what}`"




def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
