"""The editions of the rules a server can play by (rules_data/editions.json)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.errors import NotFoundError

RULES_DATA = Path(__file__).resolve().parent.parent / "rules_data"


@dataclass(frozen=True)
class Edition:
    id: str
    name: str
    seed: str
    description: str
    fallback: str | None  # edition whose weapons/equipment/magic chapters this one borrows
    combat: bool  # whether fights can be resolved by this edition


@cache
def _load() -> tuple[str, dict[str, Edition]]:
    raw = json.loads((RULES_DATA / "editions.json").read_text(encoding="utf-8"))
    editions = {e["id"]: Edition(**e) for e in raw["editions"]}
    return raw["default"], editions


def all_editions() -> list[Edition]:
    return list(_load()[1].values())


def default_edition() -> Edition:
    default, editions = _load()
    return editions[default]


def get_edition(edition_id: str | None) -> Edition:
    """The edition with this id (case-insensitive); the default when ``None``."""
    default, editions = _load()
    if edition_id is None or not str(edition_id).strip():
        return editions[default]
    key = str(edition_id).strip().lower()
    if key in editions:
        return editions[key]
    for e in editions.values():
        if key == e.name.lower() or key in e.seed:
            return e
    raise NotFoundError(
        f"There is no edition called '{str(edition_id)[:40]}'.",
        hint="Choose one of: " + ", ".join(f"`{e.id}` ({e.name})" for e in editions.values()),
    )
