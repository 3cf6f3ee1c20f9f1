"""Captives: heroes held by another warband (serious injury 61), and what their captors do with them.

The rule (Mordheim rulebook / LRB, Heroes' serious injuries, 61 Captured; not in the seeds,
INVENTORY.md section 1; rules_data/campaign/lrb.json names its transcriptions): the hero "may be
ransomed at a price set by the captor or exchanged for one of their warband who is being held
captive. Captives may be sold to slavers at a price of D6x5 gc. Undead may kill their captive and
gain a new Zombie. The Possessed may sacrifice the prisoner. The leader of the warband will gain +1
Experience if they do so"; ransomed or exchanged captives keep their kit, and the kit of one sold,
killed or turned into a Zombie is kept by his captors (the same text in mordheim.hesketh.dev/Rules/
serious-injuries and in public roster apps' serious injury tables).

Decisions:
- A captive's status is ``captured``: away from his warband, he counts for neither its income
  chart's size nor its rating until he returns (status ``active``), is sold (``retired``: gone,
  alive) or is killed by his captors (``dead``); but he keeps his place on the roster for its
  limits (size, heroes, his type's maximum: rules/roster.py ``on_roster``), so the warband cannot
  fill it while he is away.
  His injuries' 'Captured (held by the enemy warband)' then says what became of him: 'Captured
  (ransomed)' or '(exchanged)', or, sold, ``SOLD_TO_THE_SLAVERS`` (the roster shows him so), or,
  killed, 'Captured (killed by his captors, raised as a Zombie)' or '(sacrificed by his captors)'.
- His captor (``postbattle.roll_injuries``, issue 16) is the warband of the warrior who took him
  out of action, when the game tracker recorded it (``/game``: "Twitch (by Uzg)"); failing that,
  the battle's one opposing warband of this server (``opposing_warbands``: the opponent of
  ``/battle record opponent:``, the other sides of a ``/game``, or this server's warbands the
  typed ``opponents`` name); with several and no record, his owner chooses which holds him
  (``choose_captor``, a button of ``/postbattle captives``); with none, his captor is outside
  this server. The captor's owner (or Manage Server) decides: asks a ransom,
  which the captive's owner then pays (or not), exchanges him for one of his own warriors the
  captive's warband holds, or sells him (the bot rolls the D6, or takes it typed), or, as its
  list allows, kills him for a new Zombie or sacrifices him (below). Every result
  is written on both warbands, in one ledger batch: `/warband undo` of either takes back both
  sides together, and only a member who may change both warbands (Manage Server, or the owner of
  both) may (actions/undo_scope.py): one side alone taken back would leave the other's gain, and a
  captor who could undo his own sale would buy a second roll of the slavers' price.
- Held by a warband outside the bot, the captive's owner records what the table agreed: ransomed
  (the price paid from his treasury), exchanged, sold (gone), or killed (dead: an Undead captor's
  Zombie, a Possessed one's sacrifice; what the captor gains is its own table's to record).
- A captor whose list fields Zombies (its list has the ``zombie`` fighter type: the Undead) may
  kill the captive for a new Zombie (``raise_zombie``), and a captor of the Cult of the Possessed may
  sacrifice him (``sacrifice``); ``captor_fates`` says which a list may, and no other captor is
  offered either or may do it. The captive dies (status ``dead``; his injuries' captivity says
  he was killed by his captors, and how) and his kit goes to the captor's stash, as a sale's does;
  written, like a sale, in one ledger batch on both warbands (undo_scope.py).
- The Zombie is free, and joins the captor's first living Zombie group with room (a henchman group
  is 1 to 5), else is a new group of one with the list's Zombie profile and starting kit (as a hire
  makes one: hiring.recruit). The list's limits apply as to a hire (the warband's maximum size, the
  Zombies' own maximum, limits across types): one that would be broken refuses the killing and
  says why, and the captor may still ransom, exchange or sell him. The rule gives the Zombie at no
  cost and says nothing of the warband's maximum; a free model past the list's limits is the
  kind of house rule the bot does not make alone (the owner may add one by hand).
- A sacrifice gives the captor's leader +1 experience (the advances it reaches said, as `/warrior
  xp` says them). The rule names the leader only: with none at hand (none on the roster, or held
  captive himself) the sacrifice is made and nobody gains the experience.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from engine.campaign.actions import hiring
from engine.campaign.actions.changes import change_warband, store_warrior
from engine.campaign.actions.common import may_change, warband_by_id, warband_named
from engine.campaign.actions.hiring import missing_gold
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.actions.trading import STASH_MAX
from engine.campaign.lists.catalogue import FighterType, WarbandList
from engine.campaign.model import SOLD_TO_THE_SLAVERS, Actor, CaptiveRecord, Role, Status, Warband, Warrior
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.campaign_warrior import gains_experience
from engine.campaign.rules.injuries import HELD_CAPTIVE, mark_settled
from engine.campaign.rules.validation import MAX_EXPERIENCE
from engine.campaign.ports import UnitOfWork
from engine.dice.source import Dice, parse_entered
from engine.errors import MordheimError

MAX_RANSOM = 10_000
# What each result's ledger rows are called: the captive's warband's row, then the captor's
SOLD, SALE = "captive.sold", "captive.sale"
RANSOMED, RANSOM = "captive.ransomed", "captive.ransom"
EXCHANGED = "captive.exchanged"  # each of the two warriors exchanged
KILLED, RAISED = "captive.killed", "captive.raised"  # the captive the Undead killed; their Zombie gained
SACRIFICED, SACRIFICE = "captive.sacrificed", "captive.sacrifice"  # the captive sacrificed; the Possessed leader's experience
KIT_KEPT = "captive.kit"  # a killed captive's kit, into his captor's stash
SLAVERS_PRICE = "D6x5"  # gold crowns the slavers pay

# What a captor's own list lets it do with a captive besides ransom, exchange and sale (the rule above)
RAISE_ZOMBIE, SACRIFICE_HIM = "zombie", "sacrifice"
ZOMBIE = "zombie"  # the fighter type a new Zombie is (rules_data/warbands/lists/undead.json)
POSSESSED = "cult-of-the-possessed"  # the list whose captors may sacrifice (rules_data/warbands/lists/)
SACRIFICE_XP = 1  # the leader's experience for a sacrifice


@dataclass(frozen=True)
class Captive:
    """One warrior held captive, as the channel shows him."""

    id: int
    name: str
    warband: str  # his own warband
    warband_id: int
    captor: str | None  # the warband holding him; None: one outside this server's campaign
    captor_id: int | None
    ransom: int | None  # what the captor asks; None: nothing asked yet
    kit: tuple[str, ...]
    # with no captor known: the warbands of this server he fought in that battle, (id, name), his owner to say which holds him
    candidates: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class CaptivesView:
    """The captives a warband holds, and its own warriors held by others."""

    warband: str
    warband_id: int
    owner_id: int
    gold: int
    held: tuple[Captive, ...]  # captives this warband holds
    taken: tuple[Captive, ...]  # its own warriors held by others
    lines: tuple[str, ...] = ()  # what the action just did
    dice: tuple[str, ...] = ()
    fates: tuple[str, ...] = ()  # what its list lets it do with the captives it holds besides ransom, exchange and sale


def _held(uow: UnitOfWork, record: CaptiveRecord) -> Warrior | None:
    """The captive of ``record`` while he is held: his status is 'captured' and the batch that
    captured him is not undone (undo keeps the warrior's status true)."""
    w = uow.warriors.get(record.warrior_id)
    if w is None or w.status != Status.CAPTURED or uow.ledger.batch_undone(record.warband_id, record.batch_id):
        return None
    return w


def _captive(uow: UnitOfWork, record: CaptiveRecord, w: Warrior) -> Captive:
    band = warband_by_id(uow, record.warband_id)
    captor = uow.warbands.get(record.captor_id) if record.captor_id is not None else None
    candidates = () if captor is not None else tuple((b.id, b.name) for b in opposing_warbands(uow, record.battle_id, band.id))
    return Captive(id=record.id, name=w.name, warband=band.name, warband_id=band.id, captor=captor.name if captor else None,
                   captor_id=captor.id if captor else None, ransom=record.ransom, kit=w.equipment, candidates=candidates)


_BETWEEN_NAMES = re.compile(r"\s*(?:[,;&]|\band\b|\bvs\.?)\s*", re.IGNORECASE)


def opposing_warbands(uow: UnitOfWork, battle_id: int | None, warband_id: int) -> tuple[Warband, ...]:
    """This server's warbands that fought ``warband_id`` in the battle ``battle_id``, in the order
    recorded: the opponent it was recorded against (``/battle record opponent:``), every other
    side of the same battle (a ``/game`` of three or more: each side's row carries the first row's
    ``pair_id``), and this server's warbands its typed opponents name (``/battle record
    opponents:"Krumpaz, Reavers"``: the whole text, or its names between commas, '&' or 'and')."""
    battle = uow.battles.get(battle_id) if battle_id is not None else None
    if battle is None:
        return ()
    ids: list[int] = []
    if battle.opponent_warband_id is not None:
        ids.append(battle.opponent_warband_id)
    if battle.pair_id is not None:
        ids.extend(uow.battles.sides_of(battle.pair_id))
    for name in (battle.opponents, *_BETWEEN_NAMES.split(battle.opponents)):
        found = uow.warbands.id_called(name) if name.strip() else None
        if found is not None:
            ids.append(found)
    out = []
    for wid in dict.fromkeys(ids):
        band = uow.warbands.get(wid) if wid != warband_id else None
        if band is not None:
            out.append(band)
    return tuple(out)


def captor_of_battle(uow: UnitOfWork, battle_id: int | None, warband_id: int, *,
                     taken_by: int | None = None) -> tuple[Warband | None, tuple[Warband, ...]]:
    """The warband of this server holding a hero of ``warband_id`` captured after ``battle_id``, and,
    when that is not known, the ones it may be (this module's decisions): the warband whose warrior
    took him out of action (``taken_by``, as the game tracker recorded it); else the battle's one
    opposing warband of this server; else (none, every opposing one) his owner says which, or none:
    outside the server."""
    by = uow.warbands.get(taken_by) if taken_by is not None and taken_by != warband_id else None
    if by is not None:
        return by, ()
    opposing = opposing_warbands(uow, battle_id, warband_id)
    return (opposing[0], ()) if len(opposing) == 1 else (None, opposing)


def view(uow: UnitOfWork, warband: str | int, *, lines: tuple[str, ...] = (), dice: tuple[str, ...] = ()) -> CaptivesView:
    """The captives ``warband`` (a name, or an id from a button) holds and its warriors held by others."""
    band = warband_by_id(uow, warband) if isinstance(warband, int) else warband_named(uow, warband)
    held, taken = [], []
    for record in uow.captives.held_by(band.id):
        w = _held(uow, record)
        if w is not None:
            held.append(_captive(uow, record, w))
    for record in uow.captives.of_warband(band.id):
        w = _held(uow, record)
        if w is not None:
            taken.append(_captive(uow, record, w))
    return CaptivesView(warband=band.name, warband_id=band.id, owner_id=band.owner_id, gold=band.gold_crowns,
                        held=tuple(held), taken=tuple(taken), lines=lines, dice=dice,
                        fates=captor_fates(tables_of(uow).warband_list(band)))


def captor_fates(wlist: WarbandList | None) -> tuple[str, ...]:
    """What a captor of the list ``wlist`` may do with a captive besides ransom, exchange and sale:
    kill him for a new Zombie (a list that fields Zombies: the Undead), sacrifice him (the Cult of the Possessed)."""
    if wlist is None:
        return ()
    fates = []
    if _zombie_type(wlist) is not None:
        fates.append(RAISE_ZOMBIE)
    if wlist.id == POSSESSED:
        fates.append(SACRIFICE_HIM)
    return tuple(fates)


def _zombie_type(wlist: WarbandList | None) -> FighterType | None:
    return wlist.fighter_by_id(ZOMBIE) if wlist is not None else None


def _record(uow: UnitOfWork, captive_id: int) -> tuple[CaptiveRecord, Warrior]:
    record = uow.captives.get(captive_id)
    w = _held(uow, record) if record is not None else None
    if record is None or w is None:
        raise MordheimError("That warrior is no longer held captive.",
                            hint="He was ransomed, exchanged or sold already, or the battle that took him was undone.")
    return record, w


def _captor_of(uow: UnitOfWork, actor: Actor, record: CaptiveRecord) -> Warband:
    """The captor's warband, which the member may change."""
    captor = uow.warbands.get(record.captor_id) if record.captor_id is not None else None
    if captor is None:
        raise MordheimError("He is held by a warband outside this server's campaign.",
                            hint="His own warband's owner records what became of him.")
    may_change(captor, actor)
    return captor


def choose_captor(uow: UnitOfWork, actor: Actor, captive_id: int, captor_id: int) -> CaptivesView:
    """The captive's owner says which warband of this server holds him, where the battle had
    several and the game did not record who took him out of action: one of the warbands he fought."""
    record, w = _record(uow, captive_id)
    band = warband_by_id(uow, record.warband_id)
    may_change(band, actor)
    if record.captor_id is not None and uow.warbands.get(record.captor_id) is not None:
        raise MordheimError(f"{w.name}'s captor is known already.", hint="Use `/postbattle captives` again to see who holds him.")
    captor = next((b for b in opposing_warbands(uow, record.battle_id, band.id) if b.id == captor_id), None)
    if captor is None:
        raise MordheimError(f"That warband did not fight {band.name} in the battle where {w.name} was captured.",
                            hint="Choose one of the buttons of the newest `/postbattle captives`.")
    uow.captives.set_captor(record.id, captor.id, uow.at)
    uow.warbands.touch(band.id)
    uow.warbands.touch(captor.id)
    return view(uow, band.id, lines=(f"{w.name} is held by {captor.name}: its owner may ransom him, exchange him or sell him "
                                     "to the slavers (`/postbattle captives`).",))


def _fate(w: Warrior, outcome: str | None) -> list[str]:
    """His injuries with the captivity he was held in settled: back (``outcome``: 'ransomed',
    'exchanged') or, for None, sold to the slavers (said even when no such mark was there)."""
    if outcome is None:
        after = mark_settled(w.injuries, HELD_CAPTIVE, lambda _name: SOLD_TO_THE_SLAVERS)
        return list(after if SOLD_TO_THE_SLAVERS in after else (*after, SOLD_TO_THE_SLAVERS))
    return list(mark_settled(w.injuries, HELD_CAPTIVE, lambda name: f"{name} ({outcome})"))


def _return(uow: UnitOfWork, band: Warband, w: Warrior, outcome: str, *, what: str, reason: str) -> None:
    store_warrior(uow, band, w, {"status": str(Status.ACTIVE), "injuries": _fate(w, outcome)}, what=what, reason=reason,
                  check_roster=False, checked=True)


def _sold(uow: UnitOfWork, band: Warband, w: Warrior, *, reason: str) -> None:
    store_warrior(uow, band, w, {"status": str(Status.RETIRED), "equipment": [], "injuries": _fate(w, None)}, what=SOLD,
                  reason=reason, check_roster=False, checked=True)


def _killed(uow: UnitOfWork, band: Warband, w: Warrior, how: str, *, what: str, reason: str) -> None:
    """The captive dead at his captors' hands: his kit stays with them, and his injuries' captivity
    says ``how`` he died ('Captured (sacrificed by his captors)'; added when no such mark was there)."""
    after = mark_settled(w.injuries, HELD_CAPTIVE, lambda name: f"{name} ({how})")
    injuries = after if after != w.injuries else (*w.injuries, how[:1].upper() + how[1:])
    store_warrior(uow, band, w, {"status": str(Status.DEAD), "equipment": [], "injuries": list(injuries)}, what=what,
                  reason=reason, check_roster=False, checked=True)


def _kit_to_stash(uow: UnitOfWork, captor: Warband, band: Warband, w: Warrior, kit: list[str]) -> str:
    """A killed captive's ``kit`` into his captor's stash, as a sale's goes; the words for the answer."""
    if not kit:
        return ""
    change_warband(uow, captor, {"stash": [*captor.stash, *kit][:STASH_MAX]}, what=KIT_KEPT,
                   reason=f"the kit of {w.name} of {band.name} to the stash: {', '.join(kit)}")
    return f"; his kit goes to the stash ({', '.join(kit)})"


def offer_ransom(uow: UnitOfWork, actor: Actor, captive_id: int, price: int) -> CaptivesView:
    """The captor asks ``price`` gold crowns for the captive (his owner then pays it, or not)."""
    record, w = _record(uow, captive_id)
    captor = _captor_of(uow, actor, record)
    if not 1 <= int(price) <= MAX_RANSOM:
        raise MordheimError(f"A ransom is 1 to {MAX_RANSOM} gold crowns.")
    uow.captives.set_ransom(record.id, int(price), uow.at)
    uow.warbands.touch(captor.id)
    owner = warband_by_id(uow, record.warband_id)
    return view(uow, captor.id, lines=(f"{captor.name} asks {price} gc for {w.name}; the owner of {owner.name} may pay it "
                                       "with `/postbattle captives`.",))


def pay_ransom(uow: UnitOfWork, actor: Actor, captive_id: int) -> CaptivesView:
    """The captive's owner pays the ransom his captor asks: the gold goes to the captor, the
    captive comes back with all his kit."""
    record, w = _record(uow, captive_id)
    band = warband_by_id(uow, record.warband_id)
    may_change(band, actor)
    captor = uow.warbands.get(record.captor_id) if record.captor_id is not None else None
    if captor is None:
        raise MordheimError("His captor is outside this server's campaign.", hint="Record the ransom paid with the 'Ransomed' button.")
    if record.ransom is None:
        raise MordheimError(f"{captor.name} has asked no ransom for {w.name} yet.",
                            hint=f"The owner of {captor.name} sets the price with `/postbattle captives`.")
    price = record.ransom
    if price > band.gold_crowns:
        raise MordheimError(missing_gold(f"The ransom of {w.name}", price, band.name, band.gold_crowns))
    change_warband(uow, band, {"gold_crowns": band.gold_crowns - price}, what="treasury", reason=f"ransom of {w.name} to {captor.name}")
    _return(uow, band, w, "ransomed", what=RANSOMED, reason=f"ransomed from {captor.name} for {price} gc")
    change_warband(uow, captor, {"gold_crowns": captor.gold_crowns + price}, what=RANSOM,
                   reason=f"ransom of {w.name} of {band.name}")
    uow.captives.settle(record.id, "ransomed", uow.at)
    return view(uow, band.id, lines=(f"{band.name} paid {price} gc to {captor.name}: {w.name} is back with all his kit.",))


def exchange(uow: UnitOfWork, actor: Actor, captive_id: int, for_captive_id: int) -> CaptivesView:
    """The captor hands the captive back for one of his own warriors the captive's warband holds;
    both come back with all their kit."""
    record, w = _record(uow, captive_id)
    captor = _captor_of(uow, actor, record)
    other, theirs = _record(uow, for_captive_id)
    band = warband_by_id(uow, record.warband_id)
    if other.warband_id != captor.id or other.captor_id != band.id:
        raise MordheimError(f"{theirs.name} is not a warrior of {captor.name} held by {band.name}.",
                            hint="A captive is exchanged for one of his captor's own warriors held by the captive's warband.")
    _return(uow, band, w, "exchanged", what=EXCHANGED, reason=f"exchanged with {captor.name} for {theirs.name}")
    _return(uow, captor, theirs, "exchanged", what=EXCHANGED, reason=f"exchanged with {band.name} for {w.name}")
    uow.captives.settle(record.id, "exchanged", uow.at)
    uow.captives.settle(other.id, "exchanged", uow.at)
    return view(uow, captor.id, lines=(f"{captor.name} and {band.name} exchanged captives: {theirs.name} and {w.name} are back "
                                       "with their warbands, with all their kit.",))


def sell(uow: UnitOfWork, actor: Actor, captive_id: int, *, entered: str = "", rng: random.Random | None = None) -> CaptivesView:
    """The captor sells the captive to the slavers for D6x5 gc; his kit stays with the captor
    (into its stash); he is gone from his warband (retired: alive, but never back)."""
    record, w = _record(uow, captive_id)
    captor = _captor_of(uow, actor, record)
    band = warband_by_id(uow, record.warband_id)
    dice = Dice(rng, parse_entered(entered))
    gold, _faces = dice.amount(SLAVERS_PRICE, f"Slavers' price for {w.name} ({SLAVERS_PRICE} gc)")
    kit = list(w.equipment)
    _sold(uow, band, w, reason=f"sold to the slavers by {captor.name}")
    stash = [*captor.stash, *kit][:STASH_MAX]
    change_warband(uow, captor, {"gold_crowns": captor.gold_crowns + gold, "stash": stash}, what=SALE,
                   reason=f"sold {w.name} of {band.name} to the slavers" + (f"; his kit to the stash: {', '.join(kit)}" if kit else ""))
    uow.captives.settle(record.id, "sold", uow.at)
    kept = f"; his kit goes to the stash ({', '.join(kit)})" if kit else ""
    return view(uow, captor.id, lines=(f"{captor.name} sold {w.name} of {band.name} to the slavers for {gold} gc{kept}.",),
                dice=tuple(str(r) for r in dice.rolls))


def raise_zombie(uow: UnitOfWork, actor: Actor, captive_id: int) -> CaptivesView:
    """A captor whose list fields Zombies (the Undead) kills the captive and gains a Zombie, free:
    he joins the first living Zombie group of the captor with room (a group is 1 to the campaign's
    ``max_henchman_group_size``), else he is a new group of one, with the list's Zombie profile and
    starting kit. The list's limits apply as to a hire (the warband's size, the Zombies' maximum):
    one broken refuses it, changing nothing. The captive dies; his kit goes to the captor's stash."""
    record, w = _record(uow, captive_id)
    captor = _captor_of(uow, actor, record)
    tables = tables_of(uow)
    wlist = tables.warband_list(captor)
    zombie = _zombie_type(wlist)
    if wlist is None or zombie is None:
        raise MordheimError(f"Only a warband whose list fields Zombies (the Undead) may kill a captive for a new Zombie; "
                            f"{captor.name} cannot.", hint="Ask a ransom for him, exchange him or sell him to the slavers.")
    warriors = uow.warriors.of_warband(captor.id, captor.name)
    group = next((x for x in warriors if x.is_active and x.role == Role.HENCHMEN and x.fighter_type == zombie.id
                  and x.group_size < tables.rules.max_henchman_group_size), None)
    problems = roster_rules.hire_problems(tables.rules, wlist, captor.name, warriors, zombie, 1, joining=group)
    if problems:
        raise MordheimError(f"{captor.name} has no room for another {zombie.name}, so {w.name} cannot be made one:\n"
                            + "\n".join(f"- {p}" for p in problems),
                            hint=f"{captor.name} may still sell him to the slavers, ask a ransom or exchange him; "
                                 "or make room on its roster first.")
    band = warband_by_id(uow, record.warband_id)
    kit = list(w.equipment)
    _killed(uow, band, w, "killed by his captors, raised as a Zombie", what=KILLED,
            reason=f"killed by {captor.name}, raised as a {zombie.name}")
    kept = _kit_to_stash(uow, captor, band, w, kit)
    reason = f"{w.name} of {band.name}, killed and raised"
    if group is not None:
        joined = store_warrior(uow, captor, group, {"group_size": group.group_size + 1}, what=RAISED, reason=reason,
                               warriors=warriors, check_roster=False, checked=True)
        gained = f"he joins {joined.name}, now {joined.group_size}"
    else:
        new = hiring.recruit(zombie, name=hiring.free_name(warriors, zombie.name), count=1,
                             free_dagger=hiring.free_dagger_of(tables.catalogue, zombie, None, None))
        made = store_warrior(uow, captor, None, new, what=RAISED, reason=reason, warriors=warriors, check_roster=False,
                             checked=True)
        gained = f"a new group of one, {made.name}"
    uow.captives.settle(record.id, "killed", uow.at)
    line = f"{captor.name} killed {w.name} of {band.name} and raised him as a {zombie.name} ({gained}){kept}."
    return view(uow, captor.id, lines=(line,))


def sacrifice(uow: UnitOfWork, actor: Actor, captive_id: int) -> CaptivesView:
    """A captor of the Cult of the Possessed sacrifices the captive: he dies, his kit goes to the
    captor's stash, and its leader gains +1 experience, with any advance it reaches said (as
    `/warrior xp` says them). With no leader at hand (none, or held captive himself) the sacrifice
    is made all the same, and the answer says nobody gained the experience."""
    record, w = _record(uow, captive_id)
    captor = _captor_of(uow, actor, record)
    tables = tables_of(uow)
    if SACRIFICE_HIM not in captor_fates(tables.warband_list(captor)):
        raise MordheimError(f"Only the Cult of the Possessed may sacrifice a captive; {captor.name} cannot.",
                            hint="Ask a ransom for him, exchange him or sell him to the slavers.")
    band = warband_by_id(uow, record.warband_id)
    kit = list(w.equipment)
    _killed(uow, band, w, "sacrificed by his captors", what=SACRIFICED, reason=f"sacrificed by {captor.name}")
    kept = _kit_to_stash(uow, captor, band, w, kit)
    gained = _leaders_experience(uow, captor, reason=f"sacrificed {w.name} of {band.name}")
    uow.captives.settle(record.id, "sacrificed", uow.at)
    return view(uow, captor.id, lines=(f"{captor.name} sacrificed {w.name} of {band.name}{kept}.", gained))


def _leaders_experience(uow: UnitOfWork, captor: Warband, *, reason: str) -> str:
    """The sacrifice's experience to ``captor``'s leader (written); the words for the answer."""
    warriors = uow.warriors.of_warband(captor.id, captor.name)
    leader = next((x for x in warriors if x.role == Role.LEADER and x.holds_place), None)
    if leader is None:
        return f"{captor.name} has no leader: nobody gained the experience."
    if leader.status == Status.CAPTURED:
        return f"{leader.name}, its leader, is held captive himself: nobody gained the experience."
    total = min(leader.experience + SACRIFICE_XP, MAX_EXPERIENCE)
    stored = store_warrior(uow, captor, leader, {"experience": total}, what=SACRIFICE, reason=reason, check_roster=False,
                           checked=True)
    said = f"{stored.name}, its leader, gains +{SACRIFICE_XP} experience: {stored.experience}."
    if not gains_experience(stored.special_rules):
        return f"{said} His rules say he never gains experience: no advance."
    rules = tables_of(uow).rules
    reached = rules.advances_between(stored.role, leader.experience, stored.experience)
    if reached:
        return (f"{said} {len(reached)} advance reached (at {', '.join(map(str, reached))}): roll on the advance table "
                "for it (`/roll 2d6`, then record it with `/warrior edit`).")
    nxt = rules.next_advance(stored.role, stored.experience)
    return f"{said} " + ("No advances left." if nxt is None else f"Next advance at {nxt}.")


OUTSIDE = ("ransomed", "exchanged", "sold", "killed")


def settle_outside(uow: UnitOfWork, actor: Actor, captive_id: int, outcome: str, *, price: int = 0) -> CaptivesView:
    """A captive held by a warband outside this server's campaign: his owner records what the
    table agreed: ransomed (``price`` paid from the treasury), exchanged, sold (gone, his kit with
    his captors), or killed (dead, his kit with his captors: an Undead captor's new Zombie, a
    Possessed one's sacrifice)."""
    record, w = _record(uow, captive_id)
    band = warband_by_id(uow, record.warband_id)
    may_change(band, actor)
    if record.captor_id is not None and uow.warbands.get(record.captor_id) is not None:
        raise MordheimError("His captor is a warband of this server: its owner decides his fate.",
                            hint="Pay a ransom it asks with the 'Pay the ransom' button.")
    if outcome not in OUTSIDE:
        raise MordheimError(f"'{outcome}' is not what became of a captive.", hint="Ransomed, exchanged, sold or killed.")
    if outcome == "ransomed":
        if not 0 <= int(price) <= MAX_RANSOM:
            raise MordheimError(f"A ransom is 0 to {MAX_RANSOM} gold crowns.")
        if price > band.gold_crowns:
            raise MordheimError(missing_gold(f"The ransom of {w.name}", price, band.name, band.gold_crowns))
        if price:
            band = change_warband(uow, band, {"gold_crowns": band.gold_crowns - price}, what="treasury", reason=f"ransom of {w.name}")
        _return(uow, band, w, "ransomed", what=RANSOMED, reason=f"ransomed for {price} gc")
        line = f"{w.name} was ransomed for {price} gc and is back with all his kit."
    elif outcome == "exchanged":
        _return(uow, band, w, "exchanged", what=EXCHANGED, reason="exchanged for a captive of his captors")
        line = f"{w.name} was exchanged and is back with all his kit."
    elif outcome == "sold":
        _sold(uow, band, w, reason="sold to the slavers by his captors")
        line = f"{w.name} was sold to the slavers: he is gone, and his kit with his captors."
    else:  # killed: made a Zombie by the Undead, sacrificed by the Possessed
        _killed(uow, band, w, "killed by his captors", what=KILLED, reason="killed by his captors")
        line = f"{w.name} was killed by his captors: he is dead, and his kit with them."
    uow.captives.settle(record.id, outcome, uow.at)
    return view(uow, band.id, lines=(line,))
