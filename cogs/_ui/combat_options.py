"""Turning what a member typed into /fight, /shoot, /odds and /fall into engine fighters.

Three jobs, all about option text (none of them rolls a die):

- ``resolve_fighters``: the fighters one option names, joined by ``+`` (up to three). Each is a
  profile ("4 3 3 3 3 1 3 1 7", "WS4 S4 T3"), a template (Human, Wardog, Troll...) or a stored
  warrior ("Warband/Warrior", or the warrior's name alone); a profile or template may be named
  ("Otto: 4 4 3 3 3 1 4 1 8") and any fighter may carry his own kit and traits in brackets
  ("Otto: WS4 [sword, shield, frenzy]"). ``apply_options`` adds what the side's options say.
- ``combat_rules``: the edition and house-rule toggles a fight uses (``engine.combat.server_ruleset``),
  with the words the footer shows.
- autocomplete: fighters (the last of a ``+`` list: templates, this server's warriors by warrior or
  warband name, a profile read back), comma-separated item lists (the last item completed, the
  earlier ones kept, every offered name safe in a list) and traits.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from functools import cache

import discord
from discord import app_commands

from cogs._ui.warrior_choices import warrior_path_choices
from engine.campaign.lists.catalogue import bundled_catalogue
from engine.campaign.model import Role
from engine.combat import Fighter, find_item, make_fighter, parse_profile, search_items, server_ruleset
from engine.combat.fighter import trait_id
from engine.combat.items import Armour, Weapon, find_kit, unused_notes
from engine.combat.melee import MAX_SIDE
from engine.combat.profile import Profile, find_template, template_names
from engine.combat.special_rules import LIST_RULES, RACE_TRAITS, TARGETED_LIST_RULES, TRAITS
from engine.combat.throwing import is_thrown
from engine.editions import get_edition
from engine.errors import LimitExceeded, MordheimError, NotFoundError
from engine.settings import ServerSettings

CHOICE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100
LIST_LIMIT = 12  # items in one option: more than any warrior carries, few enough to stay readable
STATE_WORDS = ("standing", "knocked down", "stunned")

# a token that looks like one characteristic value (WS4, ld=8) or a bare number: a profile attempt
_PROFILE_TOKEN = re.compile(r"^(?:m|ws|bs|s|t|w|i|a|ld)?[=:]?-?\d+$", re.I)
_UNSAFE_NAME = re.compile(r"[`*_~|\\<>@#\[\]]")
_NAMED = re.compile(r"^\s*([^:/\[\]]{1,40}?)\s*:\s*(\S.*)$")
_INLINE_KIT = re.compile(r"^(.*?)\s*\[([^\]]*)\]\s*$")
_CHARACTERISTICS = {"m", "ws", "bs", "s", "t", "w", "i", "a", "ld"}


@dataclass
class Combatant:
    """One fighter as typed: everything ``make_fighter`` needs, and where the profile came from."""

    name: str
    profile: Profile
    source: str  # "profile" | "template" | "warrior"
    weapons: list[str] = field(default_factory=list)
    armour: list[str] = field(default_factory=list)
    equipment: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)  # trait ids
    flags: dict[str, object] = field(default_factory=dict)  # make_fighter keywords: state, wounds
    notes: list[str] = field(default_factory=list)  # what was left out of a stored warrior, and why
    inline: set[str] = field(default_factory=set)  # kinds given in brackets: the side's options do not replace them
    group: bool = False  # a stored henchman group: one of its models fights, under the group's (plural) name

    def fighter(self) -> Fighter:
        return make_fighter(self.name, self.profile, weapons=self.weapons, armour=self.armour, equipment=self.equipment,
                            traits=self.traits, notes=self.notes, **self.flags)


def split_list(text: str | None) -> list[str]:
    """``"sword, dagger"`` -> ``["sword", "dagger"]`` (commas or semicolons)."""
    if not text:
        return []
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if len(parts) > LIST_LIMIT:
        raise MordheimError(f"That is {len(parts)} items in one option; {LIST_LIMIT} at most.", hint="List only what the fighter uses.")
    return parts


def parse_traits(text: str | None) -> list[str]:
    """Trait ids for the names typed ("hatred, causes fear"); NotFoundError names the closest."""
    return [trait_id(raw) for raw in split_list(text)]


def _clean_name(name: str) -> str:
    """A name safe in embeds and code blocks: no markdown, no mentions."""
    return _UNSAFE_NAME.sub("", name).strip()[:40] or "Warrior"


def _looks_like_profile(text: str) -> bool:
    tokens = text.replace(",", " ").split()
    return bool(tokens) and any(_PROFILE_TOKEN.match(t) for t in tokens)


def _strip_prefixes(item: str) -> str:
    key = item.lower().strip()
    for prefix in ("gromril ", "ithilmar ", "brace of "):
        if key.startswith(prefix) and key != prefix.strip():
            key = key[len(prefix):]
    return key


def _kind_of(item: str) -> str | None:
    """'weapon' | 'armour' | 'equipment' for an item name; None when the rules library lacks it."""
    try:
        found = find_item(_strip_prefixes(item))
    except NotFoundError:
        return None
    if isinstance(found, Weapon):
        return "weapon"
    return "armour" if isinstance(found, Armour) else "equipment"


def _sort_kit(items, into: Combatant, *, strict: bool) -> list[str]:
    """Put each item in the combatant's weapons, armour, equipment, traits or state; returns what is
    none of those (``strict``: raise NotFoundError for it instead)."""
    unknown = []
    for item in _unpacked(items, into):
        key = " ".join(item.lower().split())
        if key in STATE_WORDS:
            into.flags["state"] = key
            into.inline.add("state")
            continue
        kind = _kind_of(item)
        if kind is not None:
            {"weapon": into.weapons, "armour": into.armour, "equipment": into.equipment}[kind].append(item)
            into.inline.add(kind)
            continue
        try:
            into.traits.append(trait_id(item))
            into.inline.add("traits")
        except NotFoundError:
            if strict:
                find_item(_strip_prefixes(item))  # the item lookup's message, with its suggestions
            unknown.append(item)
    return unknown


def _unpacked(items, into: Combatant) -> list[str]:
    """The items, a kit sold as a bundle (a Pit Fighter's "Orc style") given as what it holds."""
    out = []
    for item in items:
        kit = find_kit(item)
        if kit is None:
            out.append(item)
            continue
        out += kit.items
        into.notes.append(f"{kit.name}: {', '.join(kit.items)}" + (f" ({kit.choice})" if kit.choice else ""))
    return out


def split_fighters(text: str) -> list[str]:
    parts = [p.strip() for p in text.split("+")]
    if any(not p for p in parts):
        raise MordheimError("A '+' with nothing on one side of it.", hint='Join fighters like "Otto: WS4 + Reavers/Hans + wardog".')
    if len(parts) > MAX_SIDE:
        raise LimitExceeded(f"That is {len(parts)} fighters on one side; {MAX_SIDE} at most (up to 3 v 1 and 2 v 2).",
                            hint="Split a bigger melee into the fights its models are in.")
    return parts


async def resolve_fighters(interaction: discord.Interaction, text: str, role: str) -> list[Combatant]:
    """The fighters ``text`` names, joined by ``+``. ``role`` ("Attacker", "Defender", "Shooter",
    "Target", "Warrior") names the unnamed ones given by a profile."""
    parts = split_fighters(text.strip())
    out = []
    for n, part in enumerate(parts, start=1):
        out.append(await resolve_fighter(interaction, part, role if len(parts) == 1 else f"{role} {n}"))
    return out


async def resolve_fighter(interaction: discord.Interaction, text: str, role: str) -> Combatant:
    raw = text.strip()
    kit: list[str] = []
    inline = _INLINE_KIT.match(raw)
    if inline:
        raw, kit = inline.group(1).strip(), split_list(inline.group(2))
    name = None
    named = _NAMED.match(raw)
    if named and named.group(1).strip().lower() not in _CHARACTERISTICS:
        name, raw = _clean_name(named.group(1)), named.group(2).strip()
    combatant = await _body(interaction, raw, name or role, named=name is not None)
    _sort_kit(kit, combatant, strict=True)
    return combatant


async def _body(interaction: discord.Interaction, raw: str, name: str, *, named: bool) -> Combatant:
    """A profile or template first, else a stored warrior of this server."""
    if "/" not in raw:
        template = find_template(raw)
        if template is not None:
            notes = [f"not modelled: {', '.join(template.not_modelled)}"] if template.not_modelled else []
            return Combatant(name if named else template.name, template.profile, "template",
                             traits=sorted(template.traits), notes=notes)
        try:
            profile = parse_profile(raw)
        except MordheimError as profile_error:
            if interaction.guild_id is None or named:
                raise
            return await _stored(interaction, raw, profile_error)
        return Combatant(name, profile, "profile")
    if named:
        raise MordheimError("A stored warrior keeps his own name.", hint="Write `Warband/Warrior` without a name in front.")
    if interaction.guild_id is None:
        raise MordheimError(
            f"'{raw[:60]}' looks like a stored warrior, but warriors belong to a server's campaign and this is a direct message.",
            hint='Give a profile ("4 3 3 3 3 1 3 1 7" or "WS4 S4 T3") or a template: ' + ", ".join(template_names()) + ".",
        )
    return await _stored(interaction, raw, None)


async def _stored(interaction: discord.Interaction, raw: str, profile_error: MordheimError | None) -> Combatant:
    try:
        warrior = await asyncio.to_thread(interaction.client.campaigns.find_warrior, interaction.guild_id, raw)
    except NotFoundError as error:
        if profile_error is None:
            raise
        if _looks_like_profile(raw):  # "WS11", "4 3 3": a profile with a mistake, not a warrior's name
            raise profile_error from None
        suggestions = list(dict.fromkeys([*getattr(profile_error, "suggestions", []), *error.suggestions]))
        raise NotFoundError(
            f"'{raw[:60]}' is not a profile, a template ({', '.join(template_names())}) or a warrior in this server.",
            suggestions=suggestions[:5],
            hint=None if suggestions else 'Write a profile as "4 3 3 3 3 1 3 1 7" (M WS BS S T W I A Ld) or "WS4 S4 T3".',
        ) from None
    if warrior.status != "active":
        raise MordheimError(f"{warrior.warband}/{warrior.name} is {warrior.status} and cannot fight.",
                            hint="Pick another warrior, or change his status with /warrior edit.")
    combatant = Combatant(_clean_name(warrior.name), Profile(**warrior.profile.as_dict()), "warrior",
                          group=warrior.role == Role.HENCHMEN)
    unknown = _sort_kit(warrior.equipment, combatant, strict=False)
    combatant.inline.clear()  # a stored kit is replaced by what the options say
    combatant.notes += unused_notes(unknown)
    not_known = []
    for skill in warrior.skills:
        found, whole = _skill_trait(skill)
        if found is None:
            not_known.append(skill)
            continue
        combatant.traits.append(found)
        if not whole:  # "Hates Skaven": the bot does not know who is who, so he hates everyone here
            combatant.notes.append(f"{skill}: taken as {TRAITS[found].names[0]}, against every enemy in this fight")
    if not_known:
        combatant.notes.append("skills not modelled: " + ", ".join(not_known[:6]))
    _list_rules(combatant, warrior.special_rules)
    if warrior.race in RACE_TRAITS:
        combatant.traits.append(RACE_TRAITS[warrior.race])  # Undead, Possessed, Daemon: for holy weapons, blessed water
    if warrior.large:
        combatant.traits.append("large-target")
    combatant.traits = list(dict.fromkeys(combatant.traits))
    return combatant


# rules of a warrior's type that have nothing to do with a fight: not worth a "not modelled" note
_NOT_FIGHTING = {"leader", "wizard", "gains-no-experience", "may-not-run", "prayers-of-sigmar", "prayers-of-taal", "necromancy",
                 "traders", "immune-to-poison"}


_IN_PROFILE = re.compile(r"\bin (?:his|her|their|its) profiles?\b", re.I)


@cache
def _rules_in_profile() -> frozenset[str]:
    """The bundled lists' rules whose whole effect their summary says is in the warrior's profile
    already (Reikland's Expert bowmen: "Reikland marksmen start with BS 4 (already in their
    profile)."): said so, not "not modelled". Only the first sentence counts: a rule whose
    summary says so of one part of it ("... The extra attack is already in his profile") has
    other effects that are not."""
    c = bundled_catalogue()
    rules = [*c.special_rules.values()]
    for w in c.warbands.values():
        rules += [*w.special_rules, *(r for f in w.fighters for r in f.special_rules)]
    for hs in (*c.hired_swords.values(), *c.dramatis_personae.values()):
        rules += hs.special_rules
    return frozenset(r.id for r in rules if _IN_PROFILE.search(r.summary.split(". ")[0]))


def _list_rules(c: Combatant, rule_ids) -> None:
    """The special rules of the warrior's type in his warband list (issue 8's data) that the
    engine plays, as traits; those already in his profile said so; the others that bear on a
    fight are named as not modelled."""
    left, in_profile = [], []
    for rule_id in rule_ids:
        if rule_id in _rules_in_profile():
            in_profile.append(rule_id.replace("-", " "))
        elif rule_id in LIST_RULES:
            c.traits.append(LIST_RULES[rule_id])
        elif rule_id in TARGETED_LIST_RULES:
            trait = TARGETED_LIST_RULES[rule_id]
            c.traits.append(trait)
            c.notes.append(f"{rule_id.replace('-', ' ')}: taken as {TRAITS[trait].names[0]} in every case here "
                           "(the bot does not know who is who, or who stands near)")
        elif rule_id not in _NOT_FIGHTING and not rule_id.endswith("-magic"):
            left.append(rule_id.replace("-", " "))
    if in_profile:
        c.notes.append(f"{', '.join(in_profile)}: already in his profile, as shown")
    if left:
        c.notes.append("rules of his type not modelled in a fight: " + ", ".join(left[:6]))


def _skill_trait(skill: str) -> tuple[str | None, bool]:
    """(the trait a stored skill or rule names, whether the whole text named it): the whole text
    ("Mighty Blow"), else its first words ("Hates Skaven" -> hates, "Frenzy (Mad Cap)" -> frenzy);
    (None, False) when the engine knows no such rule."""
    words = re.sub(r"[()\[\],.]", " ", skill).split()
    for n in range(len(words), 0, -1):
        try:
            return trait_id(" ".join(words[:n])), n == len(words)
        except NotFoundError:
            continue
    return None, False


def apply_options(c: Combatant, *, weapons: str | None = None, armour: str | None = None, equipment: str | None = None,
                  traits: str | None = None, state: str | None = None, wounds: int | None = None) -> Combatant:
    """What the side's options say: items typed replace a stored warrior's of the same kind (a kit
    given in brackets is the fighter's own and stays); traits are added; state and wounds set."""
    for kind, typed in (("weapon", weapons), ("armour", armour), ("equipment", equipment)):
        if typed is not None and kind not in c.inline:
            setattr(c, {"weapon": "weapons", "armour": "armour", "equipment": "equipment"}[kind], split_list(typed))
    if weapons is not None:  # a net or blessed water is thrown like a weapon, but it is equipment (000:1405, 1425)
        thrown = [w for w in c.weapons if _kind_of(w) == "equipment"]
        c.weapons = [w for w in c.weapons if w not in thrown]
        c.equipment += [t for t in thrown if t not in c.equipment]
    c.traits = list(dict.fromkeys(c.traits + parse_traits(traits)))
    if state and "state" not in c.inline:
        c.flags["state"] = state
    if wounds is not None:
        c.flags["wounds"] = wounds
    return c


def _weapon(name: str) -> Weapon | None:
    """The weapon a listed name is; None for armour or equipment typed among the weapons (the
    engine takes those as what they are, and its answer says so)."""
    if _kind_of(name) not in (None, "weapon"):
        return None
    return find_item(_strip_prefixes(name), ("weapon",))


def missile_weapon(c: Combatant) -> str:
    """What a shooter fires: the first missile weapon listed, else a net or blessed water he carries."""
    for name in c.weapons:
        weapon = _weapon(name)
        if weapon is not None and weapon.kind == "missile":
            return name
    for name in c.equipment:
        if is_thrown(find_item(name, ("equipment",))):
            return name
    listed = f" ({', '.join(c.weapons)})" if c.weapons else ""
    raise MordheimError(f"{c.name} has no missile weapon to shoot with{listed}.",
                        hint="Give one in attacker_weapons, e.g. bow, crossbow, pistol, sling (or a net, blessed water).")


def for_close_combat(c: Combatant) -> None:
    """A stored warrior whose only weapons are missile weapons fights bare-handed rather than be
    refused (the engine refuses a typed bow, which is usually meant for /shoot)."""
    if c.source != "warrior" or "weapon" in c.inline:
        return
    found = [w for w in (_weapon(n) for n in c.weapons) if w is not None]
    if found and not any(w.kind == "close" or w.in_close_combat is not None or w.has("hand-to-hand") or w.has("shoot-in-close-combat")
                         for w in found):
        c.notes.append("missile weapons not used in close combat: " + ", ".join(c.weapons))
        c.weapons = []


def distinct_names(attackers: list[Combatant], defenders: list[Combatant]) -> None:
    """Fighters with the same name would be indistinguishable in the log: one on each side become
    "X (attacker)" and "X (defender)", other repeats are numbered "X 1", "X 2"."""
    everyone = attackers + defenders
    by_name: dict[str, list[Combatant]] = {}
    for c in everyone:
        by_name.setdefault(c.name.lower(), []).append(c)
    for same in by_name.values():
        if len(same) < 2:
            continue
        on_attacking_side = [any(c is a for a in attackers) for c in same]
        if len(same) == 2 and on_attacking_side[0] != on_attacking_side[1]:
            for c, attacking in zip(same, on_attacking_side):
                c.name = f"{c.name} ({'attacker' if attacking else 'defender'})"
            continue
        for n, c in enumerate(same, start=1):
            c.name = f"{c.name} {n}"


# ----- edition and house rules -----------------------------------------------------------------


@dataclass(frozen=True)
class CombatRules:
    edition: str  # lrb | core | core2
    toggles: dict[str, bool]
    footer: str


def combat_rules(settings: ServerSettings, override: str | None) -> CombatRules:
    """The edition and toggles for a fight (``server_ruleset``), and a footer naming them and any changed toggle."""
    ruling = server_ruleset(settings.edition_id, settings.house_rules, override)
    edition = get_edition(ruling.ruleset.edition)
    footer = f"Edition: {edition.id}, {edition.name}"  # its name has brackets of its own: "(cited as 000)"
    footer += " · House rules: " + (", ".join(ruling.changed_toggles) or "none")
    if ruling.chosen_for_command:
        footer += " · edition chosen for this command"
    for note in ruling.notes:
        footer += f" · {note}"
    return CombatRules(edition.id, dict(ruling.ruleset.toggles), footer)


# ----- autocomplete --------------------------------------------------------------------------


def _choice(name: str, value: str) -> app_commands.Choice[str] | None:
    if len(value) > CHOICE_TEXT_LIMIT:
        return None
    return app_commands.Choice(name=name[:CHOICE_TEXT_LIMIT], value=value)


async def fighter_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The last fighter of a ``+`` list completed: what was typed read back as a profile, else
    matching templates, then this server's warriors (by warrior or warband name)."""
    text = current or ""
    head, plus, last = text.rpartition("+")
    prefix = head.rstrip() + " + " if plus else ""
    last = last.strip()
    named = _NAMED.match(last)
    if named and named.group(1).strip().lower() not in _CHARACTERISTICS:
        prefix += named.group(1).strip() + ": "
        last = named.group(2).strip()
    out: list[app_commands.Choice[str]] = []
    if last and _looks_like_profile(last):
        try:
            c = _choice(f"{parse_profile(last)}", prefix + last)
        except MordheimError as error:
            c = _choice(f"⚠ {error.message}", prefix + last)
        return [c] if c else []
    key = last.lower()
    for name in template_names():
        if name.lower().startswith(key) or (key and key in name.lower()):
            t = find_template(name)
            c = _choice(f"{prefix}{name} ({t.profile})", prefix + name)
            if c:
                out.append(c)
    if interaction.guild_id is not None and not named:
        try:
            for found in await warrior_path_choices(interaction, last):
                c = _choice(prefix + found.value, prefix + found.value)
                if c:
                    out.append(c)
        except Exception:  # noqa: BLE001 - autocomplete must answer even if the campaign store is busy
            pass
    return out[:CHOICE_LIMIT]


def _list_head(current: str | None) -> tuple[list[str], str, str]:
    """(items already typed, the text to keep in front, the item being typed)."""
    head, sep, last = (current or "").rpartition(",")
    kept = [p.strip() for p in head.split(",") if p.strip()] if sep else []
    return kept, (", ".join(kept) + ", " if kept else ""), last.strip()


def list_choices(kinds: tuple[str, ...]):
    """Autocomplete for a comma-separated item list: completes the last item, keeps the rest.
    Every offered name reads back as one item (no commas) and is found again by the engine."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        kept, prefix, last = _list_head(current)
        taken = {k.lower() for k in kept}
        out = []
        for name in search_items(last, kinds):
            if name.lower() in taken:
                continue
            c = _choice(prefix + name, prefix + name)
            if c:
                out.append(c)
        return out[:CHOICE_LIMIT]

    return complete


async def trait_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    kept, prefix, last = _list_head(current)
    key = last.lower()
    taken = {trait_id(k) for k in kept if _is_trait(k)}
    starts, contains = [], []
    for rule in TRAITS.values():
        if rule.id in taken:
            continue
        if any(n.startswith(key) for n in rule.names):
            starts.append(rule.names[0])
        elif key and any(key in n for n in rule.names):
            contains.append(rule.names[0])
    out = [_choice(prefix + name, prefix + name) for name in starts + contains]
    return [c for c in out if c][:CHOICE_LIMIT]


def _is_trait(text: str) -> bool:
    try:
        trait_id(text)
        return True
    except NotFoundError:
        return False


weapon_choices = list_choices(("weapon",))
armour_choices = list_choices(("armour",))
equipment_choices = list_choices(("equipment",))

__all__ = ["Combatant", "CombatRules", "apply_options", "armour_choices", "combat_rules", "distinct_names", "equipment_choices",
           "fighter_choices", "for_close_combat", "missile_weapon", "resolve_fighters", "split_list", "trait_choices",
           "weapon_choices"]
