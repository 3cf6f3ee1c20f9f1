"""Rules entries for the campaign tables: what players look up but the seed rulebooks lack.

The seeds are the rules chapters only (seeds/INVENTORY.md §1): no serious injury chart, no
experience table, no warband rating. The bot's warband keeper plays by the tables in
``rules_data/campaign/lrb.json`` (the published Living Rulebook 2005, figures and their source
named there), so ``/rule serious injuries`` answers from the same file, saying plainly that
it is not in the rulebooks. The entries are made when the library loads, from whatever the
file holds then, so they never disagree with what ``/warrior injure`` uses.
"""

from __future__ import annotations

from typing import Any

from .models import Entry, Source

CAMPAIGN_SOURCE = "rules_data/campaign/lrb.json"
NOT_IN_SEEDS = (
    "**Not in the seed rulebooks**, which hold the rules chapters only: this is from the campaign "
    "tables the bot's warband keeper uses (`rules_data/campaign/lrb.json`, the published Living "
    "Rulebook 2005). A server may use its own tables (`/admin campaign`); this shows the default."
)


def _entry(slug: str, title: str, body: str, aliases: tuple[str, ...], kind: str = "table") -> Entry:
    return Entry(
        id=f"lrb/campaign/{slug}", edition="lrb", title=title, path=("Campaign", title), kind=kind,
        body=body, source=Source(CAMPAIGN_SOURCE, ()), aliases=aliases,
    )


def _serious_injuries(data: dict[str, Any]) -> Entry | None:
    rows = data.get("serious_injuries")
    if not rows:
        return None
    table = ["| D66 | Result |", "|---|---|"]
    for r in rows:
        roll = str(r["from"]) if r["from"] == r["to"] else f"{r['from']}-{r['to']}"
        table.append(f"| {roll} | {r['name']} |")
    parts = [
        NOT_IN_SEEDS,
        "After a battle, each Hero taken out of action rolls a D66 (a tens die, then a units die) on this chart; "
        "`/warrior injure` records the result on a warrior.",
        "\n".join(table),
    ]
    out = data.get("henchman_out_of_action")
    if out:
        parts.append(f"Henchmen taken out of action roll a D6 instead: {out['dead'][0]}-{out['dead'][1]} dead, "
                     f"{out['alive'][0]}-{out['alive'][1]} they recover (000:1499, said of wardogs).")
    parts += [f"*{d}*" for d in data.get("discrepancies", []) if "erious injur" in d]
    return _entry("serious-injuries", "Serious injuries", "\n\n".join(parts),
                  ("serious injury", "serious injury chart", "serious injury table", "d66 injury", "post battle injuries",
                   "injuries after the battle", "dead heroes"))


def _experience(data: dict[str, Any]) -> Entry | None:
    heroes, henchmen = data.get("hero_advance_xp"), data.get("henchman_advance_xp")
    if not heroes or not henchmen:
        return None
    body = "\n\n".join([
        NOT_IN_SEEDS,
        "A warrior gains an advance on reaching each of these experience totals; `/warrior xp` adds experience "
        "and says which advances were reached.",
        "**Heroes:** " + ", ".join(str(x) for x in heroes),
        "**Henchman groups:** " + ", ".join(str(x) for x in henchmen),
    ])
    return _entry("experience", "Experience and advances", body,
                  ("experience", "xp", "advances", "advance table", "level up", "experience table"))


def _rating(data: dict[str, Any]) -> Entry | None:
    rating = data.get("rating")
    if not rating:
        return None
    body = "\n\n".join([
        NOT_IN_SEEDS,
        f"A warband's rating is {rating['per_warrior']} points per warrior ({rating['per_large_creature']} for a large "
        f"creature) plus {rating['per_experience']} per experience point. Every model of a henchman group counts, and "
        "each has the group's experience; dead and retired warriors do not. `/warband show` works it out.",
    ])
    return _entry("warband-rating", "Warband rating", body, ("rating", "warband rating", "wb rating", "underdog"), "rule")


def _size(data: dict[str, Any]) -> Entry | None:
    if "max_warband_size" not in data:
        return None
    lines = [
        NOT_IN_SEEDS,
        f"A warband has at most {data['max_warband_size']} warriors unless its list says otherwise, at most "
        f"{data.get('max_heroes', '?')} Heroes, and henchman groups of up to {data.get('max_henchman_group_size', '?')}.",
    ]
    by_type = data.get("warband_size_by_type") or {}
    if by_type:
        lines.append("\n".join(["| Warband | Most warriors |", "|---|---|"]
                               + [f"| {name.title()} | {n} |" for name, n in sorted(by_type.items())]))
    cookbook = data.get("halfling_cookbook")
    if cookbook:
        lines.append(f"A {cookbook['item']} adds +{cookbook['bonus']} (000:1475).")
    return _entry("warband-size", "Warband size", "\n\n".join(lines),
                  ("warband size", "max warband size", "maximum warriors", "how many warriors", "number of heroes"), "rule")


def campaign_entries(data: dict[str, Any]) -> list[Entry]:
    """The campaign tables as rules entries (those the data holds)."""
    made = (_serious_injuries(data), _experience(data), _rating(data), _size(data))
    return [e for e in made if e is not None]
