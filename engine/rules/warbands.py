"""Rules entries for the warband data: every list, list fighter, hired sword, Dramatis Persona, skill, list
rule and list item.

The seeds hold no warband lists (seeds/INVENTORY.md section 1); the bot plays by the lists in
``rules_data/warbands/`` (figures of the published books, each file naming them and the
community data they were read from; every summary in our own words). ``/rule`` answers from the
same catalogue the campaign engine uses, so the two never disagree: the entries are made when
the library loads, from whatever the catalogue holds then.

Each is an entry of its own kind (``warband``, ``fighter``, ``hired-sword``, ``dramatis-persona``,
``skill``, ``warband-rule``, ``warband-item``), in a chapter of its own, citing its data file. A name
the rulebooks already give an entry (Fear, Sword, Sprint) is left to the rulebook's entry: the
catalogue adds what the rulebooks lack, it does not stand in front of them.

A list's fighter (the Skaven's Rat Ogre, the Undead's Ghoul) has an entry of his name, holding each
list that fields a fighter of that name, the lists most play with first (grade 1a before 1b): "rat
ogre" is the Rat Ogre of the rulebook's Skaven list, then Clan Pestilens's; the Clan Skryre Rat Ogre
is a hired sword of its own name. A fighter's name that another entry of the warband data already
has (the Possessed, a list; the Ogre, the Ogre Bodyguard's other name) titles his entry with its kind,
"Possessed (fighter)", so the name keeps finding what it found.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.campaign.lists.catalogue import (
    DATA_DIR,
    Catalogue,
    DramatisPersona,
    FighterType,
    HiredSword,
    Item,
    SpecialRule,
    WarbandList,
    build_catalogue,
    bundled_catalogue,
    read_bundled_files,
)
from engine.profile import CHARACTERISTICS

from .models import Entry, Source
from .text import key
from .warband_items import in_a_fight

WARBANDS_DIR = "rules_data/warbands"
NOT_IN_SEEDS = ("*Not from the rulebook text: from the warband data the bot plays by (`{file}`; figures of {source}, "
                "summaries in our own words).*")
CHAPTERS = {  # chapter id -> (title, entry kind)
    "warband-lists": ("Warband lists", "warband"),
    "fighters": ("Warband fighters", "fighter"),
    "hired-swords": ("Hired swords", "hired-sword"),
    "dramatis-personae": ("Dramatis Personae", "dramatis-persona"),
    "skills": ("Skills", "skill"),
    "warband-rules": ("Warband special rules", "warband-rule"),
    "warband-items": ("Warband items", "warband-item"),
}


KIND_NAMES = {"warband": "warband list", "fighter": "fighter", "hired-sword": "hired sword",
              "dramatis-persona": "Dramatis Persona", "skill": "skill", "warband-rule": "special rule", "warband-item": "item"}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold().replace("'", "")).strip("-") or "entry"


def _entry(chapter: str, slug: str | None, title: str, parts: Iterable[str | None], *, file: str, aliases: Iterable[str] = (),
           related: Sequence[str] = (), home: Iterable[str] = ()) -> Entry:
    """An entry of ``chapter``; with no ``slug``, the chapter's own opening (the overview of its kind).
    ``home``: the names a query may give beside the entry's own (see Entry.home)."""
    heading, kind = CHAPTERS[chapter]
    return Entry(id=f"lrb/{chapter}/{slug}" if slug else f"lrb/{chapter}", edition="lrb", title=title,
                 path=(heading, title) if slug else (heading,), kind=kind,
                 body="\n\n".join(p for p in parts if p), source=Source(f"{WARBANDS_DIR}/{file}", ()),
                 aliases=tuple(dict.fromkeys(a for a in aliases if a and key(a) != key(title))), related=tuple(related),
                 home=tuple(dict.fromkeys(home)))


def _home(lists: Iterable[WarbandList]) -> tuple[str, ...]:
    """Every name of these lists: a query naming one of them beside an entry of theirs asks about the entry."""
    return tuple(dict.fromkeys(n for w in lists for n in (w.name, *w.aliases)))


def _profile(profile: Any) -> str:
    return " ".join(f"{c} {getattr(profile, c)}" for c in CHARACTERISTICS)


def _names(ids: Iterable[str], catalogue: Catalogue) -> str:
    return ", ".join(sorted(catalogue.warbands[i].name if i in catalogue.warbands else i for i in ids))


