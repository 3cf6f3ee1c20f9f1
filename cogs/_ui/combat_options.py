"""Turning what a member typed into /fight, /shoot and /odds into engine calls.

Three jobs, all about option text (none of them rolls a die):

- ``resolve_side``: a fighter as a profile ("4 3 3 3 3 1 3 1 7", "WS4 S4 T3"), a template
  (Human, Horse, Warhorse, Wardog) or a stored warrior ("Warband/Warrior"), plus the items
  and traits typed for it, ready for ``engine.combat.make_fighter``.
- ``combat_rules``: the edition and house-rule toggles a fight uses (the server's unless
  overridden), with the words the footer shows.
- autocomplete for profiles (templates and this server's warriors), comma-separated item
  lists (the last item is completed, the earlier ones kept in the value) and traits.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

import discord
from discord import app_commands
from rapidfuzz import process

from cogs._ui.warrior_choices import warrior_path_choices
from engine.combat import TOGGLES, find_item, get_ruleset, parse_profile, search_items
from engine.combat.items import Armour, Weapon
from engine.combat.profile import TEMPLATES, Profile
from engine.editions import get_edition
from engine.errors import MordheimError, NotFoundError
from engine.settings import ServerSettings

CHOICE_LIMIT = 25
CHOICE_TEXT_LIMIT = 100
LIST_LIMIT = 12  # items in one option: more than any warrior carries, few enough to stay readable

# trait typed -> make_fighter flag
TRAITS = {
    "frenzy": "frenzy",
    "hates": "hates",
    "causes fear": "causes_fear",
    "immune to fear": "immune_to_fear",
    "large target": "large_target",
}
TRAIT_ALIASES = {"frenzied": "frenzy", "hatred": "hates", "hate": "hates", "fear": "causes fear",
                 "fearsome": "causes fear", "immune": "immune to fear", "large": "large target"}

# a token that looks like one characteristic value (WS4, ld=8) or a bare number: a profile attempt
_PROFILE_TOKEN = re.compile(r"^(?:m|ws|bs|s|t|w|i|a|ld)?[=:]?-?\d+$", re.I)
_UNSAFE_NAME = re.compile(r"[`*_~|\\<>@#]")


@dataclass
class Side:
    """One fighter as typed: everything ``make_fighter`` needs, and where the profile came from."""

    name: str
    profile: Profile
    source: str  # "profile" | "template" | "warrior"
    weapons: list[str] = field(default_factory=list)
    armour: list[str] = field(default_factory=list)
    equipment: list[str] = field(default_factory=list)
    flags: dict[str, object] = field(default_factory=dict)  # make_fighter keywords: traits, state, wounds
    notes: list[str] = field(default_factory=list)  # what was left out of a stored warrior's kit, and why

    def fighter_kwargs(self) -> dict:
        return dict(weapons=self.weapons, armour=self.armour, equipment=self.equipment, **self.flags)


def split_list(text: str | None) -> list[str]:
    """``"sword, dagger"`` -> ``["sword", "dagger"]`` (commas or semicolons)."""
    if not text:
        return []
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if len(parts) > LIST_LIMIT:
        raise MordheimError(f"That is {len(parts)} items in one option; {LIST_LIMIT} at most.", hint="List only what the fighter uses.")
    return parts


def parse_traits(text: str | None) -> dict[str, bool]:
    flags: dict[str, bool] = {}
    for raw in split_list(text):
        key = " ".join(raw.lower().replace("_", " ").replace("-", " ").split())
        key = TRAIT_ALIASES.get(key, key)
        if key not in TRAITS:
            close = [m[0] for m in process.extract(key, list(TRAITS), limit=3, score_cutoff=50)]
            raise NotFoundError(f"'{raw[:40]}' is not a trait I know.", suggestions=close,
                                hint=None if close else "Traits: " + ", ".join(TRAITS) + ".")
        flags[TRAITS[key]] = True
    return flags


def _clean_name(name: str) -> str:
    """A name safe in embeds and code blocks: no markdown, no mentions."""
    return _UNSAFE_NAME.sub("", name).strip()[:40] or "Warrior"


def _looks_like_profile(text: str) -> bool:
    tokens = text.replace(",", " ").split()
    return bool(tokens) and any(_PROFILE_TOKEN.match(t) for t in tokens)


def _kind_of(item: str) -> str | None:
    """'weapon' | 'armour' | 'equipment' for a stored item name; None when the rules library lacks it."""
    key = item.lower().strip()
    for prefix in ("gromril ", "ithilmar ", "brace of "):
        if key.startswith(prefix) and key != prefix.strip():
            key = key[len(prefix):]
    try:
        found = find_item(key)
    except NotFoundError:
        return None
    if isinstance(found, Weapon):
        return "weapon"
    return "armour" if isinstance(found, Armour) else "equipment"


def _stored_kit(items: tuple[str, ...] | list[str]) -> tuple[list[str], list[str], list[str], list[str]]:
    """A roster's equipment sorted into weapons, armour and equipment; the rest is not combat kit."""
    weapons, armour, equipment, unknown = [], [], [], []
    for item in items:
        kind = _kind_of(item)
        {"weapon": weapons, "armour": armour, "equipment": equipment, None: unknown}[kind].append(item)
    return weapons, armour, equipment, unknown


