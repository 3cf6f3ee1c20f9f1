"""Death of the leader (LRB p. 78, engine/campaign/rules/succession.py): when the leader leaves the
roster for good, the hero with the highest Leadership takes command in the same ledger batch (undo
takes both back), the list's leader type may not be hired again, and the roster check stops asking
for one. Every path that can end a leader: /warrior injure, /warrior edit status, /warrior remove,
the post-battle injuries step and a captive sold to the slavers."""

from __future__ import annotations

import random

import pytest

from engine.campaign.model import Role
from engine.campaign.service import Campaigns, Captives, PostBattle
from engine.errors import MordheimError

from tests.conftest import both_backends
from tests.engine.test_campaign_postbattle_lists import Faces

pytestmark = both_backends

G, OWNER = 1, 10


@pytest.fixture()
def c(store):
    return Campaigns(store)


def reiklanders(c: Campaigns, name: str = "Red", owner: int = OWNER) -> None:
    c.create_warband(G, owner, name, "Reiklanders", gold_crowns=500)
    c.hire_fighter(G, owner, False, name, "Mercenary Captain", name="Captain")
    c.hire_fighter(G, owner, False, name, "Champion", name="Champion")
    c.hire_fighter(G, owner, False, name, "Youngblood", name="Youngblood")
    c.hire_fighter(G, owner, False, name, "Warrior", name="Guards", count=2)


def leader_of(c: Campaigns, name: str = "Red"):
    return [w for w in c.get_warband(G, name).warriors if w.role == Role.LEADER and w.status == "active"]


def test_the_champion_takes_command_when_the_captain_is_killed_and_undo_takes_both_back(c):
    reiklanders(c)
    notices: list[str] = []
    c.injure(G, OWNER, False, "Red", "Captain", "Dead", notices=notices)
    (heir,) = leader_of(c)
    assert heir.name == "Champion" and "leader" in heir.special_rules and heir.warrior_type == "Champion"
    assert "Champion (Champion) takes command, with the highest Leadership (7)" in notices[0]
    batch = c.undo_last_batch(G, OWNER, False, "Red")
    assert {e.what for e in batch} == {"undo injury", "undo leader.succession"}
    assert [w.name for w in leader_of(c)] == ["Captain"]
    assert "leader" not in c.get_warrior(G, "Red", "Champion").special_rules


def test_no_new_captain_may_be_hired_and_the_check_no_longer_asks_for_one(c):
    reiklanders(c)
    c.edit_warrior(G, OWNER, False, "Red", "Captain", status="dead")
    _band, check = c.check_warband(G, "Red")
    assert not any("Mercenary Captain" in p for p in check.problems), check.problems
    with pytest.raises(MordheimError, match="may not hire a new leader"):
        c.hire_fighter(G, OWNER, False, "Red", "Mercenary Captain")
    assert not any(label.startswith("Mercenary Captain") for label, _v in c.fighter_choices(G, "Red", ""))


def test_removing_the_leader_also_passes_command_and_a_tie_goes_to_experience_then_a_d6(c):
    reiklanders(c)
    c.edit_warrior(G, OWNER, False, "Red", "Youngblood", profile={"Ld": 7}, experience=3)
    notices: list[str] = []
    c.remove_warrior(G, OWNER, False, "Red", "Captain", notices=notices)
    assert [w.name for w in leader_of(c)] == ["Champion"]  # Ld 7 both; the Champion has 8 experience against 3
    assert "the most experience (8)" in notices[0]
    c.undo_last_batch(G, OWNER, False, "Red")
    c.edit_warrior(G, OWNER, False, "Red", "Youngblood", experience=8)
    c.remove_warrior(G, OWNER, False, "Red", "Captain", notices=notices)  # no dice: the players roll
    assert leader_of(c) == [] and "roll a D6 between them" in notices[0]
    c.undo_last_batch(G, OWNER, False, "Red")
    c.remove_warrior(G, OWNER, False, "Red", "Captain", notices=notices, rng=random.Random(3))
    assert len(leader_of(c)) == 1 and "then the highest D6" in notices[0] and "dice:" in notices[0]


def test_a_warband_with_no_hero_left_is_told_so(c):
    c.create_warband(G, OWNER, "Lone", "Reiklanders", gold_crowns=500)
    c.hire_fighter(G, OWNER, False, "Lone", "Mercenary Captain", name="Captain")
    c.hire_fighter(G, OWNER, False, "Lone", "Warrior", name="Guards", count=2)
    notices: list[str] = []
    c.injure(G, OWNER, False, "Lone", "Captain", "Dead", notices=notices)
    assert leader_of(c, "Lone") == [] and "no hero is left to take command" in notices[0]