def _who_may_hire(hs: HiredSword, catalogue: Catalogue) -> str:
    if hs.include is None:
        text = "any warband" + (f" except {_names(hs.exclude, catalogue)}" if hs.exclude else "")
    else:
        text = _names((i for i in hs.include if i not in hs.exclude), catalogue)
    return f"**Who may hire him:** {text}."


def _rules(rules: Iterable[SpecialRule]) -> str | None:
    lines = [f"• **{r.name}** — {r.summary}" for r in rules]
    return "**Special rules:**\n" + "\n".join(lines) if lines else None


# ---------------------------------------------------------------- one entry of each kind

def overview_entries(catalogue: Catalogue) -> list[Entry]:
    """The openings of the lists', hired swords' and characters' chapters: every one in a table."""
    lists = ["| Warband list | Grade | Published in | Gold | Warriors |", "|---|---|---|---|---|"]
    lists += [f"| {w.name} | {w.grade or 'house'} | {w.source} | {w.starting_gold} gc | {w.max_warriors} |"
              for w in sorted(catalogue.warbands.values(), key=lambda w: w.name)]
    grades = ("Grades: **1a** official (the rulebook and what the Living Rulebook era kept), **1b** widely used and "
              "playtested. A server chooses the grades it plays with `/admin warbands grade: play:`.")
    made = [_entry("warband-lists", None, "Warband lists",
                   [NOT_IN_SEEDS.format(file="warbands/lists/", source="the books each list names"), grades, "\n".join(lists),
                    "`/warband create` builds a warband from any of them; `/rule` and a list's name show it in full."],
                   file="lists/", aliases=("warband list", "list of warbands", "warband types"))]
    for chapter, title, pool, command, file in (
            ("hired-swords", "Hired swords", catalogue.hired_swords, "/hire sword", "hired_swords.json"),
            ("dramatis-personae", "Dramatis Personae", catalogue.dramatis_personae, "/hire character", "dramatis_personae.json")):
        rows = [f"| {title[:-1] if title.endswith('s') else title} | Grade | Fee | Upkeep | Rating |", "|---|---|---|---|---|"]
        rows += [f"| {h.name} | {h.grade or '-'} | {h.hire_fee} gc{' +' if h.hire_note else ''} | {h.upkeep} gc | "
                 f"{h.rating if h.rating is not None else '5 + xp'} |" for h in sorted(pool.values(), key=lambda h: h.name)]
        made.append(_entry(chapter, None, title,
                           [NOT_IN_SEEDS.format(file=f"warbands/{file}", source="the books each one names"), grades,
                            "A fee marked + asks something besides gold (see his entry).", "\n".join(rows),
                            f"`{command}` hires one (one of each per warband); his upkeep is paid after every battle "
                            "(`/rule upkeep`: what it covers, and what happens when it is not paid)."],
                           file=file, aliases=(title[:-1] if title.endswith("s") else "Dramatis Persona",
                                               "hirelings" if chapter == "hired-swords" else "special characters"),
                           related=("lrb/campaign/hired-swords-upkeep",)))
    return made


