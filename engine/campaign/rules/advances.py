"""Advances: the heroes' and henchmen's 2D6 tables, respecting racial maxima.

The tables are data (rules_data/campaign/lrb.json ``hero_advances``/``henchman_advances``).
What the rule says to do when a result cannot be taken is written once here:

- a hero's characteristic at its racial maximum takes the other characteristic of its pair;
  with both at maximum the player raises any characteristic not yet at maximum;
- a henchman group raises each characteristic by +1 at most (``max_gain``) and never past the
  maximum; a result it cannot take is rolled again (a choice takes the other characteristic
  first). "The lad's got talent" is rolled again when the warband has its most heroes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.copying import copied
from engine.dice.source import Dice
from engine.campaign.rules.campaign_warrior import CampaignWarrior
from engine.campaign.rules.tables import AdvanceResult, AdvanceTable
from engine.errors import MordheimError
from engine.campaign.rules.validation import name_key

MAX_REROLLS = 100


@dataclass(frozen=True)
class AdvanceRoll:
    warrior: CampaignWarrior  # with the characteristic applied when no choice is left
    result: AdvanceResult  # the table row finally used
    characteristic: str | None = None  # raised by +1 (already applied)
    choose_from: tuple[str, ...] = ()  # the player picks one (``choose_characteristic``)
    skill: bool = False  # the player picks a new skill (``learn_skill``)
    talent: bool = False  # a henchman becomes a hero (``promote``)
    notes: tuple[str, ...] = ()  # re-rolls and maxima, in words

    @property
    def waiting(self) -> bool:
        """The player still has to choose something."""
        return bool(self.choose_from) or self.skill or self.talent

    def describe(self) -> str:
        if self.characteristic:
            return f"+1 {self.characteristic}"
        if self.choose_from:
            return "+1 " + " or ".join(self.choose_from) + " (choose)"
        return self.result.name


def _raised(w: CampaignWarrior, characteristic: str) -> CampaignWarrior:
    w = w.with_change(characteristic, +1)
    return copied(w, increased=(*w.increased, characteristic)) if not w.advances_as_hero else w


def hero_advance(warrior: CampaignWarrior, table: AdvanceTable, dice: Dice) -> AdvanceRoll:
    """One roll on the heroes' table (2D6), and a D6 where the row says so."""
    faces = dice.dice(2, f"Advance for {warrior.name}")
    row = table.result(sum(faces))
    return _hero_row(warrior, row, dice)


def _hero_row(w: CampaignWarrior, row: AdvanceResult, dice: Dice) -> AdvanceRoll:
    if row.kind == "skill":
        return AdvanceRoll(w, row, skill=True)
    if row.kind == "roll":
        face = dice.d6(f"{row.name} for {w.name}")
        first = next(o.characteristic for o in row.options if o.low <= face <= o.high)
        pair = row.pair()
        if w.can_raise(first):
            return AdvanceRoll(_raised(w, first), row, characteristic=first)
        other = next((c for c in pair if c != first and w.can_raise(c)), None)
        if other:
            return AdvanceRoll(_raised(w, other), row, characteristic=other,
                               notes=(f"{first} is at its maximum ({w.value(first)}): +1 {other} instead",))
        return _any_other(w, row, f"{' and '.join(pair)} are at their maximum")
    pair = tuple(c for c in row.pair() if w.can_raise(c))
    if len(pair) > 1:
        return AdvanceRoll(w, row, choose_from=pair)
    if len(pair) == 1:
        blocked = [c for c in row.pair() if c not in pair]
        note = (f"{blocked[0]} is at its maximum: +1 {pair[0]}",) if blocked else ()
        return AdvanceRoll(_raised(w, pair[0]), row, characteristic=pair[0], notes=note)
    return _any_other(w, row, f"{' and '.join(row.pair())} are at their maximum")


def _any_other(w: CampaignWarrior, row: AdvanceResult, why: str) -> AdvanceRoll:
    choices = w.raisable()
    if not choices:
        return AdvanceRoll(w, row, skill=True, notes=(f"{why}, and so is every other characteristic: a new skill instead",))
    return AdvanceRoll(w, row, choose_from=choices, notes=(f"{why}: choose any characteristic not yet at its maximum",))


