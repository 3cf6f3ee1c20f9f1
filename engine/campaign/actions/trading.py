"""The trading post: buying and selling kit, the warband's stash, and heroes' rare-item searches.

Each purchase, sale or move is one action in one unit of work: checks, items and gold are read
and written in one transaction, so two members buying for
one warband at once cannot spend the same crowns twice, a purchase that would overdraw changes
nothing and says how much is missing, and ``/warband undo`` takes it back whole, gold included.

The rules it keeps (LRB = Living Rulebook 2005, Trading chapter; not in the seeds, which hold
no campaign chapters, seeds/INVENTORY.md section 1; prices and rarities from
rules_data/warbands/, their sources named there):
- A warrior buys from his equipment list at that list's price; heroes may also buy the trading
  post's miscellaneous items off their list (roster_rules.carry_refusal says who may carry what).
- Every model of a henchman group carries the same: the group pays for every model.
- Each warrior's first dagger is free (every list prices the dagger with that note).
- Before the warband's first battle it may buy anything on its lists, rare or not; after it,
  a rare item must be found first (LRB: new recruits get rare list items only through trading).
- Rare items are found by a hero's search after a battle: 2D6 plus the modifiers the lists give
  (skills' and special rules' ``rare_item_search`` effects, e.g. Streetwise +2) against the
  rarity; one search per hero per battle. A variable price ('50 + 3D6 gc') is rolled when the
  item is found. A found item can be bought until the warband's next battle; the offer is kept
  in the database, so it survives a restart. One search finds one item.
- Selling returns half the price, rounded down: the warrior's list price, else the trading
  post's fixed price (a variable price's dice part is not refunded, LRB). A first dagger,
  which was free, sells for nothing.
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
from engine.campaign.actions.hiring import missing_gold
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.lists.catalogue import Catalogue, Item, WarbandList, lookup_key
from engine.campaign.model import Actor, Entity, Offer, Warband, Warrior, name_key
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.validation import LIST_MAX, whole_number
from engine.dice import roll
from engine.errors import LimitExceeded, MordheimError, NotFoundError

MAX_PER_PURCHASE = 10  # copies of one item per model in one purchase
STASH_MAX = 200
SEARCH_DICE = "2d6"


@dataclass(frozen=True, kw_only=True)
class Purchase:
    item: str
    buyer: str | None  # the warrior (or group); None: into the stash
    models: int  # models that each got ``count``
    count: int
    cost: int  # gold paid in all
    how: str  # where the price came from, e.g. 'Mercenary equipment list, 10 gc each'
    gold_left: int
    warrior: Warrior | None


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


@dataclass(frozen=True, kw_only=True)
class Moved:
    item: str
    warrior: str
    models: int
    count: int
    to_stash: bool


def _count(value: Any) -> int:
    n = whole_number(value, "The number")
    if not 1 <= n <= MAX_PER_PURCHASE:
        raise LimitExceeded(f"Give 1 to {MAX_PER_PURCHASE} (each model's number of the item), not {n}.")
    return n


def _without(names: tuple[str, ...], item: Item, count: int) -> list[str] | None:
    """``names`` with ``count`` entries naming ``item`` taken out (the last first); None if fewer are there."""
    kept = list(names)
    for _ in range(count):
        at = next((i for i in range(len(kept) - 1, -1, -1) if lookup_key(kept[i]) in _keys(item)), None)
        if at is None:
            return None
        del kept[at]
    return kept


def _keys(item: Item) -> set[str]:
    return {lookup_key(k) for k in (item.id, item.name, *item.aliases)}


def _carries(names: tuple[str, ...] | list[str], item: Item) -> int:
    keys = _keys(item)
    return sum(1 for n in names if lookup_key(n) in keys)


def _take_offers(uow: UnitOfWork, band: Warband, offers: list[Offer]) -> None:
    for offer in offers:
        uow.searches.set_bought(offer.id, True)
        uow.ledger.record(warband_id=band.id, warband_name=band.name, what="trade.offer", entity=Entity.SEARCH, entity_id=offer.id,
                          before={"bought": False}, after={"bought": True}, reason=f"{offer.item} found by {offer.searcher}")


def offers(uow: UnitOfWork, warband: str) -> list[Offer]:
    """Rare items the warband's heroes found since its last battle and it has not bought yet."""
    band = warband_named(uow, warband)
    return uow.searches.open_offers(band.id, uow.battles.count(band.id))