def warband_entry(w: WarbandList, catalogue: Catalogue) -> Entry:
    rows = ["| Fighter | Role | Cost | Number | Profile |", "|---|---|---|---|---|"]
    for f in w.fighters:
        number = f"{f.minimum}-{f.maximum}" if f.maximum is not None else f"{f.minimum}+"
        rows.append(f"| {f.name} | {f.role} | {f.cost} gc | {number} | {_profile(f.profile)} |")
    learns = [f"• **{f.name}**: " + ", ".join(s.name for s in f.skill_lists) for f in w.fighters if f.skill_lists]
    own = [f"• **{sl.name}**: " + ", ".join(s.name for s in sl.skills) for sl in w.skill_lists.values()]
    own_ids = {r.id for r in w.special_rules}
    fighter_rules = {r.id: r for f in w.fighters for r in f.special_rules if r.id not in own_ids}
    swords = sorted(s.name for s in catalogue.hired_swords.values() if s.may_be_hired_by(w.id))
    characters = sorted(s.name for s in catalogue.dramatis_personae.values() if s.may_be_hired_by(w.id))
    grade = f", grade {w.grade}" if w.grade else ""
    return _entry(
        "warband-lists", _slug(w.id), w.name,
        [NOT_IN_SEEDS.format(file=f"warbands/lists/{w.id}.json", source=w.source),
         w.summary,
         f"**{w.name}** ({w.source}{grade}): {w.starting_gold} gc to start, at most {w.max_warriors} warriors and "
         f"{w.max_heroes} heroes. `/warband create` builds a warband from this list; `/hire fighter` hires from it.",
         "\n".join(rows),
         _rules(w.special_rules),
         ("**Rules of its fighters:** " + ", ".join(r.name for r in fighter_rules.values())) if fighter_rules else None,
         ("**Skill lists its heroes learn from:**\n" + "\n".join(learns)) if learns else None,
         ("**Its own skills:**\n" + "\n".join(own)) if own else None,
         (f"**Hired swords it may hire** (`/hire sword`): {', '.join(swords)}.") if swords else
         "**Hired swords:** none may be hired by this warband.",
         (f"**Dramatis Personae it may hire** (`/hire character`): {', '.join(characters)}.") if characters else None],
        file=f"lists/{w.id}.json", aliases=(*w.aliases, f"{w.name} warband", f"{w.name} list"),
        related=tuple(dict.fromkeys(f"lrb/fighters/{_fighter_slug(f.name)}" for f in w.fighters)),
        home=(w.source,),  # "nemesis crown dwarf rangers": the list, named with the book it is published in
    )


HOUSE_LIST = "*This server's own warband list (`/admin warbands`), not a published one: no other server sees it.*"


def house_list_entry(w: WarbandList, catalogue: Catalogue) -> Entry:
    """A server's own list as ``/rule`` shows a bundled one, saying whose it is (``warband_entry``'s
    first paragraph names a bundled list's data file)."""
    entry = warband_entry(w, catalogue)
    _file_line, _, rest = entry.body.partition("\n\n")
    return replace(entry, body=f"{HOUSE_LIST}\n\n{rest}", source=Source(f"the server's list `{w.id}`", ()), related=())


def _fighter_slug(name: str) -> str:
    """The slug of the entry of the fighters of this name: one entry for 'Halfling Scouts' and 'Halfling Scout'."""
    return _slug(key(name))


GRADE_ORDER = {"1a": 0, "1b": 1}  # the lists most play with first; a house list (no grade) last


def _number(f: FighterType) -> str:
    return f"{f.minimum}-{f.maximum}" if f.maximum is not None else f"{f.minimum} or more"


def fighter_entry(homes: Sequence[tuple[FighterType, WarbandList]]) -> Entry:
    """The fighters of one name (``homes``: each with his list): the lists most play with first."""
    homes = sorted(homes, key=lambda h: (GRADE_ORDER.get(h[1].grade or "", 2), h[1].name))
    first, first_list = homes[0]
    parts: list[str | None] = [NOT_IN_SEEDS.format(file=f"warbands/lists/{first_list.id}.json",
                                                   source=", ".join(dict.fromkeys(w.source for _, w in homes)))]
    if len(homes) > 1:
        parts.append(f"In {len(homes)} lists: " + ", ".join(w.name for _, w in homes) + " (the lists most play with first).")
    for f, w in homes:
        grade = f", grade {w.grade}" if w.grade else ""
        traits = ", ".join(t for t, on in (("large", f.large), ("an animal", f.animal)) if on)
        parts += [
            f"**{f.name}** of the **{w.name}** list ({w.source}{grade}): {f.role}, {f.cost} gc each, {_number(f)} "
            f"in a warband, {f.experience} experience to start. {f.summary}",
            f"**Profile:** {_profile(f.profile)} ({f.race.name}{', ' + traits if traits else ''})"
            + (f". *{f.limit_note}*" if f.limit_note else ""),
            _rules(f.special_rules),
            ("**Skill lists:** " + ", ".join(s.name for s in f.skill_lists)) if f.skill_lists else None,
            (f"**Buys from:** {f.equipment_list.name}" if f.equipment_list else "**Buys no equipment.**")
            + ("; **starts with** " + ", ".join(i.name for i in f.starting_equipment) if f.starting_equipment else ""),
        ]
    parts.append("`/rule` and a list's name show the whole list; `/hire fighter` hires him into a warband of his list.")
    return _entry("fighters", _fighter_slug(first.name), first.name, parts, file=f"lists/{first_list.id}.json",
                  aliases=(f"{first.name} {first.role}",), related=tuple(f"lrb/warband-lists/{_slug(w.id)}" for _, w in homes),
                  home=_home(w for _, w in homes))


