"""A roster against its warband list on a real SQLite file: what /warband check reports, costs, hand edits."""

from __future__ import annotations

import pytest

from engine.errors import MordheimError
from engine.campaign.service import Campaigns

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 3, 30
HUMAN = dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


@pytest.fixture
def c(store):
    campaigns = Campaigns(store)
    campaigns.create_warband(G, OWNER, "Reavers", "Reiklanders", gold_crowns=2000)
    return campaigns


def problems(c, name="Reavers"):
    return c.check_warband(G, name)[1].problems


def notes(c, name="Reavers"):
    return c.check_warband(G, name)[1].notes


def test_a_fresh_list_warband_needs_its_leader(c):
    assert problems(c) == ("The Reikland Mercenaries list needs at least 1 Mercenary Captain; this warband has 0.",)
    c.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")
    assert problems(c) == ()


def test_hand_edits_are_allowed_marked_and_checked(c):
    c.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")
    c.hire_fighter(G, OWNER, False, "Reavers", "Marksman", name="Eyes", count=2)
    c.edit_warrior(G, OWNER, False, "Reavers", "Otto", profile={"WS": 7, "Ld": 10}, skills=["Mighty Blow", "Sorcery"])
    c.equip(G, OWNER, False, "Reavers", "Eyes", "Halberd")
    c.equip(G, OWNER, False, "Reavers", "Eyes", "Laser pistol")
    otto = c.get_warrior(G, "Reavers", "Otto")
    assert otto.hand_edits == ("profile", "skills") and otto.fighter_type == "mercenary-captain"
    c.add_xp(G, OWNER, False, "Reavers", "Otto", 2)  # campaign bookkeeping is not a hand edit
    assert c.get_warrior(G, "Reavers", "Otto").hand_edits == ("profile", "skills")
    found = problems(c)
    assert "Otto: above the Human maximum: WS 7 (max 6), Ld 10 (max 9)." in found
    assert "Eyes: Halberd is not on the Marksman equipment list, which a Marksman buys from." in found
    assert "Eyes carries 'Laser pistol', which is not on any list or in the trading post." in found
    assert any(f.startswith("Otto: Only a warrior who casts spells or recites prayers may take Sorcery (Mordheim rulebook (2000)")
               for f in found)  # a hand edit is kept, and the check says what it breaks
    assert len(found) == 4  # Mighty Blow is a strength skill a captain may learn
    assert "Otto: changed by hand since hired (profile, skills)." in notes(c)
    assert "Eyes: changed by hand since hired (equipment)." in notes(c)


def test_counts_over_the_list_and_warriors_made_by_hand(c):
    c.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")
    c.add_warrior(G, OWNER, False, "Reavers", "Extra", role="hero", warrior_type="Sellsword", profile=HUMAN)
    for n in range(2):
        c.hire_fighter(G, OWNER, False, "Reavers", "Youngblood", name=f"Y{n}")
    with c.store.write() as conn:  # a third youngblood, as an edit of the type by hand could make
        conn.execute("UPDATE warriors SET fighter_type = 'youngblood' WHERE name = 'Extra'")
    assert "The Reikland Mercenaries list allows at most 2 Youngbloods; this warband would have 3." in problems(c)
    with c.store.write() as conn:
        conn.execute("UPDATE warriors SET fighter_type = NULL WHERE name = 'Extra'")
    with pytest.raises(MordheimError, match="one leader"):
        c.add_warrior(G, OWNER, False, "Reavers", "Boss", role="leader", warrior_type="Captain", profile=HUMAN)
    assert "Extra (Sellsword) was added by hand, not hired from the Reikland Mercenaries list: its type and kit are not checked." in notes(c)
    assert problems(c) == ()