async def resolve_side(interaction: discord.Interaction, text: str, role: str) -> Side:
    """The fighter ``text`` names: a profile or template first, else a warrior of this server.

    A stored warrior is looked up when the text has a '/' or is no profile or template.
    ``role`` ("Attacker", "Defender", "Shooter", "Target") names fighters given by profile.
    """
    raw = text.strip()
    if "/" not in raw:
        try:
            profile = parse_profile(raw)
        except MordheimError as profile_error:
            if interaction.guild_id is None:
                raise
            return await _stored_side(interaction, raw, profile_error)
        key = raw.lower()
        if key in TEMPLATES:
            return Side(key.title(), profile, "template")
        return Side(role, profile, "profile")
    if interaction.guild_id is None:
        raise MordheimError(
            f"'{raw[:60]}' looks like a stored warrior, but warriors belong to a server's campaign and this is a direct message.",
            hint='Give a profile ("4 3 3 3 3 1 3 1 7" or "WS4 S4 T3") or a template: Human, Horse, Warhorse, Wardog.',
        )
    return await _stored_side(interaction, raw, None)


async def _stored_side(interaction: discord.Interaction, raw: str, profile_error: MordheimError | None) -> Side:
    try:
        warrior = await asyncio.to_thread(interaction.client.campaigns.find_warrior, interaction.guild_id, raw)
    except NotFoundError as error:
        if profile_error is None:
            raise
        if _looks_like_profile(raw):  # "WS11", "4 3 3": a profile with a mistake, not a warrior's name
            raise profile_error from None
        templates = ", ".join(t.title() for t in TEMPLATES)
        suggestions = list(dict.fromkeys([*getattr(profile_error, "suggestions", []), *error.suggestions]))
        raise NotFoundError(
            f"'{raw[:60]}' is not a profile, a template ({templates}) or a warrior in this server.",
            suggestions=suggestions[:5],
            hint=None if suggestions else 'Write a profile as "4 3 3 3 3 1 3 1 7" (M WS BS S T W I A Ld) or "WS4 S4 T3".',
        ) from None
    weapons, armour, equipment, unknown = _stored_kit(warrior.equipment)
    side = Side(_clean_name(warrior.name), Profile(**warrior.profile.as_dict()), "warrior", weapons, armour, equipment)
    if warrior.large:
        side.flags["large_target"] = True
    if unknown:
        side.notes.append("not in the rules library, left out: " + ", ".join(unknown[:5]))
    return side


def apply_options(side: Side, *, weapons: str | None = None, armour: str | None = None, equipment: str | None = None,
                  traits: str | None = None, state: str | None = None, wounds: int | None = None) -> Side:
    """Items typed in the command replace the stored warrior's of the same kind."""
    if weapons is not None:
        side.weapons = split_list(weapons)
    if armour is not None:
        side.armour = split_list(armour)
    if equipment is not None:
        side.equipment = split_list(equipment)
    side.flags.update(parse_traits(traits))
    if state:
        side.flags["state"] = state
    if wounds is not None:
        side.flags["wounds"] = wounds
    return side


def missile_weapon(side: Side) -> str:
    """The weapon a shooter fires: the first missile weapon listed."""
    for name in side.weapons:
        w = find_item(name.lower().removeprefix("brace of ").removeprefix("gromril ").removeprefix("ithilmar "), ("weapon",))
        if w.kind == "missile":
            return name
    listed = f" ({', '.join(side.weapons)})" if side.weapons else ""
    raise MordheimError(f"{side.name} has no missile weapon to shoot with{listed}.",
                        hint="Give one in attacker_weapons, e.g. bow, crossbow, pistol, sling.")


