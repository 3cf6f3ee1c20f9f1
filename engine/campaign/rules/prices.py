"""What one piece of kit costs one model: the prices the lists write as more than a number.

Pure functions over the lists (rules_data/warbands/, their sources named there); the buying action
(actions/buying.py) rolls the dice a price names, from the engine's dice (engine/dice/source.py), and
takes a found rare item's offer. Decisions (LRB = Living Rulebook 2005, Trading chapter):
- A warrior pays his equipment list's price; before the warband's first battle that holds for rare
  items of his list too, after it a rare item must be found first (LRB Trading), and costs what
  the search found it for. Items off his list that he may carry cost the Trading Post's price.
- A price with dice ('50 + 2D6', the Dark Elves' Sea Dragon cloak) is rolled at the purchase, once for
  each copy each model gets; a list row's dice are its own (the Dark Elves keep the die on their
  list, BSData and ybarthCH), an item's own dice are the Trading Post's.
- A weapon of a special metal costs its fixed part plus a multiple of the weapon's price: the
  multiple of his list's row and the weapon's list price where his list sells the metal (the
  Dwarfs' starting gromril at three times, their lists' note), else the Trading Post's multiple of
  the weapon's Trading Post price (gromril four times, 000:1054; ithilmar three, 000:1060). The
  first dagger is free, a gromril dagger is not (2001 Warhammer World FAQ, as kept by Evin89's
  MordheimManager faq.json, "Free Dagger").
- A priced package (a Pit Fighters' fighting style, Town Cryer 14) costs its price and gives its
  items.
- An item whose kind the warrior already carries costs its ``later_multiple`` times its price: each
  mutation after the first costs double (LRB, Cult of the Possessed; Empire in Flames for the
  Tainted Ones' blessings). Several bought at once are counted in the order bought.
- A warrior's first dagger from his list is free (every list prices it "1st free / 2 gc"); one
  made by hand, with no list, pays the Trading Post's 2 gc.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.campaign.lists.catalogue import Item, WarbandList
from engine.campaign.model import Warrior
from engine.campaign.rules.kit_names import KitPiece
from engine.campaign.rules.roster import DAGGER, fighter_of


class PriceFrom(StrEnum):
    LIST = "list"  # the warrior's equipment list
    TRADING_POST = "trading post"
    FOUND = "found"  # a rare item a hero found: the search's price


@dataclass(frozen=True, kw_only=True)
class Price:
    """One copy for one model, before its dice are rolled."""

    fixed: int
    dice: str | None  # rolled for each copy ('2d6'); None: none
    how: str  # where it comes from, e.g. 'Dark Elf equipment list, 50 + 2D6 gc'
    source: PriceFrom


def _gold(fixed: int, dice: str | None) -> str:
    return f"{fixed} + {dice.upper().replace('*', '×')} gc" if dice else f"{fixed} gc"


def list_or_post(wlist: WarbandList | None, warrior: Warrior | None, piece: KitPiece, *, battles: int) -> Price | None:
    """The list's or the Trading Post's price of ``piece``; None when it is rare and must be found first."""
    item, weapon = piece.item, piece.weapon
    fighter = fighter_of(wlist, warrior) if warrior is not None else None
    listing = fighter.equipment_list if fighter is not None else None
    row = listing.listed_as(item) if listing is not None else None
    if listing is not None and row is not None and (item.common or battles == 0):
        if item.made_as is not None and weapon is not None:
            weapon_row = listing.listed_as(weapon)
            base = weapon_row.price if weapon_row is not None else weapon.price
            multiple = row.multiple or item.made_as.multiple
            fixed = row.price + multiple * base
            plus = f" + {row.price} gc" if row.price else ""
            return Price(fixed=fixed, dice=None, source=PriceFrom.LIST,
                         how=f"{listing.name}, {multiple} × {base} gc ({weapon.name.lower()}){plus}")
        return Price(fixed=row.price, dice=row.price_dice, source=PriceFrom.LIST,
                     how=f"{listing.name}, {_gold(row.price, row.price_dice)} each")
    if not item.common:
        return None
    if item.made_as is not None and weapon is not None:
        return Price(fixed=item.price + item.made_as.multiple * weapon.price, dice=item.price_dice, source=PriceFrom.TRADING_POST,
                     how=f"trading post, {item.made_as.multiple} × {weapon.price} gc ({weapon.name.lower()})")
    return Price(fixed=item.price, dice=item.price_dice, source=PriceFrom.TRADING_POST,
                 how=f"trading post, {_gold(item.price, item.price_dice)} each")


def found_price(piece: KitPiece, offer_price: int) -> Price:
    """A found rare item: the price its search rolled (for a 'Gromril axe', the metal's multiple of the
    axe's price already: the weapon is named when it is looked for, 000:1054)."""
    return Price(fixed=offer_price, dice=None, source=PriceFrom.FOUND, how=f"found, {offer_price} gc")


def is_first_dagger(piece: KitPiece, held: list[Item | None]) -> bool:
    """A plain dagger for a warrior who carries none: the first dagger is free."""
    return piece.item.id == DAGGER and piece.weapon is None and not any(i is not None and i.id == DAGGER for i in held)


def later_multiple(item: Item, held: list[Item | None]) -> int:
    """The multiple an item costs when the warrior carries one of its kind already (a second mutation: 2), else 1."""
    if item.later_multiple > 1 and any(i is not None and i.kind == item.kind for i in held):
        return item.later_multiple
    return 1
