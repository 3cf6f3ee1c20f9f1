"""Buying at the trading post: one or several items for a warrior (every model of a group) or the stash.

A purchase is one action in one unit of work: every item named is checked and priced, every die a
price names is rolled, and the kit, the gold and the found offers used are written together, so it is
all or nothing, one ledger batch, and ``/warband undo`` takes it back whole. A refusal changes nothing
and says what to type instead.

What a piece costs is rules/prices.py (list and Trading Post prices, dice, made-as weapons,
packages, a mutation after the first, the free dagger); what a name means is rules/kit_names.py
(several names parted by commas, 'Gromril axe', 'Skink style (Javelins, Net)'); who may carry what is
rules/roster.py. Decisions (LRB = Living Rulebook 2005, Trading chapter):
- Every model of a henchman group carries the same: the group pays for every model, and a price's
  dice are rolled for each model's copy.
- A warrior carries a weapon by the name it was bought by: a Club bought where the list sells a
  Hammer stays a Club (seed 000:921: one weapon, four names); every name is the catalogue's spelling.
- A package (a fighting style) gives its items, not itself.
- A mutation is part of the warrior who has it: it is bought for him, never into the stash (the
  stash would pass over the doubling of later mutations, LRB Cult of the Possessed).
- Dice typed at the table are used first, in the order the prices name them, then the bot's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.campaign.actions.changes import change_warband, store_warrior
from engine.campaign.actions.common import AUTOCOMPLETE_LIMIT, changeable_warband, warrior_named
from engine.campaign.actions.hiring import missing_gold
from engine.campaign.actions.server_tables import tables_of
from engine.campaign.actions.trading import STASH_MAX, count_per_model, set_stash, take_offers
from engine.campaign.lists.catalogue import Catalogue, Item, WarbandList, lookup_key
from engine.campaign.lists.names import Choice, ranked_choices
from engine.campaign.model import Actor, Offer, Warband, Warrior
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import list_limits, prices
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules.kit_names import KitPiece, find_piece, piece_or_refusal, split_names
from engine.campaign.rules.validation import LIST_MAX
from engine.dice.source import Dice, parse_entered
from engine.errors import LimitExceeded, MordheimError


@dataclass(frozen=True, kw_only=True)
class Bought:
    """One name of a purchase."""

    name: str  # as the catalogue spells it: 'Club', 'Gromril axe', 'Skink style (Javelins, Net)'
    gives: tuple[str, ...]  # what each model carries for one copy (a package's items; else the name)
    copies: int  # copies each model gets
    cost: int  # gold for every copy of every model
    how: str  # where the price comes from, with its dice


@dataclass(frozen=True, kw_only=True)
class Purchase:
    lines: tuple[Bought, ...]  # each name bought, with its price
    buyer: str | None  # the warrior (or group); None: into the stash
    models: int  # models that each got every line's copies
    cost: int  # gold paid in all
    gold_left: int
    warrior: Warrior | None
    rolls: tuple[str, ...] = ()  # every die rolled for a price, as shown


class _Cart:
    """What the purchase adds up to so far: the kit held (names and items), the offers taken, the dice."""

    def __init__(self, catalogue: Catalogue, held: Sequence[str], rng: random.Random | None, entered: str | None) -> None:
        self.catalogue = catalogue
        self.names = list(held)
        self.offers: list[Offer] = []
        self._items: list[Item | None] = []  # the items of the first len(_items) names, read when a price asks
        self._rng = rng
        self._dice = Dice(rng, parse_entered(entered)) if entered and entered.strip() else None

    @property
    def items(self) -> list[Item | None]:
        """What is held so far, as items (None for a name no list knows): read only for a price that
        depends on it (the first dagger, a later mutation)."""
        if len(self._items) < len(self.names):
            self._items += [_item_of(self.catalogue, n) for n in self.names[len(self._items):]]
        return self._items

    @property
    def dice(self) -> Dice:
        """The dice a price rolls: those typed at the table first, then the bot's (made when first needed)."""
        if self._dice is None:
            self._dice = Dice(self._rng)
        return self._dice

    @property
    def rolled(self) -> bool:
        return self._dice is not None

    def add(self, names: Sequence[str]) -> None:
        self.names += names


def _item_of(catalogue: Catalogue, name: str) -> Item | None:
    item = roster_rules.find_item(catalogue, name)
    if item is not None:
        return item
    piece = find_piece(catalogue, name)  # 'Gromril axe'
    return None if piece is None else piece.item