def _label(count: int, item: Item) -> str:
    return f"{count} x {item.name}" if count > 1 else item.name


def _set_stash(uow: UnitOfWork, band: Warband, stash: list[str], *, what: str, reason: str) -> Warband:
    return change_warband(uow, band, {"stash": stash}, what=what, reason=reason)


# ---------------------------------------------------------------------- buying
def buy(uow: UnitOfWork, actor: Actor, warband: str, item: str, *, warrior: str | None = None, count: int = 1) -> Purchase:
    """Buy ``count`` of an item for each model of ``warrior`` (or into the stash), paying from the treasury."""
    count = _count(count)
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    it = roster_rules.item_or_closest(catalogue, item)
    w = warrior_named(uow, band, warrior) if warrior else None
    models = w.group_size if w else 1
    cost, how, found = _price(uow, band, catalogue, wlist, w, it, models * count)
    if cost > band.gold_crowns:
        raise MordheimError(missing_gold(_label(models * count, it), cost, band.name, band.gold_crowns), hint="Nothing was bought.")
    if w is not None:
        kit = [*w.equipment, *([it.name] * count)]
        if len(kit) > LIST_MAX:
            raise LimitExceeded(f"{w.name} would carry {len(kit)} items; the limit is {LIST_MAX}.")
        # Kit bought breaks no roster limit: the only kit that changes one, a Halfling
        # cookbook, raises the warband's maximum size (000:1475).
        w = store_warrior(uow, band, w, {"equipment": kit}, what="trade.buy", reason=_label(count, it), check_roster=False,
                          checked=True)
    else:
        stash = [*band.stash, *([it.name] * count)]
        if len(stash) > STASH_MAX:
            raise LimitExceeded(f"The stash would hold {len(stash)} items; the limit is {STASH_MAX}.")
        band = _set_stash(uow, band, stash, what="trade.buy", reason=_label(count, it))
    _take_offers(uow, band, found)
    buyer = w.name if w else "the stash"
    paid = change_warband(uow, band, {"gold_crowns": band.gold_crowns - cost}, what="treasury",
                          reason=f"bought {models * count} x {it.name} for {buyer}")
    return Purchase(item=it.name, buyer=w.name if w else None, models=models, count=count, cost=cost, how=how,
                    gold_left=paid.gold_crowns, warrior=w)


def _price(uow: UnitOfWork, band: Warband, catalogue: Catalogue, wlist: WarbandList | None, w: Warrior | None, it: Item,
           copies: int) -> tuple[int, str, list[Offer]]:
    """(gold for ``copies`` of the item, where the price comes from, found offers it uses); MordheimError when it cannot be bought."""
    if w is not None:
        if not w.is_active:
            raise MordheimError(f"{w.name} is {w.status}: the dead and retired buy nothing.")
        refusal = roster_rules.carry_refusal(wlist, w, it, catalogue)
        if refusal:
            raise MordheimError(refusal, hint="`/warband check` lists what each warrior may carry.")
    elif wlist is not None and not it.may_be_bought_by(wlist.id):
        raise MordheimError(f"{it.name} is not for {wlist.name}.")
    if not it.price and not it.price_dice and it.price_note:
        raise MordheimError(f"{it.name} has no price of its own: {it.price_note}",
                            hint="Record it by hand: `/warrior equip` and `/warband treasury`.")
    listed = roster_rules.list_price(wlist, w, it) if w is not None else None
    if listed is not None and (it.common or uow.battles.count(band.id) == 0):
        assert w is not None
        fighter = roster_rules.fighter_of(wlist, w)
        free = w.group_size if it.id == roster_rules.DAGGER and not _carries(w.equipment, it) else 0
        how = f"{fighter.equipment_list.name if fighter and fighter.equipment_list else 'the list'}, {listed} gc each"
        if free:
            how += f"; the first dagger is free ({free} free)" if w.group_size > 1 else "; the first dagger is free"
        return listed * (copies - free), how, []
    if it.common:
        return it.price * copies, f"trading post, {it.price} gc each", []
    found = uow.searches.open_offers(band.id, uow.battles.count(band.id), it.id)
    if len(found) < copies:
        so_far = f"; {len(found)} found so far" if found else ""
        listed_note = " It is on this warrior's list, but after the first battle rare items must be found." if listed is not None else ""
        raise MordheimError(
            f"{it.name} is rare (Rare {it.rarity}): a hero must find it first, one search per item "
            f"({copies} needed{so_far}).{listed_note}",
            hint="Search with `/trade search` after a battle; a found item can be bought until the next battle.",
        )
    used = found[:copies]
    return sum(o.price for o in used), "found: " + ", ".join(f"{o.price} gc (by {o.searcher})" for o in used), used