def test_the_undead_necromancer_takes_over_and_a_new_vampire_takes_command_back(c):
    c.create_warband(G, OWNER, "Dead", "Undead", gold_crowns=900)
    c.hire_fighter(G, OWNER, False, "Dead", "Vampire", name="Count")
    c.hire_fighter(G, OWNER, False, "Dead", "Dreg", name="Igor")
    c.hire_fighter(G, OWNER, False, "Dead", "Necromancer", name="Nec")
    c.edit_warrior(G, OWNER, False, "Dead", "Igor", profile={"Ld": 9})  # the Necromancer takes over all the same
    c.injure(G, OWNER, False, "Dead", "Count", "Dead")
    assert [w.name for w in leader_of(c, "Dead")] == ["Nec"]
    hired = c.hire_fighter(G, OWNER, False, "Dead", "Vampire", name="Countess")
    assert [w.name for w in leader_of(c, "Dead")] == ["Countess"]
    assert c.get_warrior(G, "Dead", "Nec").role == Role.HERO and any("gives up command" in n for n in hired.notes)


def test_the_undead_without_a_necromancer_collapse(c):
    c.create_warband(G, OWNER, "Bones", "Undead", gold_crowns=900)
    c.hire_fighter(G, OWNER, False, "Bones", "Vampire", name="Count")
    c.hire_fighter(G, OWNER, False, "Bones", "Dreg", name="Igor")
    notices: list[str] = []
    c.injure(G, OWNER, False, "Bones", "Count", "Dead", notices=notices)
    assert leader_of(c, "Bones") == [] and "the warband collapses" in notices[0]


def test_the_post_battle_injuries_step_passes_command_in_the_sequence_batch(c):
    reiklanders(c)
    c.record_battle(G, OWNER, False, "Red", result="loss")
    captain = c.get_warrior(G, "Red", "Captain").id
    pb = PostBattle(c.store, Faces(*[1] * 12))
    v = pb.start(G, OWNER, False, "Red")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={captain: 1})
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version,
                         entered={captain: "11"})
    assert v.warrior(captain).status == "dead"
    assert any("Champion (Champion) takes command" in line for line in v.state.lines)
    assert [w.name for w in leader_of(c)] == ["Champion"]
    pb.cancel(G, OWNER, False, v.id)
    c.undo_last_batch(G, OWNER, False, "Red")
    assert [w.name for w in leader_of(c)] == ["Captain"]


def test_a_hero_captured_in_the_same_injuries_step_cannot_take_command(c):
    # a playtest: the captain killed and the champion captured by the same roll of injuries; the
    # champion was still counted when the captain's heir was chosen, before his own injury
    reiklanders(c)
    c.record_battle(G, OWNER, False, "Red", result="loss")
    captain, champion = c.get_warrior(G, "Red", "Captain").id, c.get_warrior(G, "Red", "Champion").id
    pb = PostBattle(c.store, Faces(*[1] * 12))
    v = pb.start(G, OWNER, False, "Red")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={captain: 1, champion: 1})
    v = pb.roll_injuries(G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version,
                         entered={captain: "11", champion: "61"})
    assert v.warrior(captain).status == "dead" and v.warrior(champion).status == "captured"
    assert any("Youngblood (Youngblood) takes command" in line for line in v.state.lines), v.state.lines
    assert [w.name for w in leader_of(c)] == ["Youngblood"]


def test_a_leader_sold_to_the_slavers_is_succeeded(c):
    from tests.engine.test_campaign_captives import capture, warband
    red = warband(c, "Red", OWNER)
    warband(c, "Blue", 20)
    c.record_battle_between(G, OWNER, False, "Red", "Blue", result="loss")
    capture(c, "Red", OWNER, red["Red Captain"])
    assert c.get_warrior(G, "Red", "Red Captain").role == Role.LEADER  # a captive still leads: he may come back
    assert c.get_warrior(G, "Red", "Red Champion").role == Role.HERO
    cap = Captives(c.store, random.Random(1))
    held = cap.view(G, "Blue").held
    notices: list[str] = []
    cap.sell(G, 20, False, held[0].id, notices=notices)
    assert [w.name for w in leader_of(c)] == ["Red Champion"] and "Red Champion" in notices[0]
