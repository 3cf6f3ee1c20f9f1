"""Combat commands: /fight and /shoot roll step by step; /odds gives the exact odds.

This cog only reads options and hands them to ``engine.combat``; parsing helpers live in
``cogs/_ui/combat_options.py`` and embeds in ``cogs/_ui/combat_render.py``.

Exact odds take a noticeable fraction of a second (a duel more), so /odds checks its inputs
first (errors stay private), then defers and computes in a worker thread.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.combat_options import (
    CombatRules, Side, apply_options, armour_choices, close_combat_weapons, combat_rules, distinct_names,
    equipment_choices, missile_weapon, profile_choices, resolve_side, trait_choices, weapon_choices,
)
from cogs._ui.combat_render import FIGHT, SHOT, duel_embed, fighters_header, log_pages, odds_embed, outcome_text
from cogs._ui.context import server_settings
from cogs._ui.views import Paginator
from engine.combat import Fighter, duel_odds, find_item, make_fighter, resolve_round, resolve_shot, round_odds, shot_odds
from engine.combat.api import kit_notes
from engine.errors import MordheimError

ProfileText = app_commands.Range[str, 1, 200]
ListText = app_commands.Range[str, 1, 300]

CHARGED = {"attacker": True, "defender": "defender", "nobody": None}
CHARGED_CHOICES = [app_commands.Choice(name=f"{k} charged" if k != "nobody" else "nobody charged", value=k) for k in CHARGED]
STATE_CHOICES = [app_commands.Choice(name=s, value=s) for s in ("standing", "knocked down", "stunned")]
EDITION_CHOICES = [
    app_commands.Choice(name="lrb: Living Rulebook 2005", value="lrb"),
    app_commands.Choice(name="core: Community Core Rules", value="core"),
    app_commands.Choice(name="core2: Community Core Rules rewrite", value="core2"),
]
MODE_CHOICES = [
    app_commands.Choice(name="a single shot", value="shot"),
    app_commands.Choice(name="one close-combat round", value="round"),
    app_commands.Choice(name="a duel to the end", value="duel"),
]

PROFILE_HELP = 'profile "4 3 3 3 3 1 3 1 7" or "WS4 S4", template (Human) or Warband/Warrior'
DESCRIPTIONS = {
    "attacker": "Attacker: " + PROFILE_HELP,
    "defender": "Defender: " + PROFILE_HELP,
    "mode": "What to work out: a single shot, one round, or a duel to the end",
    "attacker_weapons": "Attacker's weapons, comma-separated (replaces a stored warrior's)",
    "attacker_armour": "Attacker's armour, shield, buckler, helmet, comma-separated",
    "attacker_equipment": "Attacker's equipment (poisons, drugs, warhorse...), comma-separated",
    "attacker_traits": "frenzy, hates, causes fear, immune to fear, large target",
    "defender_weapons": "Defender's weapons, comma-separated (replaces a stored warrior's)",
    "defender_armour": "Defender's armour, shield, buckler, helmet, comma-separated",
    "defender_equipment": "Defender's equipment (lucky charm, mandrake root...), comma-separated",
    "defender_traits": "frenzy, hates, causes fear, immune to fear, large target",
    "defender_state": "Defender is standing (default), knocked down or stunned",
    "defender_wounds": "Wounds the defender has left (default: its W)",
    "charged": "Who charged this turn (default: the attacker)",
    "first_round": "First round of the combat: charges, strike first, heavy weapons (default yes)",
    "range_inches": "Range to the target in inches (over half the weapon's range is long range)",
    "long_range": "The target is at long range (over half the weapon's range)",
    "cover": "The target is in cover (-1 to hit)",
    "moved": "The shooter moved this turn (-1 to hit; move-or-fire weapons can't shoot)",
    "stood_up": "The shooter stood up this turn",
    "twice": "Fire twice: sling (not moved, within 9\") or repeater crossbow, -1 to hit",
    "max_rounds": "Duel: stop after this many rounds (default 30); the rest is 'unfinished'",
    "edition": "Use this edition instead of the server's",
}
SHOOT_DESCRIPTIONS = {
    "attacker": "Shooter: " + PROFILE_HELP,
    "defender": "Target: " + PROFILE_HELP,
    "attacker_weapons": "Shooter's weapons; the first missile weapon listed is fired",
    "attacker_equipment": "Shooter's equipment (hunting arrows, superior blackpowder...)",
    "attacker_traits": "Shooter's traits (rarely matter for shooting)",
    "defender_armour": "Target's armour, shield, buckler, helmet, comma-separated",
    "defender_equipment": "Target's equipment (elven cloak, lucky charm...), comma-separated",
    "defender_traits": "Target's traits, e.g. large target",
}
AUTOCOMPLETE = {
    "attacker": profile_choices, "defender": profile_choices,
    "attacker_weapons": weapon_choices, "defender_weapons": weapon_choices,
    "attacker_armour": armour_choices, "defender_armour": armour_choices,
    "attacker_equipment": equipment_choices, "defender_equipment": equipment_choices,
    "attacker_traits": trait_choices, "defender_traits": trait_choices,
}
CHOICES = {"charged": CHARGED_CHOICES, "defender_state": STATE_CHOICES, "edition": EDITION_CHOICES, "mode": MODE_CHOICES}


def options(*names: str, shooting: bool = False):
    """Descriptions, autocompletes and choices for the named options, from the tables above."""
    words = {**DESCRIPTIONS, **(SHOOT_DESCRIPTIONS if shooting else {})}

    def decorate(fn):
        fn = app_commands.describe(**{n: words[n] for n in names})(fn)
        auto = {n: AUTOCOMPLETE[n] for n in names if n in AUTOCOMPLETE}
        if auto:
            fn = app_commands.autocomplete(**auto)(fn)
        picks = {n: CHOICES[n] for n in names if n in CHOICES}
        if picks:
            fn = app_commands.choices(**picks)(fn)
        return app_commands.rename(range_inches="range")(fn) if "range_inches" in names else fn

    return decorate


def _value(choice: app_commands.Choice[str] | str | None) -> str | None:
    return choice.value if isinstance(choice, app_commands.Choice) else choice


def _fighter(side: Side) -> Fighter:
    return make_fighter(side.name, side.profile, **side.fighter_kwargs())


def _notes(*sides: Side, kit: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    notes = {s.name: list(s.notes) for s in sides if s.notes}
    for name, lines in (kit or {}).items():
        notes.setdefault(name, []).extend(lines)
    return notes


def _range(weapon_name: str, range_inches: float | None, long_range: bool | None) -> float | None:
    """The range to shoot at: as given, or for 'long range' the weapon's full range."""
    if not long_range:
        return range_inches
    weapon = find_item(weapon_name.lower().removeprefix("brace of "), ("weapon",))
    if not isinstance(weapon.range, int):
        raise MordheimError(f"A {weapon.name.lower()} has no long range to shoot at.", hint="Leave long_range off.")
    if range_inches is not None and range_inches <= weapon.range / 2:
        raise MordheimError(
            f"{range_inches:g}\" is not long range for a {weapon.name.lower()} (over {weapon.range / 2:g}\").",
            hint="Give either range or long_range.",
        )
    return range_inches if range_inches is not None else float(weapon.range)


