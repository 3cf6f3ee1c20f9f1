"""The stored post-battle sequence: steps in order, one ledger batch undone whole, stale presses,
a deleted warband, a warrior who did not fight, resuming on a new process."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine.campaign.service import PostBattle
from engine.campaign.rules.sequence import Fighter, Pending, SequenceState

from engine.errors import MordheimError, PermissionDenied
from engine.campaign.service import Campaigns

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER, OTHER = 1, 10, 99
P = dict(M=4, WS=4, BS=4, S=3, T=3, W=1, I=4, A=1, Ld=8)


def raiders(c: Campaigns, name="Reikland Raiders", result="win") -> dict[str, int]:
    c.create_warband(G, OWNER, name, "Reikland", gold_crowns=100)
    c.add_warrior(G, OWNER, False, name, "Captain", role="leader", warrior_type="Mercenary Captain", profile=P, experience=20)
    c.add_warrior(G, OWNER, False, name, "Hans", role="hero", warrior_type="Champion", profile=P, experience=8, equipment=["sword"])
    c.add_warrior(G, OWNER, False, name, "Otto", role="hero", warrior_type="Youngblood", profile=P, experience=1)
    c.add_warrior(G, OWNER, False, name, "Marksmen", role="henchmen", warrior_type="Marksman", profile=P, group_size=3, experience=1)
    c.record_battle(G, OWNER, False, name, result=result, scenario="Skirmish")
    return {w.name: w.id for w in c.get_warband(G, name).warriors}


@pytest.fixture()
def setup(open_database):
    c = Campaigns(open_database())
    yield c, PostBattle(c.store, random.Random(7)), open_database


def through_injuries(pb, ids, entered):
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Hans"]: 1, ids["Marksmen"]: 2}, kills={ids["Otto"]: 3})
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    return pb.roll_injuries(G, OWNER, False, v.id, v.version, entered=entered)


def settle(pb, v):
    """Answer every waiting choice: the first characteristic offered, or a new skill."""
    skills = iter(["Dodge", "Sprint", "Step Aside", "Lightning Reflexes", "Mighty Blow"])
    while v.state.pending:
        p = v.state.pending[0]
        value = p.options[0] if p.kind == "choose" else "Young Karl" if p.kind == "talent" else next(skills)
        v = pb.choose(G, OWNER, False, v.id, v.version, p.warrior_id, p.kind, value)
    return v


def test_a_whole_sequence_then_one_undo_takes_it_all_back(setup):
    c, pb, _ = setup
    ids = raiders(c)
    before = c.get_warband(G, "Reikland Raiders")
    v = through_injuries(pb, ids, {ids["Hans"]: "22", ids["Marksmen"]: "1 5"})
    assert v.state.step == "experience"
    assert v.warrior(ids["Hans"]).profile.M == 3 and v.warrior(ids["Marksmen"]).group_size == 2
    assert v.rolls == ("Serious injury for Hans: D66 22 (entered)", "Marksmen, model 1 out of action: D6 1 (entered)",
                       "Marksmen, model 2 out of action: D6 5 (entered)")
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v.warrior(ids["Otto"]).experience == 5  # survives +1, three enemies +3
    assert v.warrior(ids["Captain"]).experience == 22  # survives, winning leader
    skills = iter(["Dodge", "Sprint", "Step Aside"])
    while v.state.pending:
        p = v.state.pending[0]
        value = p.options[0] if p.kind == "choose" else next(skills)
        v = pb.choose(G, OWNER, False, v.id, v.version, p.warrior_id, p.kind, value)
    assert v.state.step == "exploration"
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="5 1 3")  # Captain, Otto, +1 for the win
    assert v.state.shards_found == 2 and v.wyrdstone_shards == 2 and v.state.step == "income"
    assert v.sale_prices[2] == (2, 55)  # 2 shards, 6 models (4-6 column)
    v = pb.sell(G, OWNER, False, v.id, v.version, 2)
    assert v.gold_crowns == 155 and v.wyrdstone_shards == 0
    c.buy(G, OWNER, False, "Reikland Raiders", "Dagger", warrior="Otto")  # trading: in the summary too
    v = pb.finish(G, OWNER, False, v.id, v.version)
    assert v.status == "finished"
    sections = dict(v.sections())
    assert list(sections) == ["Injuries", "Experience", "Exploration", "Wyrdstone and loot",
                              "Bought, sold and hired during the sequence", "Treasury"]
    assert sections["Injuries"] == ["Hans — Leg wound (−1 M)", "Marksmen — 1 of 2 out of action lost"]
    assert any(line.startswith("Otto +4 experience → advance:") for line in sections["Experience"])
    assert sections["Wyrdstone and loot"] == ["found 2 shards of wyrdstone", "sold 2 shards for 55 gc"]
    assert sections["Bought, sold and hired during the sequence"] == ["bought 1 x Dagger for Otto (-2 gc)"]
    assert sections["Treasury"] == ["153 gc and 0 shards of wyrdstone"]
    summary = v.summary()
    assert summary.startswith("Reikland Raiders after battle 1 (win, Skirmish)\n\nInjuries:\n- Hans — Leg wound (−1 M)\n")
    assert summary.endswith("Treasury:\n- 153 gc and 0 shards of wyrdstone")
    batch = {e.batch_id for e in c.ledger(G, "Reikland Raiders", limit=40) if e.what.startswith("postbattle")}
    assert len(batch) == 1
    c.undo_last_batch(G, OWNER, False, "Reikland Raiders")
    c.undo_last_batch(G, OWNER, False, "Reikland Raiders")  # the dagger, then the sequence
    after = c.get_warband(G, "Reikland Raiders")
    assert after.warriors == before.warriors and after.gold_crowns == 100 and after.wyrdstone_shards == 0
    again = pb.start(G, OWNER, False, "Reikland Raiders")  # undone: it may be run again
    assert again.state.step == "setup"


def test_a_second_press_or_another_device_is_refused_and_changes_nothing(setup):
    c, pb, _ = setup
    ids = raiders(c)
    v = through_injuries(pb, ids, {ids["Hans"]: "22", ids["Marksmen"]: "3 4"})
    stale = v.version - 1
    with pytest.raises(MordheimError, match="already taken"):
        pb.roll_injuries(G, OWNER, False, v.id, stale, entered={ids["Hans"]: "11"})
    assert c.get_warrior(G, "Reikland Raiders", "Hans").status == "active"
    v2 = pb.apply_experience(G, OWNER, False, v.id, v.version)
    with pytest.raises(MordheimError, match="already taken"):
        pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v2.warrior(ids["Captain"]).experience == 22


def test_only_one_sequence_per_warband_and_only_its_owner(setup):
    c, pb, _ = setup
    raiders(c)
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    with pytest.raises(MordheimError, match="already has a post-battle sequence open"):
        pb.start(G, OWNER, False, "Reikland Raiders")
    with pytest.raises(PermissionDenied):
        pb.confirm_fighters(G, OTHER, False, v.id, v.version)
    assert pb.confirm_fighters(G, OTHER, True, v.id, v.version).state.step == "injuries"  # Manage Server may
    with pytest.raises(MordheimError, match="no longer exists"):
        pb.get(2, v.id)  # another server never sees it


def test_a_warrior_who_did_not_fight(setup):
    c, pb, _ = setup
    ids = raiders(c)
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, absent=[ids["Otto"]])
    with pytest.raises(MordheimError, match="did not fight"):
        pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Otto"]: 1})
    with pytest.raises(MordheimError, match="did not fight"):
        pb.set_fighters(G, OWNER, False, v.id, v.version, kills={ids["Otto"]: 1})
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER, False, v.id, v.version)
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    assert v.warrior(ids["Otto"]).experience == 1  # no experience for a battle he missed


def test_bad_dice_leave_nothing_half_applied(setup):
    c, pb, _ = setup
    ids = raiders(c)
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    v = pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Hans"]: 1, ids["Marksmen"]: 1})
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    with pytest.raises(MordheimError, match="a D6, not a D66"):
        pb.roll_injuries(G, OWNER, False, v.id, v.version, entered={ids["Marksmen"]: "2", ids["Hans"]: "4"})
    assert c.get_warrior(G, "Reikland Raiders", "Marksmen").group_size == 3  # the henchman roll before it was not kept
    assert pb.get(G, v.id).version == v.version


def test_a_warband_deleted_mid_sequence(setup):
    c, pb, _ = setup
    raiders(c)
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    c.delete_warband(G, OWNER, False, "Reikland Raiders")
    with pytest.raises(MordheimError, match="its warband was deleted"):
        pb.confirm_fighters(G, OWNER, False, v.id, v.version)


def test_resume_after_a_restart(setup):
    c, pb, open_again = setup
    ids = raiders(c)
    v = through_injuries(pb, ids, {ids["Hans"]: "35 6", ids["Marksmen"]: "4 4"})  # deep wound: misses 3 games
    c.store.close()
    with open_again() as store:  # a new process on the same database
        c2 = Campaigns(store)
        pb2 = PostBattle(c2.store, random.Random(1))
        resumed = pb2.open_sequence(G, "Reikland Raiders")
        assert resumed.id == v.id and resumed.version == v.version and resumed.state.step == "experience"
        w = settle(pb2, pb2.apply_experience(G, OWNER, False, v.id, v.version))
        w = pb2.explore(G, OWNER, False, w.id, w.version, entered="4 2 1")
        assert w.state.step == "income"
        w = pb2.finish(G, OWNER, False, w.id, pb2.sell(G, OWNER, False, w.id, w.version, 0).version)
        assert c2.standings(G).rows[0].shards_found == 2  # total 7
        for n in range(4):  # Hans sits out the next three battles, then fights again
            c2.record_battle(G, OWNER, False, "Reikland Raiders", result="loss")
            nxt = pb2.start(G, OWNER, False, "Reikland Raiders")
            assert nxt.state.fighter(ids["Hans"]).fought == (n == 3)
            pb2.cancel(G, OWNER, False, nxt.id)


def test_no_battle_recorded(setup):
    c, pb, _ = setup
    c.create_warband(G, OWNER, "Fresh", "Reikland")
    with pytest.raises(MordheimError, match="no battle recorded"):
        pb.start(G, OWNER, False, "Fresh")


def test_the_upkeep_step_pays_each_hired_sword_who_fought_once_in_the_sequences_batch(setup):
    c, pb, _ = setup
    c.create_warband(G, OWNER, "Hirelings", "Reikland", gold_crowns=200)
    c.add_warrior(G, OWNER, False, "Hirelings", "Captain", role="leader", warrior_type="Mercenary Captain", profile=P)
    c.hire_sword(G, OWNER, False, "Hirelings", "Halfling Scout")  # fee 15, upkeep 5 (hired_swords.json)
    c.record_battle(G, OWNER, False, "Hirelings", result="loss")
    gold = c.get_warband(G, "Hirelings").gold_crowns
    v = pb.start(G, OWNER, False, "Hirelings")
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    v = settle(pb, pb.apply_experience(G, OWNER, False, v.id, pb.roll_injuries(G, OWNER, False, v.id, v.version).version))
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="2")
    v = pb.sell(G, OWNER, False, v.id, v.version, 1)  # 1 shard, 1 warrior (the scout does not count): 45 gc
    assert v.state.step == "upkeep" and v.gold_crowns == gold + 45  # not paid yet: a step of its own
    v = pb.pay_upkeep(G, OWNER, False, v.id, v.version)
    assert v.state.step == "trading" and v.gold_crowns == gold + 45 - 5 and v.state.lines[-1] == "upkeep Halfling Scout 5 gc"
    with pytest.raises(MordheimError, match="already paid the upkeep of Halfling Scout for battle 1"):
        c.pay_upkeep(G, OWNER, False, "Hirelings")  # /hire upkeep: once per battle
    v = pb.finish(G, OWNER, False, v.id, v.version)
    c.undo_last_batch(G, OWNER, False, "Hirelings")
    assert c.get_warband(G, "Hirelings").gold_crowns == gold  # sale and upkeep taken back together
    assert c.pay_upkeep(G, OWNER, False, "Hirelings").total == 5  # the payment undone, it is due again
    assert c.get_warband(G, "Hirelings").gold_crowns == gold - 5


def test_hire_upkeep_is_paid_once_per_battle_and_only_for_who_fought(setup):
    c, pb, _ = setup
    c.create_warband(G, OWNER, "Hirelings", "Reikland", gold_crowns=200)
    c.add_warrior(G, OWNER, False, "Hirelings", "Captain", role="leader", warrior_type="Mercenary Captain", profile=P)
    scout = c.hire_sword(G, OWNER, False, "Hirelings", "Halfling Scout").warrior
    with pytest.raises(MordheimError, match="fought no battle yet"):
        c.pay_upkeep(G, OWNER, False, "Hirelings")
    c.record_battle(G, OWNER, False, "Hirelings", result="win")
    paid = c.pay_upkeep(G, OWNER, False, "Hirelings")
    assert (paid.battle, paid.paid, paid.gold_left) == (1, (("Halfling Scout", 5),), 180)
    with pytest.raises(MordheimError, match="already paid the upkeep of Halfling Scout for battle 1"):
        c.pay_upkeep(G, OWNER, False, "Hirelings")
    assert c.get_warband(G, "Hirelings").gold_crowns == 180
    c.record_battle(G, OWNER, False, "Hirelings", result="loss")
    v = pb.start(G, OWNER, False, "Hirelings")
    pb.set_fighters(G, OWNER, False, v.id, v.version, absent=[scout.id])  # he sat this one out
    with pytest.raises(MordheimError, match="No hired sword of Hirelings fought battle 2"):
        c.pay_upkeep(G, OWNER, False, "Hirelings")


def test_a_hired_sword_let_go_at_the_upkeep_step_leaves_and_undo_brings_him_back(setup):
    c, pb, _ = setup
    c.create_warband(G, OWNER, "Hirelings", "Reikland", gold_crowns=200)
    c.add_warrior(G, OWNER, False, "Hirelings", "Captain", role="leader", warrior_type="Mercenary Captain", profile=P)
    scout = c.hire_sword(G, OWNER, False, "Hirelings", "Halfling Scout").warrior
    ogre = c.hire_sword(G, OWNER, False, "Hirelings", "Ogre Bodyguard", name="Grub", kit="Two swords").warrior  # upkeep 30
    c.record_battle(G, OWNER, False, "Hirelings", result="loss")
    gold = c.get_warband(G, "Hirelings").gold_crowns
    v = pb.start(G, OWNER, False, "Hirelings")
    v = settle(pb, pb.apply_experience(G, OWNER, False, v.id, pb.roll_injuries(
        G, OWNER, False, v.id, pb.confirm_fighters(G, OWNER, False, v.id, v.version).version).version))
    v = pb.sell(G, OWNER, False, v.id, pb.explore(G, OWNER, False, v.id, v.version, entered="1").version, 0)
    assert v.state.extra["upkeep"] == [[scout.id, 5], [ogre.id, 30]]
    with pytest.raises(MordheimError, match="Only a hired sword whose upkeep is due"):
        pb.pay_upkeep(G, OWNER, False, v.id, v.version, let_go=[v.state.fighters[0].warrior_id])
    v = pb.pay_upkeep(G, OWNER, False, v.id, v.version, let_go=[ogre.id])
    assert v.gold_crowns == gold - 5 and v.warrior(ogre.id).status == "retired"
    assert "Grub is not paid and leaves the warband (his experience is lost)" in v.state.lines
    assert c.show_warband(G, "Hirelings").rating.total < 100  # he no longer counts
    pb.finish(G, OWNER, False, v.id, v.version)
    c.undo_last_batch(G, OWNER, False, "Hirelings")
    assert c.get_warrior(G, "Hirelings", "Grub").status == "active" and c.get_warband(G, "Hirelings").gold_crowns == gold


def test_every_steps_answer_is_what_the_database_now_holds(setup):
    """A step builds its new view from what it wrote, without reading it back: it must be exactly
    what a fresh read shows (warriors in roster order, treasury, sale prices, state)."""
    c, pb, _ = setup
    ids = raiders(c)
    c.hire_sword(G, OWNER, False, "Reikland Raiders", "Halfling Scout")  # upkeep paid at the income step
    c.add_warrior(G, OWNER, False, "Reikland Raiders", "Karl", role="hero", warrior_type="Youngblood", profile=P)  # shown before older henchmen

    def same_as_stored(v):
        stored = pb.get(G, v.id)
        assert v == dataclasses.replace(stored, rolls=v.rolls)
        warband = c.get_warband(G, "Reikland Raiders")
        assert v.warriors == warband.warriors  # the roster sheet's order: leader, heroes, the rest
        assert (v.gold_crowns, v.wyrdstone_shards) == (warband.gold_crowns, warband.wyrdstone_shards)
        return v

    v = same_as_stored(pb.start(G, OWNER, False, "Reikland Raiders"))
    v = same_as_stored(pb.set_fighters(G, OWNER, False, v.id, v.version, out_of_action={ids["Hans"]: 1, ids["Marksmen"]: 2},
                                       kills={ids["Otto"]: 3}))
    v = same_as_stored(pb.confirm_fighters(G, OWNER, False, v.id, v.version))
    v = same_as_stored(pb.roll_injuries(G, OWNER, False, v.id, v.version, entered={ids["Hans"]: "22", ids["Marksmen"]: "1 5"}))
    v = same_as_stored(pb.apply_experience(G, OWNER, False, v.id, v.version))
    skills = iter(["Dodge", "Sprint", "Step Aside"])
    while v.state.pending:
        p = v.state.pending[0]
        value = p.options[0] if p.kind == "choose" else next(skills)
        v = same_as_stored(pb.choose(G, OWNER, False, v.id, v.version, p.warrior_id, p.kind, value))
    v = same_as_stored(pb.explore(G, OWNER, False, v.id, v.version, entered="5 1 3 2"))
    v = same_as_stored(pb.sell(G, OWNER, False, v.id, v.version, 1))
    v = same_as_stored(pb.pay_upkeep(G, OWNER, False, v.id, v.version))
    assert v.state.lines[-1].startswith("upkeep ")
    v = same_as_stored(pb.finish(G, OWNER, False, v.id, v.version))
    assert v.status == "finished"


def test_the_state_is_stored_as_asdict_would_write_it():
    fighters = tuple(Fighter(n, f"W{n}", n < 3, 1 + n % 3, fought=n != 4, out_of_action=n % 2, kills=n, scenario=-1) for n in range(6))
    state = SequenceState(step="experience", won=True, battle="battle 3 (win, Skirmish)", fighters=fighters,
                          pending=(Pending("choose", 3, "W3", ("WS", "BS"), "roll 10"), Pending("skill", 1, "Hans Ölmann")),
                          lines=("Hans — Leg wound (−1 M)",), dice=("D66 22",), raised=((3, "WS"),), missed=((2, 1),), captured=(5,),
                          explore_dice=(1, 5, 5), shards_found=2, items_found=("Sword",), notes=("a note",),
                          extra={"experience_done": True, "awards": ["Hans: survived +1"], "exploration": ["found a well"]})
    assert state.to_json() == json.dumps(dataclasses.asdict(state), ensure_ascii=False, separators=(",", ":"))
    assert SequenceState.from_json(state.to_json()) == state


def test_a_stored_fighter_is_read_back_as_his_init_makes_him():
    """``Fighter.from_stored`` skips the dataclass's __init__: the fighter is the same in every way,
    a fighter stored before a field was added gets its default, and a broken one is refused."""
    stored = {"warrior_id": 7, "name": "Hans", "hero": True, "models": 1, "fought": True, "out_of_action": 1, "kills": 2,
              "scenario": -1, "hired_sword": False, "counters": 3, "feat": True}
    old = {k: v for k, v in stored.items() if k not in ("counters", "feat")}
    for raw in (stored, old):
        read, made = Fighter.from_stored(raw), Fighter(**raw)
        assert (read, hash(read), repr(read), vars(read)) == (made, hash(made), repr(made), vars(made))
        assert read.counters_held == made.counters_held
    with pytest.raises(dataclasses.FrozenInstanceError):
        Fighter.from_stored(stored).kills = 3  # type: ignore[misc]
    for broken in ({**stored, "bogus": 1}, {"name": "Hans"}):
        with pytest.raises(TypeError):
            Fighter.from_stored(broken)


@pytest.mark.sqlite_only  # reads SQLite's query plans
def test_no_step_and_no_standings_read_the_whole_ledger(setup):
    """Every statement a sequence and the standings run finds its ledger rows through an index,
    so a step costs the same however long the ledgers of this server and every other have grown
    (a batch's rows were once found by scanning the whole ledger, every step)."""
    c, pb, _ = setup
    ids = raiders(c)
    statements: set[str] = set()
    store = c.store
    for conn in (store._conn, store._reader()):  # the write connection and this thread's reads
        conn.set_trace_callback(statements.add)
    try:
        v = through_injuries(pb, ids, {ids["Hans"]: "22", ids["Marksmen"]: "1 5"})
        v = settle(pb, pb.apply_experience(G, OWNER, False, v.id, v.version))
        v = pb.explore(G, OWNER, False, v.id, v.version, entered="5 1 3")
        v = pb.finish(G, OWNER, False, v.id, pb.sell(G, OWNER, False, v.id, v.version, 0).version)
        c.standings(G)
        assert c.remembered_standings(G) is not None
    finally:
        for conn in (store._conn, store._reader()):
            conn.set_trace_callback(None)
    reading_the_ledger = [s for s in statements if "FROM ledger" in s and s.lstrip().upper().startswith("SELECT")]
    assert reading_the_ledger
    with store.read() as r:
        for sql in reading_the_ledger:
            plan = [row["detail"] for row in r.all("EXPLAIN QUERY PLAN " + sql)]
            assert not any(step.startswith("SCAN") and step != "SCAN CONSTANT ROW" for step in plan), (sql, plan)


def _one_sequence(c, pb, *, experience_dice: dict[int, str], scenario: dict[int, int] | None = None):
    """A sequence after the warband's newest battle, nobody out of action, the advance dice typed, to the end."""
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    if scenario:
        v = pb.set_fighters(G, OWNER, False, v.id, v.version, scenario=scenario)
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)
    v = pb.roll_injuries(G, OWNER, False, v.id, v.version)
    xp = pb.apply_experience(G, OWNER, False, v.id, v.version, entered=experience_dice)
    v = settle(pb, xp)
    v = pb.explore(G, OWNER, False, v.id, v.version, entered="1 2 4 6")  # three searching heroes, +1 for the win: no place
    v = pb.sell(G, OWNER, False, v.id, v.version, 0)
    pb.finish(G, OWNER, False, v.id, v.version)
    return xp


