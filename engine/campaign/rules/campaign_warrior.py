"""The warrior as the post-battle engine sees him: a plain frozen dataclass, no database.

Hired swords are not heroes after a battle (the Hired Swords chapter, LRB p. 105 and the 1999
rulebook; not in the seeds, INVENTORY.md section 1; transcribed at mordheimer.net/docs/campaigns/
hired-swords and redelf.narod.ru/mordheim/rules/mor_27_hs.html): out of action they roll a D6 as
a henchman does (1-2 lost), and they gain experience exactly as henchmen do (the henchmen's
thresholds, nothing for enemies taken out of action); only an advance they reach is rolled on
the heroes' table, with the skill lists of their entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.campaign.model import Profile, Warrior
from engine.copying import copied
from engine.campaign.rules.validation import CHARACTERISTICS

LOWEST = 1  # the rules give no floor; a characteristic below 1 would leave the warrior unplayable
NO_EXPERIENCE = frozenset({"animal", "gains-no-experience"})  # special rule ids (rules_data/warbands/special_rules.json)


def gains_experience(special_rules: Iterable[str]) -> bool:
    """False for a warrior with these special rule ids who never gains experience: an animal
    ('Wardogs never gain experience', seed 000:1499, said of every animal by the lists' ``animal``
    rule) or one whose rules say so (``gains-no-experience``: Zombies, a Dramatis Persona)."""
    return not NO_EXPERIENCE.intersection(special_rules)


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
    special_rules: tuple[str, ...] = ()  # ids of his type's special rules (warband lists, hired swords)

    @property
    def is_hero(self) -> bool:
        """Leader or hero: the serious injury chart, experience for enemies out of action, exploration."""
        return self.role in ("leader", "hero")

    @property
    def advances_as_hero(self) -> bool:
        """An advance he reaches is rolled on the heroes' table: heroes, and hired swords, who reach
        it at the henchmen's thresholds (see the module's docstring)."""
        return self.role in ("leader", "hero", "hired_sword")

    @property
    def gains_experience(self) -> bool:
        """False for animals and for fighters whose rules say so (Zombies, a clockwork Rat Ogre):
        see ``gains_experience``."""
        return gains_experience(self.special_rules)

    def value(self, characteristic: str) -> int:
        return getattr(self.profile, characteristic)

    def with_change(self, characteristic: str, change: int) -> CampaignWarrior:
        """``characteristic`` moved by ``change``, never below 1 nor above 10 (the profile limits)."""
        value = min(10, max(LOWEST, self.value(characteristic) + change))
        return copied(self, profile=copied(self.profile, **{characteristic: value}))

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
        """``w`` as the campaign engine sees him, made as ``Fighter.from_stored`` makes a fighter: every
        field given, without the frozen dataclass's ``__init__``, which sets its fifteen fields one at
        a time (a post-battle step makes one for each warrior it rolls for); the class has no
        ``__post_init__`` to skip. tests/engine/test_copied.py compares him with ``__init__``'s."""
        made = object.__new__(cls)
        made.__dict__.update(name=w.name, role=w.role, profile=w.profile, maximum=maximum, group_size=w.group_size,
                             equipment=w.equipment, skills=w.skills, injuries=w.injuries, experience=w.experience,
                             status=w.status, missed_games=missed_games, captured=captured, increased=increased,
                             skill_lists=skill_lists, special_rules=w.special_rules)
        return made