# ---------------------------------------------------------------------- selling
def sell(uow: UnitOfWork, actor: Actor, warband: str, item: str, *, warrior: str | None = None, count: int = 1) -> Sale:
    """Sell ``count`` of an item carried by each model of ``warrior`` (or from the stash) for half its price."""
    count = _count(count)
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = warrior_named(uow, band, warrior) if warrior else None
    if w is not None and w.is_hired_sword:
        raise MordheimError(f"{w.name} is a hired sword: his kit is his own and cannot be sold.")
    held = w.equipment if w is not None else band.stash
    it = _held_item(catalogue, held, item, w.name if w else "The stash")
    left = _without(tuple(held), it, count)
    if left is None:
        raise MordheimError(f"{w.name if w else 'The stash'} holds {_carries(held, it)} {it.name}, not {count}.")
    models = w.group_size if w else 1
    each = roster_rules.list_price(wlist, w, it) if w is not None else None
    base = it.price if each is None else each
    halves = [base // 2] * count
    how = f"half of {base} gc, rounded down" + ("" if each is not None else " (trading post price)")
    if it.id == roster_rules.DAGGER and w is not None and not _carries(left, it):
        halves[-1] = 0  # the last dagger was the free one
        how += "; the first dagger was free and sells for nothing"
    refund = models * sum(halves)
    if w is not None:
        store_warrior(uow, band, w, {"equipment": left}, what="trade.sell", reason=_label(count, it), checked=True)
    else:
        band = _set_stash(uow, band, left, what="trade.sell", reason=_label(count, it))
    paid = change_warband(uow, band, {"gold_crowns": band.gold_crowns + refund}, what="treasury",
                          reason=f"sold {models * count} x {it.name}")
    return Sale(item=it.name, seller=w.name if w else None, models=models, count=count, refund=refund, how=how,
                gold_left=paid.gold_crowns)


def _held_item(catalogue: Catalogue, held: tuple[str, ...] | list[str], query: str, who: str) -> Item:
    it = roster_rules.find_item(catalogue, query)
    if it is None or not _carries(held, it):
        names = sorted(set(held))
        unknown = [n for n in held if name_key(n) == name_key(query)]
        if unknown:
            raise MordheimError(f"No list or trading post knows '{unknown[0]}', so it has no price to sell at.",
                                hint="Take it off by hand with `/warrior unequip` and record any gold with `/warband treasury`.")
        raise NotFoundError(f"{who} holds no '{query[:60]}'.",
                            suggestions=[n for n in names if lookup_key(query) in lookup_key(n)] or names[:5],
                            hint=None if names else f"{who} holds nothing.")
    return it


# ---------------------------------------------------------------------- the stash
def move(uow: UnitOfWork, actor: Actor, warband: str, item: str, warrior: str, *, to_stash: bool, count: int = 1) -> Moved:
    """Move ``count`` of an item per model between the stash and ``warrior`` (a group moves one per model)."""
    count = _count(count)
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = warrior_named(uow, band, warrior)
    if w.is_hired_sword:
        raise MordheimError(f"{w.name} is a hired sword: he keeps his own kit and takes none from the stash.")
    stash = list(band.stash)
    copies = w.group_size * count
    if to_stash:
        it = _held_item(catalogue, w.equipment, item, w.name)
        kit = _without(w.equipment, it, count)
        if kit is None:
            raise MordheimError(f"{w.name} carries {_carries(w.equipment, it)} {it.name}, not {count}.")
        new_stash = [*stash, *([it.name] * copies)]
    else:
        it = _held_item(catalogue, stash, item, "The stash")
        if not w.is_active:
            raise MordheimError(f"{w.name} is {w.status}.")
        refusal = roster_rules.carry_refusal(wlist, w, it, catalogue)
        if refusal:
            raise MordheimError(refusal)
        left = _without(tuple(stash), it, copies)
        if left is None:
            each = " (one for each model of the group)" if w.group_size > 1 else ""
            raise MordheimError(f"The stash holds {_carries(stash, it)} {it.name}; {w.name} needs {copies}{each}.")
        new_stash = left
        kit = [*w.equipment, *([it.name] * count)]
    if len(new_stash) > STASH_MAX or len(kit) > LIST_MAX:
        raise LimitExceeded(f"That would hold more than {STASH_MAX} items in the stash or {LIST_MAX} on {w.name}.")
    store_warrior(uow, band, w, {"equipment": kit}, what="trade.stash", reason=f"{it.name} {'to' if to_stash else 'from'} the stash")
    _set_stash(uow, band, new_stash, what="trade.stash", reason=f"{it.name} {'from' if to_stash else 'to'} {w.name}")
    return Moved(item=it.name, warrior=w.name, models=w.group_size, count=count, to_stash=to_stash)


# ---------------------------------------------------------------------- searching
def search(uow: UnitOfWork, actor: Actor, warband: str, hero: str, item: str, rng: random.Random) -> Search:
    """A hero looks for a rare item: 2D6 plus modifiers against its rarity, rolled with ``rng``."""
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = warrior_named(uow, band, hero)
    it = roster_rules.item_or_closest(catalogue, item)
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
        price = it.price
        if it.price_dice:
            variable = roll(it.price_dice, rng)
            assert isinstance(variable.total, int)
            price += variable.total
            price_roll = variable.render()
    search_id = uow.searches.add(warband_id=band.id, warrior_id=w.id, searcher=w.name, item_id=it.id, item_name=it.name,
                                 rarity=it.rarity, roll=dice.render(), modifier=total - dice.total, total=total, found=found,
                                 price=price, price_roll=price_roll, battles=battles, at=uow.at)
    result = Search(warband=band.name, searcher=w.name, item=it.name, rarity=it.rarity, roll=dice.render(),
                    modifiers=tuple(modifiers), total=total, found=found, price=price, price_roll=price_roll)
    uow.ledger.record(warband_id=band.id, warband_name=band.name, what="trade.search", entity=Entity.SEARCH, entity_id=search_id,
                      before=None, after={"item": it.name, "roll": result.roll, "total": total, "rarity": it.rarity,
                                          "found": found, "price": price},
                      reason=f"{w.name} searched")
    uow.warbands.touch(band.id)
    return result


# ---------------------------------------------------------------------- autocomplete
def buy_choices(uow: UnitOfWork, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
    """(label, value): what this warrior (or the stash) can buy now and afford, at most 25."""
    band = uow.warbands.named(warband or "")
    if band is None:
        return []
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    w = None
    if warrior:
        w = uow.warriors.named(band.id, band.name, warrior)
        if w is None:
            return []
    battles = uow.battles.count(band.id)
    first_battle_yet = battles > 0
    found = {o.item_id: o for o in reversed(uow.searches.open_offers(band.id, battles))}
    fighter = roster_rules.fighter_of(wlist, w) if w else None
    candidates: dict[str, tuple[Item, int, str]] = {}
    if w is not None and fighter is not None and fighter.equipment_list is not None:
        for listed in fighter.equipment_list.items:
            if listed.item.common or not first_battle_yet:
                free = listed.item.id == roster_rules.DAGGER and not _carries(w.equipment, listed.item)
                candidates[listed.item.id] = (listed.item, 0 if free else listed.price, "first free" if free else "list")
    for it in catalogue.trading_post():
        if it.common and it.id not in candidates and (w is None or fighter is None or it.kind == "miscellaneous"):
            candidates[it.id] = (it, it.price, "trading post")
    for item_id, offer in found.items():
        known = catalogue.items.get(item_id)
        if known is not None and item_id not in candidates:
            candidates[item_id] = (known, offer.price, f"found by {offer.searcher}")
    key = lookup_key(prefix or "")
    out = []
    for it, price, where in sorted(candidates.values(), key=lambda x: x[0].name):
        models = w.group_size if w else 1
        if key not in lookup_key(it.name) or price * models > band.gold_crowns:
            continue
        if w is not None and roster_rules.carry_refusal(wlist, w, it, catalogue):
            continue
        if w is None and wlist is not None and not it.may_be_bought_by(wlist.id):
            continue
        each = f"{price} gc" + (f" x {models}" if models > 1 else "")
        out.append((f"{it.name} — {each} ({where})"[:100], it.name))
    return out[:AUTOCOMPLETE_LIMIT]


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
        if it.common or key not in lookup_key(it.name) or (wlist is not None and not it.may_be_bought_by(wlist.id)):
            continue
        if wlist is None and it.warband is not None:
            continue
        out.append((f"{it.name} — Rare {it.rarity}, {it.price_text()}"[:100], it.name))
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
