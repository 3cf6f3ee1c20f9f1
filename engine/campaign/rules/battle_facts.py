"""What happened to a warband's warriors in a battle, handed to its post-battle sequence to fill in.

The live battle tracker (engine/campaign/rules/game_rules.py ``facts_of_side``) knows who took
part, who went out of action and whom each hero took out; the post-battle sequence starts with
them filled in (``engine/campaign/actions/postbattle.py`` ``start(..., prefill=...)``) and the
owner only checks and confirms. Nothing here knows where the facts came from.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.campaign.rules.sequence import Fighter


@dataclass(frozen=True, kw_only=True)
class WarriorFacts:
    warrior_id: int
    fought: bool  # some model of his took part
    out_of_action: int  # models taken out of action (a hero: 0 or 1)
    kills: int = 0  # enemies he took out of action (heroes only earn experience for them)
    counters: int = 0  # wyrdstone counters his models carried at the end (a scenario's awards may count them)
    taken_by: int | None = None  # the warband (id) whose warrior took him out of action, when the game recorded it


@dataclass(frozen=True, kw_only=True)
class BattleFacts:
    source: str  # where they come from, for the sequence's notes: 'game #12'
    warriors: tuple[WarriorFacts, ...]

    def of(self, warrior_id: int) -> WarriorFacts | None:
        return next((w for w in self.warriors if w.warrior_id == warrior_id), None)


def prefilled(fighters: Iterable[Fighter], facts: BattleFacts) -> tuple[Fighter, ...]:
    """The sequence's fighters with the facts filled in. A warrior the facts do not name keeps
    what the sequence found; one who sits this battle out (still recovering, captured) stays out;
    a group cannot lose more models than it has; kills go to heroes only; wyrdstone counters
    carried count where the battle's scenario awards them; who took him out of action names his
    captor, should he be captured."""
    out = []
    for f in fighters:
        known = facts.of(f.warrior_id)
        if known is not None:
            fought = f.fought and known.fought
            f = replace(f, fought=fought, out_of_action=min(known.out_of_action, 1 if f.hero else f.models) if fought else 0,
                        kills=known.kills if fought and f.hero else 0, counters=known.counters if fought else 0,
                        taken_by=known.taken_by if fought and known.out_of_action else None)
        out.append(f)
    return tuple(out)