def close_combat_weapons(side: Side) -> None:
    """A stored warrior fights with what can be used in close combat: its bow stays on its back.
    Weapons a member typed are left alone, so the engine can explain what is wrong with them."""
    if side.source != "warrior":
        return
    kept, left = [], []
    for name in side.weapons:
        w = find_item(name.lower().removeprefix("brace of ").removeprefix("gromril ").removeprefix("ithilmar "), ("weapon",))
        usable = w.kind == "close" or w.has("hand-to-hand") or w.has("shoot-in-close-combat")
        (kept if usable else left).append(name)
    side.weapons = kept
    if left:
        side.notes.append("missile weapons not used in close combat: " + ", ".join(left))


def distinct_names(a: Side, b: Side) -> None:
    """Two fighters with the same name would be indistinguishable in the log."""
    if a.name.lower() == b.name.lower():
        a.name, b.name = f"{a.name} (attacker)", f"{b.name} (defender)"


# ----- edition and house rules -----------------------------------------------------------------


@dataclass(frozen=True)
class CombatRules:
    edition: str  # lrb | core | core2
    toggles: dict[str, bool]
    footer: str


def combat_rules(settings: ServerSettings, override: str | None) -> CombatRules:
    """The edition and toggles for a fight, and a footer naming them and any changed toggle."""
    notes = []
    if override:
        edition = get_edition(override)
    else:
        edition = get_edition(settings.edition_id)
        if not edition.combat:
            notes.append(f"this server plays {edition.id}, which has no combat rules, so lrb is used")
            edition = get_edition("lrb")
    # house rules about other things (dice, campaign) do not concern combat
    toggles = {k: v for k, v in (settings.house_rules or {}).items() if k in TOGGLES}
    ruleset = get_ruleset(edition.id, toggles)
    changed = [f"{n} {'on' if v else 'off'}" for n, v in ruleset.toggles if v != TOGGLES[n].default_for(edition.id)]
    footer = f"Edition: {edition.id} ({edition.name})"
    footer += " · House rules: " + (", ".join(changed) if changed else "none")
    if override:
        footer += " · edition chosen for this command"
    for note in notes:
        footer += f" · {note}"
    return CombatRules(edition.id, toggles, footer)


# ----- autocomplete --------------------------------------------------------------------------


def _choice(name: str, value: str) -> app_commands.Choice[str] | None:
    if len(value) > CHOICE_TEXT_LIMIT:
        return None
    return app_commands.Choice(name=name[:CHOICE_TEXT_LIMIT], value=value)


async def profile_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """What was typed read back as a profile, then matching templates, then this server's warriors."""
    current = (current or "").strip()
    out: list[app_commands.Choice[str]] = []
    if current and _looks_like_profile(current):
        try:
            c = _choice(f"{parse_profile(current)}", current)
        except MordheimError as error:
            c = _choice(f"⚠ {error.message}", current)
        if c:
            out.append(c)
        return out
    key = current.lower()
    for name in TEMPLATES:
        if name.startswith(key):
            c = _choice(f"{name.title()} ({TEMPLATES[name]})", name.title())
            if c:
                out.append(c)
    try:
        out += await warrior_path_choices(interaction, current)
    except Exception:  # noqa: BLE001 - autocomplete must answer even if the campaign store is busy
        pass
    return out[:CHOICE_LIMIT]


def list_choices(kinds: tuple[str, ...]):
    """Autocomplete for a comma-separated item list: completes the last item, keeps the rest."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        text = current or ""
        head, sep, last = text.rpartition(",")
        kept = [p.strip() for p in head.split(",") if p.strip()] if sep else []
        prefix = ", ".join(kept) + ", " if kept else ""
        out = []
        for name in search_items(last.strip(), kinds):
            if name.lower() in (k.lower() for k in kept):
                continue
            c = _choice(prefix + name, prefix + name)
            if c:
                out.append(c)
        return out[:CHOICE_LIMIT]

    return complete


async def trait_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    head, sep, last = (current or "").rpartition(",")
    kept = [p.strip() for p in head.split(",") if p.strip()] if sep else []
    prefix = ", ".join(kept) + ", " if kept else ""
    key = last.strip().lower()
    out = []
    for name in TRAITS:
        if name.startswith(key) or (key and key in name):
            if name not in kept:
                c = _choice(prefix + name, prefix + name)
                if c:
                    out.append(c)
    return out[:CHOICE_LIMIT]


weapon_choices = list_choices(("weapon",))
armour_choices = list_choices(("armour",))
equipment_choices = list_choices(("equipment",))
