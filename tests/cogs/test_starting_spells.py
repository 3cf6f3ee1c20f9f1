"""A wizard or priest hired from a list rolls his first spell on his chart (000:1571), shown with its die,
kept among his skills as a Dramatis Persona's spells are, and taken back by undo with the hire."""

from __future__ import annotations

import random

from bot.harness import Actor
from engine.campaign.rules.starting_spells import roll_starting_spells, spell_charts
from tests.conftest import both_backends
from tests.engine.scripted_dice import Scripted

pytestmark = both_backends

GUILD = 815
OWNER = Actor(user_id=1, guild_id=GUILD)


async def ok(h, path, **options):
    res = await h.command(path, OWNER, **options)
    assert not res.is_error, (path, options, res.text)
    return res


def test_every_chart_has_a_spell_for_each_face_of_the_d6():
    charts = spell_charts()
    assert {"prayers-of-sigmar", "necromancy", "chaos-rituals", "lesser-magic", "magic-of-the-horned-rat"} <= charts.keys()
    assert all(sorted(c.by_face) == [1, 2, 3, 4, 5, 6] for c in charts.values())


def test_the_die_picks_the_face_of_his_chart_and_a_warrior_who_casts_nothing_rolls_nothing():
    rolled = roll_starting_spells(["wizard", "magic-of-the-horned-rat"], Scripted(1))
    assert [(s.chart, s.spell, s.skill) for s in rolled] == [("Magic of the Horned Rat", "Warpfire", "Spells: Warpfire")]
    assert roll_starting_spells(["prayers-of-sigmar"], Scripted(3))[0].spell == "Soulfire"
    assert roll_starting_spells(["leader", "fear"], random.Random(1)) == []


async def test_a_hired_sorcerer_rolls_his_spell_and_undo_takes_it_back_with_him(harness):
    h = harness
    await ok(h, "warband create", name="Rats", warband_type="Skaven")
    h.bot.rng = Scripted(4)
    hired = await ok(h, "hire fighter", warband="Rats", type="Eshin Sorcerer", name="Skritt")
    assert "Starting spell (Magic of the Horned Rat): 1d6 (4) = 4 → Black Fury (000:1571)" in hired.text
    assert h.bot.campaigns.get_warrior(GUILD, "Rats", "Skritt").skills == ("Spells: Black Fury",)
    check = await ok(h, "warband check", name="Rats")
    assert "Black Fury" not in check.text  # a spell is no skill off his lists
    await ok(h, "warband undo", name="Rats")
    gone = await h.command("warrior show", OWNER, warband="Rats", warrior="Skritt")
    assert gone.is_error  # the hire and its spell went together


async def test_a_caster_whose_chart_the_data_lacks_is_told_what_to_roll(harness):
    h = harness
    await ok(h, "warband create", name="Gobs", warband_type="Forest Goblins")
    hired = await ok(h, "hire fighter", warband="Gobs", type="Shaman", name="Mogg")
    assert "He starts with one spell (000:1571): roll a D6 on the Forest Goblins list's spell chart" in hired.text
    assert h.bot.campaigns.get_warrior(GUILD, "Gobs", "Mogg").skills == ()
    henchmen = await ok(h, "hire fighter", warband="Gobs", type="Forest Goblin", count=2)
    assert "spell" not in henchmen.text.lower()
