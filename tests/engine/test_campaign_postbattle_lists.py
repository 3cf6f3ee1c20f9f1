"""The post-battle sequence follows the server's warband lists, on a real SQLite file: a house
list's own skill lists and its hero limit, and a warband's size without its hired swords."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.campaign.service import PostBattle
from engine.errors import MordheimError
from engine.campaign.service import Campaigns

from tests.conftest import both_backends

pytestmark = both_backends

REPO = Path(__file__).resolve().parents[2]
G, OTHER_G, OWNER, ADMIN = 1, 2, 10, 30


class Faces(random.Random):
    """A generator whose dice show the scripted faces, in order (engine.dice.source reads a D6
    as int(random() * 6) + 1, so each face is given as the middle of its sixth)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        assert self.faces, "the test scripted too few dice"
        face = self.faces.pop(0)
        assert 1 <= face <= 6
        return (face - 0.5) / 6


def reikland(**changes) -> dict:
    """The bundled Reikland list as a server's house list replacing it (same id), with ``changes``."""
    data = json.loads((REPO / "rules_data" / "warbands" / "lists" / "reikland.json").read_text(encoding="utf-8"))
    data.update(source="House rules of our club", **changes)
    return data


def with_drills() -> dict:
    """Reikland whose Champions may also learn from a skill list of the house list's own."""
    data = reikland(skill_lists=[{
        "id": "reikland-drills", "name": "Reikland drills", "source": "House rules of our club",
        "skills": [{"id": "pike-drill", "name": "Pike Drill", "summary": "Strikes first with a spear when charged."}],
    }])
    champion = next(f for f in data["fighters"] if f["id"] == "champion")
    champion["skill_lists"] = [*champion["skill_lists"], "reikland-drills"]
    return data


@pytest.fixture()
def campaigns(store):
    return Campaigns(store)


def hire(c: Campaigns, guild: int, *, henchmen: tuple[str, ...] = ()) -> dict[str, int]:
    """Raiders from the server's Reikland list: Otto (captain, 20 xp), Hans (champion, 8 xp), and
    two warriors per henchman group named; a won battle recorded."""
    c.create_warband(guild, OWNER, "Raiders", "Reiklanders", gold_crowns=1000)
    c.hire_fighter(guild, OWNER, False, "Raiders", "Mercenary Captain", name="Otto")
    c.hire_fighter(guild, OWNER, False, "Raiders", "Champion", name="Hans")
    for group in henchmen:
        c.hire_fighter(guild, OWNER, False, "Raiders", "Warrior", name=group, count=2)
    c.record_battle(guild, OWNER, False, "Raiders", result="win")
    return {w.name: w.id for w in c.get_warband(guild, "Raiders").warriors}


def to_experience(pb: PostBattle, guild: int, *, kills=None, scenario=None):
    """Start the sequence, nobody out of action, then award the experience."""
    v = pb.start(guild, OWNER, False, "Raiders")
    v = pb.set_fighters(guild, OWNER, False, v.id, v.version, kills=kills, scenario=scenario)
    v = pb.confirm_fighters(guild, OWNER, False, v.id, v.version)
    v = pb.roll_injuries(guild, OWNER, False, v.id, v.version)
    return pb.apply_experience(guild, OWNER, False, v.id, v.version)


def test_a_new_skill_comes_from_the_house_lists_own_skill_list(campaigns):
    c = campaigns
    c.set_house_list(G, ADMIN, True, with_drills())
    ids = hire(c, G)
    assert "reikland-drills" in c.get_warrior(G, "Raiders", "Hans").skill_lists
    pb = PostBattle(c.store, Faces(1, 1))  # Hans's advance: 2D6 = 2, a new skill
    v = to_experience(pb, G, kills={ids["Hans"]: 2})  # 8 + survived 1 + two enemies 2 = 11: an advance
    assert [(p.kind, p.name) for p in v.state.pending] == [("skill", "Hans")]
    with pytest.raises(MordheimError, match="Sprint is not on Hans's skill lists") as refused:
        pb.choose(G, OWNER, False, v.id, v.version, ids["Hans"], "skill", "Sprint")  # Speed: not a champion's list
    assert "Pike Drill" in refused.value.hint
    v = pb.choose(G, OWNER, False, v.id, v.version, ids["Hans"], "skill", "pike drill")
    assert v.warrior(ids["Hans"]).skills == ("Pike Drill",) and v.state.step == "exploration"
    assert "Hans learnt Pike Drill" in v.state.lines


def test_the_house_lists_hero_limit_rolls_a_talent_again(campaigns):
    c = campaigns
    c.set_house_list(G, ADMIN, True, reikland(max_heroes=2))  # Otto and Hans fill it
    ids = hire(c, G, henchmen=("Lads",))
    # The Lads: 0 + survived 1 + scenario 1 = 2, an advance. 2D6 = 10, the lad's got talent: rolled
    # again with the heroes full; 2D6 = 8, +1 Attacks.
    pb = PostBattle(c.store, Faces(5, 5, 4, 4))
    v = to_experience(pb, G, scenario={ids["Lads"]: 1})
    assert v.state.pending == () and v.state.step == "exploration"
    assert v.warrior(ids["Lads"]).profile.A == 2
    assert any("The lad's got talent! rolled again: the warband has its most heroes" in line for line in v.state.lines)


