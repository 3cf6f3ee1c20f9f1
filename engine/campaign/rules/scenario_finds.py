"""What a battle's rulebook scenario gives the warband once it is over: Wyrdstone Hunt's counters
still held at the end, as wyrdstone shards (the post-battle sequence adds them in its exploration
step, beside what exploring finds).

The scenario's data says which scenarios turn counters into shards (rules_data/campaign/
scenarios.json ``counters_are_shards``: Wyrdstone Hunt, "every counter a warband's warriors still
hold at the end is one wyrdstone shard"); who still holds his is ``Fighter.counters_held`` (a
carrier taken out of action drops them). What the other scenarios' after-battle text gives
(Hidden Treasure's chest, Defend the Find's and Chance Encounter's shards) needs facts the
sequence is not told, and is left to the owner (scenarios.json ``left_out``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.campaign.rules.scenarios import scenario_with_id
from engine.campaign.rules.sequence import Fighter


@dataclass(frozen=True, kw_only=True)
class ScenarioShards:
    """The shards a scenario's counters make for one warband."""

    scenario: str  # its name, "Wyrdstone Hunt"
    carried: int  # every counter its fighters were said to carry
    shards: int  # those still held at the end: one shard each
    dropped: tuple[tuple[str, int], ...] = ()  # (name, counters) of each carrier taken out of action

    def line(self) -> str:
        """'Wyrdstone Hunt: 3 counters carried → 3 shards', and who dropped his."""
        text = (f"{self.scenario}: {self.carried} counter{'s' if self.carried != 1 else ''} carried → "
                f"{self.shards} shard{'s' if self.shards != 1 else ''}")
        if self.dropped:
            text += " (dropped when taken out of action: " + ", ".join(f"{name} {n}" for name, n in self.dropped) + ")"
        return text


def scenario_shards(scenario_id: str | None, fighters: Iterable[Fighter]) -> ScenarioShards | None:
    """The shards the counters of ``fighters`` make in the battle's scenario ``scenario_id``; None
    when its scenario turns no counter into a shard (every scenario but Wyrdstone Hunt, a custom
    one) or nobody carried one."""
    scenario = scenario_with_id(scenario_id)
    if scenario is None or not scenario.counters_are_shards:
        return None
    carriers = [f for f in fighters if f.fought and f.counters]
    if not carriers:
        return None
    return ScenarioShards(scenario=scenario.name, carried=sum(f.counters for f in carriers),
                          shards=sum(f.counters_held for f in carriers),
                          dropped=tuple((f.name, f.counters) for f in carriers if f.counters_held < f.counters))
