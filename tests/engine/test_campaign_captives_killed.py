"""Serious injury 61, the captors' own fates: an Undead captor kills its captive for a new Zombie
(free, within its list's limits), a Possessed one sacrifices him for its leader's +1 experience.
Either way the captive dies and his kit goes to the captor's stash, written on both warbands as
one action; no other captor is offered either, nor may do it."""

from __future__ import annotations

import pytest

from engine.campaign.service import Campaigns, Captives
from engine.errors import MordheimError, PermissionDenied

from tests.conftest import both_backends
from tests.engine.test_campaign_captives import capture, warband

pytestmark = both_backends

G, RED, DEAD, CULT = 1, 10, 30, 40
ADMIN = 99


@pytest.fixture()
def c(store):
    return Campaigns(store)


def undead(c: Campaigns, zombies: tuple[int, ...] = (), name: str = "Dead") -> None:
    """An Undead warband: its Vampire, and a Zombie group of each size in ``zombies``."""
    c.create_warband(G, DEAD, name, "Undead", gold_crowns=1000)
    c.hire_fighter(G, DEAD, False, name, "Vampire", name="Count")
    for n, size in enumerate(zombies, start=1):
        c.hire_fighter(G, DEAD, False, name, "Zombie", name=f"Shamblers {n}", count=size)


def cult(c: Campaigns, *, magister: bool = True) -> None:
    c.create_warband(G, CULT, "Cult", "Cult of the Possessed", gold_crowns=500)
    if magister:
        c.hire_fighter(G, CULT, False, "Cult", "Magister", name="Magus")
    c.hire_fighter(G, CULT, False, "Cult", "Mutant", name="Twisted")


def champion_held_by(c: Campaigns, captor: str):
    """Red lost to ``captor``, and Red Champion (Dagger, Sword) is held by it: the captive as its view shows him."""
    red = warband(c, "Red", RED)
    c.record_battle_between(G, RED, False, "Red", captor, result="loss")
    capture(c, "Red", RED, red["Red Champion"])
    return Captives(c.store).view(G, captor).held[0]


def zombies(c: Campaigns) -> list[tuple[str, int, str]]:
    return [(w.name, w.group_size, w.status) for w in c.get_warband(G, "Dead").warriors if w.fighter_type == "zombie"]


def test_only_a_list_with_zombies_or_the_cult_is_offered_its_fate(c):
    undead(c)
    cult(c)
    warband(c, "Blue", 20)
    cap = Captives(c.store)
    assert (cap.view(G, "Dead").fates, cap.view(G, "Cult").fates, cap.view(G, "Blue").fates) == (("zombie",), ("sacrifice",), ())


def test_an_undead_captor_kills_him_and_the_zombie_joins_its_group(c):
    undead(c, zombies=(2,))
    captive = champion_held_by(c, "Dead")
    cap = Captives(c.store)
    with pytest.raises(PermissionDenied):
        cap.raise_zombie(G, RED, False, captive.id)  # the captor decides
    with pytest.raises(MordheimError, match="Only the Cult of the Possessed may sacrifice a captive; Dead cannot"):
        cap.sacrifice(G, DEAD, False, captive.id)
    done = cap.raise_zombie(G, DEAD, False, captive.id)
    said = ("Dead killed Red Champion of Red and raised him as a Zombie (he joins Shamblers 1, now 3); his kit goes to the "
            "stash (Dagger, Sword).")
    assert done.lines == (said,)
    assert done.held == ()
    assert zombies(c) == [("Shamblers 1", 3, "active")]
    assert c.get_warband(G, "Dead").stash == ("Dagger", "Sword")
    dead = c.get_warrior(G, "Red", "Red Champion")
    assert dead.status == "dead" and dead.equipment == ()
    assert dead.injuries[-1] == "Captured (killed by his captors, raised as a Zombie)"
    assert Captives(c.store).view(G, "Red").taken == ()
    with pytest.raises(MordheimError, match="no longer held captive"):
        cap.raise_zombie(G, DEAD, False, captive.id)


def test_a_full_zombie_group_or_none_makes_a_new_group_of_one_with_the_lists_profile(c):
    undead(c, zombies=(5,))
    captive = champion_held_by(c, "Dead")
    done = Captives(c.store).raise_zombie(G, DEAD, False, captive.id)
    assert "(a new group of one, Zombie)" in done.lines[0]
    assert zombies(c) == [("Shamblers 1", 5, "active"), ("Zombie", 1, "active")]
    new = c.get_warrior(G, "Dead", "Zombie")
    assert (new.role, new.profile.as_dict()["WS"], new.experience, new.equipment) == ("henchmen", 2, 0, ())
    assert "gains-no-experience" in new.special_rules
    assert c.get_warband(G, "Dead").gold_crowns == 1000 - 110 - 5 * 15  # free: only the hires were paid


def test_a_warband_at_its_maximum_size_is_refused_the_zombie_and_nothing_changes(c):
    undead(c, zombies=(5, 5, 4))  # the Vampire and 14 Zombies: 15, the Undead's maximum
    captive = champion_held_by(c, "Dead")
    cap = Captives(c.store)
    before = (zombies(c), c.get_warband(G, "Dead").stash, c.get_warrior(G, "Red", "Red Champion").status)
    with pytest.raises(MordheimError) as refused:
        cap.raise_zombie(G, DEAD, False, captive.id)
    assert "Dead has no room for another Zombie, so Red Champion cannot be made one" in str(refused.value)
    assert "over its maximum" in str(refused.value)
    assert "may still sell him to the slavers" in refused.value.hint
    assert (zombies(c), c.get_warband(G, "Dead").stash, c.get_warrior(G, "Red", "Red Champion").status) == before
    assert [x.name for x in cap.view(G, "Dead").held] == ["Red Champion"]
    cap.sell(G, DEAD, False, captive.id, entered="2")  # the slavers still take him


