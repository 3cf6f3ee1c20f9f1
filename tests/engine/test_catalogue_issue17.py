"""The catalogue of issue 17: grades read, Dramatis Personae built as frozen objects and checked like
hired swords, hired swords' kit choices, skills and companions, and every warband's own skill lists
reaching its heroes."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from engine.campaign.lists.catalogue import DramatisPersona, HiredSword, build_catalogue, bundled_catalogue, read_bundled_files
from engine.errors import InvalidData

CATALOGUE = bundled_catalogue()


def test_every_list_hired_sword_and_character_has_its_grade():
    assert len(CATALOGUE.warbands) == 39 and len(CATALOGUE.hired_swords) == 43 and len(CATALOGUE.dramatis_personae) == 17
    assert CATALOGUE.grades() == ("1a", "1b")
    assert CATALOGUE.warbands["reikland"].grade == "1a" and CATALOGUE.warbands["pirates"].grade == "1b"
    assert all(x.grade in ("1a", "1b") for x in (*CATALOGUE.warbands.values(), *CATALOGUE.hired_swords.values(),
                                                 *CATALOGUE.dramatis_personae.values()))


def test_dramatis_personae_are_frozen_hired_swords_of_their_own():
    aenur = CATALOGUE.character("Sword of Twilight")
    assert isinstance(aenur, DramatisPersona) and isinstance(aenur, HiredSword) and aenur.is_character
    assert (aenur.hire_fee, aenur.upkeep, aenur.rating, aenur.grade) == (150, 0, 100, "1a")
    assert aenur.profile.WS == 8 > aenur.race.maximum.WS  # he never advances: his race only says what he is
    assert [g.name for g in aenur.gear] == ["Ienh-Khain, the Hand of Khaine"] and "Step Aside" in aenur.skills
    assert not aenur.may_be_hired_by("skaven") and aenur.may_be_hired_by("reikland")
    assert CATALOGUE.hireling("aenur") is aenur and CATALOGUE.hireling("ogre-bodyguard") is CATALOGUE.hired_swords["ogre-bodyguard"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        aenur.hire_fee = 0  # type: ignore[misc]
    ulli = CATALOGUE.character("Ulli and Marquand")
    assert [c.name for c in ulli.companions] == ["Ulli Leitpold"]


def test_hired_swords_carry_their_kit_choices_skills_notes_and_companions():
    ogre = CATALOGUE.hired_swords["ogre-bodyguard"]
    weapons = ogre.choices[0]
    assert weapons.default is None and weapons.option("two axes").items[0].id == "axe"
    slayer = CATALOGUE.hired_swords["dwarf-troll-slayer"]
    assert slayer.choices[0].default == 0 and [i.id for i in slayer.equipment] == ["axe", "axe"]
    assert CATALOGUE.hired_swords["arabian-merchant"].skills == ("Haggle",)
    assert CATALOGUE.hired_swords["old-prospector"].hire_note.startswith("Paid in treasure")
    assert [c.name for c in CATALOGUE.hired_swords["snake-charmer"].companions] == ["Snake"]


def test_every_warbands_own_skill_lists_reach_its_heroes():
    for w in CATALOGUE.warbands.values():
        learnt = {sl.id for f in w.fighters if f.is_hero for sl in f.skill_lists}
        assert set(w.skill_lists) <= learnt, w.id
    skaven = CATALOGUE.warbands["skaven"]
    assert "skaven" in [sl.id for sl in skaven.fighter("Assassin Adept").skill_lists]
    assert CATALOGUE.skill_named("wall runner").list_id == "skaven"


def broken(change) -> list[str]:
    files = copy.deepcopy(read_bundled_files())
    change(files)
    with pytest.raises(InvalidData) as caught:
        build_catalogue(files)
    return caught.value.problems


def test_a_character_with_broken_references_is_refused_with_every_problem():
    def spoil(files):
        johann = files["dramatis_personae.json"][1]["dramatis_personae"][1]
        johann["equipment"].append("laser-knife")
        johann["skills"].append("Knife Jugglery")
        johann["race"] = "martian"
        johann["may_be_hired_by"]["exclude"].append("atlanteans")
    problems = broken(spoil)
    for words in ("equipment 'laser-knife' is not an item", "skill 'Knife Jugglery' is on no skill list", "race 'martian'",
                  "may_be_hired_by names 'atlanteans'"):
        assert any(words in p and "johann-the-knife" in p for p in problems), words


def test_a_hired_sword_and_a_character_may_not_share_an_id_or_a_name_and_choices_must_resolve():
    def spoil(files):
        swords = files["hired_swords.json"][1]["hired_swords"]
        swords[0]["choices"][0]["options"][0]["items"] = ["lance-of-doom"]
        swords[1]["choices"] = [{"name": "Pot", "options": [{"name": "A", "items": ["helmet"]}, {"name": "B", "items": []}],
                                 "default": 5}]
        characters = files["dramatis_personae.json"][1]["dramatis_personae"]
        same_id, same_name = copy.deepcopy(characters[0]), copy.deepcopy(characters[0])
        same_id.update(id=swords[2]["id"], name="Someone Else", aliases=[])
        same_name.update(id="someone-new", name="Someone New", aliases=[swords[3]["name"]])
        characters += [same_id, same_name]
    problems = broken(spoil)
    assert any("names 'lance-of-doom', which is not an item" in p for p in problems)
    assert any("default 5 is not an option's index" in p for p in problems)
    assert any("is already a hired sword or character" in p for p in problems)
    assert any("already names hired sword" in p for p in problems)