def hireling_entry(hs: HiredSword, catalogue: Catalogue) -> Entry:
    character = isinstance(hs, DramatisPersona)
    chapter, file = ("dramatis-personae", "dramatis_personae.json") if character else ("hired-swords", "hired_swords.json")
    command = "`/hire character`" if character else "`/hire sword`"
    rating = f"adds {hs.rating} to the warband rating" if hs.rating is not None else "counts 5 + his experience in the rating"
    grade = f", grade {hs.grade}" if hs.grade else ""
    parts: list[str | None] = [
        NOT_IN_SEEDS.format(file=f"warbands/{file}", source=hs.source),
        hs.summary,
        f"**{hs.name}** ({hs.kind}, {hs.source}{grade}) costs **{hs.hire_fee} gc** to hire (his hire fee) and "
        f"**{hs.upkeep} gc upkeep** after every battle; he {rating}. {command} hires him, one of each per warband.",
        f"**Not paid in gold:** {hs.hire_note}" if hs.hire_note else None,
        _who_may_hire(hs, catalogue),
        f"**Profile:** {_profile(hs.profile)} ({hs.race.name}{', large' if hs.large else ''})",
        "**Equipment:** " + (", ".join(i.name for i in hs.equipment) or "none"),
    ]
    for choice in hs.choices:
        options = "; ".join(f"{o.name} ({', '.join(i.name for i in o.items)})" + (" — his default" if n == choice.default else "")
                            for n, o in enumerate(choice.options))
        parts.append(f"**His employer chooses his {choice.name.lower()}** (`kit:` when hiring): {options}.")
    if isinstance(hs, DramatisPersona):
        gear = [f"• **{g.name}** — {g.summary}" for g in hs.gear]
        parts += [("**His own gear:**\n" + "\n".join(gear)) if gear else None,
                  ("**Spells:** " + "; ".join(hs.spells)) if hs.spells else None]
    parts += [("**Skills:** " + ", ".join(hs.skills)) if hs.skills else None,
              ("**Skill lists he learns from:** " + ", ".join(s.name for s in hs.skill_lists)) if hs.skill_lists else None,
              _rules(hs.special_rules)]
    parts += [f"**Comes with {c.name}:** {_profile(c.profile)}" + (f". {c.summary}" if c.summary else "") for c in hs.companions]
    parts += [f"*The bot does not apply:* {n}" for n in hs.notes]
    return _entry(chapter, _slug(hs.id), hs.name, parts, file=file, aliases=hs.aliases)


def skill_entry(name: str, homes: Sequence[tuple[Any, str]], catalogue: Catalogue, learners_of: dict[str, set[str]],
                owners: Sequence[WarbandList] = ()) -> Entry:
    """One skill (``homes``: each skill of that name, with the file of its list; ``learners_of``: skill
    list id -> the warbands whose heroes learn from it; ``owners``: the lists whose own skill it is)."""
    parts: list[str | None] = []
    for skill, _file in homes:
        list_name = _list_name(skill.list_id, catalogue)
        learners = sorted(learners_of.get(skill.list_id, ()))
        parts += [f"**{skill.name}** ({list_name}): {skill.summary}",
                  f"*Only:* {skill.restriction}" if skill.restriction else None,
                  (f"Heroes of these warbands may learn it at an advance: {', '.join(learners)}.") if learners else None]
    first, file = homes[0]
    return _entry("skills", _slug(name), first.name,
                  [NOT_IN_SEEDS.format(file=f"warbands/{file}", source="the Mordheim rulebook and the warband lists"), *parts,
                   "After a battle, a hero's new-skill advance offers the skills of his lists in a menu (`/postbattle`)."],
                  file=file, aliases=(f"{first.name} skill",), home=_home(owners))


def _list_name(list_id: str, catalogue: Catalogue) -> str:
    found = catalogue.skill_lists.get(list_id)
    if found is None:
        found = next((w.skill_lists[list_id] for w in catalogue.warbands.values() if list_id in w.skill_lists), None)
    return found.name if found is not None else list_id


