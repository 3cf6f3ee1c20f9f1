"""Rules entries for the scenarios and the underdog table (rules_data/campaign/scenarios.json).

The seeds lack the Scenarios chapter and the Experience chapter's underdog table (their contents
list both, 000:84-85; seeds/INVENTORY.md section 1). ``/battle scenario`` and ``/battle record``
play by the data file, whose figures are the published game's (each part naming the public
transcriptions it was checked against) and whose summaries are our own words; ``/rule skirmish``,
``/rule scenario table`` or ``/rule underdog`` answer from the same file, so they never disagree
with what the bot applies. Like engine/rules/campaign.py, this reads the file's JSON as it is, to
keep the rules library free of the campaign package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .models import Entry, Source

SCENARIOS_SOURCE = "rules_data/campaign/scenarios.json"
NOT_IN_SEEDS = (
    "**Not from the rulebook text**, of which the bot holds the rules chapters only: this is from the scenarios the bot plays by "
    "(`rules_data/campaign/scenarios.json`: the published rulebook's figures, summaries in our own words)."
)


def _entry(slug: str, title: str, parts: Sequence[str | None], aliases: tuple[str, ...], related: tuple[str, ...] = (),
           kind: str = "rule") -> Entry:
    return Entry(
        id=f"lrb/campaign/{slug}", edition="lrb", title=title, path=("Campaign", "Scenarios", title), kind=kind,
        body="\n\n".join(p for p in parts if p), source=Source(SCENARIOS_SOURCE, ()), aliases=aliases, related=related,
    )


def _span(row: dict[str, Any]) -> str:
    if row.get("to") is None:
        return f"{row['from']}+"
    return str(row["from"]) if row["from"] == row["to"] else f"{row['from']}-{row['to']}"


def _scenario(s: dict[str, Any]) -> Entry:
    """A findable entry in short: the set-up, rules and ending are ``/battle scenario``'s to show
    (their words would otherwise crowd the rules' own sections out of answers about fighting)."""
    awards = ", ".join(f"+{a['amount']} {a['name'].lower()}" for a in s["awards"])
    return _entry(
        f"scenario-{s['id']}", s["name"],
        [NOT_IN_SEEDS, f"*Scenario {s['number']} of the rulebook.* {s['summary']}",
         f"**Experience:** {awards}.",
         f"`/battle scenario name:{s['name']}` shows its set-up, special rules, ending and awards in full; "
         f"`/battle record scenario:{s['name']}` records a battle fought under it.",
         f"*Figures: {s['source']}*"],
        (f"{s['name'].lower()} scenario", f"scenario {s['number']}"),
        related=("lrb/campaign/scenario-table",),
    )


def _table(data: dict[str, Any]) -> Entry:
    names = {s["id"]: f"{s['name']} (scenario {s['number']})" for s in data["scenarios"]}
    rows = ["| 2D6 | Scenario |", "|---|---|"]
    for r in data["scenario_table"]["rows"]:
        rows.append(f"| {_span(r)} | {r['summary'] if r.get('choose') else names[r['scenario']]} |")
    return _entry(
        "scenario-table", "Scenario table",
        [NOT_IN_SEEDS, data["pre_battle"]["summary"], "\n".join(rows),
         f"*Figures: {data['scenario_table']['source']}*",
         "`/battle scenario` rolls it (with every die shown, or the dice typed at the table in `dice`)."],
        ("scenarios", "scenario", "which scenario", "roll a scenario", "random scenario", "pre-battle sequence",
         "pre battle sequence"),
        related=tuple(f"lrb/campaign/scenario-{s['id']}" for s in data["scenarios"]), kind="table",
    )


def _underdogs(data: dict[str, Any]) -> Entry:
    underdog = data["underdog"]
    rows = ["| Rating gap | Extra experience |", "|---|---|"]
    rows += [f"| {_span(r)} | {'+' + str(r['experience']) if r['experience'] else 'none'} |" for r in underdog["rows"]]
    return _entry(
        "underdogs", "Underdogs",
        [NOT_IN_SEEDS, underdog["summary"], "\n".join(rows), f"**Who gains it.** {underdog['receives']}",
         "`/battle record` against another warband of the server stores both ratings and names the underdog.",
         f"*Figures: {underdog['source']}*"],
        ("underdog", "underdog experience", "underdog bonus", "underdogs experience", "lower rated warband"),
        related=("lrb/campaign/warband-rating", "lrb/campaign/experience"), kind="table",
    )


def scenario_entries(data: dict[str, Any]) -> list[Entry]:
    """The scenario table, each scenario and the underdog table, as rules entries."""
    return [_table(data), *(_scenario(s) for s in data["scenarios"]), _underdogs(data)]
