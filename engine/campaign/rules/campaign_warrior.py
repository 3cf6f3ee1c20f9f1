"""The warrior as the post-battle engine sees him: a plain frozen dataclass, no database."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.campaign.model import Profile, Warrior
from engine.campaign.rules.validation import CHARACTERISTICS

LOWEST = 1  # the rules give no floor; a characteristic below 1 would leave the warrior unplayable


@dataclass(frozen=True)
class CampaignWarrior:
    name: str
    role: str  # leader | hero | henchmen | hired_sword
    profile: Profile
    maximum: Profile  # racial maximum (engine.campaign.lists.catalogue' Race.maximum, or the tables' default)
    group_size: int = 1
    equipment: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    injuries: tuple[str, ...] = ()
    experience: int = 0
    status: str = "active"  # active | dead | retired
    missed_games: int = 0  # games still to sit out
    captured: bool = False  # held by another warband
    increased: tuple[str, ...] = ()  # henchmen: characteristics already raised (the +1 limit)
    skill_lists: tuple[str, ...] = ()  # ids of the lists he may learn from; () = not known

    @property
    def is_hero(self) -> bool:
        """Rolls on the heroes' charts (injuries, advances); hired swords do too (rulebook, Hired Swords)."""
        return self.role in ("leader", "hero", "hired_sword")

    def value(self, characteristic: str) -> int:
        return getattr(self.profile, characteristic)

    def with_change(self, characteristic: str, change: int) -> CampaignWarrior:
        """``characteristic`` moved by ``change``, never below 1 nor above 10 (the profile limits)."""
        value = min(10, max(LOWEST, self.value(characteristic) + change))
        return replace(self, profile=replace(self.profile, **{characteristic: value}))

    def can_raise(self, characteristic: str, max_gain: int | None = None) -> bool:
        """+1 stays within the racial maximum (and, for henchmen, the +1-over-start limit)."""
        if self.value(characteristic) >= getattr(self.maximum, characteristic):
            return False
        return max_gain is None or self.increased.count(characteristic) < max_gain

    def raisable(self, max_gain: int | None = None) -> tuple[str, ...]:
        return tuple(c for c in CHARACTERISTICS if self.can_raise(c, max_gain))

    @classmethod
    def from_warrior(cls, w: Warrior, maximum: Profile, *, missed_games: int = 0, captured: bool = False,
                     increased: tuple[str, ...] = (), skill_lists: tuple[str, ...] = ()) -> CampaignWarrior:
        return cls(name=w.name, role=w.role, profile=w.profile, maximum=maximum, group_size=w.group_size,
                   equipment=w.equipment, skills=w.skills, injuries=w.injuries, experience=w.experience,
                   status=w.status, missed_games=missed_games, captured=captured, increased=increased,
                   skill_lists=skill_lists)
