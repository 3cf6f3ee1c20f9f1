"""Rules entries for what the warband lists sell that the seed rulebooks do not describe.

The seeds are the 2005 rulebook's rules chapters (seeds/INVENTORY.md §1): its trading post is
there, but not a list's own weapons, armour, mutations and gear (fighting claws, the Sisters'
steel whip, a pirate's peg leg, a Dramatis Persona's named blade). The bot sells them
(``rules_data/warbands``) and fights with many of them (``rules_data/stats/warband_kit.json``), so
``/rule`` answers for each from those same files: what it does (the list's summary, in our words),
who sells it and at what price, the published source, and how a fight plays it. The entries are
made when the library loads, from whatever the files hold then; an item that already has a
rulebook entry of its name gets none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .models import Entry, Source
from .ranking import LIST_ITEMS
from .text import key

CHAPTER = LIST_ITEMS
KIND_OF = {"close-combat": "weapon", "missile": "weapon", "blackpowder": "weapon", "armour": "armour", "upgrade": "weapon"}
NOT_IN_SEEDS = ("**Not in the seed rulebooks**, which hold the rulebook's own chapters only: this is an item of the warband "
                "lists the bot keeps (`rules_data/warbands`), described in our own words.")


def warband_item_entries(data_dir: Path, known_names: Iterable[str], known_stats: Iterable[str] = ()) -> list[Entry]:
    """An entry for every list item (and every Dramatis Persona's named gear) that no rulebook
    entry already answers for: none of ``known_names`` (keys of their titles and aliases) is its
    name, and it does not fight as one of ``known_stats`` (the stats ids they describe: the trading
    post's "Brace of pistols" is the rulebook's Pistol)."""
    warbands = data_dir / "warbands"
    if not warbands.is_dir():
        return []
    known, described = set(known_names), set(known_stats)
    sellers = _sellers(warbands)
    fights = _fights(data_dir / "stats" / "warband_kit.json")
    out: list[Entry] = []
    made: set[str] = set()
    for path in [warbands / "items.json", *sorted((warbands / "lists").glob("*.json"))]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        for item in doc.get("items", []):
            if key(item["name"]) in known or item.get("combat") in described or item["id"] in made:
                continue
            made.add(item["id"])
            out.append(_item_entry(item, sellers.get(item["id"], []), fights, path.relative_to(data_dir).as_posix()))
    personae = warbands / "dramatis_personae.json"
    if personae.exists():
        for who in json.loads(personae.read_text(encoding="utf-8")).get("dramatis_personae", []):
            for gear in who.get("gear") or []:
                names = (gear["name"], gear["name"].split(",")[0])  # "Ienh-Khain, the Hand of Khaine", "Ienh-Khain"
                aliases = tuple(dict.fromkeys(n for n in names if key(n) not in known))  # "Knives" stays the rulebook's dagger
                out.append(_gear_entry(gear, who, aliases, personae.relative_to(data_dir).as_posix()))
    return out


def _entry(item_id: str, title: str, kind: str, parts: list[str | None], aliases: tuple[str, ...], file: str) -> Entry:
    return Entry(id=f"lrb/{CHAPTER}/{item_id}", edition="lrb", title=title, path=("Warband kit", title), kind=kind,
                 body="\n\n".join(p for p in parts if p), source=Source(file, ()), aliases=aliases)


def _item_entry(item: dict[str, Any], sold_by: list[str], fights: dict[str, str], file: str) -> Entry:
    price = f"{item['price']} gc" + (f" + {item['price_dice']}" if item.get("price_dice") else "")
    rarity = item.get("rarity")
    found = "common" if rarity in (None, "common") else f"rare {rarity}"
    who = ", ".join(sold_by[:8]) + (" and more" if len(sold_by) > 8 else "") if sold_by else "its list's own warriors"
    aliases = tuple(dict.fromkeys(a for a in (*item.get("aliases", []), item["id"].replace("-", " ")) if key(a) != key(item["name"])))
    return _entry(item["id"], item["name"], KIND_OF.get(item.get("kind", ""), "equipment"), [
        NOT_IN_SEEDS,
        item["summary"],
        f"**Price:** {price}, {found}. **Sold by:** {who}.",
        f"**In a fight:** {_in_a_fight(item, fights)}",
        f"*Source: {item['source']}*",
    ], aliases, file)


def _gear_entry(gear: dict[str, Any], who: dict[str, Any], aliases: tuple[str, ...], file: str) -> Entry:
    owner = (who.get("aliases") or [who["name"]])[0]
    return _entry(gear["id"], f"{gear['name']} ({owner})", "equipment", [
        NOT_IN_SEEDS,
        gear["summary"],
        f"**Carried by:** {who['name']}, a Dramatis Persona. His or her named gear is described here; a fight plays the "
        "character's listed equipment.",
        f"*Source: {who['source']}*",
    ], aliases, file)


_NO_PART = "it plays no part in a close-combat round or a shot."


def _in_a_fight(item: dict[str, Any], fights: dict[str, str]) -> str:
    combat = item.get("combat")
    if combat in fights:
        return fights[combat]
    if item["id"] in fights:
        return fights[item["id"]]
    if combat:  # a rulebook weapon, armour or item of that id
        return f"it fights as the rulebook's {combat.replace('-', ' ')}."
    return _NO_PART


def _sellers(warbands: Path) -> dict[str, list[str]]:
    """Item id -> the warbands whose equipment lists sell it."""
    out: dict[str, list[str]] = {}
    for path in sorted((warbands / "lists").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for listed in {row["item"] for eq in doc.get("equipment_lists", []) for row in eq.get("items", [])}:
            out.setdefault(listed, []).append(doc["name"])
    return out


def _fights(kit_path: Path) -> dict[str, str]:
    """Stats id -> how a fight plays it, in a sentence (warband_kit.json's rows)."""
    if not kit_path.exists():
        return {}
    doc = json.loads(kit_path.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for kind in ("weapons", "armour", "equipment"):
        for row in doc.get(kind, []):
            out[row["id"]] = "`/fight`, `/shoot` and `/odds` play it: " + row["summary"] + _unmodelled(row)
    for row in doc.get("same_as", []):
        out[row["id"]] = f"it fights exactly as a {row['as'].replace('-', ' ')}." + _unmodelled(row)
    for row in doc.get("kits", []):
        out[row["id"]] = "a fight gives him what the bundle holds: " + ", ".join(row["items"]) + (f" ({row['choice']})" if row.get("choice") else "") + "."
    for row in doc.get("not_modelled", []):
        out[row["id"]] = f"not modelled by `/fight` and `/odds`: {row['why']}."
    return out


def _unmodelled(row: dict[str, Any]) -> str:
    rules = row.get("not_modelled") or []
    return (" Not modelled: " + "; ".join(rules) + ".") if rules else ""
