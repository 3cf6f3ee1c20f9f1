"""Combat commands: /fight and /shoot roll step by step; /odds gives the exact odds.

This cog only reads options and hands them to ``engine.combat``: the options are defined once in
``cogs/_ui/combat_params.py``, read into fighters by ``cogs/_ui/combat_options.py``, and the
answers drawn by ``cogs/_ui/combat_render.py``.

A side of /fight or /odds may be several fighters joined by "+" (up to 3 v 1 and 2 v 2); /shoot
takes one shooter and one target. Odds take up to a second of pure Python (a fight to the end is
bounded by ``engine.combat.Budget``: past it the rest is simulated, and the answer says so), so
/odds checks its inputs first (errors stay private), then defers and works in a thread of the
bot's queue for heavy work (``bot.heavy_work``: a few at a time, "busy, try again" when it is full).
"""

from __future__ import annotations

import random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui.combat_options import (
    Combatant, CombatRules, apply_options, combat_rules, distinct_names, for_close_combat, missile_weapon, resolve_fighters,
)
from cogs._ui.combat_params import Given, combat_options
from cogs._ui.combat_render import FIGHT, SHOT, duel_embed, fighters_header, log_pages, odds_embed, outcome_text
from cogs._ui.context import server_settings
from cogs._ui.views import send_pages
from engine.combat import Fighter, duel_odds, find_item, resolve_round, resolve_shot, round_odds, shot_odds
from engine.combat.api import fled_means, kit_notes, who_attacks_whom
from engine.errors import MordheimError

KIT = ("weapons", "armour", "equipment", "traits")
FIGHT_OPTIONS = ("attacker", "defender", *(f"attacker_{k}" for k in KIT), *(f"defender_{k}" for k in KIT),
                 "defender_state", "defender_wounds", "charged", "first_round")
SHOT_OPTIONS = ("range_inches", "long_range", "cover", "moved", "stood_up", "twice")
CHARGED = {"attacker": True, "defender": "defender", "nobody": None}


def _range(weapon_name: str, range_inches: float | None, long_range: bool | None) -> float | None:
    """The range to shoot at: as given, or for 'long range' the weapon's full range."""
    if not long_range:
        return range_inches
    weapon = find_item(weapon_name.lower().removeprefix("brace of "), ("weapon", "equipment"))
    if not isinstance(getattr(weapon, "range", None), int):
        raise MordheimError(f"A {weapon.name.lower()} has no long range to shoot at.", hint="Leave long_range off.")
    if range_inches is not None and range_inches <= weapon.range / 2:
        raise MordheimError(
            f"{range_inches:g}\" is not long range for a {weapon.name.lower()} (over {weapon.range / 2:g}\").",
            hint="Give either range or long_range.",
        )
    return range_inches if range_inches is not None else float(weapon.range)


def _situation(given: Given, weapon: str) -> dict[str, Any]:
    return dict(range_inches=_range(weapon, given["range_inches"], given["long_range"]), cover=given["cover"],
                moved=given["moved"], stood_up=given["stood_up"], twice=given["twice"])


def _shot_situation(weapon: str, situation: dict[str, Any]) -> str:
    parts = [f"with a {weapon.lower()}"]
    if situation["range_inches"] is not None:
        parts.append(f"at {situation['range_inches']:g}\"")
    parts += [word for key, word in (("cover", "target in cover"), ("moved", "moved"), ("stood_up", "stood up"),
                                     ("twice", "firing twice")) if situation[key]]
    return ", ".join(parts)