def test_a_henchman_groups_plus_one_limit_counts_what_its_earlier_sequences_raised(setup):
    # Henchmen raise each characteristic by +1 at most (the advance table's max_gain, rules_data/campaign/lrb.json
    # henchman_advances): a step reads the characteristics its finished, not undone sequences raised.
    c, pb, _ = setup
    ids = raiders(c)
    first = _one_sequence(c, pb, experience_dice={ids["Marksmen"]: "2 2"})  # 1 + 1 = 2 xp: an advance, 4: +1 Initiative
    assert "Marksmen +1 experience → advance: +1 I" in first.state.lines
    c.record_battle(G, OWNER, False, "Reikland Raiders", result="win", scenario="Skirmish")
    second = _one_sequence(c, pb, experience_dice={ids["Marksmen"]: "1 2 3 2"}, scenario={ids["Marksmen"]: 2})  # 2 + 3 = 5 xp
    line = next(x for x in second.state.lines if x.startswith("Marksmen"))
    assert "+1 Initiative rolled again: Marksmen cannot take it (racial maximum or +1 already taken)" in line
    assert line.endswith("+1 S (+1 Initiative rolled again: Marksmen cannot take it (racial maximum or +1 already taken))")
    for _batch in ("the second sequence", "the second battle", "the first sequence: its +1 Initiative no longer counts"):
        c.undo_last_batch(G, OWNER, False, "Reikland Raiders")
    again = _one_sequence(c, pb, experience_dice={ids["Marksmen"]: "2 2"})
    assert "Marksmen +1 experience → advance: +1 I" in again.state.lines