def test_a_roster_already_over_a_limit_can_still_be_changed_otherwise(c):
    c.hire_fighter(G, OWNER, False, "Reavers", "Mercenary Captain", name="Otto")
    for n, size in enumerate((5, 5, 4)):  # 15 models: the list's maximum
        c.hire_fighter(G, OWNER, False, "Reavers", "Warrior", name=f"G{n}", count=size)
    with pytest.raises(MordheimError, match="over its maximum of 15"):
        c.hire_fighter(G, OWNER, False, "Reavers", "Warrior", name="G3")
    with c.store.write() as conn:  # one model too many, as an old file's import could bring
        conn.execute("UPDATE warriors SET group_size = 5 WHERE name = 'G2'")
    assert "The warband would have 16 warriors; its maximum is 15 for Reikland Mercenaries." in problems(c)
    c.buy(G, OWNER, False, "Reavers", "Sword", warrior="Otto")  # unrelated changes still go through
    c.edit_warrior(G, OWNER, False, "Reavers", "G2", group_size=4)  # and so does the fix
    assert problems(c) == ()
    with pytest.raises(MordheimError, match="would have 16 warriors"):
        c.edit_warrior(G, OWNER, False, "Reavers", "G2", group_size=5)  # but not a change that breaks it again


def test_costs_count_every_model_the_first_dagger_free(c):
    c.hire_fighter(G, OWNER, False, "Reavers", "Marksman", name="Eyes", count=3)
    for item in ("Dagger", "Bow"):  # hired with the free dagger: this one is the second
        c.buy(G, OWNER, False, "Reavers", item, warrior="Eyes")
    sheet = c.show_warband(G, "Reavers")
    eyes = next(w for w in sheet.warband.warriors if w.name == "Eyes")
    cost = sheet.costs[eyes.id]
    assert (cost.hire, cost.kit, cost.total) == (75, 3 * 2 + 3 * 10, 111)
    assert sheet.value == 111 == 2000 - sheet.warband.gold_crowns


def test_a_custom_warband_keeps_todays_manual_behaviour(c):
    c.create_warband(G, OWNER, "Pirates", "Goblin Pirates")
    assert c.get_warband(G, "Pirates").gold_crowns == 0 and c.get_warband(G, "Pirates").list_id is None
    c.add_warrior(G, OWNER, False, "Pirates", "Boss", role="leader", warrior_type="Boss", profile=HUMAN, equipment=["Cutlass"])
    sheet = c.show_warband(G, "Pirates")
    assert sheet.list_name is None and sheet.max_models == 15 and sheet.can_hire == ()
    assert sheet.max_models_reasons == ("15, the default for a custom warband",)
    assert problems(c, "Pirates") == ()
    assert notes(c, "Pirates") == ("A custom warband: there is no list to check its warriors' types and kit against.",)
    c.edit_warband(G, OWNER, False, "Pirates", warband_type="Skaven")  # a list's type links the list
    assert c.get_warband(G, "Pirates").list_id == "skaven"
    assert c.show_warband(G, "Pirates").max_models == 20


@pytest.mark.parametrize(("warband_type", "hero", "allowed"), [
    ("Middenheim", "Champion", 2), ("Skaven", "Black Skaven", 2), ("Skaven", "Night Runner", 2),
])
def test_a_new_roster_offers_every_hero_slot_its_list_allows(c, warband_type, hero, allowed):
    """Heroes are hired one at a time, but the sheet and the hire menu say how many more the list
    allows (a Middenheim warband may have two Champions: it showed '1 more', the menu 'up to 1')."""
    c.create_warband(G, OWNER, "Fresh", warband_type, gold_crowns=2000)
    choice = next(x for x in c.show_warband(G, "Fresh").can_hire if x.name == hero)
    assert choice.room == allowed
    menu = dict(c.fighter_choices(G, "Fresh", hero))
    label = next(k for k, v in menu.items() if v == hero)
    assert label.endswith(f"({allowed} more may join)")
    c.hire_fighter(G, OWNER, False, "Fresh", hero)
    assert next(x for x in c.show_warband(G, "Fresh").can_hire if x.name == hero).room == allowed - 1


def test_a_type_counted_past_one_is_named_in_the_plural():
    from engine.campaign.rules.roster import counted_name

    assert [counted_name(n, 2) for n in ("Champion", "Marksman", "Dire Wolf", "Black Skaven", "Beastmen", "Witch")] == [
        "Champions", "Marksmen", "Dire Wolves", "Black Skaven", "Beastmen", "Witches"]
    assert counted_name("Champion", 1) == "Champion"