def henchman_advance(warrior: CampaignWarrior, table: AdvanceTable, dice: Dice, *, heroes_full: bool,
                     talent_allowed: bool = True) -> AdvanceRoll:
    """One result on the henchmen's table for the whole group, rolling again what cannot be taken."""
    notes: list[str] = []
    for _ in range(MAX_REROLLS):
        faces = dice.dice(2, f"Advance for {warrior.name}")
        row = table.result(sum(faces))
        if row.kind == "talent":
            if talent_allowed and not heroes_full:
                return AdvanceRoll(warrior, row, talent=True, notes=tuple(notes))
            notes.append(f"{row.name} rolled again: " + ("the warband has its most heroes" if heroes_full else
                                                          "the rest of a promoted group roll again"))
            continue
        options = tuple(c for c in row.pair() if warrior.can_raise(c, table.max_gain))
        if not options:
            notes.append(f"{row.name} rolled again: {warrior.name} cannot take it (racial maximum or +1 already taken)")
            continue
        if len(options) > 1:
            return AdvanceRoll(warrior, row, choose_from=options, notes=tuple(notes))
        if len(row.pair()) > 1:
            notes.append(f"only +1 {options[0]} can be taken")
        return AdvanceRoll(_raised(warrior, options[0]), row, characteristic=options[0], notes=tuple(notes))
    return AdvanceRoll(warrior, table.results[0], notes=(*notes, "no result on the table can be taken"))


def choose_characteristic(advance: AdvanceRoll, characteristic: str) -> AdvanceRoll:
    """The player's pick where the table (or a maximum) lets him choose."""
    wanted = next((c for c in advance.choose_from if c.casefold() == str(characteristic).strip().casefold()), None)
    if wanted is None:
        raise MordheimError(f"{characteristic} is not one of the choices here.",
                            hint="Choose one of: " + ", ".join(advance.choose_from) + ".")
    return copied(advance, warrior=_raised(advance.warrior, wanted), characteristic=wanted, choose_from=())


def learn_skill(advance: AdvanceRoll, skill: str, available: Iterable[str] | None) -> AdvanceRoll:
    """A new skill from the warrior's lists (``available``: every skill he may learn; None when
    his lists are not known, e.g. a warrior made before the warband lists: any name is taken)."""
    if not advance.skill:
        raise MordheimError(f"This advance of {advance.warrior.name} is not a new skill.")
    text = " ".join(str(skill).split())
    if not text or len(text) > 64:
        raise MordheimError("Name the skill (1-64 characters).")
    w = advance.warrior
    if any(name_key(s) == name_key(text) for s in w.skills):
        raise MordheimError(f"{w.name} already has {text}; a skill is learnt once.", hint="Choose another skill.")
    if available is not None:
        names = list(available)
        match = next((s for s in names if name_key(s) == name_key(text)), None)
        if match is None:
            raise MordheimError(f"{text} is not on {w.name}'s skill lists.",
                                hint=(f"{w.name} may learn: " + ", ".join(s for s in names if s not in w.skills)[:900] + "."
                                      if names else f"{w.name} has no skill left to learn on those lists."))
        text = match
    return copied(advance, warrior=copied(w, skills=(*w.skills, text)), skill=False)


@dataclass(frozen=True)
class Promotion:
    hero: CampaignWarrior
    group: CampaignWarrior | None  # the rest of the group; None when he was alone


def promote(group: CampaignWarrior, hero_name: str, skill_lists: tuple[str, ...]) -> Promotion:
    """The lad's got talent: one model becomes a hero with the ``skill_lists`` chosen for him
    (checked by the caller, who knows the warband's lists); the rest stay a group."""
    if group.is_hero:
        raise MordheimError(f"{group.name} is already a hero.")
    hero = copied(group, name=hero_name, role="hero", group_size=1, increased=(), skill_lists=skill_lists)
    rest = copied(group, group_size=group.group_size - 1) if group.group_size > 1 else None
    return Promotion(hero, rest)
