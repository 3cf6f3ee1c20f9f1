"""The trading post: selling kit, the warband's stash, and heroes' rare-item searches (buying: buying.py).

Each purchase, sale or move is one action in one unit of work: checks, items and gold are read
and written in one transaction, so two members buying for
one warband at once cannot spend the same crowns twice, a purchase that would overdraw changes
nothing and says how much is missing, and ``/warband undo`` takes it back whole, gold included.

The rules it keeps (LRB = Living Rulebook 2005, Trading chapter; not in the seeds, which hold
no campaign chapters, seeds/INVENTORY.md section 1; prices and rarities from
rules_data/warbands/, their sources named there):
- A warrior buys from his equipment list at that list's price; heroes may also buy the trading
  post's miscellaneous items off their list (roster_rules.carry_refusal says who may carry what;
  the prices, rules/prices.py).
- Every model of a henchman group carries the same: a group sells and moves one per model.
- Before the warband's first battle it may buy anything on its lists, rare or not; after it,
  a rare item must be found first (LRB: new recruits get rare list items only through trading).
- Rare items are found by a hero's search after a battle: 2D6 plus the modifiers the lists give
  (skills' and special rules' ``rare_item_search`` effects, e.g. Streetwise +2) against the
  rarity; one search per hero per battle. A variable price ('50 + 3D6 gc') is rolled when the
  item is found. A found item can be bought until the warband's next battle; the offer is kept
  in the database, so it survives a restart. One search finds one item.
- Selling returns half the price, rounded down: the warrior's list price, else the trading
  post's fixed price (a variable price's dice part is not refunded, LRB); a 'Gromril axe' half
  its metal's multiple of the axe's price. A first dagger, which was free, sells for nothing.
- Searches are dice already rolled: the ledger shows them and undo passes over them, so undo
  never buys a second roll. Undoing the purchase of a found item puts the offer back.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.campaign.actions.changes import change_warband, store_warrior
from engine.campaign.actions.common import AUTOCOMPLETE_LIMIT, changeable_warband, warband_named, warrior_named
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.lists.catalogue import Catalogue, WarbandList, lookup_key
from engine.campaign.model import Actor, Entity, Offer, Warband, Warrior, name_key
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.kit_names import KitPiece, piece_or_refusal
from engine.campaign.rules.validation import LIST_MAX, whole_number
from engine.dice import roll
from engine.errors import LimitExceeded, MordheimError, NotFoundError

MAX_PER_PURCHASE = 10  # copies of one item per model in one purchase
STASH_MAX = 200
SEARCH_DICE = "2d6"


@dataclass(frozen=True, kw_only=True)
class Sale:
    item: str
    seller: str | None  # None: from the stash
    models: int
    count: int
    refund: int
    how: str
    gold_left: int


@dataclass(frozen=True, kw_only=True)
class Search:
    warband: str
    searcher: str
    item: str
    rarity: int
    roll: str  # the dice as shown, e.g. '2d6 (5, 4) = 9'
    modifiers: tuple[tuple[str, int], ...]  # (where it comes from, amount)
    total: int
    found: bool
    price: int | None
    price_roll: str  # a variable price's dice as shown ('' for a fixed price)
    carriers: tuple[Carrier, ...] = ()  # who of the warband may carry a found item (its buyers)
    stash_may_hold: bool = True  # whether it may be bought into the stash instead


@dataclass(frozen=True, kw_only=True)
class Carrier:
    """A living warrior who may carry a found item: one copy per model, so a group needs as many found."""

    name: str
    models: int


@dataclass(frozen=True, kw_only=True)
class Moved:
    item: str
    warrior: str
    models: int
    count: int
    to_stash: bool


def count_per_model(value: Any) -> int:
    n = whole_number(value, "The number")
    if not 1 <= n <= MAX_PER_PURCHASE:
        raise LimitExceeded(f"Give 1 to {MAX_PER_PURCHASE} (each model's number of the item), not {n}.")
    return n


def _without(names: tuple[str, ...], piece: KitPiece, count: int) -> list[str] | None:
    """``names`` with ``count`` entries naming ``piece`` taken out (the last first); None if fewer are there."""
    kept = list(names)
    keys = _keys(piece)
    for _ in range(count):
        at = next((i for i in range(len(kept) - 1, -1, -1) if lookup_key(kept[i]) in keys), None)
        if at is None:
            return None
        del kept[at]
    return kept


def _keys(piece: KitPiece) -> set[str]:
    """The names a carried piece may be written by: an item's id, name and aliases; a 'Gromril axe' by that name."""
    if piece.weapon is not None:
        return {lookup_key(piece.name)}
    item = piece.item
    return {lookup_key(k) for k in (item.id, item.name, *item.aliases)}


