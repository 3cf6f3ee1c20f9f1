"""Who may take which skill (engine/campaign/rules/skill_rules.py): the advance menus and the
limits each skill's data names (rules_data/warbands/skills.json ``takers``)."""

from __future__ import annotations

import pytest

from engine.campaign.actions.postbattle import skill_menu, skills_he_may_learn
from engine.campaign.lists.catalogue import bundled_catalogue
from engine.campaign.model import Profile, Role, Status, Warrior
from engine.campaign.rules import skill_rules

CATALOGUE = bundled_catalogue()


def hero(warband_id: str, fighter_id: str, *, id: int = 1, name: str = "Anna", skills: tuple[str, ...] = (),
         equipment: tuple[str, ...] = ()) -> Warrior:
    """A warrior hired from a bundled list, as hiring stores him."""
    wlist = CATALOGUE.warbands[warband_id]
    f = wlist.fighter_by_id(fighter_id)
    assert f is not None
    return Warrior(id=id, warband="Band", name=name, role=Role(f.role), warrior_type=f.name, group_size=1,
                   profile=Profile(**f.profile.as_dict()), equipment=equipment, skills=skills, injuries=(), experience=20,
                   status=Status.ACTIVE, large=False, fighter_type=f.id, race=f.race,
                   skill_lists=tuple(sl.id for sl in f.skill_lists), special_rules=tuple(r.id for r in f.special_rules))


def offered(w: Warrior, warband_id: str, warband: tuple[Warrior, ...] = ()) -> set[str]:
    return {name for group in skill_menu(w, CATALOGUE, CATALOGUE.warbands[warband_id], warband) for name, _ in group.skills}


def test_a_sister_superior_is_offered_no_skill_she_may_not_take():
    menu = offered(hero("sisters-of-sigmar", "sister-superior"), "sisters-of-sigmar")
    assert {"Haggle", "Streetwise", "Wyrdstone Hunter", "Sign of Sigmar", "Strike to Injure"} <= menu
    # leader only; spellcasters only; Arcane Lore: not for Sisters of Sigmar; the Matriarch's own
    assert not menu & {"Battle Tongue", "Sorcery", "Warrior Wizard", "Arcane Lore", "Utter Determination"}


def test_the_matriarch_prays_but_sorcery_and_arcane_lore_are_not_for_sisters():
    menu = offered(hero("sisters-of-sigmar", "sigmarite-matriarch"), "sisters-of-sigmar")
    assert {"Battle Tongue", "Warrior Wizard", "Utter Determination"} <= menu
    assert not menu & {"Sorcery", "Arcane Lore"}


def test_a_skaven_leader_who_casts_no_spells_is_not_offered_sorcery():
    menu = offered(hero("skaven", "assassin-adept"), "skaven")
    assert "Battle Tongue" in menu and not menu & {"Sorcery", "Warrior Wizard"}
    sorcerer = offered(hero("skaven", "eshin-sorcerer"), "skaven")
    assert {"Sorcery", "Warrior Wizard", "Arcane Lore"} <= sorcerer and "Battle Tongue" not in sorcerer


def test_a_warrior_priest_may_not_take_sorcery_nor_arcane_lore():
    menu = offered(hero("witch-hunters", "warrior-priest"), "witch-hunters")
    assert "Warrior Wizard" in menu and not menu & {"Sorcery", "Arcane Lore"}


def test_arcane_lore_with_a_tome_of_magic_makes_him_a_spellcaster():
    captain = hero("reikland", "mercenary-captain", skills=("Arcane Lore",))
    assert "Sorcery" not in offered(captain, "reikland")
    with_tome = hero("reikland", "mercenary-captain", skills=("Arcane Lore",), equipment=("Tome of magic",))
    assert {"Sorcery", "Warrior Wizard"} <= offered(with_tome, "reikland")


def test_a_skill_only_so_many_of_a_warband_may_have_and_one_that_needs_another_first():
    first = hero("dark-elves", "fellblade", id=1, name="Ilth", skills=("Powerful build",))
    second = hero("dark-elves", "beastmaster", id=2, name="Vor", skills=("Powerful build",))
    third = hero("dark-elves", "high-born", id=3, name="Mal")
    assert "Powerful build" in offered(third, "dark-elves", (third,))
    assert "Powerful build" not in offered(third, "dark-elves", (first, second, third))
    assert "Powerful build" not in offered(hero("dark-elves", "sorceress"), "dark-elves")
    priest = hero("skaven-of-clan-pestilens", "plague-priest")
    assert "Censer Bearer" not in offered(priest, "skaven-of-clan-pestilens")
    hungry = hero("skaven-of-clan-pestilens", "plague-priest", skills=("Black Hunger",))
    assert "Censer Bearer" in offered(hungry, "skaven-of-clan-pestilens")


def test_a_typed_skill_is_checked_as_the_menu_is():
    sister = hero("sisters-of-sigmar", "sister-superior")
    wlist = CATALOGUE.warbands["sisters-of-sigmar"]
    assert "Battle Tongue" not in (skills_he_may_learn(sister, CATALOGUE, wlist) or [])
    refused = skill_rules.typed_refusal(sister, CATALOGUE, wlist, "arcane lore")
    assert refused is not None and refused.startswith("Anna: Sisters of Sigmar may not take Arcane Lore (Mordheim rulebook (2000)")
    assert skill_rules.typed_refusal(sister, CATALOGUE, wlist, "Haggle") is None


@pytest.mark.parametrize("skill_list", ["Academic skills", "Sisters of Sigmar skills", "Combat skills"])
def test_a_skills_kind_reads_as_english(skill_list):
    found = next(sl for sl in [*CATALOGUE.skill_lists.values(), *CATALOGUE.warbands["sisters-of-sigmar"].skill_lists.values()]
                 if sl.name == skill_list)
    assert skill_rules.kind_of(found) == {"Academic skills": "an Academic skill", "Sisters of Sigmar skills": "a Sisters of Sigmar skill",
                                          "Combat skills": "a Combat skill"}[skill_list]


def test_every_skill_limit_names_what_the_lists_define():
    """A limit naming a warband, a fighter, a skill or a spellcasting rule that does not exist would never apply."""
    fighters = {f"{w.id}/{f.id}" for w in CATALOGUE.warbands.values() for f in w.fighters}
    fighters |= set(CATALOGUE.hired_swords) | set(CATALOGUE.dramatis_personae)
    skill_ids = {s.id for sl in [*CATALOGUE.skill_lists.values(), *(sl for w in CATALOGUE.warbands.values() for sl in w.skill_lists.values())]
                 for s in sl.skills}
    rules = set(CATALOGUE.special_rules) | {r.id for w in CATALOGUE.warbands.values() for f in w.fighters for r in f.special_rules}
    rules |= {r.id for s in CATALOGUE.hired_swords.values() for r in s.special_rules}
    limited = 0
    for sl in [*CATALOGUE.skill_lists.values(), *(sl for w in CATALOGUE.warbands.values() for sl in w.skill_lists.values())]:
        for skill in sl.skills:
            t = skill.takers
            if t is None:
                continue
            limited += 1
            assert t.source and set(t.not_warbands) <= set(CATALOGUE.warbands), skill.id
            assert set(t.not_fighters) | set(t.only_fighters) <= fighters, skill.id
            assert t.needs_skill is None or t.needs_skill in skill_ids, skill.id
    assert limited >= 15
    assert CATALOGUE.spellcasters.special_rules <= rules
    assert all(s in skill_ids and i in CATALOGUE.items for s, i in CATALOGUE.spellcasters.with_skill_and_item)