def test_the_undo_of_the_zombie_takes_back_both_warbands_together(c):
    undead(c, zombies=(5,))
    captive = champion_held_by(c, "Dead")
    gold = c.get_warband(G, "Dead").gold_crowns
    Captives(c.store).raise_zombie(G, DEAD, False, captive.id)
    for owner, name in ((RED, "Red"), (DEAD, "Dead")):
        with pytest.raises(PermissionDenied, match="Dead's killing of Red Champion for a Zombie"):
            c.undo_last_batch(G, owner, False, name)
    undone = c.undo_last_batch(G, ADMIN, True, "Red")
    assert {(e.warband, e.what) for e in undone} == {("Red", "undo captive.killed"), ("Dead", "undo captive.kit"),
                                                     ("Dead", "undo captive.raised")}
    assert zombies(c) == [("Shamblers 1", 5, "active")]
    assert c.get_warband(G, "Dead").stash == () and c.get_warband(G, "Dead").gold_crowns == gold
    back = c.get_warrior(G, "Red", "Red Champion")
    assert back.status == "captured" and back.equipment == ("Dagger", "Sword")
    assert [x.name for x in Captives(c.store).view(G, "Dead").held] == ["Red Champion"]


def test_the_possessed_sacrifice_him_and_their_leader_gains_one_experience(c):
    cult(c)
    captive = champion_held_by(c, "Cult")
    cap = Captives(c.store)
    with pytest.raises(MordheimError, match="Only a warband whose list fields Zombies"):
        cap.raise_zombie(G, CULT, False, captive.id)
    done = cap.sacrifice(G, CULT, False, captive.id)
    assert done.lines == ("Cult sacrificed Red Champion of Red; his kit goes to the stash (Dagger, Sword).",
                          "Magus, its leader, gains +1 experience: 21. Next advance at 24.")
    assert c.get_warrior(G, "Cult", "Magus").experience == 21
    assert c.get_warband(G, "Cult").stash == ("Dagger", "Sword")
    dead = c.get_warrior(G, "Red", "Red Champion")
    assert (dead.status, dead.equipment, dead.injuries[-1]) == ("dead", (), "Captured (sacrificed by his captors)")
    for owner, name in ((RED, "Red"), (CULT, "Cult")):
        with pytest.raises(PermissionDenied, match="Cult's sacrifice of Red Champion"):
            c.undo_last_batch(G, owner, False, name)
    c.undo_last_batch(G, ADMIN, True, "Cult")
    assert c.get_warrior(G, "Cult", "Magus").experience == 20 and c.get_warband(G, "Cult").stash == ()
    assert c.get_warrior(G, "Red", "Red Champion").status == "captured"


def test_a_sacrifice_that_reaches_an_advance_says_so(c):
    cult(c)
    c.add_xp(G, CULT, False, "Cult", "Magus", 3)  # 23: the next advance is at 24
    captive = champion_held_by(c, "Cult")
    done = Captives(c.store).sacrifice(G, CULT, False, captive.id)
    assert done.lines[1] == ("Magus, its leader, gains +1 experience: 24. 1 advance reached (at 24): roll on the advance "
                             "table for it (`/roll 2d6`, then record it with `/warrior edit`).")


def test_a_cult_without_a_leader_still_sacrifices_and_nobody_gains_the_experience(c):
    cult(c, magister=False)
    captive = champion_held_by(c, "Cult")
    done = Captives(c.store).sacrifice(G, CULT, False, captive.id)
    assert done.lines[1] == "Cult has no leader: nobody gained the experience."
    assert c.get_warrior(G, "Red", "Red Champion").status == "dead"
    assert c.get_warrior(G, "Cult", "Twisted").experience == 0


def test_any_other_captor_may_neither_raise_nor_sacrifice_him(c):
    warband(c, "Blue", 20)
    captive = champion_held_by(c, "Blue")
    cap = Captives(c.store)
    with pytest.raises(MordheimError, match="Only a warband whose list fields Zombies \\(the Undead\\)"):
        cap.raise_zombie(G, 20, False, captive.id)
    with pytest.raises(MordheimError, match="Only the Cult of the Possessed"):
        cap.sacrifice(G, 20, False, captive.id)
    assert c.get_warrior(G, "Red", "Red Champion").status == "captured" and c.get_warband(G, "Blue").stash == ()


def test_a_captive_killed_by_captors_outside_the_server_is_recorded_by_his_owner(c):
    red = warband(c, "Red", RED)
    c.record_battle(G, RED, False, "Red", result="loss", opponents="Pete's Undead")
    capture(c, "Red", RED, red["Red Champion"])
    cap = Captives(c.store)
    captive = cap.view(G, "Red").taken[0]
    done = cap.settle_outside(G, RED, False, captive.id, "killed")
    assert done.lines == ("Red Champion was killed by his captors: he is dead, and his kit with them.",) and done.taken == ()
    dead = c.get_warrior(G, "Red", "Red Champion")
    assert (dead.status, dead.equipment, dead.injuries[-1]) == ("dead", (), "Captured (killed by his captors)")
    c.undo_last_batch(G, RED, False, "Red")
    assert [x.name for x in cap.view(G, "Red").taken] == ["Red Champion"]
