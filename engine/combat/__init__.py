"""Combat: rules data, rulesets per edition, and fights resolved by dice or by exact odds.

Public API for the cogs (see each function's docstring):

    make_fighter, parse_profile, search_items, find_item,
    get_ruleset, list_toggles, server_ruleset, combat_edition,
    resolve_shot, shot_odds, resolve_round, round_odds, duel_odds (within a Budget),
    roll_injury, injury_distribution, falling_hits, jump_tests, render_table

Inside, one file a job: ``state`` (the named state of a fight), ``sides`` (each model's and each
pair's numbers for a round), ``loadout`` (what a warrior fights with), ``volley`` (one model's
attacks at one target, against the dice), ``melee`` (a round among up to four models),
``round_odds`` (a round's Odds mode, exact or drawn), ``duel`` (a fight to the end),
``shooting`` and ``throwing`` (the shooting phase), ``injury``, ``falling``; the rules'
numbers in ``tables`` (charts, critical charts as rows), the editions' differences and house
rules in ``ruleset``, every cited seed line in ``citations``, every known special-rule id in
``special_rules``; weapons, armour and items (the rulebook's, and what the warband lists sell
beyond it) loaded by ``item_data`` and found by name in ``items``; ``api`` is what the cogs call.
"""

from engine.combat.api import Budget, DuelOdds, OddsResult, RollResult, duel_odds, resolve_round, resolve_shot, round_odds, shot_odds, simulate_rounds
from engine.combat.fighter import Fighter, make_fighter
from engine.combat.injury import Injury, injury_distribution, roll_injury
from engine.combat.items import find_item, search_items
from engine.combat.movement import falling_hits, jump_tests
from engine.combat.profile import Profile, parse_profile
from engine.combat.render import render_table
from engine.combat.ruleset import TOGGLES, Ruleset, ServerRuling, combat_edition, get_ruleset, list_toggles, server_ruleset

__all__ = [
    "Budget", "DuelOdds", "Fighter", "Injury", "OddsResult", "Profile", "RollResult", "Ruleset", "TOGGLES",
    "duel_odds", "falling_hits", "find_item", "get_ruleset", "injury_distribution", "jump_tests",
    "list_toggles", "make_fighter", "parse_profile", "render_table", "resolve_round", "resolve_shot",
    "roll_injury", "round_odds", "search_items", "shot_odds", "simulate_rounds", "ServerRuling", "combat_edition", "server_ruleset",
]