def test_a_cancelled_sequence_that_took_steps_cannot_be_run_again_for_its_battle_until_undone(setup):
    # a playtest: cancel after experience, start again, and the battle's experience was paid twice
    c, pb, _ = setup
    ids = raiders(c)
    v = through_injuries(pb, ids, {ids["Hans"]: "45", ids["Marksmen"]: "5 6"})
    v = pb.apply_experience(G, OWNER, False, v.id, v.version)
    paid = c.get_warrior(G, "Reikland Raiders", "Captain").experience
    assert paid == 22
    pb.cancel(G, OWNER, False, v.id)
    with pytest.raises(MordheimError, match="took steps of a post-battle sequence for that battle before it was cancelled"):
        pb.start(G, OWNER, False, "Reikland Raiders")
    assert c.get_warrior(G, "Reikland Raiders", "Captain").experience == paid  # nothing paid twice
    c.undo_last_batch(G, OWNER, False, "Reikland Raiders")  # the cancelled sequence's steps go back together
    assert c.get_warrior(G, "Reikland Raiders", "Captain").experience == 20
    v = pb.start(G, OWNER, False, "Reikland Raiders")  # and the battle's sequence runs again
    assert v.state.step == "setup"


def test_a_sequence_cancelled_before_any_change_can_be_started_again(setup):
    c, pb, _ = setup
    raiders(c)
    v = pb.start(G, OWNER, False, "Reikland Raiders")
    v = pb.confirm_fighters(G, OWNER, False, v.id, v.version)  # who fought: nothing of the warband changes yet
    pb.cancel(G, OWNER, False, v.id)
    assert pb.start(G, OWNER, False, "Reikland Raiders").state.step == "setup"


def test_resuming_a_sequence_undone_meanwhile_closes_it_and_says_so(setup):
    # a playtest: /postbattle resume showed an undone sequence as open, and its buttons then refused
    c, pb, _ = setup
    ids = raiders(c)
    through_injuries(pb, ids, {ids["Hans"]: "22", ids["Marksmen"]: "1 5"})  # a leg wound, a marksman lost
    undone = c.undo_last_batch(G, OWNER, False, "Reikland Raiders")  # its injuries step taken back
    assert {e.what for e in undone} == {"undo postbattle.injury"}
    with pytest.raises(MordheimError, match="taken back with `/warband undo`, so it is closed now"):
        pb.resume(G, OWNER, False, "Reikland Raiders")
    assert pb.resume(G, OWNER, False, "Reikland Raiders") is None  # closed, not open any more
    assert pb.start(G, OWNER, False, "Reikland Raiders").state.step == "setup"
