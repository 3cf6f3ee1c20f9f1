"""Warband rating, shown with how it was reached."""

from __future__ import annotations

from collections.abc import Iterable

from engine.campaign.rules.campaign_rules import CampaignRules
from engine.campaign.lists.catalogue import Catalogue
from engine.campaign.model import Rating, RatingLine, Warrior
from engine.campaign.rules.roster import sword_of


def warband_rating(warriors: Iterable[Warrior], rules: CampaignRules, catalogue: Catalogue) -> Rating:
    """5 per warrior (20 per large creature) + 1 per experience point, per model.

    Henchmen in a group each have the group's experience, so a group counts size x (5 + xp).
    A hired sword whose entry in ``catalogue`` (the server's, ``server_tables.catalogue_in``)
    gives a rating figure counts that figure instead of 5, plus its experience. Dead and retired
    warriors do not count. Every rating the bot shows (the roster sheet, the standings) is this
    one function of the same three things, so they cannot differ. Values from rules_data/campaign
    and rules_data/warbands (LRB, not in the seeds).
    """
    lines: list[RatingLine] = []
    for w in warriors:
        if w.status != "active":
            continue
        sword = sword_of(catalogue, w)
        if sword is not None and sword.rating is not None:
            base, kind = sword.rating, sword.kind  # 'hired sword' or 'Dramatis Persona'
        elif w.large:
            base, kind = rules.rating_per_large_creature, "large creature"
        else:
            base, kind = rules.rating_per_warrior, w.role.replace("_", " ")
        each = base + rules.rating_per_experience * w.experience
        points = w.group_size * each
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
