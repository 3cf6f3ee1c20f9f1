"""Kit names as players type them and as warriors carry them.

A name is one of the catalogue's items (its id, name or an alias, any case), or one of two made-up
names the catalogue holds no entry for:
- a weapon of a special metal or smith, '<prefix> <weapon>' ('Gromril axe', 'Ithilmar sword', 'Dark Elf
  dagger'): the item with ``made_as`` and the weapon it is made as (000:1054, 000:1060);
- a priced package with the options its buyer picked, 'Skink style (Javelins, Net)'.
Several names may be typed at once, parted by commas or semicolons ('sword, dagger, shield'); a
comma inside a package's brackets parts its options, not the names.

A piece's ``name`` is what the warrior carries it by: the catalogue's spelling whatever the case
typed, and the name asked for of a weapon sold under several (a Club stays a Club, 000:921).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.campaign.lists.catalogue import Catalogue, Item, KitChoice, KitOption, lookup_key
from engine.errors import MordheimError

MAX_NAMES = 10  # names in one text: more is a paste gone wrong, not a purchase

# Names repeat across purchases and kits: compare each one's key once.
_key = lru_cache(maxsize=8192)(lookup_key)


@dataclass(frozen=True, kw_only=True)
class KitPiece:
    """One thing bought or carried, as the catalogue knows it."""

    item: Item  # the item itself; for 'Gromril axe' the gromril weapon, for a package the package
    weapon: Item | None = None  # what a made_as item is made as (the axe)
    options: tuple[KitOption, ...] = ()  # a package's chosen options, one per choice

    @property
    def name(self) -> str:
        """The name the warrior carries it by ('Gromril axe'); a package's with its options."""
        if self.item.made_as is not None and self.weapon is not None:
            return self.item.made_as.name_of(self.weapon)
        if self.options:
            return f"{self.item.name} ({', '.join(o.name for o in self.options)})"
        return self.item.name

    @property
    def contents(self) -> tuple[Item, ...]:
        """What a package gives (its contents and the chosen options' items); () for anything else."""
        return (*self.item.contents, *(i for o in self.options for i in o.items))


def split_names(text: str) -> list[str]:
    """The names in ``text`` parted by commas or semicolons outside brackets ('a, b (c, d)' -> ['a', 'b (c, d)'])."""
    if "," not in text and ";" not in text:
        return [text.strip()] if text.strip() else []
    names: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if ch in ",;" and depth == 0:
            names.append("".join(current))
            current = []
        else:
            current.append(ch)
    names.append("".join(current))
    found = [n.strip() for n in names if n.strip()]
    if len(found) > MAX_NAMES:
        raise MordheimError(f"{len(found)} items at once is more than one purchase takes (at most {MAX_NAMES}).",
                            hint="Buy them in two goes.")
    return found


# ------------------------------------------------------------------ finding a stored or typed name

_indexes: dict[int, tuple[Catalogue, dict[str, KitPiece], tuple[Item, ...]]] = {}
_lock = threading.Lock()


def _index(catalogue: Catalogue) -> tuple[dict[str, KitPiece], tuple[Item, ...]]:
    """(lookup key -> the item as a piece, the made_as items), built once per catalogue."""
    entry = _indexes.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        names: dict[str, KitPiece] = {}
        for item in catalogue.items.values():
            piece = KitPiece(item=item)
            for key in (item.id, item.name, *item.aliases):
                names.setdefault(lookup_key(key), piece)
        made = tuple(i for i in catalogue.items.values() if i.made_as is not None)
        with _lock:
            if len(_indexes) > 64:
                _indexes.clear()
            _indexes[id(catalogue)] = entry = (catalogue, names, made)
    return entry[1], entry[2]


def find_piece(catalogue: Catalogue, name: str) -> KitPiece | None:
    """The piece a stored or typed name means, or None when the catalogue knows no such thing.

    A package named without its options, a weapon a made_as item may not be made as, and options a
    package has not come back as None: ``piece_or_refusal`` says what is wrong with them.
    """
    names, made = _index(catalogue)
    key = _key(name)
    plain = names.get(key)
    if plain is not None:
        return plain if not plain.item.choices else None
    for material in made:
        assert material.made_as is not None
        prefix = lookup_key(material.made_as.prefix) + " "
        if key.startswith(prefix):
            weapon = names.get(key[len(prefix):])
            if weapon is not None and material.made_as.may_be(weapon.item):
                return KitPiece(item=material, weapon=weapon.item)
    package, options = _package_parts(names, name)
    if package is not None and options is not None:
        chosen = _choose(package.choices, options)
        if chosen is not None:
            return KitPiece(item=package, options=chosen)
    return None


