"""How a fight plays each item the warband lists sell, in a sentence, for its `/rule` entry.

The bot sells the lists' own weapons, armour, mutations and gear (fighting claws, the Sisters'
steel whip, a pirate's peg leg: ``rules_data/warbands``) and fights with many of them
(``rules_data/stats/warband_kit.json``, loaded for combat by ``engine/combat/item_data.py``). The
item's entry (``engine/rules/warbands.py``) says what it does and who sells it; this module adds
how `/fight`, `/shoot` and `/odds` play it, read from the same kit file: played (and what is not
modelled of it), fought exactly as a rulebook item, a bundle of items, or not modelled and why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

KIT_FILE = Path("stats") / "warband_kit.json"
NO_PART = "it plays no part in a close-combat round or a shot."


def fight_sentences(data_dir: Path) -> dict[str, str]:
    """Stats id -> how a fight plays it, in a sentence (the kit file's rows); {} without the file."""
    kit_path = data_dir / KIT_FILE
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
        choice = f" ({row['choice']})" if row.get("choice") else ""
        out[row["id"]] = "a fight gives him what the bundle holds: " + ", ".join(row["items"]) + choice + "."
    for row in doc.get("not_modelled", []):
        out[row["id"]] = f"not modelled by `/fight` and `/odds`: {row['why']}."
    return out


def in_a_fight(item_id: str, combat: str | None, fights: dict[str, str]) -> str:
    """How a fight plays the item ``item_id`` that fights as ``combat`` (None: no stats id)."""
    if combat is not None and combat in fights:
        return fights[combat]
    if item_id in fights:
        return fights[item_id]
    if combat:  # a rulebook weapon, armour or item of that id
        return f"it fights as the rulebook's {combat.replace('-', ' ')}."
    return NO_PART


def _unmodelled(row: dict[str, Any]) -> str:
    rules = row.get("not_modelled") or []
    return (" Not modelled: " + "; ".join(rules) + ".") if rules else ""