def buy(uow: UnitOfWork, actor: Actor, warband: str, item: str, *, warrior: str | None = None, count: int = 1,
        rng: random.Random | None = None, entered: str | None = None) -> Purchase:
    """Buy ``count`` of each item named in ``item`` ('sword, dagger, shield') for each model of
    ``warrior`` (or into the stash), paying from the treasury; ``entered``: dice rolled at the table."""
    count = count_per_model(count)
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    catalogue, wlist = tables.catalogue, tables.warband_list(band)
    names = split_names(item or "")
    if not names:
        raise MordheimError("Name what to buy, e.g. `sword`, or several at once: `sword, dagger, shield`.")
    pieces = [piece_or_refusal(catalogue, name) for name in names]
    w = warrior_named(uow, band, warrior) if warrior else None
    if w is not None and not w.is_active:
        raise MordheimError(f"{w.name} is {w.status}: the dead and retired buy nothing.")
    models = w.group_size if w else 1
    # Only a rare item's price depends on the first battle (rules/prices.py): read the count only then.
    battles = uow.battles.count(band.id) if any(not p.item.common for p in pieces) else 0
    cart = _Cart(catalogue, w.equipment if w is not None else band.stash, rng, entered)
    lines = [_buy_piece(uow, band, wlist, w, piece, cart, models=models, count=count, battles=battles) for piece in pieces]
    if cart.rolled and cart.dice.unused:
        raise MordheimError(f"{len(cart.dice.unused)} entered dice were not needed ({' '.join(map(str, cart.dice.unused))}).",
                            hint="Type only the dice the prices roll (a 2D6 price takes two), or none for the bot to roll.")
    _check_item_limits(uow, band, wlist, w, lines, models)
    cost = sum(b.cost for b in lines)
    label = [f"{b.copies} x {b.name}" if b.copies > 1 else b.name for b in lines]  # each line as the warrior's ledger row says it
    rolls = tuple(str(r) for r in cart.dice.rolls) if cart.rolled else ()
    if cost > band.gold_crowns:
        rolled = f" (dice: {'; '.join(rolls)})" if rolls else ""
        raise MordheimError(missing_gold(", ".join(label) + rolled, cost, band.name, band.gold_crowns), hint="Nothing was bought.")
    added = cart.names[len(w.equipment if w is not None else band.stash):]
    if w is not None:
        kit = [*w.equipment, *added]
        if len(kit) > LIST_MAX:
            raise LimitExceeded(f"{w.name} would carry {len(kit)} items; the limit is {LIST_MAX}.")
        # Kit bought breaks no roster limit: the only kit that changes one, a Halfling
        # cookbook, raises the warband's maximum size (000:1475).
        w = store_warrior(uow, band, w, {"equipment": kit}, what="trade.buy", reason=", ".join(label), check_roster=False,
                          checked=True)
    else:
        stash = [*band.stash, *added]
        if len(stash) > STASH_MAX:
            raise LimitExceeded(f"The stash would hold {len(stash)} items; the limit is {STASH_MAX}.")
        band = set_stash(uow, band, stash, what="trade.buy", reason=", ".join(label))
    take_offers(uow, band, cart.offers)
    buyer = w.name if w else "the stash"
    paid = change_warband(uow, band, {"gold_crowns": band.gold_crowns - cost}, what="treasury",
                          reason=f"bought {', '.join(f'{models * b.copies} x {b.name}' for b in lines)} for {buyer}"
                          + (f" ({'; '.join(rolls)})" if rolls else ""))
    return Purchase(lines=tuple(lines), buyer=w.name if w else None, models=models, cost=cost, gold_left=paid.gold_crowns,
                    warrior=w, rolls=rolls)


def _refusal(wlist: WarbandList | None, w: Warrior | None, piece: KitPiece, catalogue: Catalogue) -> tuple[str, str | None] | None:
    """(why, how to fix it) when the warrior (or the stash) may not have ``piece``; None when he may."""
    item = piece.item
    if w is not None:
        refusal = roster_rules.carry_refusal(wlist, w, item, catalogue, weapon=piece.weapon)
        if refusal:
            return refusal, roster_rules.what_he_may_carry(wlist, w)
    elif wlist is not None and not item.may_be_bought_by(wlist.id):
        return f"{item.name} is not for {wlist.name}.", None
    elif item.kind == "mutation":
        return (f"{item.name} is a mutation: it is bought for the warrior who will have it, not into the stash.",
                "Name the warrior in `warrior`.")
    if not item.price and not item.price_dice and item.price_note and item.made_as is None and not item.is_package:
        return (f"{item.name} has no price of its own: {item.price_note}",
                "Record it by hand: `/warrior equip` and `/warband treasury`.")
    return None


