"""The trading post: buying and selling kit, the warband's stash, and heroes' rare-item searches.

Each purchase, sale or move is one member action (``Campaigns.batch``): checks, items and
gold are read and written in one ``BEGIN IMMEDIATE`` transaction, so two members buying for
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

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.dice import roll
from engine.errors import LimitExceeded, MordheimError, NotFoundError
from engine.storage.ledger import LedgerBatch
from engine.campaign.rules import roster as roster_rules
from engine.campaign.actions.hiring import missing_gold
from engine.campaign.lists.catalogue import Catalogue, Item, WarbandList, lookup_key
from engine.campaign.model import Warrior, warrior_from_row
from engine.campaign.actions.server_tables import catalogue_in
from engine.campaign.rules.validation import LIST_MAX, name_key, whole_number

if TYPE_CHECKING:
    from engine.campaign.service import Campaigns

MAX_PER_PURCHASE = 10  # copies of one item per model in one purchase
STASH_MAX = 200
CHOICES = 25
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
class Offer:
    id: int
    item: str
    item_id: str
    price: int
    searcher: str
    price_roll: str


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


class Trading:
    """The trading post for the warbands of every server (``Campaigns.trading``)."""

    def __init__(self, campaigns: Campaigns) -> None:
        self.campaigns = campaigns

    # ------------------------------------------------------------------ reading
    def _context(self, b: LedgerBatch, warband: str, actor_id: int, is_admin: bool):
        c = self.campaigns
        row = c.warband_row(b, warband)
        c.may_change(row, actor_id, is_admin)
        return row, catalogue_in(b.c, b.guild_id), c.warband_list(b.c, b.guild_id, row)

    @staticmethod
    def _battles(conn, guild_id: int, warband_id: int) -> int:
        return conn.scalar("SELECT count(*) FROM battles WHERE guild_id = ? AND warband_id = ?", (guild_id, warband_id))

    def _open_offers(self, conn, guild_id: int, row: dict[str, Any], item_id: str | None = None) -> list[Offer]:
        """Found items not yet bought, from searches since the warband's last battle; cheapest first."""
        rows = conn.all(
            "SELECT * FROM rare_item_searches WHERE guild_id = ? AND warband_id = ? AND found = 1 AND bought = 0 "
            "AND battles = ? AND (? IS NULL OR item_id = ?) ORDER BY price, id",
            (guild_id, row["id"], self._battles(conn, guild_id, row["id"]), item_id, item_id),
        )
        return [Offer(id=r["id"], item=r["item_name"], item_id=r["item_id"], price=r["price"], searcher=r["searcher"],
                      price_roll=r["price_roll"]) for r in rows]

    def offers(self, guild_id: int, warband: str) -> list[Offer]:
        """Rare items the warband's heroes found since its last battle and it has not bought yet."""
        with self.campaigns.store.read() as conn:
            row = self.campaigns.warband_row_in(conn, guild_id, warband)
            return self._open_offers(conn, guild_id, row)

    def _take_offers(self, b: LedgerBatch, row: dict[str, Any], offers: list[Offer]) -> None:
        for offer in offers:
            b.c.execute("UPDATE rare_item_searches SET bought = 1 WHERE guild_id = ? AND id = ?", (b.guild_id, offer.id))
            b.record(warband_id=row["id"], warband_name=row["name"], what="trade.offer", entity="search", entity_id=offer.id,
                     before={"bought": False}, after={"bought": True}, reason=f"{offer.item} found by {offer.searcher}")

    # ------------------------------------------------------------------ buying
    def buy(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, item: str, *,
        warrior: str | None = None, count: int = 1,
    ) -> Purchase:
        """Buy ``count`` of an item for each model of ``warrior`` (or into the stash), paying from the treasury."""
        count = _count(count)
        c = self.campaigns
        with c.batch(guild_id, actor_id) as b:
            row, catalogue, wlist = self._context(b, warband, actor_id, is_admin)
            it = roster_rules.item_or_closest(catalogue, item)
            w = c.warrior_in(b, row, warrior) if warrior else None
            models = w.group_size if w else 1
            price, how, offers = self._price(b, row, catalogue, wlist, w, it, models * count)
            cost = price
            if cost > row["gold_crowns"]:
                raise MordheimError(missing_gold(f"{models * count} x {it.name}" if models * count > 1 else it.name,
                                                 cost, row["name"], row["gold_crowns"]), hint="Nothing was bought.")
            if w is not None:
                kit = [*w.equipment, *([it.name] * count)]
                if len(kit) > LIST_MAX:
                    raise LimitExceeded(f"{w.name} would carry {len(kit)} items; the limit is {LIST_MAX}.")
                # Kit bought breaks no roster limit: the only kit that changes one, a Halfling
                # cookbook, raises the warband's maximum size (000:1475).
                w = c.write_warrior(b, row, w, {**w.snapshot(), "equipment": kit}, what="trade.buy",
                                    reason=f"{count} x {it.name}" if count > 1 else it.name, check_roster=False)
            else:
                stash = [*_stash(row), *([it.name] * count)]
                if len(stash) > STASH_MAX:
                    raise LimitExceeded(f"The stash would hold {len(stash)} items; the limit is {STASH_MAX}.")
                row = self._set_stash(b, row, stash, what="trade.buy", reason=f"{count} x {it.name}" if count > 1 else it.name)
            self._take_offers(b, row, offers)
            buyer = w.name if w else "the stash"
            wb = c.update_warband(b, row, {"gold_crowns": row["gold_crowns"] - cost}, what="treasury",
                                  reason=f"bought {models * count} x {it.name} for {buyer}", with_warriors=False)
            return Purchase(item=it.name, buyer=w.name if w else None, models=models, count=count, cost=cost, how=how,
                            gold_left=wb.gold_crowns, warrior=w)

    def _price(
        self, b: LedgerBatch, row: dict[str, Any], catalogue: Catalogue, wlist: WarbandList | None, w: Warrior | None,
        it: Item, copies: int,
    ) -> tuple[int, str, list[Offer]]:
        """(gold for ``copies`` of the item, where the price comes from, found offers it uses); MordheimError when it cannot be bought."""
        if w is not None:
            if w.status != "active":
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
        first_battle_yet = self._battles(b.c, b.guild_id, row["id"]) > 0
        if listed is not None and (it.common or not first_battle_yet):
            fighter = roster_rules.fighter_of(wlist, w)
            free = w.group_size if it.id == roster_rules.DAGGER and not _carries(w.equipment, it) else 0
            paid = copies - free
            how = f"{fighter.equipment_list.name}, {listed} gc each"
            if free:
                how += f"; the first dagger is free ({free} free)" if w.group_size > 1 else "; the first dagger is free"
            return listed * paid, how, []
        if it.common:
            return it.price * copies, f"trading post, {it.price} gc each", []
        offers = self._open_offers(b.c, b.guild_id, row, it.id)
        if len(offers) < copies:
            found = f"; {len(offers)} found so far" if offers else ""
            listed_note = " It is on this warrior's list, but after the first battle rare items must be found." if listed is not None else ""
            raise MordheimError(
                f"{it.name} is rare (Rare {it.rarity}): a hero must find it first, one search per item "
                f"({copies} needed{found}).{listed_note}",
                hint="Search with `/trade search` after a battle; a found item can be bought until the next battle.",
            )
        used = offers[:copies]
        how = "found: " + ", ".join(f"{o.price} gc (by {o.searcher})" for o in used)
        return sum(o.price for o in used), how, used

    def _set_stash(self, b: LedgerBatch, row: dict[str, Any], stash: list[str], *, what: str, reason: str) -> dict[str, Any]:
        self.campaigns.update_warband(b, row, {"stash": stash}, what=what, reason=reason, with_warriors=False)
        return b.c.one("SELECT * FROM warbands WHERE guild_id = ? AND id = ?", (b.guild_id, row["id"]))

    # ------------------------------------------------------------------ selling
    def sell(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, item: str, *,
        warrior: str | None = None, count: int = 1,
    ) -> Sale:
        """Sell ``count`` of an item carried by each model of ``warrior`` (or from the stash) for half its price."""
        count = _count(count)
        c = self.campaigns
        with c.batch(guild_id, actor_id) as b:
            row, catalogue, wlist = self._context(b, warband, actor_id, is_admin)
            w = c.warrior_in(b, row, warrior) if warrior else None
            if w is not None and w.is_hired_sword:
                raise MordheimError(f"{w.name} is a hired sword: his kit is his own and cannot be sold.")
            held = w.equipment if w is not None else _stash(row)
            it = self._held_item(catalogue, held, item, w.name if w else "The stash")
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
                c.write_warrior(b, row, w, {**w.snapshot(), "equipment": left}, what="trade.sell",
                                reason=f"{count} x {it.name}" if count > 1 else it.name)
            else:
                row = self._set_stash(b, row, left, what="trade.sell", reason=f"{count} x {it.name}" if count > 1 else it.name)
            wb = c.update_warband(b, row, {"gold_crowns": row["gold_crowns"] + refund}, what="treasury",
                                  reason=f"sold {models * count} x {it.name}", with_warriors=False)
            return Sale(item=it.name, seller=w.name if w else None, models=models, count=count, refund=refund, how=how,
                        gold_left=wb.gold_crowns)

    @staticmethod
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

    # ------------------------------------------------------------------ the stash
    def move(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, item: str, warrior: str, *,
        to_stash: bool, count: int = 1,
    ) -> Moved:
        """Move ``count`` of an item per model between the stash and ``warrior`` (a group moves one per model)."""
        count = _count(count)
        c = self.campaigns
        with c.batch(guild_id, actor_id) as b:
            row, catalogue, wlist = self._context(b, warband, actor_id, is_admin)
            w = c.warrior_in(b, row, warrior)
            if w.is_hired_sword:
                raise MordheimError(f"{w.name} is a hired sword: he keeps his own kit and takes none from the stash.")
            stash = _stash(row)
            copies = w.group_size * count
            if to_stash:
                it = self._held_item(catalogue, w.equipment, item, w.name)
                kit = _without(w.equipment, it, count)
                if kit is None:
                    raise MordheimError(f"{w.name} carries {_carries(w.equipment, it)} {it.name}, not {count}.")
                new_stash = [*stash, *([it.name] * copies)]
            else:
                it = self._held_item(catalogue, stash, item, "The stash")
                if w.status != "active":
                    raise MordheimError(f"{w.name} is {w.status}.")
                refusal = roster_rules.carry_refusal(wlist, w, it, catalogue)
                if refusal:
                    raise MordheimError(refusal)
                new_stash = _without(tuple(stash), it, copies)
                if new_stash is None:
                    each = " (one for each model of the group)" if w.group_size > 1 else ""
                    raise MordheimError(f"The stash holds {_carries(stash, it)} {it.name}; {w.name} needs {copies}{each}.")
                kit = [*w.equipment, *([it.name] * count)]
            if len(new_stash) > STASH_MAX or len(kit) > LIST_MAX:
                raise LimitExceeded(f"That would hold more than {STASH_MAX} items in the stash or {LIST_MAX} on {w.name}.")
            c.write_warrior(b, row, w, {**w.snapshot(), "equipment": kit}, what="trade.stash",
                            reason=f"{it.name} {'to' if to_stash else 'from'} the stash")
            self._set_stash(b, row, new_stash, what="trade.stash", reason=f"{it.name} {'from' if to_stash else 'to'} {w.name}")
            return Moved(item=it.name, warrior=w.name, models=w.group_size, count=count, to_stash=to_stash)

    # ------------------------------------------------------------------ searching
    def search(
        self, guild_id: int, actor_id: int, is_admin: bool, warband: str, hero: str, item: str, rng: random.Random,
    ) -> Search:
        """A hero looks for a rare item: 2D6 plus modifiers against its rarity, rolled with ``rng``."""
        c = self.campaigns
        with c.batch(guild_id, actor_id) as b:
            row, catalogue, wlist = self._context(b, warband, actor_id, is_admin)
            w = c.warrior_in(b, row, hero)
            it = roster_rules.item_or_closest(catalogue, item)
            battles = self._battles(b.c, guild_id, row["id"])
            problems = []
            if not w.is_hero or w.status != "active":
                problems.append(f"{w.name} cannot search: only living heroes look for rare items "
                                f"({w.name} is {'a ' + w.role.replace('_', ' ') if w.status == 'active' else w.status}).")
            if it.common:
                problems.append(f"{it.name} is common: buy it with `/trade buy`, no search needed.")
            if wlist is not None and not it.may_be_bought_by(wlist.id):
                problems.append(f"{it.name} is not for {wlist.name}.")
            if battles == 0:
                problems.append(f"{row['name']} has fought no battle yet: heroes search for rare items after a battle "
                                "(record it with `/battle record`).")
            earlier = b.c.one("SELECT item_name FROM rare_item_searches WHERE guild_id = ? AND warband_id = ? AND warrior_id = ? "
                              "AND battles = ?", (guild_id, row["id"], w.id, battles))
            if earlier is not None and battles:
                problems.append(f"{w.name} already searched after this battle (for {earlier['item_name']}): one search per hero "
                                "per battle.")
            if problems:
                raise MordheimError("\n".join(problems))
            modifiers = search_modifiers(catalogue, wlist, w)
            dice = roll(SEARCH_DICE, rng)
            total = dice.total + sum(n for _what, n in modifiers)
            found = total >= it.rarity
            price, price_roll = None, ""
            if found:
                price = it.price
                if it.price_dice:
                    variable = roll(it.price_dice, rng)
                    price += variable.total
                    price_roll = variable.render()
            search_id = b.c.insert("rare_item_searches", {
                "guild_id": guild_id, "warband_id": row["id"], "warrior_id": w.id, "searcher": w.name, "item_id": it.id,
                "item_name": it.name, "rarity": it.rarity, "roll": dice.render(), "modifier": total - dice.total,
                "total": total, "found": int(found), "price": price, "price_roll": price_roll, "battles": battles,
                "created_at": b.at,
            })
            result = Search(warband=row["name"], searcher=w.name, item=it.name, rarity=it.rarity, roll=dice.render(), modifiers=tuple(modifiers),
                            total=total, found=found, price=price, price_roll=price_roll)
            b.record(warband_id=row["id"], warband_name=row["name"], what="trade.search", entity="search", entity_id=search_id,
                     before=None, after={"item": it.name, "roll": result.roll, "total": total, "rarity": it.rarity,
                                         "found": found, "price": price},
                     reason=f"{w.name} searched")
            b.c.execute("UPDATE warbands SET updated_at = ? WHERE guild_id = ? AND id = ?", (b.at, guild_id, row["id"]))
            return result

    # ------------------------------------------------------------------ autocomplete
    def buy_choices(self, guild_id: int, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
        """(label, value): what this warrior (or the stash) can buy now and afford, at most 25."""
        c = self.campaigns
        with c.store.read() as conn:
            row = c.warband_row_or_none(conn, guild_id, warband)
            if row is None:
                return []
            catalogue, wlist = catalogue_in(conn, guild_id), c.warband_list(conn, guild_id, row)
            w = None
            if warrior:
                wrow = conn.one("SELECT * FROM warriors WHERE guild_id = ? AND warband_id = ? AND name_key = ?",
                                (guild_id, row["id"], name_key(warrior)))
                if wrow is None:
                    return []
                w = warrior_from_row(wrow, row["name"])
            first_battle_yet = self._battles(conn, guild_id, row["id"]) > 0
            offers = {o.item_id: o for o in reversed(self._open_offers(conn, guild_id, row))}
        fighter = roster_rules.fighter_of(wlist, w) if w else None
        candidates: dict[str, tuple[Item, int, str]] = {}
        if fighter is not None and fighter.equipment_list is not None:
            for listed in fighter.equipment_list.items:
                if listed.item.common or not first_battle_yet:
                    free = listed.item.id == roster_rules.DAGGER and not _carries(w.equipment, listed.item)
                    candidates[listed.item.id] = (listed.item, 0 if free else listed.price, "first free" if free else "list")
        for it in catalogue.trading_post():
            if it.common and it.id not in candidates and (w is None or fighter is None or it.kind == "miscellaneous"):
                candidates[it.id] = (it, it.price, "trading post")
        for item_id, offer in offers.items():
            it = catalogue.items.get(item_id)
            if it is not None and item_id not in candidates:
                candidates[item_id] = (it, offer.price, f"found by {offer.searcher}")
        key = lookup_key(prefix or "")
        out = []
        for it, price, where in sorted(candidates.values(), key=lambda x: x[0].name):
            models = w.group_size if w else 1
            if key not in lookup_key(it.name) or price * models > row["gold_crowns"]:
                continue
            if w is not None and roster_rules.carry_refusal(wlist, w, it, catalogue):
                continue
            if w is None and wlist is not None and not it.may_be_bought_by(wlist.id):
                continue
            each = f"{price} gc" + (f" x {models}" if models > 1 else "")
            out.append((f"{it.name} — {each} ({where})"[:100], it.name))
        return out[:CHOICES]

    def held_choices(self, guild_id: int, warband: str, warrior: str | None, prefix: str) -> list[tuple[str, str]]:
        """(label, value): the items the warrior carries, or the stash holds, matching ``prefix``."""
        c = self.campaigns
        with c.store.read() as conn:
            row = c.warband_row_or_none(conn, guild_id, warband)
            if row is None:
                return []
            if warrior:
                held = conn.scalar("SELECT equipment FROM warriors WHERE guild_id = ? AND warband_id = ? AND name_key = ?",
                                   (guild_id, row["id"], name_key(warrior)))
                names = _names(held) if held else []
            else:
                names = _stash(row)
        key = lookup_key(prefix or "")
        counts = Counter(names)
        return [(f"{n} (x{counts[n]})" if counts[n] > 1 else n, n) for n in sorted(counts) if key in lookup_key(n)][:CHOICES]

    def searcher_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        """(label, value): the warband's living heroes who have not searched since its last battle."""
        c = self.campaigns
        with c.store.read() as conn:
            row = c.warband_row_or_none(conn, guild_id, warband)
            if row is None:
                return []
            battles = self._battles(conn, guild_id, row["id"])
            searched = set(conn.column("SELECT warrior_id FROM rare_item_searches WHERE guild_id = ? AND warband_id = ? "
                                       "AND battles = ?", (guild_id, row["id"], battles)))
            warriors = c.warriors_of(conn, guild_id, row)
        key = name_key(prefix or "")
        return [(f"{w.name} ({w.warrior_type})"[:100], w.name) for w in roster_rules.heroes(warriors)
                if w.id not in searched and key in name_key(w.name)][:CHOICES]

    def rare_choices(self, guild_id: int, warband: str, prefix: str) -> list[tuple[str, str]]:
        """(label, value): rare items this warband may look for, with their rarity and price."""
        c = self.campaigns
        with c.store.read() as conn:
            row = c.warband_row_or_none(conn, guild_id, warband)
            if row is None:
                return []
            catalogue, wlist = catalogue_in(conn, guild_id), c.warband_list(conn, guild_id, row)
        key = lookup_key(prefix or "")
        out = []
        for it in sorted(catalogue.items.values(), key=lambda i: (i.rarity or 0, i.name)):
            if it.common or key not in lookup_key(it.name) or (wlist is not None and not it.may_be_bought_by(wlist.id)):
                continue
            if wlist is None and it.warband is not None:
                continue
            out.append((f"{it.name} — Rare {it.rarity}, {it.price_text()}"[:100], it.name))
        return out[:CHOICES]


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


def _stash(row: dict[str, Any]) -> list[str]:
    return _names(row["stash"])


def _names(column: str) -> list[str]:
    """A stored JSON list of item names."""
    return list(json.loads(column)) if column and column != "[]" else []