def _notes(combatants: list[Combatant], kit: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    notes = {c.name: list(c.notes) for c in combatants if c.notes}
    for name, lines in (kit or {}).items():
        for line in lines:
            if line not in notes.setdefault(name, []):
                notes[name].append(line)
    return notes


def _targets(fa: tuple[Fighter, ...], fd: tuple[Fighter, ...], ruling: dict[str, Any]) -> str:
    """A header line saying whom each model attacks, when one has a choice of enemies (3 v 1, 2 v 2)."""
    line = who_attacks_whom(fa, fd, **ruling)
    return f"\n🎯 {line}." if line else ""


class Combat(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ----- shared steps ---------------------------------------------------------------------

    async def _sides(self, interaction: discord.Interaction, given: Given, roles: tuple[str, str], *,
                     close_combat: bool) -> tuple[list[Combatant], list[Combatant], CombatRules]:
        """The fighters of each side as typed, with the side's options applied, and the rules."""
        rules = combat_rules(await server_settings(interaction), given["edition"])
        attackers = await resolve_fighters(interaction, given["attacker"], roles[0])
        defenders = await resolve_fighters(interaction, given["defender"], roles[1])
        for c in attackers:
            apply_options(c, **given.kit("attacker"))
        for c in defenders:
            apply_options(c, **given.kit("defender"), state=given["defender_state"], wounds=given["defender_wounds"])
        distinct_names(attackers, defenders)
        if close_combat:
            for c in attackers + defenders:
                for_close_combat(c)
        return attackers, defenders, rules

    @staticmethod
    def _one_each(attackers: list[Combatant], defenders: list[Combatant]) -> tuple[Combatant, Combatant]:
        if len(attackers) > 1 or len(defenders) > 1:
            raise MordheimError("A shot is one shooter at one target.", hint="Give one fighter in attacker and one in defender.")
        return attackers[0], defenders[0]

    @staticmethod
    def _who_charged(given: Given, attackers: tuple[Fighter, ...], defenders: tuple[Fighter, ...]) -> tuple[bool | str | None, str]:
        who = CHARGED[given["charged"] or "attacker"]
        words = {True: " & ".join(f.name for f in attackers) + " charged",
                 "defender": " & ".join(f.name for f in defenders) + " charged", None: "nobody charged"}[who]
        return who, words

    # ----- /fight ---------------------------------------------------------------------------

    @app_commands.command(name="fight", description="Roll one close-combat round step by step: to hit, to wound, saves, injuries")
    @combat_options(*FIGHT_OPTIONS, "edition")
    async def fight(self, interaction: discord.Interaction, **options: Any) -> None:
        given = Given(options)
        attackers, defenders, rules = await self._sides(interaction, given, ("Attacker", "Defender"), close_combat=True)
        fa = tuple(c.fighter() for c in attackers)
        fd = tuple(c.fighter() for c in defenders)
        who, situation = self._who_charged(given, fa, fd)
        first_round = given["first_round"]
        ruling = dict(edition=rules.edition, toggles=rules.toggles, charged=who, first_round=first_round)
        result = resolve_round(fa, fd, self.bot.rng, **ruling)
        situation += ", first round" if first_round else ", a later round"
        header = (fighters_header(fa + fd, _notes(attackers + defenders, result.kit), result.notes) + _targets(fa, fd, ruling)
                  + f"\n*{situation}*")
        one = len(attackers) == 1 and not attackers[0].group  # "Guards fight Vermin": a group's name is plural
        title = f"⚔️ {' & '.join(f.name for f in fa)} fight{'s' if one else ''} {' & '.join(f.name for f in fd)}"
        pages = log_pages(title, header, result.lines, outcome_text(result, fled_means(rules.edition)), rules.footer, colour=FIGHT)
        await send_pages(interaction, pages)

    # ----- /shoot ---------------------------------------------------------------------------

    @app_commands.command(name="shoot", description="Roll a shot step by step: to hit, to wound, saves, injuries")
    @combat_options("attacker", "defender", "attacker_weapons", "attacker_equipment", "attacker_traits",
                    "defender_armour", "defender_equipment", "defender_traits", *SHOT_OPTIONS, "edition", shooting=True)
    async def shoot(self, interaction: discord.Interaction, **options: Any) -> None:
        given = Given(options)
        shooters, targets, rules = await self._sides(interaction, given, ("Shooter", "Target"), close_combat=False)
        a, d = self._one_each(shooters, targets)
        weapon = missile_weapon(a)
        situation = _situation(given, weapon)
        fa, fd = a.fighter(), d.fighter()
        result = resolve_shot(fa, fd, weapon, self.bot.rng, edition=rules.edition, toggles=rules.toggles, **situation)
        header = fighters_header((fa, fd), _notes([a, d], result.kit), result.notes) + f"\n*{_shot_situation(weapon, situation)}*"
        pages = log_pages(f"🏹 {fa.name} shoots {fd.name}", header, result.lines, outcome_text(result), rules.footer, colour=SHOT)
        await send_pages(interaction, pages)

    # ----- /odds ----------------------------------------------------------------------------

    @app_commands.command(name="odds", description="Exact odds of a shot, a close-combat round or a duel to the end, as charts")
    @combat_options("attacker", "defender", "mode", *FIGHT_OPTIONS[2:], *SHOT_OPTIONS, "max_rounds", "edition")
    async def odds(self, interaction: discord.Interaction, **options: Any) -> None:
        given = Given(options)
        kind = given["mode"]
        shooting = kind == "shot"
        roles = ("Shooter", "Target") if shooting else ("Attacker", "Defender")
        attackers, defenders, rules = await self._sides(interaction, given, roles, close_combat=not shooting)
        ruling = dict(edition=rules.edition, toggles=rules.toggles)
        max_rounds = given["max_rounds"]
        if shooting:
            a, d = self._one_each(attackers, defenders)
            weapon = missile_weapon(a)
            situation = _situation(given, weapon)
            fa, fd = (a.fighter(),), (d.fighter(),)
            # one throw-away roll runs every check the odds run, while an error can still be private
            resolve_shot(fa[0], fd[0], weapon, random.Random(0), **ruling, **situation)
            note = _shot_situation(weapon, situation)
            notes = None  # the shot's own notes come with its odds
            targets = ""
            work = lambda: shot_odds(fa[0], fd[0], weapon, **ruling, **situation)  # noqa: E731
        else:
            fa = tuple(c.fighter() for c in attackers)
            fd = tuple(c.fighter() for c in defenders)
            who, note = self._who_charged(given, fa, fd)
            first_round = given["first_round"]
            resolve_round(fa, fd, random.Random(0), **ruling, charged=who, first_round=first_round)
            notes = _notes(attackers + defenders, kit_notes(fa + fd))
            targets = _targets(fa, fd, dict(**ruling, charged=who, first_round=first_round if kind == "round" else True))
            if kind == "round":
                note += ", first round" if first_round else ", a later round"
                work = lambda: round_odds(fa, fd, **ruling, charged=who, first_round=first_round)  # noqa: E731
            else:
                note += f"; turns alternate, with recovery, for up to {max_rounds} rounds"
                work = lambda: duel_odds(fa, fd, **ruling, charged=who, max_rounds=max_rounds)  # noqa: E731
        names_a, names_d = " & ".join(f.name for f in fa), " & ".join(f.name for f in fd)

        self.bot.heavy_work.check_room()  # a full queue: "busy", privately, before the public "thinking..."
        await interaction.response.defer(thinking=True)
        try:
            result = await self.bot.heavy_work.run(work)
            header = (fighters_header(fa + fd, notes if notes is not None else _notes([a, d], result.kit), result.notes) + targets
                      + f"\n*{note}*")
            if kind == "duel":
                embed = duel_embed(result, header, rules.footer, max_rounds)
            elif kind == "round":
                embed = odds_embed(result, f"Odds: {names_a} vs {names_d}, one round", header, rules.footer, what="this round",
                                   fled=fled_means(rules.edition))
            else:
                embed = odds_embed(result, f"Odds: {names_a} shoots {names_d}", header, rules.footer, what="this shot",
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


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Combat(bot))