class Combat(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ----- shared steps ---------------------------------------------------------------------

    async def _prepare(self, interaction: discord.Interaction, attacker: str, defender: str, roles: tuple[str, str],
                       a_opts: dict[str, Any], d_opts: dict[str, Any], edition: str | None) -> tuple[Side, Side, CombatRules]:
        rules = combat_rules(await server_settings(interaction), edition)
        a = apply_options(await resolve_side(interaction, attacker, roles[0]), **a_opts)
        d = apply_options(await resolve_side(interaction, defender, roles[1]), **d_opts)
        distinct_names(a, d)
        return a, d, rules

    async def _send_pages(self, interaction: discord.Interaction, pages: list[discord.Embed]) -> None:
        if len(pages) == 1:
            await interaction.response.send_message(embed=pages[0])
            return
        view = Paginator(interaction.user.id, pages)
        await interaction.response.send_message(embed=pages[0], view=view)
        view.message = await interaction.original_response()

    # ----- /fight ---------------------------------------------------------------------------

    @app_commands.command(name="fight", description="Roll one close-combat round step by step: to hit, to wound, saves, injuries")
    @options("attacker", "defender", "attacker_weapons", "attacker_armour", "attacker_equipment", "attacker_traits",
             "defender_weapons", "defender_armour", "defender_equipment", "defender_traits", "defender_state",
             "defender_wounds", "charged", "first_round", "edition")
    async def fight(
        self, interaction: discord.Interaction, attacker: ProfileText, defender: ProfileText,
        attacker_weapons: ListText | None = None, attacker_armour: ListText | None = None,
        attacker_equipment: ListText | None = None, attacker_traits: ListText | None = None,
        defender_weapons: ListText | None = None, defender_armour: ListText | None = None,
        defender_equipment: ListText | None = None, defender_traits: ListText | None = None,
        defender_state: app_commands.Choice[str] | None = None,
        defender_wounds: app_commands.Range[int, 1, 10] | None = None, charged: app_commands.Choice[str] | None = None,
        first_round: bool = True, edition: app_commands.Choice[str] | None = None,
    ) -> None:
        a, d, rules = await self._prepare(
            interaction, attacker, defender, ("Attacker", "Defender"),
            dict(weapons=attacker_weapons, armour=attacker_armour, equipment=attacker_equipment, traits=attacker_traits),
            dict(weapons=defender_weapons, armour=defender_armour, equipment=defender_equipment, traits=defender_traits,
                 state=_value(defender_state), wounds=defender_wounds),
            _value(edition),
        )
        close_combat_weapons(a)
        close_combat_weapons(d)
        fa, fd = _fighter(a), _fighter(d)
        who_charged = CHARGED[_value(charged) or "attacker"]
        result = resolve_round(fa, fd, self.bot.rng, edition=rules.edition, toggles=rules.toggles,
                               charged=who_charged, first_round=first_round)
        situation = {True: f"{fa.name} charged", "defender": f"{fd.name} charged", None: "nobody charged"}[who_charged]
        situation += ", first round" if first_round else ", a later round"
        header = fighters_header((fa, fd), _notes(a, d, kit=result.kit)) + f"\n*{situation}*"
        pages = log_pages(f"⚔️ {fa.name} fights {fd.name}", header, result.lines, outcome_text(result), rules.footer, colour=FIGHT)
        await self._send_pages(interaction, pages)

    # ----- /shoot ---------------------------------------------------------------------------

    @app_commands.command(name="shoot", description="Roll a shot step by step: to hit, to wound, saves, injuries")
    @options("attacker", "defender", "attacker_weapons", "attacker_equipment", "attacker_traits",
             "defender_armour", "defender_equipment", "defender_traits",
             "range_inches", "long_range", "cover", "moved", "stood_up", "twice", "edition", shooting=True)
    async def shoot(
        self, interaction: discord.Interaction, attacker: ProfileText, defender: ProfileText,
        attacker_weapons: ListText | None = None, attacker_equipment: ListText | None = None,
        attacker_traits: ListText | None = None, defender_armour: ListText | None = None,
        defender_equipment: ListText | None = None, defender_traits: ListText | None = None,
        range_inches: app_commands.Range[float, 0, 100] | None = None, long_range: bool = False,
        cover: bool = False, moved: bool = False, stood_up: bool = False, twice: bool = False,
        edition: app_commands.Choice[str] | None = None,
    ) -> None:
        a, d, rules = await self._prepare(
            interaction, attacker, defender, ("Shooter", "Target"),
            dict(weapons=attacker_weapons, equipment=attacker_equipment, traits=attacker_traits),
            dict(armour=defender_armour, equipment=defender_equipment, traits=defender_traits),
            _value(edition),
        )
        weapon = missile_weapon(a)
        situation = dict(range_inches=_range(weapon, range_inches, long_range), cover=cover, moved=moved,
                         stood_up=stood_up, twice=twice)
        fa, fd = _fighter(a), _fighter(d)
        result = resolve_shot(fa, fd, weapon, self.bot.rng, edition=rules.edition, toggles=rules.toggles, **situation)
        header = fighters_header((fa, fd), _notes(a, d)) + f"\n*{_shot_situation(weapon, situation)}*"
        pages = log_pages(f"🏹 {fa.name} shoots {fd.name}", header, result.lines, outcome_text(result), rules.footer, colour=SHOT)
        await self._send_pages(interaction, pages)

    # ----- /odds ----------------------------------------------------------------------------

    @app_commands.command(name="odds", description="Exact odds of a shot, a close-combat round or a duel to the end, as charts")
    @options("attacker", "defender", "mode", "attacker_weapons", "attacker_armour", "attacker_equipment", "attacker_traits",
             "defender_weapons", "defender_armour", "defender_equipment", "defender_traits", "defender_state",
             "defender_wounds", "charged", "first_round", "range_inches", "long_range", "cover", "moved", "stood_up", "twice",
             "max_rounds", "edition")
    async def odds(
        self, interaction: discord.Interaction, attacker: ProfileText, defender: ProfileText,
        mode: app_commands.Choice[str],
        attacker_weapons: ListText | None = None, attacker_armour: ListText | None = None,
        attacker_equipment: ListText | None = None, attacker_traits: ListText | None = None,
        defender_weapons: ListText | None = None, defender_armour: ListText | None = None,
        defender_equipment: ListText | None = None, defender_traits: ListText | None = None,
        defender_state: app_commands.Choice[str] | None = None,
        defender_wounds: app_commands.Range[int, 1, 10] | None = None, charged: app_commands.Choice[str] | None = None,
        first_round: bool = True, range_inches: app_commands.Range[float, 0, 100] | None = None,
        long_range: bool = False, cover: bool = False, moved: bool = False, stood_up: bool = False,
        twice: bool = False, max_rounds: app_commands.Range[int, 1, 100] = 30,
        edition: app_commands.Choice[str] | None = None,
    ) -> None:
        kind = mode.value
        shooting = kind == "shot"
        a, d, rules = await self._prepare(
            interaction, attacker, defender, ("Shooter", "Target") if shooting else ("Attacker", "Defender"),
            dict(weapons=attacker_weapons, armour=attacker_armour, equipment=attacker_equipment, traits=attacker_traits),
            dict(weapons=defender_weapons, armour=defender_armour, equipment=defender_equipment, traits=defender_traits,
                 state=_value(defender_state), wounds=defender_wounds),
            _value(edition),
        )
        ruling = dict(edition=rules.edition, toggles=rules.toggles)
        if shooting:
            weapon = missile_weapon(a)
            situation = dict(range_inches=_range(weapon, range_inches, long_range), cover=cover, moved=moved,
                             stood_up=stood_up, twice=twice)
            fa, fd = _fighter(a), _fighter(d)
            # one throw-away roll runs every check the odds run, while an error can still be private
            resolve_shot(fa, fd, weapon, random.Random(0), **ruling, **situation)
            note = _shot_situation(weapon, situation)
            work = lambda: shot_odds(fa, fd, weapon, **ruling, **situation)  # noqa: E731
        else:
            close_combat_weapons(a)
            close_combat_weapons(d)
            fa, fd = _fighter(a), _fighter(d)
            who_charged = CHARGED[_value(charged) or "attacker"]
            resolve_round(fa, fd, random.Random(0), **ruling, charged=who_charged, first_round=first_round)
            note = {True: f"{fa.name} charged", "defender": f"{fd.name} charged", None: "nobody charged"}[who_charged]
            if kind == "round":
                note += ", first round" if first_round else ", a later round"
                work = lambda: round_odds(fa, fd, **ruling, charged=who_charged, first_round=first_round)  # noqa: E731
            else:
                note += f"; turns alternate, with recovery, for up to {max_rounds} rounds"
                work = lambda: duel_odds(fa, fd, **ruling, charged=who_charged, max_rounds=max_rounds)  # noqa: E731
        header = fighters_header((fa, fd), _notes(a, d, kit=None if shooting else kit_notes((fa, fd)))) + f"\n*{note}*"

        await interaction.response.defer(thinking=True)
        try:
            result = await asyncio.to_thread(work)
            if kind == "duel":
                embed = duel_embed(result, header, rules.footer, max_rounds)
            elif kind == "round":
                embed = odds_embed(result, f"Odds: {fa.name} vs {fd.name}, one round", header, rules.footer, what="this round")
            else:
                embed = odds_embed(result, f"Odds: {fa.name} shoots {fd.name}", header, rules.footer, what="this shot",
                                   show_engine_title=True)
            await interaction.edit_original_response(embed=embed)
        except Exception:
            # the public "thinking..." message must not stay behind an error; the tree then
            # answers privately through a follow-up
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
            raise


def _shot_situation(weapon: str, situation: dict[str, Any]) -> str:
    parts = [f"with a {weapon.lower()}"]
    if situation["range_inches"] is not None:
        parts.append(f"at {situation['range_inches']:g}\"")
    parts += [word for key, word in (("cover", "target in cover"), ("moved", "moved"), ("stood_up", "stood up"),
                                     ("twice", "firing twice")) if situation[key]]
    return ", ".join(parts)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Combat(bot))