def _carries(names: tuple[str, ...] | list[str], piece: KitPiece) -> int:
    keys = _keys(piece)
    return sum(1 for n in names if lookup_key(n) in keys)


def take_offers(uow: UnitOfWork, band: Warband, offers: list[Offer]) -> None:
    for offer in offers:
        uow.searches.set_bought(offer.id, True)
        uow.ledger.record(warband_id=band.id, warband_name=band.name, what="trade.offer", entity=Entity.SEARCH, entity_id=offer.id,
                          before={"bought": False}, after={"bought": True}, reason=f"{offer.item} found by {offer.searcher}")


def offers(uow: UnitOfWork, warband: str) -> list[Offer]:
    """Rare items the warband's heroes found since its last battle and it has not bought yet."""
    band = warband_named(uow, warband)
    return uow.searches.open_offers(band.id, uow.battles.count(band.id))


def _label(count: int, piece: KitPiece) -> str:
    return f"{count} x {piece.name}" if count > 1 else piece.name


def set_stash(uow: UnitOfWork, band: Warband, stash: list[str], *, what: str, reason: str) -> Warband:
    return change_warband(uow, band, {"stash": stash}, what=what, reason=reason)


# ---------------------------------------------------------------------- selling
def sell(uow: UnitOfWork, actor: Actor, warband: str, item: str, *, warrior: str | None = None, count: int = 1) -> Sale:
    """Sell ``count`` of an item carried by each model of ``warrior`` (or from the stash) for half its price."""
    count = count_per_model(count)
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = warrior_named(uow, band, warrior) if warrior else None
    if w is not None and w.is_hired_sword:
        raise MordheimError(f"{w.name} is a hired sword: his kit is his own and cannot be sold.")
    held = w.equipment if w is not None else band.stash
    piece = _held_piece(catalogue, held, item, w.name if w else "The stash")
    it = piece.item
    left = _without(tuple(held), piece, count)
    if left is None:
        raise MordheimError(f"{w.name if w else 'The stash'} holds {_carries(held, piece)} {piece.name}, not {count}.")
    models = w.group_size if w else 1
    if piece.weapon is not None:  # 'Gromril axe': the metal's multiple of the weapon's price (roster.made_as_value)
        each, base = None, roster_rules.made_as_value(wlist, w, it, piece.weapon)
        how = f"half of {base} gc, rounded down"
    else:
        each = roster_rules.list_price(wlist, w, it) if w is not None else None
        base = it.price if each is None else each
        how = f"half of {base} gc, rounded down" + ("" if each is not None else " (trading post price)")
    halves = [base // 2] * count
    if it.id == roster_rules.DAGGER and piece.weapon is None and w is not None and not _carries(left, piece):
        halves[-1] = 0  # the last dagger was the free one
        how += "; the first dagger was free and sells for nothing"
    refund = models * sum(halves)
    if w is not None:
        store_warrior(uow, band, w, {"equipment": left}, what="trade.sell", reason=_label(count, piece), checked=True)
    else:
        band = set_stash(uow, band, left, what="trade.sell", reason=_label(count, piece))
    paid = change_warband(uow, band, {"gold_crowns": band.gold_crowns + refund}, what="treasury",
                          reason=f"sold {models * count} x {piece.name}")
    return Sale(item=piece.name, seller=w.name if w else None, models=models, count=count, refund=refund, how=how,
                gold_left=paid.gold_crowns)


def _held_piece(catalogue: Catalogue, held: tuple[str, ...] | list[str], query: str, who: str) -> KitPiece:
    """What ``query`` names among the names ``held`` (an item or a 'Gromril axe'); NotFoundError when none."""
    piece = roster_rules.find_carried(catalogue, query)
    if piece is None or not _carries(held, piece):
        names = sorted(set(held))
        unknown = [n for n in held if name_key(n) == name_key(query)]
        if unknown:
            raise MordheimError(f"No list or trading post knows '{unknown[0]}', so it has no price to sell at.",
                                hint="Take it off by hand with `/warrior unequip` and record any gold with `/warband treasury`.")
        raise NotFoundError(f"{who} holds no '{query[:60]}'.",
                            suggestions=[n for n in names if lookup_key(query) in lookup_key(n)] or names[:5],
                            hint=None if names else f"{who} holds nothing.")
    return piece


# ---------------------------------------------------------------------- the stash
def move(uow: UnitOfWork, actor: Actor, warband: str, item: str, warrior: str, *, to_stash: bool, count: int = 1) -> Moved:
    """Move ``count`` of an item per model between the stash and ``warrior`` (a group moves one per model)."""
    count = count_per_model(count)
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = warrior_named(uow, band, warrior)
    if w.is_hired_sword:
        raise MordheimError(f"{w.name} is a hired sword: he keeps his own kit and takes none from the stash.")
    stash = list(band.stash)
    copies = w.group_size * count
    if to_stash:
        piece = _held_piece(catalogue, w.equipment, item, w.name)
        kit = _without(w.equipment, piece, count)
        if kit is None:
            raise MordheimError(f"{w.name} carries {_carries(w.equipment, piece)} {piece.name}, not {count}.")
        new_stash = [*stash, *([piece.name] * copies)]
    else:
        piece = _held_piece(catalogue, stash, item, "The stash")
        if not w.is_active:
            raise MordheimError(f"{w.name} is {w.status}.")
        refusal = roster_rules.carry_refusal(wlist, w, piece.item, catalogue, weapon=piece.weapon)
        if refusal:
            raise MordheimError(refusal)
        left = _without(tuple(stash), piece, copies)
        if left is None:
            each = " (one for each model of the group)" if w.group_size > 1 else ""
            raise MordheimError(f"The stash holds {_carries(stash, piece)} {piece.name}; {w.name} needs {copies}{each}.")
        new_stash = left
        kit = [*w.equipment, *([piece.name] * count)]
    if len(new_stash) > STASH_MAX or len(kit) > LIST_MAX:
        raise LimitExceeded(f"That would hold more than {STASH_MAX} items in the stash or {LIST_MAX} on {w.name}.")
    store_warrior(uow, band, w, {"equipment": kit}, what="trade.stash", reason=f"{piece.name} {'to' if to_stash else 'from'} the stash")
    set_stash(uow, band, new_stash, what="trade.stash", reason=f"{piece.name} {'from' if to_stash else 'to'} {w.name}")
    return Moved(item=piece.name, warrior=w.name, models=w.group_size, count=count, to_stash=to_stash)


# ---------------------------------------------------------------------- searching
def search(uow: UnitOfWork, actor: Actor, warband: str, hero: str, item: str, rng: random.Random) -> Search:
    """A hero looks for a rare item: 2D6 plus modifiers against its rarity, rolled with ``rng``."""
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = warrior_named(uow, band, hero)
    piece = piece_or_refusal(catalogue, item)  # a gromril weapon is looked for as the weapon it is (000:1054)
    it = piece.item
    battles = uow.battles.count(band.id)
    problems = []
    if not w.is_hero or not w.is_active:
        problems.append(f"{w.name} cannot search: only living heroes look for rare items "
                        f"({w.name} is {'a ' + w.role.replace('_', ' ') if w.is_active else w.status}).")
    if it.common:
        problems.append(f"{it.name} is common: buy it with `/trade buy`, no search needed.")
    if wlist is not None and not it.may_be_bought_by(wlist.id):
        problems.append(f"{it.name} is not for {wlist.name}.")
    if battles == 0:
        problems.append(f"{band.name} has fought no battle yet: heroes search for rare items after a battle "
                        "(record it with `/battle record`).")
    earlier = uow.searches.searched(band.id, battles).get(w.id)
    if earlier is not None and battles:
        problems.append(f"{w.name} already searched after this battle (for {earlier}): one search per hero per battle.")
    if problems:
        raise MordheimError("\n".join(problems))
    modifiers = search_modifiers(catalogue, wlist, w)
    dice = roll(SEARCH_DICE, rng)
    assert isinstance(dice.total, int) and it.rarity is not None  # 2D6 is a number; a rare item has a rarity
    total = dice.total + sum(n for _what, n in modifiers)
    found = total >= it.rarity
    price, price_roll = None, ""
    if found:
        price = it.price + (it.made_as.multiple * piece.weapon.price if it.made_as is not None and piece.weapon else 0)
        if it.price_dice:
            variable = roll(it.price_dice, rng)
            assert isinstance(variable.total, int)
            price += variable.total
            price_roll = variable.render()
    search_id = uow.searches.add(warband_id=band.id, warrior_id=w.id, searcher=w.name, item_id=it.id, item_name=piece.name,
                                 rarity=it.rarity, roll=dice.render(), modifier=total - dice.total, total=total, found=found,
                                 price=price, price_roll=price_roll, battles=battles, at=uow.at)
    carriers: tuple[Carrier, ...] = ()
    if found:  # who it may be bought for: the same check /trade buy makes
        carriers = tuple(Carrier(name=x.name, models=x.group_size) for x in uow.warriors.of_warband(band.id, band.name)
                         if x.is_active and roster_rules.carry_refusal(wlist, x, it, catalogue, weapon=piece.weapon) is None)
    result = Search(warband=band.name, searcher=w.name, item=piece.name, rarity=it.rarity, roll=dice.render(),
                    modifiers=tuple(modifiers), total=total, found=found, price=price, price_roll=price_roll,
                    carriers=carriers, stash_may_hold=it.kind != "mutation")
    uow.ledger.record(warband_id=band.id, warband_name=band.name, what="trade.search", entity=Entity.SEARCH, entity_id=search_id,
                      before=None, after={"item": piece.name, "roll": result.roll, "total": total, "rarity": it.rarity,
                                          "found": found, "price": price},
                      reason=f"{w.name} searched")
    uow.warbands.touch(band.id)
    return result


# ---------------------------------------------------------------------- autocomplete
def held_choices(uow: UnitOfWork, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
    """(label, value): the items the warrior carries, or the stash holds, matching ``prefix``."""
    band = uow.warbands.named(warband or "")
    if band is None:
        return []
    if warrior:
        w = uow.warriors.named(band.id, band.name, warrior)
        names = list(w.equipment) if w is not None else []
    else:
        names = list(band.stash)
    key = lookup_key(prefix or "")
    counts = Counter(names)
    return [(f"{n} (x{counts[n]})" if counts[n] > 1 else n, n) for n in sorted(counts) if key in lookup_key(n)][:AUTOCOMPLETE_LIMIT]


def searcher_choices(uow: UnitOfWork, warband: str, prefix: str) -> list[tuple[str, str]]:
    """(label, value): the warband's living heroes who have not searched since its last battle."""
    band = uow.warbands.named(warband or "")
    if band is None:
        return []
    searched = uow.searches.searched(band.id, uow.battles.count(band.id))
    key = name_key(prefix or "")
    return [(f"{w.name} ({w.warrior_type})"[:100], w.name) for w in roster_rules.heroes(uow.warriors.of_warband(band.id, band.name))
            if w.id not in searched and key in name_key(w.name)][:AUTOCOMPLETE_LIMIT]


def rare_choices(uow: UnitOfWork, warband: str, prefix: str) -> list[tuple[str, str]]:
    """(label, value): rare items this warband may look for, with their rarity and price."""
    band = uow.warbands.named(warband or "")
    if band is None:
        return []
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    key = lookup_key(prefix or "")
    out = []
    for it in sorted(catalogue.items.values(), key=lambda i: (i.rarity or 0, i.name)):
        if it.common or (wlist is not None and not it.may_be_bought_by(wlist.id)) or (wlist is None and it.warband is not None):
            continue
        if it.made_as is not None and key.startswith(lookup_key(it.made_as.prefix)):  # 'gromril a': each weapon, priced
            for weapon in (i for i in catalogue.trading_post() if it.made_as.may_be(i)):
                name = it.made_as.name_of(weapon)
                if key in lookup_key(name):
                    price = it.price + it.made_as.multiple * weapon.price
                    out.append((f"{name} — Rare {it.rarity}, {price} gc"[:100], name))
        elif key in lookup_key(it.name):
            hint = f"; type e.g. {it.made_as.prefix.lower()} sword" if it.made_as is not None else ""
            out.append((f"{it.name} — Rare {it.rarity}, {it.price_text()}{hint}"[:100], it.name))
    return out[:AUTOCOMPLETE_LIMIT]


def search_modifiers(catalogue: Catalogue, wlist: WarbandList | None, w: Warrior) -> list[tuple[str, int]]:
    """What the lists add to a hero's rare-item roll: his skills', his special rules' and his warband's."""
    out: list[tuple[str, int]] = []
    skill_lists = [*catalogue.skill_lists.values(), *(wlist.skill_lists.values() if wlist else ())]
    for name in w.skills:
        skill = next((s for sl in skill_lists for s in sl.skills if lookup_key(s.name) == lookup_key(name)), None)
        if skill is not None and skill.effects.get("rare_item_search"):
            out.append((skill.name, skill.effects["rare_item_search"]))
    own = {r.id: r for r in (wlist.special_rules if wlist else ())}
    for rule_id in w.special_rules:
        rule = own.get(rule_id) or catalogue.special_rules.get(rule_id)
        if rule is not None and rule.effects.get("rare_item_search") and rule_id not in own:
            out.append((rule.name, rule.effects["rare_item_search"]))
    for rule in own.values():  # the warband's own rules apply to all its heroes (Marienburg's traders)
        if rule.effects.get("rare_item_search"):
            out.append((rule.name, rule.effects["rare_item_search"]))
    return out