def rule_entry(name: str, versions: Sequence[tuple[SpecialRule, str, str]], owners: Sequence[WarbandList] = ()) -> Entry:
    """One special rule by its name (``versions``: each rule of that name, where it is used, its file;
    ``owners``: the lists that have it)."""
    parts: list[str | None] = []
    seen: dict[str, list[str]] = {}
    for rule, where, _file in versions:
        seen.setdefault(rule.summary, []).append(where)
    for summary, wheres in seen.items():
        parts.append(f"**{versions[0][0].name}** ({', '.join(dict.fromkeys(wheres))}): {summary}")
    file = versions[0][2]
    return _entry("warband-rules", _slug(name), versions[0][0].name,
                  [NOT_IN_SEEDS.format(file=f"warbands/{file}", source="the warband lists"), *parts],
                  file=file, aliases=(f"{versions[0][0].name} rule",), home=_home(owners))


def item_entry(item: Item, catalogue: Catalogue, prices_of: dict[str, dict[str, set[int]]],
               carriers_of: dict[str, set[str]], fights: dict[str, str], owners: Sequence[WarbandList] = ()) -> Entry:
    """One item (``prices_of``: item id -> warband name -> the prices its equipment lists sell it at;
    ``carriers_of``: item id -> the hired swords and characters who carry it; ``fights``: how a
    fight plays each stats id, engine/rules/warband_items.py; ``owners``: the lists that sell it or
    whose item it is)."""
    sellers = [f"{w} ({'/'.join(f'{p} gc' for p in sorted(prices))})" for w, prices in prices_of.get(item.id, {}).items()]
    carriers = sorted(carriers_of.get(item.id, ()))
    rarity = "common" if item.common else f"rare {item.rarity}"
    who = f" Only {_names(item.restricted_to, catalogue)} may buy it." if item.restricted_to else ""
    barred = f" Not for {_names(item.not_for, catalogue)}." if item.not_for else ""
    file = f"lists/{item.warband}.json" if item.warband else "items.json"
    return _entry(
        "warband-items", _slug(item.id), item.name,
        [NOT_IN_SEEDS.format(file=f"warbands/{file}", source=item.source),
         item.summary,
         f"**{item.name}** ({item.kind.replace('-', ' ')}): costs {item.price_text()}, {rarity}.{who}{barred}"
         + (f" {item.price_note}." if item.price_note and item.price_note not in item.price_text() else ""),
         ("**On the lists of:** " + "; ".join(sorted(sellers))) if sellers else None,
         ("**Carried by:** " + ", ".join(carriers)) if carriers else None,
         f"**In a fight:** {in_a_fight(item.id, item.combat, fights)}"],
        file=file, aliases=item.aliases, home=_home(owners),
    )


# ---------------------------------------------------------------- all of them

