"""Hired swords' upkeep: due after each battle a sword fights, paid once for that battle.

The rule (LRB p. 105 and the 1999 rulebook, Hired Swords, "hire fee"; not in the seeds,
INVENTORY.md section 1; transcribed at mordheimer.net/docs/campaigns/hired-swords and
redelf.narod.ru/mordheim/rules/mor_27_hs.html): "after each battle he fights, including the
first, you must pay his upkeep fee if you want him to remain"; a sword who is killed, or whose
services are no longer wanted, costs nothing, and one left unpaid leaves the warband, his
experience lost. So the upkeep of a battle is due for the swords who fought it (the post-battle
sequence's "did not fight" says who did not; without a sequence, every living sword), and is
recorded per battle and sword (``upkeep_paid``): a second payment for the same battle is
refused. A payment counts while its ledger batch is not undone, so undo takes it back with the
gold (and the post-battle sequence's with the sequence).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.campaign.actions.changes import change_warband
from engine.campaign.actions.common import changeable_warband
from engine.campaign.actions.hiring import missing_gold, missing_shards, shards_in_words
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.model import Actor, SequenceStatus, Warband, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.sequence import SequenceState
from engine.errors import MordheimError


@dataclass(frozen=True, kw_only=True)
class UpkeepPaid:
    warband: str
    battle: int  # the battle's number among the warband's
    paid: tuple[tuple[str, int], ...]  # (hired sword's name, upkeep) for each one paid
    total: int
    gold_left: int
    paid_in_words: tuple[tuple[str, str], ...] = ()  # (name, '30 gc', '1 wyrdstone shard'...) for each one paid
    shards: int = 0  # wyrdstone shards paid besides the gold (Nicodemus)
    shards_left: int = 0
    by_hand: tuple[tuple[str, str], ...] = ()  # (name, what his upkeep asks besides the gold paid): to record by hand


def shards_due(uow: UnitOfWork, due: Iterable[tuple[Warrior, int]]) -> dict[int, int]:
    """The wyrdstone shards each hired sword of ``due`` asks besides his gold (``upkeep_shards``:
    Nicodemus's shard), by warrior id; only those who ask some."""
    catalogue = tables_of(uow).catalogue
    return {w.id: hs.upkeep_shards for w, _fee in due
            if (hs := roster_rules.sword_of(catalogue, w)) is not None and hs.upkeep_shards}


def in_words(fee: int, shards: int) -> str:
    """'30 gc', '1 wyrdstone shard', '30 gc and 1 wyrdstone shard'."""
    stone = shards_in_words(shards) if shards else ""
    return f"{fee} gc and {stone}" if fee and stone else stone or f"{fee} gc"


def asked_by_hand(uow: UnitOfWork, paid: Iterable[Warrior]) -> tuple[tuple[str, str], ...]:
    """What the upkeep of the hired swords and characters paid asks besides the gold the bot took
    (Nicodemus's shard, a treasure, the Halfling Thief's D6: his entry's ``upkeep_note``), to be
    recorded by hand. What stands in for a hire fee (Johann's dose of Crimson Shade, his
    ``hire_note``) is said at hire only: it is no part of his upkeep."""
    catalogue = tables_of(uow).catalogue
    return tuple((w.name, hs.upkeep_note) for w in paid if (hs := roster_rules.sword_of(catalogue, w)) is not None and hs.upkeep_note)


@dataclass(frozen=True)
class UpkeepDue:
    due: tuple[tuple[Warrior, int], ...]  # (hired sword, upkeep) not paid yet for the battle
    paid: tuple[Warrior, ...]  # already paid for it


def fought_in(uow: UnitOfWork, warband_id: int, battle_id: int) -> set[int] | None:
    """Who fought ``battle_id`` by its post-battle sequence (open or finished, not undone); None
    when it has none (then every living sword is taken to have fought)."""
    for status in (SequenceStatus.OPEN, SequenceStatus.FINISHED):
        for record in uow.sequences.of_warband(warband_id, status, battle_id=battle_id):
            if not uow.ledger.batch_undone(warband_id, record.batch_id):
                return {f.warrior_id for f in SequenceState.from_json(record.state_json).fighters if f.fought}
    return None


def due_after(uow: UnitOfWork, band: Warband, battle_id: int, warriors: Iterable[Warrior], *,
              fought: set[int] | None) -> UpkeepDue:
    """The upkeep of ``battle_id``: each living hired sword the catalogue knows who fought it
    (``fought``; None: every one), paid already or not."""
    catalogue = tables_of(uow).catalogue
    paid_ids = {r.warrior_id for r in uow.upkeep.paid(band.id, battle_id) if not uow.ledger.batch_undone(band.id, r.batch_id)}
    due: list[tuple[Warrior, int]] = []
    paid: list[Warrior] = []
    for w in roster_rules.active(warriors):
        sword = roster_rules.sword_of(catalogue, w)
        if sword is None or (fought is not None and w.id not in fought):
            continue
        if w.id in paid_ids:
            paid.append(w)
        else:
            due.append((w, sword.upkeep))
    return UpkeepDue(tuple(due), tuple(paid))


def pay(uow: UnitOfWork, band: Warband, battle_id: int, due: Sequence[tuple[Warrior, int]], *, shards: Mapping[int, int],
        reason: str) -> Warband:
    """Pay ``due`` and the wyrdstone ``shards`` it asks (``shards_due``, which the caller also words)
    from the treasury and record each payment for ``battle_id``, in the unit's batch; refuses,
    changing nothing, when the treasury cannot pay it all."""
    total = sum(fee for _w, fee in due)
    stone = sum(shards.values())
    detail = ", ".join(f"{w.name} {in_words(fee, shards.get(w.id, 0))}" for w, fee in due)
    unpaid = "A hired sword who is not paid leaves the warband: let him go in the post-battle sequence's upkeep step " \
             "(or take him off with `/warrior remove`), then pay the rest."
    if total > band.gold_crowns:
        raise MordheimError(missing_gold(f"The upkeep ({detail})", total, band.name, band.gold_crowns), hint=unpaid)
    if stone > band.wyrdstone_shards:
        raise MordheimError(missing_shards(f"The upkeep ({detail})", stone, band.name, band.wyrdstone_shards), hint=unpaid)
    treasury = {"gold_crowns": band.gold_crowns - total}
    if stone:
        treasury["wyrdstone_shards"] = band.wyrdstone_shards - stone
    band = change_warband(uow, band, treasury, what="treasury", reason=f"{reason}: {detail}")
    for w, fee in due:
        uow.upkeep.add(warband_id=band.id, battle_id=battle_id, warrior_id=w.id, gold=fee, batch_id=uow.ledger.batch_id, at=uow.at)
    return band


def pay_upkeep(uow: UnitOfWork, actor: Actor, warband: str) -> UpkeepPaid:
    """``/hire upkeep``: pay the upkeep of the warband's newest battle for every hired sword who
    fought it and is not paid for it yet, as one action."""
    band = changeable_warband(uow, actor, warband)
    warriors = uow.warriors.of_warband(band.id, band.name)
    catalogue = tables_of(uow).catalogue
    if not any(roster_rules.sword_of(catalogue, w) for w in roster_rules.active(warriors)):
        raise MordheimError(f"{band.name} has no hired swords to pay.", hint="Hire one with `/hire sword`.")
    battles = uow.battles.in_order(band.id, band.name)
    if not battles:
        raise MordheimError(f"{band.name} has fought no battle yet: a hired sword's upkeep is due after each battle he fights.",
                            hint="Record the battle with `/battle record` first.")
    battle, number = battles[-1], len(battles)
    dues = due_after(uow, band, battle.id, warriors, fought=fought_in(uow, band.id, battle.id))
    if not dues.due:
        if dues.paid:
            raise MordheimError(f"{band.name} already paid the upkeep of {', '.join(w.name for w in dues.paid)} for battle {number}.",
                                hint="Upkeep is paid once for each battle a hired sword fights; `/warband undo` takes a payment back.")
        raise MordheimError(f"No hired sword of {band.name} fought battle {number}, so no upkeep is due for it.",
                            hint="Upkeep is due after each battle a hired sword fights (the post-battle sequence says who did not).")
    shards = shards_due(uow, dues.due)
    band = pay(uow, band, battle.id, dues.due, shards=shards, reason=f"upkeep after battle {number}")
    return UpkeepPaid(warband=band.name, battle=number, paid=tuple((w.name, fee) for w, fee in dues.due),
                      total=sum(fee for _w, fee in dues.due), gold_left=band.gold_crowns,
                      paid_in_words=tuple((w.name, in_words(fee, shards.get(w.id, 0))) for w, fee in dues.due),
                      shards=sum(shards.values()), shards_left=band.wyrdstone_shards,
                      by_hand=asked_by_hand(uow, (w for w, _fee in dues.due)))