def test_a_second_talent_finding_the_heroes_full_rolls_again_instead_of_waiting(campaigns):
    c = campaigns
    c.set_house_list(G, ADMIN, True, reikland(max_heroes=3))  # Otto, Hans and one more
    ids = hire(c, G, henchmen=("Lads", "Guards"))
    # Both groups roll 10-12: two talents wait while the warband has room for one more hero.
    pb = PostBattle(c.store, Faces(5, 5, 6, 6))
    v = to_experience(pb, G, scenario={ids["Lads"]: 1, ids["Guards"]: 1})
    assert [(p.kind, p.name) for p in v.state.pending] == [("talent", "Lads"), ("talent", "Guards")]
    # Young Karl's first advance 2D6 = 7 (+1 WS or BS, his choice); the other Lad 2D6 = 8, +1 A.
    pb.rng.faces = [3, 4, 4, 4]
    v = pb.choose(G, OWNER, False, v.id, v.version, ids["Lads"], "talent", "Young Karl", skill_lists=("combat", "shooting"))
    assert [w.name for w in v.warriors if w.is_hero] == ["Otto", "Hans", "Young Karl"]
    # the lad's got talent's two 2D6 (his first advance, the rest of his group's roll) are in the summary's dice
    assert {"Advance for Lads: 2D6 5+5 = 10", "Advance for Young Karl: 2D6 3+4 = 7", "Advance for Lads: 2D6 4+4 = 8"} <= set(v.state.dice)
    pb.rng.faces = [4, 4]  # the Guards roll again: 2D6 = 8, +1 A
    v = pb.choose(G, OWNER, False, v.id, v.version, ids["Guards"], "talent", "Young Max")
    assert [w.name for w in v.warriors if w.is_hero] == ["Otto", "Hans", "Young Karl"]
    assert v.warrior(ids["Guards"]).profile.A == 2 and v.warrior(ids["Guards"]).group_size == 2
    assert "Guards: Raiders already has its 3 heroes, so no lad becomes a hero; the group rolls again: +1 A" in v.state.lines
    assert [(p.kind, p.name) for p in v.state.pending] == [("choose", "Young Karl")]


def test_a_hired_sword_is_not_counted_for_the_income_chart_as_for_the_warbands_size(campaigns):
    """Hired swords neither fill the warband nor change the price of its wyrdstone (Hired Swords
    chapter; see engine/campaign/rules/roster.py): the sequence's size is the roster sheet's."""
    c = campaigns
    ids = hire(c, G)  # Otto and Hans
    lad = c.hire_fighter(G, OWNER, False, "Raiders", "Warrior", name="Lad").warrior  # 3 models
    scout = c.hire_sword(G, OWNER, False, "Raiders", "Halfling Scout", name="Pip").warrior
    upkeep = c.catalogue(G).hired_swords["halfling-scout"].upkeep
    pb = PostBattle(c.store, Faces())  # the bot rolls no die: nobody advances, the exploration dice are typed
    v = pb.start(G, OWNER, False, "Raiders")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, absent=[lad.id, scout.id])
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    v = pb.apply_experience(G, OWNER, False, v.id, pb.roll_injuries(G, OWNER, False, v.id, v.version).version)
    assert v.warrior(ids["Hans"]).experience == 9 and v.state.pending == ()
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="1 2 4")  # Otto, Hans, +1 for the win: 7, two shards
    assert v.state.step == "income" and v.wyrdstone_shards == 2
    assert v.warband_size == c.show_warband(G, "Raiders").models == 3  # four on the roster, the scout not counted
    assert v.sale_prices == ((0, 0), (1, 45), (2, 60))  # the 1-3 column (the 4-6 column pays 40 and 55)
    gold = v.gold_crowns
    v = pb.sell(G, OWNER, False, v.id, v.version, 2)
    assert upkeep and v.state.step == "trading"  # the scout did not fight: no upkeep is due for this battle
    assert v.gold_crowns == gold + 60 and "sold 2 shards for 60 gc" in v.summary()


def test_a_skill_its_own_limits_bar_is_neither_offered_nor_taken_when_typed(campaigns):
    """Battle Tongue is the leader's (Academic skills): a champion who may learn Academic skills
    under the house list is not offered it, and typing it is refused with the rule's source."""
    c = campaigns
    data = reikland()
    for fighter in data["fighters"]:
        if fighter["id"] == "champion":
            fighter["skill_lists"] = [*fighter["skill_lists"], "academic"]
    c.set_house_list(G, ADMIN, True, data)
    ids = hire(c, G)
    pb = PostBattle(c.store, Faces(1, 1))  # Hans's advance: 2D6 = 2, a new skill
    v = to_experience(pb, G, kills={ids["Hans"]: 2})
    offered = {name for group in v.skill_menu for name, _what in group.skills}
    assert {"Haggle", "Streetwise", "Arcane Lore"} <= offered
    assert not offered & {"Battle Tongue", "Sorcery", "Warrior Wizard"}  # the leader's; spellcasters' only
    with pytest.raises(MordheimError, match=r"Hans: Only the warband's leader may take Battle Tongue \(Mordheim rulebook \(2000\)"):
        pb.choose(G, OWNER, False, v.id, v.version, ids["Hans"], "skill", "battle tongue")
    with pytest.raises(MordheimError, match="Hans: Only a warrior who casts spells or recites prayers may take Sorcery"):
        pb.choose(G, OWNER, False, v.id, v.version, ids["Hans"], "skill", "Sorcery")
    v = pb.choose(G, OWNER, False, v.id, v.version, ids["Hans"], "skill", "Haggle")
    assert v.warrior(ids["Hans"]).skills == ("Haggle",)
