"""Hiring: fighters from the warband's list, hired swords and Dramatis Personae (their upkeep: actions/upkeep.py).

Each hire is one action in one unit of work: the limits and the treasury are checked and the
warrior and the cost written in one transaction, so two members
hiring for one warband at once cannot spend the same gold, and ``/warband undo`` takes the
warrior and the gold back together. A refusal changes nothing and gives every reason, each
citing its limit (roster_rules.py) or the gold missing.

Decisions (LRB = Living Rulebook 2005; the seeds hold no warband lists, INVENTORY.md section 1):
- Heroes are hired one at a time; henchmen in groups of 1 to the campaign tables'
  ``max_henchman_group_size`` (5) of one type.
- New henchmen may join a group of their type (``name`` of the group): they pay the type's
  cost and the group's kit each, and share the group's experience (a group has one total).
- Hired swords: one of each per warband; the fee is paid on hiring, the upkeep after every
  battle each one fights (LRB Hired Swords; actions/upkeep.py).
- A hired sword whose entry lets the employer choose his kit (``choices``: the Ogre's two hand
  weapons or a double-handed weapon) is hired with the option chosen; a choice with a default
  may be left out (he comes with the default), one without must be made.
- A Dramatis Persona is a hired sword for the campaign's purposes (``/hire character``): his fee
  now, his upkeep after every battle, one of each per warband, his own rating; he never gains
  experience (rule ``gains-no-experience`` on his card). What he asks that is not gold is said, to
  be recorded by hand: at hire his ``hire_note`` (a dose of Crimson Shade, wyrdstone, treasure),
  at every upkeep his ``upkeep_note`` (actions/upkeep.py); the gold part is paid by the bot.
- Lists, hired swords and characters of a grade the server turned off are not hired
  (server_tables.grade_refusal); warbands of such a list already made keep hiring from it.
- Every warrior starts with a dagger, free: each list prices the dagger "1st free / 2 gc"
  (the rulebook's lists, as hmVBfv's "1st free" and ybarthCH's "première gratuite" keep them; the
  2001 Warhammer World FAQ: "the first dagger is free"). So a fighter whose list sells daggers is
  hired with one, unless the player refuses it (``dagger=False``); a fighter whose list sells none
  (animals, Flagellants, the Possessed) gets none. New recruits of a group take the group's kit.
- A fighter hired with skills has them from the start (the Carnival's Brutes and Strongman,
  Empire in Flames); limits a list counts across types (list_limits.py) are refused like any other.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.campaign.actions import succession
from engine.campaign.actions.changes import change_warband, store_warrior
from engine.campaign.actions.common import AUTOCOMPLETE_LIMIT, changeable_warband
from engine.campaign.actions.server_tables import ServerTables, grade_refusal, tables_of
from engine.campaign.lists.catalogue import Catalogue, DramatisPersona, FighterType, HiredSword, Item, WarbandList, lookup_key
from engine.campaign.model import Actor, Role, Warband, Warrior, name_key
from engine.campaign.ports import UnitOfWork
from engine.campaign.rules import list_limits
from engine.campaign.rules import roster as roster_rules
from engine.campaign.rules import starting_spells
from engine.campaign.rules.validation import clean_name, whole_number
from engine.errors import MordheimError, NotFoundError

ROLE_OF = {"leader": Role.LEADER, "hero": Role.HERO, "henchman": Role.HENCHMEN}  # list role -> stored role


@dataclass(frozen=True, kw_only=True)
class Hired:
    warrior: Warrior
    count: int  # models hired now
    cost: int  # gold paid
    gold_left: int
    joined: bool  # added to an existing henchman group
    kit: tuple[str, ...] = ()  # the kit options the employer chose (a hired sword's ``choices``)
    by_hand: tuple[str, ...] = ()  # what the hire asks beyond gold, and models that come along: to record by hand
    kind: str = ""  # 'hired sword' or 'Dramatis Persona' for a hireling
    needs: tuple[str, ...] = ()  # what the list says he must still be given ('Every Mutant has at least one mutation.')
    notes: tuple[str, ...] = ()  # what else the hire did: his starting spells rolled, the acting leader stepping down
    shards: int = 0  # wyrdstone shards paid besides the gold (Nicodemus)
    shards_left: int = 0


def a(name: str, *, capital: bool = False) -> str:
    """'a Freelancer', 'an Ogre Bodyguard' ('An Ogre Bodyguard' with ``capital``)."""
    article = "an" if name[:1].upper() in "AEIOU" else "a"
    return f"{article.capitalize() if capital else article} {name}"


def called(hs: HiredSword, *, capital: bool = False) -> str:
    """'an Ogre Bodyguard' for a hired sword; a character by his own name ('Aenur, the Sword of Twilight')."""
    return hs.name if hs.is_character else a(hs.name, capital=capital)


def missing_gold(what: str, cost: int, warband: str, gold: int) -> str:
    return f"{what} costs {cost} gc; {warband} has {gold} gc in its treasury: {cost - gold} gc missing."


def missing_shards(what: str, cost: int, warband: str, shards: int) -> str:
    return (f"{what} takes {shards_in_words(cost)}; {warband} has {shards_in_words(shards)} in its treasury: "
            f"{cost - shards} missing.")


def shards_in_words(n: int) -> str:
    return f"{n} wyrdstone shard{'' if n == 1 else 's'}"


def new_warrior(*, name: str, role: str, type_name: str, group_size: int, profile: dict[str, int], equipment: list[str],
                experience: int, large: bool, fighter_type: str, race: str, skill_lists: list[str],
                special_rules: list[str]) -> dict[str, Any]:
    """A warrior snapshot for the service to store."""
    return {
        "name": name, "role": role, "type": type_name, "group_size": group_size, "profile": profile,
        "equipment": equipment, "skills": [], "injuries": [], "experience": experience, "status": "active",
        "large": large, "fighter_type": fighter_type, "race": race, "skill_lists": skill_lists,
        "special_rules": special_rules, "hand_edits": [],
    }


def recruit(ftype: FighterType, *, name: str, count: int, free_dagger: str | None) -> dict[str, Any]:
    """A new warrior of ``ftype`` (a henchman group of ``count``) as his list makes him: its profile,
    starting kit (with ``free_dagger``, as ``free_dagger_of`` finds it), skills and rules; no gold is paid
    here, and a wizard's first spell is the caller's to roll (``hire_fighter``)."""
    new = new_warrior(
        name=name, role=ROLE_OF[ftype.role], type_name=ftype.name, group_size=count, profile=ftype.profile.as_dict(),
        equipment=[i.name for i in ftype.starting_equipment] + ([free_dagger] if free_dagger else []),
        experience=ftype.experience, large=ftype.large, fighter_type=ftype.id, race=ftype.race.id,
        skill_lists=[s.id for s in ftype.skill_lists], special_rules=[r.id for r in ftype.special_rules],
    )
    new["skills"] = list(ftype.skills)
    return new


def find_fighter(wlist: WarbandList, query: str) -> FighterType:
    """``WarbandList.fighter``, also taking a plural made with a plain 's' ('Zombies', 'Ghouls')."""
    try:
        return wlist.fighter(query)
    except NotFoundError:
        stripped = query.strip()
        if stripped.lower().endswith("s") and len(stripped) > 2:
            try:
                return wlist.fighter(stripped[:-1])
            except NotFoundError:
                pass
        raise


def _list_or_refuse(tables: ServerTables, warband: Warband) -> WarbandList:
    wlist = tables.warband_list(warband)
    if wlist is None:
        missing = f" (its list `{warband.list_id}` is not on this server any more)" if warband.list_id else ""
        raise MordheimError(
            f"{warband.name} is a custom warband ({warband.warband_type}){missing}: it has no list to hire from.",
            hint="Add warriors by hand with `/warrior add`, or give it a list's type with `/warband edit warband_type:`.",
        )
    return wlist


def free_name(warriors: Sequence[Warrior], base: str) -> str:
    """``base``, else 'base 2', 'base 3'...: the first name none of ``warriors`` has (the dead included)."""
    taken = {name_key(w.name) for w in warriors}
    if name_key(base) not in taken:
        return base
    n = 2
    while name_key(f"{base} {n}") in taken:
        n += 1
    return f"{base} {n}"


# ---------------------------------------------------------------------- fighters of the list
def hire_fighter(uow: UnitOfWork, actor: Actor, warband: str, fighter: str, *, name: str | None = None,
                 count: int = 1, dagger: bool | None = None, rng: random.Random | None = None) -> Hired:
    """Hire ``count`` models of a fighter type of the warband's list (a hero, or a henchman group).

    ``name`` names the new warrior or group; the name of an existing henchman group of the
    same type adds the new models to it. The cost comes from the treasury in the same action.
    ``dagger``: the free dagger every warrior starts with (None: given where his list sells daggers;
    False: refused). A wizard or priest rolls his first spell with ``rng`` (rules/starting_spells.py).
    """
    count = whole_number(count, "The number to hire")
    if count < 1:
        raise MordheimError("Hire at least one.")
    name = clean_name(name, "The warrior name", forbid="/") if name is not None and name.strip() else None
    band = changeable_warband(uow, actor, warband)
    tables = tables_of(uow)
    wlist = _list_or_refuse(tables, band)
    ftype = find_fighter(wlist, fighter)
    warriors = uow.warriors.of_warband(band.id, band.name)
    joining = next((w for w in warriors if name and name_key(w.name) == name_key(name)), None)
    if joining is not None and not (joining.role == Role.HENCHMEN and joining.fighter_type == ftype.id
                                    and joining.is_active and ftype.role == "henchman"):
        raise MordheimError(
            f"{band.name} already has a warrior called '{joining.name}'.",
            hint="Choose another name; only a living henchman group of the same type can take new recruits.",
        )
    free_dagger = free_dagger_of(tables.catalogue, ftype, dagger, joining)
    per_model = ftype.cost
    if joining is not None:  # new recruits buy the group's kit, so all carry the same
        per_model += roster_rules.warrior_cost(tables.catalogue, wlist, dataclasses.replace(joining, group_size=1)).kit
    cost = per_model * count
    problems = roster_rules.hire_problems(tables.rules, wlist, band.name, warriors, ftype, count, joining=joining)
    if cost > band.gold_crowns:
        what = f"{count} {ftype.name}" if count > 1 else ftype.name
        problems.append(missing_gold(what + (" with the group's kit" if joining else ""), cost, band.name, band.gold_crowns))
    if problems:
        raise MordheimError(f"{band.name} cannot hire {ftype.name}:\n" + "\n".join(f"- {p}" for p in problems))
    # hire_problems refused every limit the roster check would (and those the roster broke
    # already), so store_warrior need not check the roster again
    spell_notes: list[str] = []  # a new wizard's first spell, rolled (or what to roll at the table)
    if joining is not None:
        stored = store_warrior(uow, band, joining, {"group_size": joining.group_size + count}, what="warrior.hire",
                               reason=f"{count} more {ftype.name}", warriors=warriors, check_roster=False, checked=True)
    else:
        new = recruit(ftype, name=name or free_name(warriors, ftype.name), count=count, free_dagger=free_dagger)
        rule_ids = [r.id for r in ftype.special_rules]
        spells = starting_spells.roll_starting_spells(rule_ids, rng)
        new["skills"] = [*new["skills"], *(s.skill for s in spells)]
        stored = store_warrior(uow, band, None, new, what="warrior.hire", reason=f"hired from {wlist.name}",
                               warriors=warriors, check_roster=False, checked=True)
        spell_notes = [s.describe() for s in spells]
        if not spells and set(rule_ids) & tables.catalogue.spellcasters.special_rules:
            spell_notes.append(f"He starts with one spell (000:1571): roll a D6 on the {wlist.name} list's spell chart and "
                               f"record it with /warrior edit skills, as 'Spells: NAME'.")
        if ftype.role == "leader":  # a new Vampire takes command back from the Necromancer (rules/succession.py)
            succession.step_down(uow, band, warriors, wlist, ftype.id, write=lambda w, changes: store_warrior(
                uow, band, w, changes, what=succession.SUCCESSION, warriors=warriors, check_roster=False,
                reason=f"gives up command to {stored.name}"))
    paid = change_warband(uow, band, {"gold_crowns": band.gold_crowns - cost}, what="treasury",
                          reason=f"hired {stored.name} ({count} x {ftype.name})" if count > 1 else f"hired {stored.name}")
    return Hired(warrior=stored, count=count, cost=cost, gold_left=paid.gold_crowns, joined=joining is not None,
                 needs=tuple(list_limits.must_carry_reminders(wlist, ftype)) if joining is None else (),
                 notes=(*spell_notes, *succession.notices(uow)))


def free_dagger_of(catalogue: Catalogue, ftype: FighterType, wanted: bool | None, joining: Warrior | None) -> str | None:
    """The name of the free dagger a new warrior of ``ftype`` is hired with, or None; MordheimError for a
    ``dagger`` option that cannot be kept."""
    if joining is not None:
        if wanted is not None:
            raise MordheimError(f"New recruits of {joining.name} carry the group's kit, dagger or not.",
                                hint="Leave `dagger` out when adding to a group.")
        return None
    sells = ftype.equipment_list is not None and ftype.equipment_list.listed(roster_rules.DAGGER) is not None
    has_one = any(i.id == roster_rules.DAGGER for i in ftype.starting_equipment)
    if wanted and not sells:
        raise MordheimError(f"A {ftype.name} carries no dagger: his list sells none.", hint="Leave `dagger` out.")
    if wanted is False or not sells or has_one:
        return None
    return catalogue.items[roster_rules.DAGGER].name


def fighter_choices(uow: UnitOfWork, warband: str, prefix: str) -> list[tuple[str, str]]:
    """(label, value) for the fighter types the warband can hire now and afford, at most 25."""
    band = uow.warbands.named(warband or "")
    if band is None:
        return []
    tables = tables_of(uow)
    wlist = tables.warband_list(band)
    if wlist is None:
        return []
    options = roster_rules.hire_options(tables.rules, wlist, uow.warriors.of_warband(band.id, band.name))
    key = name_key(prefix or "")
    out = []
    for o in options:
        f = o.fighter
        if o.room and f.cost <= band.gold_crowns and key in name_key(f.name):
            each = " each" if f.role == "henchman" else ""
            out.append((f"{f.name} — {f.role}, {f.cost} gc{each} ({o.room} more may join)"[:100], f.name))
    return out[:AUTOCOMPLETE_LIMIT]


# ---------------------------------------------------------------------- hired swords and Dramatis Personae
def hire_sword(uow: UnitOfWork, actor: Actor, warband: str, sword: str, *, name: str | None = None,
               kit: str | None = None) -> Hired:
    """Hire a hired sword: his fee from the treasury; one of each per warband (LRB Hired Swords).
    ``kit`` names the option of each choice his entry gives the employer ('Two axes')."""
    tables = tables_of(uow)
    return _hire(uow, actor, tables, warband, tables.catalogue.hired_sword(sword), name=name, kit=kit)


def hire_character(uow: UnitOfWork, actor: Actor, warband: str, character: str, *, name: str | None = None) -> Hired:
    """Hire a Dramatis Persona: like a hired sword, his fee now and his upkeep after every battle."""
    tables = tables_of(uow)
    return _hire(uow, actor, tables, warband, tables.catalogue.character(character), name=name, kit=None)


def _hire(uow: UnitOfWork, actor: Actor, tables: ServerTables, warband: str, hs: HiredSword, *, name: str | None,
          kit: str | None) -> Hired:
    name = clean_name(name, "The warrior name", forbid="/") if name is not None and name.strip() else None
    band = changeable_warband(uow, actor, warband)
    wlist = tables.warband_list(band)
    warriors = uow.warriors.of_warband(band.id, band.name)
    if hs.grade and not tables.plays(hs.grade):
        raise grade_refusal(f"{called(hs, capital=True)} ({hs.kind})", hs.grade)
    problems = sword_problems(band, wlist, hs, warriors)
    equipment, chosen, kit_problems = kit_of(hs, kit)
    problems += kit_problems
    if hs.hire_fee > band.gold_crowns:
        problems.append(missing_gold(called(hs, capital=True), hs.hire_fee, band.name, band.gold_crowns))
    if hs.hire_shards > band.wyrdstone_shards:
        problems.append(missing_shards(called(hs, capital=True), hs.hire_shards, band.name, band.wyrdstone_shards))
    if problems:
        raise MordheimError(f"{band.name} cannot hire {called(hs)}:\n" + "\n".join(f"- {p}" for p in problems))
    character = isinstance(hs, DramatisPersona)
    gear = [g.name for g in hs.gear] if isinstance(hs, DramatisPersona) else []
    spells = [f"Spells: {s}" for s in hs.spells] if isinstance(hs, DramatisPersona) else []
    rules = [r.id for r in hs.special_rules]
    if character and "gains-no-experience" not in rules:
        rules.append("gains-no-experience")  # a character never gains experience (README of rules_data/warbands)
    new = new_warrior(
        name=name or free_name(warriors, hs.name), role=Role.HIRED_SWORD, type_name=hs.name, group_size=1,
        profile=hs.profile.as_dict(), equipment=[i.name for i in equipment] + gear, experience=hs.experience,
        large=hs.large, fighter_type=hs.id, race=hs.race.id, skill_lists=[s.id for s in hs.skill_lists],
        special_rules=rules,
    )
    new["skills"] = [*hs.skills, *spells]
    stored = store_warrior(uow, band, None, new, what="warrior.hire", reason=f"{hs.kind} ({hs.source})", warriors=warriors,
                           checked=True)
    fee = {"gold_crowns": band.gold_crowns - hs.hire_fee}
    if hs.hire_shards:  # paid in wyrdstone besides the gold (Nicodemus: a shard when he joins)
        fee["wyrdstone_shards"] = band.wyrdstone_shards - hs.hire_shards
    paid = change_warband(uow, band, fee, what="treasury",
                          reason=f"hire fee of {stored.name}" + (f" ({shards_in_words(hs.hire_shards)})" if hs.hire_shards else ""))
    return Hired(warrior=stored, count=1, cost=hs.hire_fee, gold_left=paid.gold_crowns, joined=False, kit=chosen,
                 shards=hs.hire_shards, shards_left=paid.wyrdstone_shards,
                 by_hand=by_hand(hs), kind=hs.kind)


def by_hand(hs: HiredSword) -> tuple[str, ...]:
    """What hiring ``hs`` asks beyond his gold, and the models that come with him: said at hire, kept by hand."""
    out = []
    if hs.hire_note:
        out.append(f"Not gold: {hs.hire_note}")
    for c in hs.companions:
        out.append(f"With him: {c.name}" + (f" ({c.summary})" if c.summary else ""))
    return tuple(out)


def kit_of(hs: HiredSword, typed: str | None) -> tuple[list[Item], tuple[str, ...], list[str]]:
    """His equipment with the employer's choices made (``typed``: an option of each choice, parted
    by ';' or ','), the options chosen, and every problem (an unknown option, a choice that must
    be made, a kit given for a sword who has no choice)."""
    parts = [p.strip() for p in re.split(r"[;,]", typed or "") if p.strip()]
    if parts and not hs.choices:
        return list(hs.equipment), (), [f"{called(hs, capital=True)} comes with his own kit ({_items(hs.equipment)}); "
                                        "there is nothing to choose: leave `kit` empty."]
    equipment = list(hs.equipment)
    chosen: list[str] = []
    problems: list[str] = []
    left = list(parts)
    for choice in hs.choices:
        option = next((o for o in (choice.option(p) for p in left) if o is not None), None)
        if option is not None:
            left = [p for p in left if lookup_key(p) != lookup_key(option.name)]
        elif choice.default is None:
            problems.append(f"{called(hs, capital=True)}'s employer chooses his {choice.name.lower()}: give `kit` one of "
                            + ", ".join(o.name for o in choice.options) + ".")
            continue
        else:
            continue  # he keeps the default option already in his equipment
        if choice.default is not None:
            for item in choice.options[choice.default].items:
                if item in equipment:
                    equipment.remove(item)
        equipment += option.items
        chosen.append(option.name)
    for part in left:
        options = [o.name for c in hs.choices for o in c.options]
        problems.append(f"'{part[:40]}' is not a kit choice of {called(hs)}; choose from: {', '.join(options)}.")
    return equipment, tuple(chosen), problems


def _items(items: Sequence[Item]) -> str:
    return ", ".join(i.name for i in items) or "nothing"


def kit_choices(uow: UnitOfWork, sword: str, prefix: str) -> list[tuple[str, str]]:
    """(label, value) for the kit options of the hired sword typed, at most 25 ('Weapons: Two axes (his default)')."""
    try:
        hs = tables_of(uow).catalogue.hired_sword(sword or "")
    except NotFoundError:
        return []
    key = lookup_key(prefix or "")
    out = []
    for choice in hs.choices:
        for n, option in enumerate(choice.options):
            if key in lookup_key(option.name):
                default = " (his default)" if n == choice.default else ""
                items = ", ".join(i.name for i in option.items)
                out.append((f"{choice.name}: {option.name}{default} — {items}"[:100], option.name))
    return out[:AUTOCOMPLETE_LIMIT]


def sword_problems(band: Warband, wlist: WarbandList | None, hs: HiredSword, warriors: Sequence[Warrior]) -> list[str]:
    """Why the warband may not hire this hired sword or character (empty: it may)."""
    problems = []
    if wlist is not None and not hs.may_be_hired_by(wlist.id):
        problems.append(f"{called(hs, capital=True)} does not fight for {wlist.name} ({hs.source}).")
    if wlist is None and hs.include is not None:
        problems.append(f"{called(hs, capital=True)} fights only for certain warbands, and {band.name} is a custom warband.")
    same = next((w for w in roster_rules.active(warriors) if w.is_hired_sword and w.fighter_type == hs.id), None)
    if same is not None:
        problems.append(f"{band.name} already has {called(hs)} ({same.name}): a warband hires one of each {hs.kind}.")
    return problems


def sword_choices(uow: UnitOfWork, warband: str, prefix: str) -> list[tuple[str, str]]:
    """(label, value) for the hired swords this warband may hire now and afford, at most 25."""
    return _hireling_choices(uow, warband, prefix, characters=False)


def character_choices(uow: UnitOfWork, warband: str, prefix: str) -> list[tuple[str, str]]:
    """(label, value) for the Dramatis Personae this warband may hire now and afford, at most 25."""
    return _hireling_choices(uow, warband, prefix, characters=True)


def _hireling_choices(uow: UnitOfWork, warband: str, prefix: str, *, characters: bool) -> list[tuple[str, str]]:
    band = uow.warbands.named(warband or "")
    if band is None:
        return []
    tables = tables_of(uow)
    wlist = tables.warband_list(band)
    warriors = uow.warriors.of_warband(band.id, band.name)
    key = name_key(prefix or "")
    pool: Sequence[HiredSword] = tuple(tables.catalogue.dramatis_personae.values() if characters
                                       else tables.catalogue.hired_swords.values())
    out = []
    for hs in sorted(pool, key=lambda s: s.name):
        if (key in name_key(hs.name) and hs.hire_fee <= band.gold_crowns and tables.plays(hs.grade)
                and not sword_problems(band, wlist, hs, warriors)):
            grade = f"grade {hs.grade}, " if hs.grade else ""
            more = " + more" if hs.hire_note else ""
            out.append((f"{hs.name} — {grade}{hs.hire_fee} gc{more}, upkeep {hs.upkeep_in_words}"[:100], hs.name))
    return out[:AUTOCOMPLETE_LIMIT]
