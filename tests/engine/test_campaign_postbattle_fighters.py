"""Who the post-battle sequence treats how: hired swords as the Hired Swords chapter says (a D6
out of action, experience as henchmen, advances on the heroes' table), and animals and fighters
whose rules say so gaining no experience."""

from __future__ import annotations

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.errors import MordheimError

from tests.conftest import both_backends
from tests.engine.test_campaign_postbattle_lists import Faces

pytestmark = both_backends

G, OWNER = 1, 10


@pytest.fixture()
def c(store):
    return Campaigns(store)


def raiders_with_a_scout(c: Campaigns, *, scout_xp: int = 0) -> dict[str, int]:
    """Otto (captain, 20 xp) and Hans (champion, 8 xp) of the Reikland list, Pip the Halfling
    Scout (``scout_xp``), a battle won."""
    c.create_warband(G, OWNER, "Raiders", "Reiklanders", gold_crowns=500)
    c.hire_fighter(G, OWNER, False, "Raiders", "Mercenary Captain", name="Otto")
    c.hire_fighter(G, OWNER, False, "Raiders", "Champion", name="Hans")
    c.hire_sword(G, OWNER, False, "Raiders", "Halfling Scout", name="Pip")
    if scout_xp:
        c.add_xp(G, OWNER, False, "Raiders", "Pip", scout_xp)
    c.record_battle(G, OWNER, False, "Raiders", result="win")
    return {w.name: w.id for w in c.get_warband(G, "Raiders").warriors}


def test_a_hired_sword_out_of_action_rolls_a_d6_as_a_henchman(c):
    ids = raiders_with_a_scout(c)
    pb = PostBattle(c.store, Faces())
    v = pb.start(G, OWNER, False, "Raiders")
    pip = v.state.fighter(ids["Pip"])
    assert pip.hired_sword and not pip.hero
    with pytest.raises(MordheimError, match="Pip is a hired sword .*only heroes gain experience for enemies"):
        pb.set_fighters(G, OWNER, False, v.id, v.version, kills={ids["Pip"]: 1})
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Pip"]: 1})
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    with pytest.raises(MordheimError, match="35 cannot be rolled on a D6"):  # a D66 is not his roll
        pb.roll_injuries(G, OWNER, False, v.id, v.version, entered={ids["Pip"]: "35"})
    v = pb.roll_injuries(G, OWNER, False, v.id, v.version, entered={ids["Pip"]: "2"})
    assert v.rolls == ("Pip, model 1 out of action: D6 2 (entered)",)
    assert "Pip — lost" in v.state.lines and v.warrior(ids["Pip"]).status == "dead"


def test_a_hired_sword_who_survives_the_d6_stays(c):
    ids = raiders_with_a_scout(c)
    pb = PostBattle(c.store, Faces())
    v = pb.start(G, OWNER, False, "Raiders")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Pip"]: 1})
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version,
                         entered={ids["Pip"]: "3"})
    assert "Pip — survives" in v.state.lines and v.warrior(ids["Pip"]).status == "active"
    assert v.warrior(ids["Pip"]).injuries == ()  # no serious injury chart


def test_a_hired_sword_advances_at_the_henchmens_thresholds_on_the_heroes_table(c):
    ids = raiders_with_a_scout(c, scout_xp=3)
    pb = PostBattle(c.store, Faces())  # 3 + 1 = 4: a hero's threshold, not a henchman's; nothing is rolled
    v = pb.start(G, OWNER, False, "Raiders")
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version)
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v.warrior(ids["Pip"]).experience == 4 and v.state.pending == () and "Pip +1 experience" in v.state.lines
    c.undo_last_batch(G, OWNER, False, "Raiders")

    c.add_xp(G, OWNER, False, "Raiders", "Pip", 1)  # 4 + 1 = 5: the henchmen's second threshold
    pb = PostBattle(c.store, Faces(1, 1))  # 2D6 = 2: the heroes' table gives a new skill (the henchmen's +1 I)
    v = pb.start(G, OWNER, False, "Raiders")
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version)
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert [(p.kind, p.name) for p in v.state.pending] == [("skill", "Pip")]
    with pytest.raises(MordheimError, match="not on Pip's skill lists"):
        pb.choose(G, OWNER, False, v.id, v.version, ids["Pip"], "skill", "Mighty Blow")  # strength: not his lists
    v = pb.choose(G, OWNER, False, v.id, v.version, ids["Pip"], "skill", "Sprint")  # speed
    assert v.warrior(ids["Pip"]).skills == ("Sprint",) and v.state.step == "exploration"


@pytest.mark.parametrize(("warband_type", "leader", "fighter", "rule"), [
    ("Skaven", "Assassin Adept", "Giant Rat", "animals"),
    ("Witch Hunters", "Witch Hunter Captain", "Warhound", "animals"),
    ("Undead", "Vampire", "Dire Wolf", "animals"),
    ("Undead", "Vampire", "Zombie", "their rules say so"),
])
def test_animals_and_fighters_that_gain_no_experience_gain_none(c, warband_type, leader, fighter, rule):
    c.create_warband(G, OWNER, "Pack", warband_type, gold_crowns=1000)
    c.hire_fighter(G, OWNER, False, "Pack", leader, name="Boss")
    c.hire_fighter(G, OWNER, False, "Pack", fighter, name="Beasts", count=2)
    c.record_battle(G, OWNER, False, "Pack", result="win")
    beasts = c.get_warrior(G, "Pack", "Beasts")
    pb = PostBattle(c.store, Faces())
    v = pb.start(G, OWNER, False, "Pack")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, scenario={beasts.id: 2})
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version)
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v.warrior(beasts.id).experience == 0 and v.state.pending == ()
    assert f"Beasts gain no experience ({rule})" in v.state.lines  # a group of two: plural
    assert v.warrior(c.get_warrior(G, "Pack", "Boss").id).experience > 0  # the leader still does


def test_kit_is_neither_bought_nor_sold_nor_handed_to_a_hired_sword(c):
    raiders_with_a_scout(c)
    c.buy(G, OWNER, False, "Raiders", "Sword")  # into the stash
    with pytest.raises(MordheimError, match="Pip is a hired sword: hired swords keep the kit they come with"):
        c.buy(G, OWNER, False, "Raiders", "Sword", warrior="Pip")
    with pytest.raises(MordheimError, match="Pip is a hired sword: his kit is his own and cannot be sold"):
        c.sell(G, OWNER, False, "Raiders", "Dagger", warrior="Pip")
    with pytest.raises(MordheimError, match="Pip is a hired sword: he keeps his own kit"):
        c.move(G, OWNER, False, "Raiders", "Sword", "Pip", to_stash=False)
