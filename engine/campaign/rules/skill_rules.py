"""Who may take which skill: one rule for the advance menus, a skill typed after a battle, and
``/warband check``.

A hero learns from his skill lists (the lists his type names, or the two a lad with talent
chose), and some skills say more about who may take them: the leader only, only a warrior who
casts spells, not some warbands or fighters, only after another skill, at most so many in a
warband. Those limits are data beside each skill (``takers`` in rules_data/warbands/skills.json
and the lists' own skill lists), each naming its source; this module only reads them.

Decisions (sources in the data):
- "Casts spells" is a special rule of skills.json ``spellcasters`` (wizards and praying
  priests: the rulebook's Sorcery is for heroes able to cast spells yet names Sisters of Sigmar
  and Warrior-Priests as barred, so prayers count), or Arcane Lore with a Tome of Magic, which
  teaches him Lesser Magic.
- "The Chieftain only", "the Captain only" and the like are read as the warband's leader.
- A skill name on no list is reported, except the Dramatis Personae's own entries ('Spells: ...')
  and, for a warrior who casts spells, as a note only (his spells are often written among his skills).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.campaign.lists.catalogue import Catalogue, Skill, SkillList, WarbandList, lookup_key
from engine.campaign.model import Role, Warrior

EDIT_HINT = "/warrior edit (skills: the full list, without it)"


@dataclass(frozen=True)
class Home:
    """A skill and the list it is on."""

    skill: Skill
    skill_list: SkillList


_indexes: dict[int, tuple[Catalogue, dict[str, list[Home]], dict[str, list[Skill]]]] = {}
_lock = threading.Lock()


def _index(catalogue: Catalogue) -> tuple[dict[str, list[Home]], dict[str, list[Skill]]]:
    """(name key -> every list holding a skill of that name, skill id -> skills with that id), over the
    common lists and every warband's own lists of the server's catalogue."""
    entry = _indexes.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        by_name: dict[str, list[Home]] = {}
        by_id: dict[str, list[Skill]] = {}
        lists = [*catalogue.skill_lists.values(), *(sl for w in catalogue.warbands.values() for sl in w.skill_lists.values())]
        for sl in lists:
            for skill in sl.skills:
                by_name.setdefault(lookup_key(skill.name), []).append(Home(skill, sl))
                by_id.setdefault(skill.id, []).append(skill)
        with _lock:
            if len(_indexes) > 64:
                _indexes.clear()
            _indexes[id(catalogue)] = entry = (catalogue, by_name, by_id)
    return entry[1], entry[2]


def homes(catalogue: Catalogue, wlist: WarbandList | None, name: str) -> list[Home]:
    """Every skill list, of any warband, with a skill of this name (his own warband's lists first)."""
    key = lookup_key(name)
    own = [Home(s, sl) for sl in (wlist.skill_lists.values() if wlist is not None else ()) for s in sl.skills
           if lookup_key(s.name) == key]
    seen = {(h.skill_list.id, h.skill.id) for h in own}
    return own + [h for h in _index(catalogue)[0].get(key, ()) if (h.skill_list.id, h.skill.id) not in seen]


def has_skill(catalogue: Catalogue, w: Warrior, skill_id: str) -> bool:
    names = {lookup_key(s.name) for s in _index(catalogue)[1].get(skill_id, ())}
    return any(lookup_key(s) in names for s in w.skills)


def casts_spells(catalogue: Catalogue, w: Warrior) -> bool:
    """Whether the warrior casts spells or recites prayers (skills.json ``spellcasters``)."""
    casters = catalogue.spellcasters
    if any(rule in casters.special_rules for rule in w.special_rules):
        return True
    carried = {lookup_key(e) for e in w.equipment}
    for skill_id, item_id in casters.with_skill_and_item:
        item = catalogue.items.get(item_id)
        names = {lookup_key(n) for n in ((item.id, item.name, *item.aliases) if item is not None else (item_id,))}
        if has_skill(catalogue, w, skill_id) and carried & names:
            return True
    return False


def fighter_ref(w: Warrior, wlist: WarbandList | None) -> str | None:
    """How a skill's ``takers`` names this warrior's type: 'warband/fighter', or a hired sword's id."""
    if w.fighter_type is None:
        return None
    if w.is_hired_sword:
        return w.fighter_type
    return f"{wlist.id}/{w.fighter_type}" if wlist is not None else None


def _type_name(catalogue: Catalogue, ref: str) -> str:
    if "/" in ref:
        warband_id, fighter_id = ref.split("/", 1)
        wlist = catalogue.warbands.get(warband_id)
        fighter = wlist.fighter_by_id(fighter_id) if wlist is not None else None
        return fighter.name if fighter is not None else fighter_id
    sword = catalogue.hireling(ref)
    return sword.name if sword is not None else ref


def refusal(catalogue: Catalogue, wlist: WarbandList | None, w: Warrior, skill: Skill,
            warband: Sequence[Warrior] = ()) -> str | None:
    """Why ``w`` may not take ``skill`` (a sentence without its source), or None when he may.
    ``warband``: its other warriors, for a skill only so many of them may have."""
    t = skill.takers
    if t is None:
        return None
    if t.leader and w.role != Role.LEADER:
        return f"only the warband's leader may take {skill.name}"
    if t.casts_spells and not casts_spells(catalogue, w):
        return f"only a warrior who casts spells or recites prayers may take {skill.name}"
    if wlist is not None and wlist.id in t.not_warbands:
        return f"{wlist.name} may not take {skill.name}"
    ref = fighter_ref(w, wlist)
    if ref is not None and ref in t.not_fighters:
        return f"a {_type_name(catalogue, ref)} may not take {skill.name}"
    if t.only_fighters and ref not in t.only_fighters:
        return f"only a {' or '.join(_type_name(catalogue, r) for r in t.only_fighters)} may take {skill.name}"
    if t.needs_skill and not has_skill(catalogue, w, t.needs_skill):
        needed = _index(catalogue)[1].get(t.needs_skill)
        return f"{skill.name} needs {needed[0].name if needed else t.needs_skill} first"
    if t.at_most is not None:
        holders = [o.name for o in warband if o.id != w.id and o.is_active and any(lookup_key(s) == lookup_key(skill.name) for s in o.skills)]
        if len(holders) >= t.at_most:
            return f"at most {t.at_most} of a warband may have {skill.name}, and {', '.join(holders)} already {'has' if len(holders) == 1 else 'have'} it"
    return None


def cited(reason: str, skill: Skill) -> str:
    """A refusal as a sentence naming its source."""
    source = f" ({skill.takers.source})" if skill.takers is not None else ""
    return reason[0].upper() + reason[1:] + source + "."


def lists_of(w: Warrior, catalogue: Catalogue, wlist: WarbandList | None) -> list[SkillList]:
    """The skill lists the warrior learns from, in his order (the common ones, then his warband's own)."""
    own = wlist.skill_lists if wlist is not None else {}
    found = (catalogue.skill_lists.get(list_id) or own.get(list_id) for list_id in w.skill_lists)
    return [sl for sl in found if sl is not None]


def may_learn(w: Warrior, catalogue: Catalogue, wlist: WarbandList | None,
              warband: Sequence[Warrior] = ()) -> list[tuple[SkillList, Skill]]:
    """Every skill of his lists he may take now: not had yet, and allowed him by its ``takers``."""
    had = {lookup_key(s) for s in w.skills}
    return [(sl, s) for sl in lists_of(w, catalogue, wlist) for s in sl.skills
            if lookup_key(s.name) not in had and refusal(catalogue, wlist, w, s, warband) is None]


def typed_refusal(w: Warrior, catalogue: Catalogue, wlist: WarbandList | None, typed: str,
                  warband: Sequence[Warrior] = ()) -> str | None:
    """Why a skill typed for ``w``'s advance is refused although it is on his lists (cited), or None."""
    key = lookup_key(typed)
    for sl in lists_of(w, catalogue, wlist):
        for skill in sl.skills:
            if lookup_key(skill.name) == key:
                why = refusal(catalogue, wlist, w, skill, warband)
                if why is None:
                    return None
                return f"{w.name}: {cited(why, skill)}"
    return None


def kind_of(skill_list: SkillList) -> str:
    """'an Academic skill', 'a Sisters of Sigmar skill'; 'on the Bretonnian virtues list' for a list not named '... skills'."""
    name = skill_list.name
    if name.casefold().endswith(" skills"):
        singular = name[:-1]
        return f"{'an' if singular[0].casefold() in 'aeiou' else 'a'} {singular}"
    return f"on the {name} list"


def _names_of(lists: Sequence[SkillList]) -> str:
    if not lists:
        return "no skill list"
    if all(sl.name.casefold().endswith(" skills") for sl in lists):
        short = [sl.name[:-7] for sl in lists]
        return (", ".join(short[:-1]) + " and " + short[-1] if len(short) > 1 else short[0]) + " skills"
    return ", ".join(sl.name for sl in lists)


@dataclass(frozen=True)
class SkillCheck:
    problems: tuple[str, ...]
    notes: tuple[str, ...]


def check_skills(catalogue: Catalogue, wlist: WarbandList | None, w: Warrior, *, type_name: str,
                 lists: Sequence[SkillList], starting: Iterable[str], warband: Sequence[Warrior] = (),
                 lists_judged: bool = True) -> SkillCheck:
    """Every skill ``w`` may not have, with what to do: off his ``lists`` (a skill of another list, or of
    none), or barred by its ``takers``. ``starting``: the skills his type is hired with, never judged.
    ``lists_judged`` False (a hired sword, whose own rules let him learn skills of no list): only a
    skill of his lists barred by its ``takers`` is reported."""
    start = {lookup_key(s) for s in starting}
    allowed_ids = {sl.id for sl in lists}
    problems: list[str] = []
    notes: list[str] = []
    fix = f"take it off with {EDIT_HINT}."
    for name in w.skills:
        key = lookup_key(name)
        if key in start or key.startswith(("spells:", "spell:", "prayers:")):
            continue
        found = homes(catalogue, wlist, name)
        his = [h for h in found if h.skill_list.id in allowed_ids]
        if his:
            reasons = [refusal(catalogue, wlist, w, h.skill, warband) for h in his]
            if all(reasons):
                problems.append(f"{w.name}: {cited(str(reasons[0]), his[0].skill)} Take it off with {EDIT_HINT}.")
            continue
        if not lists_judged:
            continue
        if found:
            problems.append(f"{w.name}: {name} is {kind_of(found[0].skill_list)}; a {type_name} learns from "
                            f"{_names_of(lists)}: {fix}")
        elif casts_spells(catalogue, w):
            notes.append(f"{w.name}: {name} is on no skill list the bot knows; a spell may stay there, "
                         f"else check its spelling with {EDIT_HINT}.")
        else:
            problems.append(f"{w.name}: {name} is on no skill list the bot knows: check its spelling, or {fix}")
    return SkillCheck(tuple(problems), tuple(notes))
