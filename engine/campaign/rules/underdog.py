"""Underdog experience: what the lower-rated warband's warriors gain for the gap in warband rating.

Source: the Mordheim rulebook's and Living Rulebook's Experience chapter, 'Underdogs' (listed in
seed 000:84; the chapter is not in the seeds). The bands are data (rules_data/campaign/scenarios.json
``underdog``, each band's source and the transcriptions read named there): a gap of 0-50 gives
nothing, 51-75 +1, 76-100 +2, 101-150 +3, 151-300 +4, 301 and more +5.

Who gains it: each warrior of the lower-rated warband who gains experience from the battle (each
Hero, each henchman group, each hired sword), on top of the scenario's awards. Ratings are the
two warbands' as they were when the battle was recorded (``/battle record`` stores both when the
opponent is one of the server's warbands; ``Battle.rating`` and ``Battle.opponent_rating``).
"""

from __future__ import annotations

from engine.campaign.model import Battle
from engine.campaign.rules.scenarios import UnderdogBand, scenario_book
from engine.errors import MordheimError

MAX_RATING = 100_000  # far above any warband's (a full warband of heroes with every advance is under 2,000)


def _band(gap: int) -> UnderdogBand:
    return next(b for b in scenario_book().underdog_bands if b.low <= gap and (b.high is None or gap <= b.high))


def underdog_experience(own_rating: int, opponent_rating: int) -> int:
    """Extra experience for each warrior of a warband rated ``own_rating`` that fought one rated
    ``opponent_rating``: 0 unless the opponent's rating is higher by more than 50."""
    for rating in (own_rating, opponent_rating):
        if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= MAX_RATING:
            raise MordheimError(f"A warband rating must be a whole number from 0 to {MAX_RATING:,}, not {rating!r}.")
    gap = opponent_rating - own_rating
    return _band(gap).experience if gap > 0 else 0


def underdog_for_battle(battle: Battle) -> int | None:
    """The underdog experience of ``battle``'s warband, from the ratings stored with it; None when
    they are not known (the opponent was not one of the server's warbands, or it was recorded
    before ratings were kept)."""
    if battle.rating is None or battle.opponent_rating is None:
        return None
    return underdog_experience(battle.rating, battle.opponent_rating)
