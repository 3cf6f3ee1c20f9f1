"""Warband rating, shown with how it was reached."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.warbands.campaign_rules import CampaignRules
from engine.warbands.models import Rating, RatingLine, Warrior


def warband_rating(warriors: Iterable[Warrior], rules: CampaignRules, fixed: Mapping[int, int] | None = None) -> Rating:
    """5 per warrior (20 per large creature) + 1 per experience point, per model.

    Henchmen in a group each have the group's experience, so a group counts size x (5 + xp).
    A hired sword whose entry gives a rating figure (``fixed``: warrior id -> figure) counts
    that figure instead of 5, plus its experience. Dead and retired warriors do not count.
    Values from rules_data/campaign and rules_data/warbands (LRB, not in the seeds).
    """
    fixed = fixed or {}
    lines: list[RatingLine] = []
    for w in warriors:
        if w.status != "active":
            continue
        base = fixed.get(w.id) if w.id in fixed else rules.rating_per_large_creature if w.large else rules.rating_per_warrior
        each = base + rules.rating_per_experience * w.experience
        points = w.group_size * each
        kind = "hired sword" if w.id in fixed else "large creature" if w.large else w.role.replace("_", " ")
        how = f"{base} + {w.experience} xp" if rules.rating_per_experience == 1 else f"{base} + {rules.rating_per_experience} x {w.experience} xp"
        if w.group_size > 1:
            lines.append(RatingLine(f"{w.name} ({w.group_size} x {kind})", points, f"{w.group_size} x ({how})"))
        else:
            lines.append(RatingLine(f"{w.name} ({kind})", points, how))
    rule = (
        f"{rules.rating_per_warrior} per warrior, {rules.rating_per_large_creature} per large creature, "
        f"+{rules.rating_per_experience} per experience point"
    )
    return Rating(total=sum(line.points for line in lines), lines=tuple(lines), rule=rule)