def _buy_piece(uow: UnitOfWork, band: Warband, wlist: WarbandList | None, w: Warrior | None, piece: KitPiece, cart: _Cart, *,
               models: int, count: int, battles: int) -> Bought:
    """Price ``count`` copies of ``piece`` for each of ``models`` models, rolling their dice, and add them to the cart."""
    refusal = _refusal(wlist, w, piece, cart.catalogue)
    if refusal is not None:
        raise MordheimError(refusal[0], hint=refusal[1])
    gives = tuple(i.name for i in piece.contents) if piece.item.is_package else (piece.name,)
    price = prices.list_or_post(wlist, w, piece, battles=battles)
    found: list[Offer] = []
    if price is None:
        listed = w is not None and roster_rules.list_price(wlist, w, piece.item) is not None
        found = _found_offers(uow, band, piece, cart, copies=models * count, listed=listed, battles=battles)
    cost, notes = 0, []
    for copy in range(count):
        if price is None:  # each model's copy is an item a hero found, at the price it was found for
            batch = found[copy * models:(copy + 1) * models]
            quotes = [prices.found_price(piece, o.price) for o in batch]
            cost += sum(q.fixed for q in quotes)
            notes += [f"{q.how} (by {o.searcher})" for q, o in zip(quotes, batch)]
        else:
            one = price.fixed
            multiple = prices.later_multiple(piece.item, cart.items) if piece.item.later_multiple > 1 else 1
            first_dagger = piece.item.id == roster_rules.DAGGER and prices.is_first_dagger(piece, cart.items)
            if price.source == prices.PriceFrom.LIST and first_dagger:
                one = 0
                notes.append("the first dagger is free" + (f" ({models} free)" if models > 1 else ""))
            elif multiple > 1:
                notes.append(f"× {multiple}: a {piece.item.kind} after the first costs {multiple} times its price")
            cost += one * multiple * models
            for model in range(models if price.dice else 0):
                value, _faces = cart.dice.amount(price.dice or "", piece.name + (f" (model {model + 1})" if models > 1 else ""))
                cost += value * multiple
        cart.add(gives)
    cart.offers += found
    how = price.how if price is not None else ""
    if notes:  # the first dagger, a later mutation, who found each copy: each said once
        how = "; ".join([*([how] if how else []), *dict.fromkeys(notes)])
    if piece.item.is_package:
        how += f"; gives {', '.join(gives)}"
    return Bought(name=piece.name, gives=gives, copies=count, cost=cost, how=how)


def _found_offers(uow: UnitOfWork, band: Warband, piece: KitPiece, cart: _Cart, *, copies: int, listed: bool,
                  battles: int) -> list[Offer]:
    """The found offers of a rare item this purchase may use; MordheimError saying how to find it when too few."""
    it = piece.item
    taken = {o.id for o in cart.offers}
    found = [o for o in uow.searches.open_offers(band.id, battles, it.id) if o.id not in taken
             and (piece.weapon is None or lookup_key(o.item) == lookup_key(piece.name))]  # a found Gromril axe is no sword
    if len(found) < copies:
        so_far = f"; {len(found)} found so far" if found else ""
        listed_note = " It is on this warrior's list, but after the first battle rare items must be found." if listed else ""
        raise MordheimError(
            f"{piece.name} is rare (Rare {it.rarity}): a hero must find it first, one search per item "
            f"({copies} needed{so_far}).{listed_note}",
            hint="Search with `/trade search` after a battle; a found item can be bought until the next battle.",
        )
    return found[:copies]


def _check_item_limits(uow: UnitOfWork, band: Warband, wlist: WarbandList | None, w: Warrior | None, lines: list[Bought],
                       models: int) -> None:
    """The list's limits on kit the whole warband holds (one Swivel Gun): MordheimError when the purchase breaks one."""
    if wlist is None or not wlist.limits:
        return
    catalogue = tables_of(uow).catalogue
    adding: dict[str, tuple[Item, int]] = {}
    for b in lines:
        for name in b.gives:
            item = _item_of(catalogue, name)
            if item is not None:
                adding[item.id] = (item, adding.get(item.id, (item, 0))[1] + b.copies * models)
    for item, n in adding.values():
        if not any(item.id in limit.items for limit in wlist.limits):
            continue
        warriors = uow.warriors.of_warband(band.id, band.name)
        held = list_limits.held_of(wlist, item, warriors, [_item_of(catalogue, s) for s in band.stash],
                                   lambda x: [_item_of(catalogue, e) for e in x.equipment])
        refusal = list_limits.item_refusal(wlist, held, item, n)
        if refusal:
            raise MordheimError(refusal, hint="Nothing was bought.")