def warband_entries(catalogue: Catalogue, taken: set[str], fights: dict[str, str] | None = None) -> list[Entry]:
    """The catalogue as rules entries; ``taken`` holds the keys of the names the rulebooks' entries
    already use (titles and aliases): an entry of such a name is left out, an alias dropped.
    ``fights``: how a fight plays each stats id (engine/rules/warband_items.py), for the items."""
    made: list[Entry] = overview_entries(catalogue)
    made += [warband_entry(w, catalogue) for w in sorted(catalogue.warbands.values(), key=lambda w: w.id)]
    made += [hireling_entry(s, catalogue) for s in (*catalogue.hired_swords.values(), *catalogue.dramatis_personae.values())]
    skills: dict[str, list[tuple[Any, str]]] = {}
    owners: dict[str, dict[str, WarbandList]] = {}  # a skill's, rule's or item's key -> the lists whose it is
    for sl in catalogue.skill_lists.values():
        for s in sl.skills:
            skills.setdefault(key(s.name), []).append((s, "skills.json"))
    for w in catalogue.warbands.values():
        for sl in w.skill_lists.values():
            for s in sl.skills:
                skills.setdefault(key(s.name), []).append((s, f"lists/{w.id}.json"))
                owners.setdefault(f"skill:{key(s.name)}", {})[w.id] = w
    learners_of: dict[str, set[str]] = {}
    prices_of: dict[str, dict[str, set[int]]] = {}
    for w in catalogue.warbands.values():
        for f in w.fighters:
            for sl in f.skill_lists:
                learners_of.setdefault(sl.id, set()).add(w.name)
        for equipment_list in w.equipment_lists.values():
            for listed in equipment_list.items:
                prices_of.setdefault(listed.item.id, {}).setdefault(w.name, set()).add(listed.price)
                owners.setdefault(f"item:{listed.item.id}", {})[w.id] = w
    made += [skill_entry(name, homes, catalogue, learners_of, _owning(owners, f"skill:{name}"))
             for name, homes in sorted(skills.items())]
    rules: dict[str, list[tuple[SpecialRule, str, str]]] = {}
    for rule in catalogue.special_rules.values():
        rules.setdefault(key(rule.name), []).append((rule, "many warbands", "special_rules.json"))
    for w in sorted(catalogue.warbands.values(), key=lambda w: w.id):
        for rule in {r.id: r for r in (*w.special_rules, *(r for f in w.fighters for r in f.special_rules))}.values():
            if rule.id not in catalogue.special_rules:
                rules.setdefault(key(rule.name), []).append((rule, w.name, f"lists/{w.id}.json"))
            owners.setdefault(f"rule:{key(rule.name)}", {})[w.id] = w
    for hs in (*catalogue.hired_swords.values(), *catalogue.dramatis_personae.values()):
        file = "dramatis_personae.json" if hs.is_character else "hired_swords.json"
        for rule in hs.special_rules:
            if rule.id not in catalogue.special_rules:
                rules.setdefault(key(rule.name), []).append((rule, hs.name, file))
    made += [rule_entry(name, versions, _owning(owners, f"rule:{name}")) for name, versions in sorted(rules.items())]
    carriers_of: dict[str, set[str]] = {}
    for hs in (*catalogue.hired_swords.values(), *catalogue.dramatis_personae.values()):
        for item in hs.equipment:
            carriers_of.setdefault(item.id, set()).add(hs.name)
    for i in catalogue.items.values():  # the list whose item it is, and the lists it is sold to
        for list_id in (*((i.warband,) if i.warband else ()), *i.restricted_to):
            if list_id in catalogue.warbands:
                owners.setdefault(f"item:{i.id}", {})[list_id] = catalogue.warbands[list_id]
    made += [item_entry(i, catalogue, prices_of, carriers_of, fights or {}, _owning(owners, f"item:{i.id}"))
             for i in sorted(catalogue.items.values(), key=lambda i: i.id)]
    fighters: dict[str, list[tuple[FighterType, WarbandList]]] = {}
    for w in catalogue.warbands.values():
        for f in w.fighters:
            fighters.setdefault(key(f.name), []).append((f, w))
    # last, so that a fighter's name another entry already has keeps finding that entry (see the module's docstring)
    made += [fighter_entry(homes) for _, homes in sorted(fighters.items())]
    out: list[Entry] = []
    titles = set(taken)
    # a fighter yields his name to the other entries' other names too ('Possessed': the list; 'Ogre': the Ogre Bodyguard)
    others = {key(a) for e in made if e.kind != "fighter" for a in e.aliases}
    for e in made:  # the rulebooks' names first; a later catalogue entry of a title taken names its kind
        if key(e.title) in taken:
            continue
        if key(e.title) in titles or (e.kind == "fighter" and key(e.title) in others):
            # the Witch Hunters' list, then the Witch Hunter (hired sword)
            title = f"{e.title} ({KIND_NAMES[e.kind]})"
            e = replace(e, title=title, path=(*e.path[:-1], title))
        titles.add(key(e.title))
        out.append(e)
    aliases: set[str] = set(taken)
    ids = {e.id for e in out}
    for n, e in enumerate(out):  # an alias that is a title, or another entry's alias, finds nothing
        kept = tuple(a for a in e.aliases if key(a) not in titles and key(a) not in aliases)
        aliases |= set(map(key, kept))
        if kept != e.aliases:
            out[n] = e = replace(e, aliases=kept)
        if e.kind == "warband" and not set(e.related) <= ids:  # its fighters, but one the rulebooks name (Wardog)
            out[n] = replace(e, related=tuple(r for r in e.related if r in ids))
    return out


def _owning(owners: dict[str, dict[str, WarbandList]], what: str) -> list[WarbandList]:
    return sorted(owners.get(what, {}).values(), key=lambda w: w.id)


def catalogue_of(directory: Path) -> Catalogue:
    """The catalogue of the warband data in ``directory`` (the bundled one, built once, for rules_data/warbands)."""
    if directory.resolve() == DATA_DIR.resolve():
        return bundled_catalogue()
    return build_catalogue(read_bundled_files(directory))