def piece_or_refusal(catalogue: Catalogue, name: str) -> KitPiece:
    """The piece ``name`` means; else MordheimError saying what to type (NotFoundError with the closest names)."""
    piece = find_piece(catalogue, name)
    if piece is not None:
        if piece.item.made_as is not None and piece.weapon is None:
            raise MordheimError(f"Say which weapon the {piece.item.name} is: {_made_as_examples(catalogue, piece.item)}.",
                                hint=f"Its price is {piece.item.price_text()}.")
        return piece
    names, made = _index(catalogue)
    key = lookup_key(name)
    for material in made:
        assert material.made_as is not None
        if key.startswith(lookup_key(material.made_as.prefix) + " "):
            what = ("a close-combat weapon" if not material.made_as.weapons
                    else " or ".join(f"a {catalogue.items[w].name.lower()}" for w in material.made_as.weapons if w in catalogue.items))
            raise MordheimError(f"'{name[:60]}' cannot be bought: a {material.name} is {what}.",
                                hint=f"Write {_made_as_examples(catalogue, material)}.")
    package, options = _package_parts(names, name)
    if package is not None:
        example = f"{package.name} ({', '.join(c.options[0].name for c in package.choices)})"
        picks = "; ".join(f"{c.name.lower()}: {' or '.join(o.name for o in c.options)}" for c in package.choices)
        said = "no options" if not options else f"'{options[:60]}'"
        raise MordheimError(f"{package.name} comes with a choice ({picks}); {said} does not pick one of each.",
                            hint=f"Write the options in brackets, e.g. `{example}`.")
    return KitPiece(item=catalogue.item(name))  # raises NotFoundError naming the closest


def _made_as_examples(catalogue: Catalogue, material: Item) -> str:
    """'`Dark Elf sword` or `Dark Elf dagger`', or for any weapon 'e.g. `Gromril sword` or `Gromril axe`'."""
    assert material.made_as is not None
    ids = material.made_as.weapons or ("sword", "axe")
    shown = " or ".join(f"`{material.made_as.name_of(catalogue.items[w])}`" for w in ids if w in catalogue.items)
    return shown if material.made_as.weapons else f"e.g. {shown}"


_BRACKETS = re.compile(r"^(.*?)[(\[](.*)[)\]]\s*$")


def _package_parts(names: dict[str, KitPiece], text: str) -> tuple[Item | None, str | None]:
    """(the package named, what is written in its brackets or None) for 'Skink style (Javelins, Net)'."""
    match = _BRACKETS.match(text.strip())
    plain = names.get(lookup_key(match.group(1) if match else text))
    if plain is None or not plain.item.choices:
        return None, None
    return plain.item, (match.group(2).strip() or None) if match else None


def _words(text: str) -> str:
    """Option text compared word by word: case, commas, '&' and 'and' do not matter ('Spear & net' = 'spear net')."""
    return " ".join(w for w in lookup_key(re.sub(r"[,;/&]", " ", text)).split() if w != "and")


def _choose(choices: Sequence[KitChoice], typed: str) -> tuple[KitOption, ...] | None:
    """One option of each choice, all of ``typed`` used, or None."""
    left = f" {_words(typed)} "
    chosen: list[KitOption] = []
    for choice in choices:
        # the longest name first, so 'Spear and net' wins over an option that is part of it
        found = next((o for o in sorted(choice.options, key=lambda o: -len(o.name)) if f" {_words(o.name)} " in left), None)
        if found is None:
            return None
        chosen.append(found)
        left = left.replace(f" {_words(found.name)} ", " ", 1)
    return tuple(chosen) if not left.strip() else None


def canonical(catalogue: Catalogue, name: str) -> str:
    """The catalogue's spelling of a kit name ('sword' -> 'Sword', 'gromril AXE' -> 'Gromril axe'); unknown text as given."""
    piece = find_piece(catalogue, name)
    return piece.name if piece is not None else name