# ---------------------------------------------------------------------- autocomplete
def buy_choices(uow: UnitOfWork, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
    """(label, value): what this warrior (or the stash) can buy now and afford, at most 25. With several
    names typed ('sword, dag'), the last one is completed and the value keeps the ones before it."""
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
    head, _sep, last = (prefix or "").rpartition(",")
    head = f"{head.strip()}, " if head.strip() else ""
    battles = uow.battles.count(band.id)
    models = w.group_size if w else 1
    budget = band.gold_crowns - _spent(catalogue, wlist, w, head, battles) * models
    held = [_item_of(catalogue, n) for n in (w.equipment if w else band.stash)]
    rows = []
    for piece, price, dice, where in _candidates(uow, band, catalogue, wlist, w, battles, held):
        value = head + piece.name
        if price * models > budget or len(value) > 100:
            continue
        each = f"{price} gc" + (f" + {dice.upper()}" if dice else "") + (f" x {models}" if models > 1 else "")
        others = piece.item.aliases if piece.name == piece.item.name else ()  # "cut": the Sword, a cutlass
        rows.append(Choice(piece.name, others, "", f"{piece.name} — {each} ({where})"[:100], value))
    # a name that starts with what is typed first, then another name or a word that does, then letters inside
    return [(c.label, c.value) for c in ranked_choices(rows, last, AUTOCOMPLETE_LIMIT)]


def _spent(catalogue: Catalogue, wlist: WarbandList | None, w: Warrior | None, head: str, battles: int) -> int:
    """The fixed prices of the names typed before the last one, as far as they are known (for what is still affordable)."""
    total = 0
    for name in split_names(head) if head else []:
        piece = find_piece(catalogue, name)
        price = prices.list_or_post(wlist, w, piece, battles=battles) if piece is not None else None
        total += price.fixed if price is not None else 0
    return total


def _candidates(uow: UnitOfWork, band: Warband, catalogue: Catalogue, wlist: WarbandList | None, w: Warrior | None, battles: int,
                held: list[Item | None]) -> list[tuple[KitPiece, int, str | None, str]]:
    """Every piece the warrior (or the stash) may buy now, by name: its price for one model, its dice, where from."""
    fighter = roster_rules.fighter_of(wlist, w) if w else None
    items: dict[str, Item] = {}
    if fighter is not None and fighter.equipment_list is not None:
        for listed in fighter.equipment_list.items:
            if listed.item.common or not battles:
                items[listed.item.id] = listed.item
        families = {i.family for i in items.values()}  # a list that sells a hammer sells a club (000:921)
        items |= {i.id: i for i in catalogue.items.values() if i.variant_of in families and i.id not in items}
    for it in catalogue.trading_post():
        if it.common and it.id not in items and (w is None or fighter is None or it.kind == "miscellaneous"):
            items[it.id] = it
    out: list[tuple[KitPiece, int, str | None, str]] = []
    for piece in (p for it in items.values() for p in _pieces(catalogue, wlist, w, it)):
        price = prices.list_or_post(wlist, w, piece, battles=battles)
        if price is not None and _refusal(wlist, w, piece, catalogue) is None:
            if price.source == prices.PriceFrom.LIST and prices.is_first_dagger(piece, held):
                out.append((piece, 0, None, "first free"))
            else:
                out.append((piece, price.fixed * prices.later_multiple(piece.item, held), price.dice, str(price.source)))
    offered = {p.name for p, *_rest in out}
    for offer in uow.searches.open_offers(band.id, battles):  # found rare items, each as it was found, the first first ('Gromril axe')
        found = find_piece(catalogue, offer.item)
        if found is None and offer.item_id in catalogue.items:
            found = KitPiece(item=catalogue.items[offer.item_id])
        if found is not None and found.name not in offered and _refusal(wlist, w, found, catalogue) is None:
            offered.add(found.name)
            out.append((found, offer.price, None, f"found by {offer.searcher}"))
    return sorted(out, key=lambda x: x[0].name)


def _pieces(catalogue: Catalogue, wlist: WarbandList | None, w: Warrior | None, item: Item) -> list[KitPiece]:
    """The pieces an item is bought as: itself; each weapon a made_as item may be made as; each pick of a package."""
    if item.made_as is not None:
        fighter = roster_rules.fighter_of(wlist, w) if w else None
        listing = fighter.equipment_list if fighter is not None else None
        pool = [r.item for r in listing.items] if listing is not None else list(catalogue.trading_post())
        return [KitPiece(item=item, weapon=weapon) for weapon in pool if item.made_as.may_be(weapon)]
    if item.choices:
        picks: list[tuple] = [()]
        for choice in item.choices:
            picks = [(*p, o) for p in picks for o in choice.options]
        return [KitPiece(item=item, options=p) for p in picks]
    return [KitPiece(item=item)]
