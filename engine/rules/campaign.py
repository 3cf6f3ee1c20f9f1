"""Rules entries for the campaign tables and the campaign chapters' rules: what players look up but
the seed rulebooks lack.

The seeds are the rules chapters only (seeds/INVENTORY.md §1): no serious injury chart, no
experience table, no exploration or wyrdstone prices. The bot's warband keeper and post-battle
sequence play by the tables in ``rules_data/campaign/lrb.json`` (figures of the published
Mordheim rulebook and Living Rulebook, each table naming its source there; every summary in our
own words), so ``/rule serious injuries`` or ``/rule wyrdstone`` answer from the same file,
saying plainly that it is not in the rulebooks. The entries are made when the library loads,
from whatever the file holds then, so they never disagree with what the bot applies; a table
the file lacks makes no entry.

The campaign chapters' rules that are no table (a hired sword's upkeep, the death of a leader) are
in ``rules_data/campaign/rules.json``, in our own words, each naming where it is printed and what
was read to check it; ``rule_entries`` makes one entry of each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .models import Entry, Source

CAMPAIGN_SOURCE = "rules_data/campaign/lrb.json"
NOT_IN_SEEDS = (
    "**Not from the rulebook text**, of which the bot holds the rules chapters only: this is from the campaign "
    "tables the bot plays by (`rules_data/campaign/lrb.json`, figures of the published rulebook, "
    "summaries in our own words). A server may use its own tables (`/admin campaign`); this shows the default."
)


def _entry(slug: str, title: str, parts: Sequence[str | None], aliases: tuple[str, ...], kind: str = "table",
           related: tuple[str, ...] = (), source: str = CAMPAIGN_SOURCE) -> Entry:
    return Entry(
        id=f"lrb/campaign/{slug}", edition="lrb", title=title, path=("Campaign", title), kind=kind,
        body="\n\n".join(p for p in parts if p), source=Source(source, ()), aliases=aliases,
        related=related,
    )


def _span(row: dict[str, Any]) -> str:
    if row.get("to") is None:
        return f"{row['from']}+"
    return str(row["from"]) if row["from"] == row["to"] else f"{row['from']}-{row['to']}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _source_line(table: Any) -> str | None:
    source = table.get("source") if isinstance(table, dict) else None
    return f"*Figures: {source}*" if source else None


def _serious_injuries(data: dict[str, Any]) -> Entry | None:
    rows = data.get("serious_injuries")
    if not rows:
        return None
    table = ["| D66 | Result | What happens |", "|---|---|---|"]
    for r in rows:
        table.append(f"| {_span(r)} | {_cell(r['name'])} | {_cell(r.get('summary', ''))} |")
    out = data.get("henchman_out_of_action")
    henchmen = (f"Henchmen taken out of action roll a D6 instead: {out['dead'][0]}-{out['dead'][1]} dead, "
                f"{out['alive'][0]}-{out['alive'][1]} they recover (000:1499, said of wardogs).") if out else None
    source = data.get("serious_injuries_source")
    return _entry(
        "serious-injuries", "Serious injuries",
        [NOT_IN_SEEDS,
         "After a battle, each Hero taken out of action rolls a D66 (a tens die, then a units die) on this chart; "
         "`/postbattle start` rolls it and applies the result, `/warrior injure` records one.",
         "\n".join(table), henchmen,
         *[f"*{d}*" for d in data.get("discrepancies", []) if "erious injur" in d],
         f"*Figures: {source}*" if source else None],
        ("serious injury", "serious injury chart", "serious injury table", "d66 injury", "post battle injuries",
         "injuries after the battle", "dead heroes", *(r["name"].lower() for r in rows)),  # "leg wound", "robbed"
        related=("lrb/shooting/out-of-action",),
    )


def _experience(data: dict[str, Any]) -> Entry | None:
    heroes, henchmen = data.get("hero_advance_xp"), data.get("henchman_advance_xp")
    if not heroes or not henchmen:
        return None
    awards = (data.get("experience_awards") or {}).get("awards") or []
    award_lines = [f"• **+{a['amount']} {a['name']}** — {a['summary']}" for a in awards]
    hero_table, henchman_table = data.get("hero_advances"), data.get("henchman_advances")
    return _entry(
        "experience", "Experience and advances",
        [NOT_IN_SEEDS,
         "A warrior gains an advance on reaching each of these experience totals; `/warrior xp` adds experience "
         "and says which advances were reached.",
         "**Heroes:** " + ", ".join(str(x) for x in heroes),
         "**Henchman groups:** " + ", ".join(str(x) for x in henchmen),
         ("**Experience every battle gives:**\n" + "\n".join(award_lines)) if award_lines else None,
         (data.get("experience_awards") or {}).get("scenario_note"),
         _advances("Heroes' advances", hero_table),
         _advances("Henchmen's advances (the whole group takes it)", henchman_table),
         (henchman_table or {}).get("at_maximum"),
         "**Skills are for heroes.** Heroes learn new skills as they gain experience (000:122): a New skill "
         "advance lets a hero pick one from the skill lists his warband list gives his type. Henchmen learn no "
         "skills: their table raises characteristics only, until The lad's got talent! makes one of them a "
         "hero, who then picks two of his warband's hero skill lists. A hired sword gains experience as a henchman "
         "does but rolls his advances on the heroes' table, with the skill lists of his entry.",
         _source_line(hero_table)],
        ("experience", "xp", "advances", "advance table", "level up", "experience table", "experience awards",
         "advance tables", "hero advances", "henchman advances", "henchmen advances", "henchmen skills",
         "henchman skills", "skills for henchmen", "new skills", "lads got talent", "the lad's got talent"),
    )


def _advances(title: str, table: Any) -> str | None:
    """An advance table (2D6): each result and what it gives."""
    if not isinstance(table, dict) or not table.get("results"):
        return None
    rows = [f"| {table.get('dice', '2D6')} | Result |", "|---|---|"]
    rows += [f"| {_span(r)} | {_cell(r['name'])}{': ' + _cell(r['summary']) if r.get('summary') else ''} |"
             for r in table["results"]]
    return f"**{title}:**\n" + "\n".join(rows)


def _rating(data: dict[str, Any]) -> Entry | None:
    rating = data.get("rating")
    if not rating:
        return None
    return _entry(
        "warband-rating", "Warband rating",
        [NOT_IN_SEEDS,
         f"A warband's rating is {rating['per_warrior']} points per warrior ({rating['per_large_creature']} for a large "
         f"creature) plus {rating['per_experience']} per experience point. Every model of a henchman group counts, and "
         "each has the group's experience; dead and retired warriors do not. `/warband show` works it out."],
        ("rating", "warband rating", "wb rating"), "rule", related=("lrb/campaign/underdogs",),
    )


def _size(data: dict[str, Any]) -> Entry | None:
    if "max_warband_size" not in data:
        return None
    parts = [
        NOT_IN_SEEDS,
        f"A warband has at most {data['max_warband_size']} warriors unless its list says otherwise (a list in "
        f"`/warband show` gives its own), at most {data.get('max_heroes', '?')} Heroes, and henchman groups of up to "
        f"{data.get('max_henchman_group_size', '?')}.",
    ]
    by_type = data.get("warband_size_by_type") or {}
    if by_type:
        parts.append("\n".join(["| Warband | Most warriors |", "|---|---|"]
                               + [f"| {name.title()} | {n} |" for name, n in sorted(by_type.items())]))
    cookbook = data.get("halfling_cookbook")
    if cookbook:
        parts.append(f"A {cookbook['item']} adds +{cookbook['bonus']} (000:1475).")
    return _entry("warband-size", "Warband size", parts,
                  ("warband size", "max warband size", "maximum warriors", "number of heroes"), "rule")


def _exploration(data: dict[str, Any]) -> Entry | None:
    ex = data.get("exploration")
    if not ex or not ex.get("shards_by_total"):
        return None
    shards = ["| Dice total | Shards |", "|---|---|"] + [f"| {_span(r)} | {r['shards']} |" for r in ex["shards_by_total"]]
    places = ["| Dice | Place | What is found |", "|---|---|---|"]
    for m in ex.get("multiples", []):
        places.append(f"| {m['count']}× {m['face']} | {_cell(m['name'])} | {_cell(m.get('summary', ''))} |")
    return _entry(
        "exploration", "Exploration",
        [NOT_IN_SEEDS,
         f"After a battle the warband rolls {ex.get('dice_per_hero', 1)} D6 for each Hero who was not taken out of "
         f"action, and {ex.get('dice_for_win', 1)} more if it won"
         + (f"; of all the dice rolled it keeps at most {ex['dice_kept']}, its own pick" if ex.get("dice_kept") else "")
         + "; the total finds wyrdstone shards (`/postbattle start` rolls and applies it all).",
         "\n".join(shards),
         ex.get("multiples_rule"),
         "\n".join(places) if len(places) > 2 else None,
         _source_line(ex)],
        ("exploring", "exploration chart", "exploration phase", "finding wyrdstone", "exploration dice"),
        related=("lrb/campaign/wyrdstone", "lrb/equipment/mordheim-map"),
    )


def _wyrdstone(data: dict[str, Any]) -> Entry:
    income = data.get("income") or {}
    parts = [
        "Wyrdstone is what the warbands come to Mordheim for: winning battles brings a campaign warband riches and "
        "wyrdstone (000:120). On the table, a Wyrdstone counter marks a shard a warrior carries, next to the "
        "Hidden counter (000:174-182; 002:55-57). The rulebook text the bot holds says no more: how shards are found "
        "and what they sell for are in the campaign chapters, which it lacks (the Living Rulebook's contents list "
        "them, 000:55-96; the text the bot holds ends with the Magic chapter, 000:1867).",
        NOT_IN_SEEDS if income.get("rows") else None,
    ]
    if income.get("rows"):
        columns = [_span(c) for c in income["size_columns"]]
        table = ["| Shards sold | " + " | ".join(f"{c} warriors" for c in columns) + " |",
                 "|---|" + "---|" * len(columns)]
        for row in income["rows"]:
            table.append(f"| {row['shards']} | " + " | ".join(str(g) for g in row["gold"]) + " |")
        parts += ["**Selling shards** (gold crowns, by how many warriors the warband has):", "\n".join(table),
                  income.get("rule"), _source_line(income)]
    if data.get("exploration"):
        parts.append("Shards are found by exploring after each battle: see **Exploration**.")
    parts.append("The bot keeps each warband's shards in its treasury (`/warband treasury`, `/warband show`); "
                 "`/postbattle start` finds and sells them.")
    return _entry("wyrdstone", "Wyrdstone", parts,
                  ("wyrdstone shards", "shards", "warpstone", "selling wyrdstone", "sell wyrdstone", "income",
                   "wyrdstone prices", "income chart"), "rule",
                  related=("lrb/campaign/exploration", "lrb/introduction/counters"))


def rule_entries(data: dict[str, Any]) -> list[Entry]:
    """The campaign chapters' rules of ``rules_data/campaign/rules.json``, one entry each."""
    source = "rules_data/campaign/rules.json"
    made = []
    for rule in data.get("rules", []):
        intro = (f"**Not from the rulebook text**, of which the bot holds the rules chapters only: this is the {rule['chapter']} chapter's "
                 f"rule as the bot reads it (`{source}`, in our own words).")
        checked = "; ".join(rule["checked_against"])
        made.append(_entry(rule["id"], rule["title"],
                           [intro, *rule["paragraphs"], f"**In the bot:** {rule['bot']}",
                            f"*Printed in: {rule['source']} Checked against: {checked}.*"],
                           tuple(rule["aliases"]), "rule", tuple(rule["related"]), source))
    return made


def campaign_entries(data: dict[str, Any]) -> list[Entry]:
    """The campaign tables as rules entries (those the data holds), and wyrdstone."""
    made = (_serious_injuries(data), _experience(data), _rating(data), _size(data), _exploration(data),
            _wyrdstone(data))
    return [e for e in made if e is not None]
