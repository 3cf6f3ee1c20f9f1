"""The options of /fight, /shoot and /odds, defined once.

Each option is one row: its name, type, default, description, and its autocomplete or choices.
``combat_options("attacker", "defender", ...)`` gives a command callback exactly those options, in
that order; the callback takes them as keywords (``async def fight(self, interaction, **given)``)
and reads them with ``Given``. A command lists the names it takes; nothing else is repeated.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from cogs._ui.combat_options import armour_choices, equipment_choices, fighter_choices, trait_choices, weapon_choices

REQUIRED = inspect.Parameter.empty

FightersText = app_commands.Range[str, 1, 300]
ListText = app_commands.Range[str, 1, 300]

FIGHTERS_HELP = 'a profile ("Otto: WS4 S4"), a template (Troll) or Warband/Warrior; join up to 3 with +'


def _choices(pairs) -> tuple[app_commands.Choice[str], ...]:
    return tuple(app_commands.Choice(name=name, value=value) for name, value in pairs)


CHARGED = _choices([("attacker charged", "attacker"), ("defender charged", "defender"), ("nobody charged", "nobody")])
STATES = _choices([(s, s) for s in ("standing", "knocked down", "stunned")])
EDITIONS = _choices([("lrb: Living Rulebook 2005", "lrb"), ("core: Community Core Rules", "core"),
                     ("core2: Community Core Rules rewrite", "core2")])
MODES = _choices([("a single shot", "shot"), ("one close-combat round", "round"), ("a duel to the end", "duel")])


@dataclass(frozen=True)
class Option:
    name: str
    type: Any
    description: str
    default: Any = REQUIRED
    autocomplete: Any = None
    choices: tuple = ()
    shown_as: str | None = None  # the name Discord shows, when the parameter's name cannot be it
    shooting: str | None = None  # the description /shoot (and a shot's /odds) reads instead


def _kit(side: str, what: str, extra: str) -> list[Option]:
    return [
        Option(f"{side}_weapons", ListText | None, f"{what}'s weapons, comma-separated (replaces a stored warrior's kit)", None,
               weapon_choices, shooting="Shooter's weapons; the first missile weapon listed is fired" if side == "attacker" else None),
        Option(f"{side}_armour", ListText | None, f"{what}'s armour, shield, buckler, helmet, comma-separated", None, armour_choices,
               shooting="Target's armour, shield, buckler, helmet, comma-separated" if side == "defender" else None),
        Option(f"{side}_equipment", ListText | None, f"{what}'s equipment ({extra}), comma-separated", None, equipment_choices,
               shooting=("Shooter's equipment (hunting arrows, superior blackpowder...)" if side == "attacker"
                         else "Target's equipment (elven cloak, lucky charm...), comma-separated")),
        Option(f"{side}_traits", ListText | None, "frenzy, hates, causes fear, animal, skills such as mighty blow", None, trait_choices,
               shooting="Shooter's traits (rarely matter for shooting)" if side == "attacker" else "Target's traits, e.g. large target"),
    ]


OPTIONS: dict[str, Option] = {o.name: o for o in [
    Option("attacker", FightersText, "Attacker: " + FIGHTERS_HELP, autocomplete=fighter_choices, shooting="Shooter: " + FIGHTERS_HELP),
    Option("defender", FightersText, "Defender: " + FIGHTERS_HELP, autocomplete=fighter_choices, shooting="Target: " + FIGHTERS_HELP),
    Option("mode", app_commands.Choice[str], "What to work out: a single shot, one round, or a duel to the end", choices=MODES),
    *_kit("attacker", "Attacker", "poisons, drugs, warhorse..."),
    *_kit("defender", "Defender", "lucky charm, mandrake root..."),
    Option("defender_state", app_commands.Choice[str] | None, "Defender is standing (default), knocked down or stunned", None, choices=STATES),
    Option("defender_wounds", app_commands.Range[int, 1, 10] | None, "Wounds the defender has left (default: its W)", None),
    Option("charged", app_commands.Choice[str] | None, "Who charged this turn (default: the attacker)", None, choices=CHARGED),
    Option("first_round", bool, "First round of the combat: charges, strike first, heavy weapons (default yes)", True),
    Option("range_inches", app_commands.Range[float, 0, 100] | None, "Range to the target in inches (over half the weapon's range is long range)",
           None, shown_as="range"),
    Option("long_range", bool, "The target is at long range (over half the weapon's range)", False),
    Option("cover", bool, "The target is in cover (-1 to hit)", False),
    Option("moved", bool, "The shooter moved this turn (-1 to hit; move-or-fire weapons can't shoot)", False),
    Option("stood_up", bool, "The shooter stood up this turn", False),
    Option("twice", bool, "Fire twice: sling (not moved, within 9\") or repeater crossbow, -1 to hit", False),
    Option("max_rounds", app_commands.Range[int, 1, 100], "Duel: stop after this many rounds (default 30); the rest is 'unfinished'", 30),
    Option("edition", app_commands.Choice[str] | None, "Use this edition instead of the server's", None, choices=EDITIONS),
]}


def combat_options(*names: str, shooting: bool = False):
    """Give a callback ``(self, interaction, **given)`` the named options, in this order."""

    def decorate(fn):
        params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                  inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
        rows = [OPTIONS[n] for n in names]
        params += [inspect.Parameter(o.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=o.default, annotation=o.type) for o in rows]
        fn.__signature__ = inspect.Signature(params)
        fn = app_commands.describe(**{o.name: (o.shooting if shooting and o.shooting else o.description) for o in rows})(fn)
        completes = {o.name: o.autocomplete for o in rows if o.autocomplete}
        if completes:
            fn = app_commands.autocomplete(**completes)(fn)
        picks = {o.name: list(o.choices) for o in rows if o.choices}
        if picks:
            fn = app_commands.choices(**picks)(fn)
        renames = {o.name: o.shown_as for o in rows if o.shown_as}
        return app_commands.rename(**renames)(fn) if renames else fn

    return decorate


@dataclass
class Given:
    """What a member gave a combat command, read by option name (absent options read as their default)."""

    values: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        value = self.values.get(name, OPTIONS[name].default)
        if isinstance(value, app_commands.Choice):
            return value.value
        return None if value is REQUIRED else value

    def kit(self, side: str) -> dict[str, Any]:
        """The kit options of one side, for ``apply_options``."""
        return {k: self[f"{side}_{k}"] for k in ("weapons", "armour", "equipment", "traits") if f"{side}_{k}" in self.values}
