"""The battle tracker's rules as pure functions: the Rout threshold and who takes the test (000:813-821,
hired swords counted but never their Leadership), the recovery phase (000:301), turn order, kills,
the Leadership test with typed dice, and the facts that fill in a post-battle sequence."""

from __future__ import annotations

import json
import random
from dataclasses import fields, replace

import pytest

from engine.campaign.rules import game_rules
from engine.campaign.rules.battle_facts import BattleFacts, WarriorFacts, prefilled
from engine.campaign.rules.game_state import PIECE_FIELDS, Change, GameState, Piece, PieceState, Side, SideStatus, _row
from engine.campaign.rules.sequence import Fighter
from engine.dice.source import Dice
from engine.errors import MordheimError


def piece(key: str, role: str = "henchmen", ld: int = 7, state: PieceState = PieceState.STANDING, **more) -> Piece:
    return Piece(key=key, warrior_id=int(key.split(".")[0]), name=f"W{key}", role=role, leadership=ld, state=state, **more)


def side(*pieces: Piece, status: SideStatus = SideStatus.FIGHTING) -> Side:
    return Side(warband_id=1, warband="Band", owner_id=1, pieces=pieces, status=status)


@pytest.mark.parametrize("models,threshold", [(12, 3), (6, 2), (5, 2), (4, 1), (20, 5), (1, 1)])
def test_the_rout_test_is_due_at_a_quarter_rounded_up(models, threshold):
    s = side(*(piece(str(n)) for n in range(1, models + 1)))
    assert game_rules.rout_threshold(s) == threshold  # 000:813: "twelve warriors ... three or more"
    out = side(*(piece(str(n), state=PieceState.OUT_OF_ACTION if n <= threshold else PieceState.STANDING)
                 for n in range(1, models + 1)))
    assert game_rules.must_test_rout(out)
    one_less = side(*(piece(str(n), state=PieceState.OUT_OF_ACTION if n < threshold else PieceState.STANDING)
                      for n in range(1, models + 1)))
    assert not game_rules.must_test_rout(one_less)


def test_hired_swords_count_and_absent_warriors_do_not():
    s = side(piece("1", "leader"), piece("2", "hired_sword"), piece("3"), piece("4", state=PieceState.ABSENT))
    assert game_rules.models(s) == 3 and game_rules.rout_threshold(s) == 1


def test_the_rout_test_uses_the_leader_unless_out_of_action_or_stunned_and_never_a_hired_sword():
    leader = piece("1", "leader", ld=8)
    ogre = piece("2", "hired_sword", ld=9)
    hero = piece("3", "hero", ld=7)
    assert game_rules.rout_leader(side(leader, ogre, hero)) == leader
    down = piece("1", "leader", ld=8, state=PieceState.KNOCKED_DOWN)  # knocked down: still his (000:819)
    assert game_rules.rout_leader(side(down, ogre, hero)) == down
    for state in (PieceState.OUT_OF_ACTION, PieceState.STUNNED):
        gone = piece("1", "leader", ld=8, state=state)
        assert game_rules.rout_leader(side(gone, ogre, hero)) == hero  # the best remaining, not the Ogre's 9
    stunned_hero = piece("3", "hero", ld=7, state=PieceState.STUNNED)
    rat = piece("4", ld=5)
    assert game_rules.rout_leader(side(piece("1", "leader", state=PieceState.OUT_OF_ACTION), ogre, stunned_hero, rat)) == rat
    assert game_rules.rout_leader(side(piece("1", "leader", state=PieceState.OUT_OF_ACTION), ogre)) is None


def test_the_recovery_phase_stands_up_the_knocked_down_and_turns_the_stunned_over():
    s = side(piece("1", state=PieceState.STUNNED), piece("2", state=PieceState.KNOCKED_DOWN),
             piece("3", state=PieceState.OUT_OF_ACTION), piece("4", state=PieceState.FLED), piece("5", state=PieceState.HIDDEN))
    after, changed = game_rules.recover(s, version=7)
    assert [p.state for p in after.pieces] == [PieceState.KNOCKED_DOWN, PieceState.STANDING, PieceState.OUT_OF_ACTION,
                                               PieceState.FLED, PieceState.HIDDEN]
    assert [b.key for b, _ in changed] == ["1", "2"] and all(a.changed == 7 for _, a in changed)
    assert game_rules.RECOVERY[PieceState.STUNNED][1].startswith("000:301")


def test_turns_go_round_the_warbands_still_fighting():
    a, b, c = (Side(warband_id=n, warband=f"B{n}", owner_id=n, pieces=(piece("1"),)) for n in range(3))
    state = GameState(scenario="Skirmish", sides=(a, b, c))
    assert game_rules.next_turn(state) == (1, 1)
    assert game_rules.next_turn(GameState(scenario="x", sides=(a, b, c), side=2)) == (0, 2)
    routed = Side(warband_id=1, warband="B1", owner_id=1, pieces=(piece("1"),), status=SideStatus.ROUTED)
    assert game_rules.next_turn(GameState(scenario="x", sides=(a, routed, c))) == (2, 1)


def test_kills_are_a_heros_and_the_facts_fill_in_the_sequence():
    reds = Side(warband_id=1, warband="Reds", owner_id=1, pieces=(piece("1", "leader"), piece("2", "hired_sword"),
                                                                  piece("3.1"), piece("3.2")))
    blues = Side(warband_id=2, warband="Blues", owner_id=2, pieces=(
        piece("7", "hero", state=PieceState.OUT_OF_ACTION, taken_out_by="0:1"),
        piece("8.1", state=PieceState.OUT_OF_ACTION, taken_out_by="0:1"),
        piece("8.2", state=PieceState.OUT_OF_ACTION, taken_out_by="0:2"),  # by the hired sword: no experience
        piece("8.3", state=PieceState.KNOCKED_DOWN, taken_out_by=""),
        piece("9", state=PieceState.ABSENT, counters=0)))
    state = GameState(scenario="Skirmish", sides=(reds, blues))
    assert game_rules.kills(state, 0) == {1: 2}
    facts = game_rules.facts_of_side(state, 1, source="game #1")
    assert facts.of(8) == WarriorFacts(warrior_id=8, fought=True, out_of_action=2, kills=0, counters=0, taken_by=1)
    assert facts.of(9).fought is False and facts.of(7).out_of_action == 1
    assert facts.of(7).taken_by == 1  # taken out by a warrior of Reds (warband 1): his captor, should he be captured
    fighters = (Fighter(warrior_id=7, name="Skab", hero=True, models=1), Fighter(warrior_id=8, name="Rats", hero=False, models=3),
                Fighter(warrior_id=9, name="Late", hero=False, models=1), Fighter(warrior_id=10, name="Hired later", hero=False,
                                                                                 models=1))
    filled = prefilled(fighters, facts)
    assert [(f.fought, f.out_of_action, f.kills) for f in filled] == [(True, 1, 0), (True, 2, 0), (False, 0, 0), (True, 0, 0)]
    assert [f.taken_by for f in filled] == [1, 1, None, None]
    hero_facts = BattleFacts(source="game #1", warriors=(WarriorFacts(warrior_id=1, fought=True, out_of_action=0, kills=2),))
    recovering = Fighter(warrior_id=1, name="Captain", hero=True, models=1, fought=False)  # the sequence knows he sat out
    assert prefilled((recovering,), hero_facts)[0] == recovering


def test_the_facts_count_only_the_counters_of_models_still_up():
    """A carrier taken out of action drops his counters where he fell (Wyrdstone Hunt): a group's
    counters are those of its models still up at the end."""
    rats = Side(warband_id=2, warband="Rats", owner_id=2, pieces=(
        piece("8.1", state=PieceState.OUT_OF_ACTION, counters=2), piece("8.2", counters=1),
        piece("7", "hero", state=PieceState.OUT_OF_ACTION, counters=1)))
    facts = game_rules.facts_of_side(GameState(scenario="Wyrdstone Hunt", sides=(rats,)), 0, source="game #1")
    assert facts.of(8).counters == 1 and facts.of(7).counters == 0


def test_a_leadership_test_with_dice_typed_at_the_table():
    check = game_rules.leadership_check(7, Dice.entered("3 4"), "Rout test")
    assert check.passed and check.render() == "Leadership 7: 2D6 (3, 4) = 7, passed"
    assert not game_rules.leadership_check(7, Dice.entered("4 4"), "Rout test").passed
    rolled = Dice(random.Random(1))
    game_rules.leadership_check(7, rolled, "Fear test")
    assert len(rolled.rolls) == 1 and len(rolled.rolls[0].faces) == 2 and not rolled.rolls[0].entered
    with pytest.raises(MordheimError, match="cannot be rolled on a D6"):
        game_rules.leadership_check(7, Dice.entered("3 9"), "Rout test")


def test_the_state_round_trips_through_json():
    state = GameState(scenario="Wyrdstone Hunt", sides=(side(piece("1", "leader", counters=2), piece("2.1", state=PieceState.FLED)),),
                      when="Friday", log=("a",), rout_due=True, tracker_version=4,
                      history=(Change(kind="mark", side=0, before={"key": "1", "counters": 1}, after={"key": "1", "counters": 2}),))
    assert GameState.from_json(state.to_json()) == state
    # a model's row is written in the order its fields are read back
    assert [f.name for f in fields(Piece)] == list(PIECE_FIELDS)
    second = state.sides[0].pieces[1]
    assert dict(zip(PIECE_FIELDS, _row(second))) == {name: getattr(second, name) for name in PIECE_FIELDS}


def test_the_text_kept_with_each_warband_model_and_change_is_the_state_as_it_is():
    state = GameState(scenario="Wyrdstone Hunt", sides=(side(piece("1", "leader"), piece("2.1")),))
    written = state.to_json()  # each model's, warband's and change's text is now kept with it
    first = state.sides[0].pieces[1]
    marked = replace(first, state=PieceState.STUNNED, counters=1)
    change = Change(kind="mark", side=0, before={"key": "2.1", "state": "standing"}, after={"key": "2.1", "state": "stunned"})
    later = replace(state, sides=(state.sides[0].with_piece(marked),), history=(change,))
    assert GameState.from_json(later.to_json()) == later and GameState.from_json(written) == state
    assert later.sides[0].pieces[0] is state.sides[0].pieces[0]  # the model not marked, and his text, carry over
    fresh = GameState.from_json(later.to_json())  # nothing kept yet: written afresh, the same text
    assert fresh.to_json() == later.to_json()


def test_a_models_row_leaves_out_the_defaults_at_its_end_and_a_full_row_still_reads():
    untouched, marked = piece("1", "leader"), piece("2.1", state=PieceState.STUNNED, changed=4)
    carrying = piece("3", "hero", counters=2)
    assert json.loads(untouched.text) == ["1", 1, "W1", "leader", 7]
    assert json.loads(marked.text) == ["2.1", 2, "W2.1", "henchmen", 7, "stunned", "", 0, 4]
    assert json.loads(carrying.text) == ["3", 3, "W3", "hero", 7, "standing", "", 2]
    state = GameState(scenario="Skirmish", sides=(side(untouched, marked, carrying),))
    assert GameState.from_json(state.to_json()) == state
    written_in_full = state.to_json().replace('"leader",7]', '"leader",7,"standing","",0,0]')  # as rows were written before
    assert written_in_full != state.to_json() and GameState.from_json(written_in_full) == state


def test_a_change_is_written_as_a_row_and_one_written_as_an_object_still_reads():
    change = Change(kind="mark", side=0, before={"key": "1", "state": "standing"}, after={"key": "1", "state": "stunned"})
    state = GameState(scenario="Skirmish", sides=(side(piece("1", "leader")),), history=(change,))
    assert json.loads(state.to_json())["history"] == [["mark", 0, {"key": "1", "state": "standing"}, {"key": "1", "state": "stunned"}]]
    written_before = {"kind": "mark", "side": 0, "before": change.before, "after": change.after}
    as_object = state.to_json().replace(change.text, json.dumps(written_before, separators=(",", ":")))
    assert '"kind":"mark"' in as_object and GameState.from_json(as_object) == state


def test_special_rules_spare_tests_and_rally_is_for_the_fleeing():
    zombie = piece("1", rules=game_rules.rules_heeded(["fear", "immune-to-psychology", "immune-to-poison", "no-pain"]))
    assert zombie.rules == "fear immune-to-psychology"  # only the rules the tests heed are kept with him
    assert "000:849" in game_rules.immune_because(zombie, "fear")  # he causes fear: he ignores Fear tests
    assert "immune to psychology" in game_rules.immune_because(zombie, "alone")
    assert game_rules.immune_because(zombie, "leadership") is None
    assert [t.id for t in game_rules.tests_for(zombie)] == ["leadership"]
    ogre = piece("2", rules=game_rules.rules_heeded(["fear", "large-target"]))
    assert [t.id for t in game_rules.tests_for(ogre)] == ["leadership", "alone"]
    fled = piece("3", state=PieceState.FLED)
    assert [t.id for t in game_rules.tests_for(fled)] == ["leadership", "fear", "alone", "rally"]
    # a model with rules is written with them, and read back
    state = GameState(scenario="Skirmish", sides=(side(zombie, fled),))
    assert json.loads(zombie.text)[-1] == "fear immune-to-psychology" and GameState.from_json(state.to_json()) == state


def test_the_leader_lends_his_leadership_within_six_inches_or_his_lists_reach():
    assert game_rules.leader_range(set()) == (6, "")  # 000:829
    assert game_rules.leader_range({"leader", "military-discipline"})[0] == 12  # Reikland's Military discipline
    _reach, rule = game_rules.leader_range(["military-discipline"])
    assert "reikland.json" in rule
    written = GameState(scenario="Skirmish", sides=(replace(side(piece("1", "leader")), leader_range=12, leader_range_rule=rule),))
    assert GameState.from_json(written.to_json()).sides[0].leader_range == 12


def test_a_model_the_tracker_shows_in_the_fight_cannot_be_not_in_this_game():
    hero = piece("1", "hero")
    victim = piece("5", state=PieceState.OUT_OF_ACTION, taken_out_by="0:1")
    state = GameState(scenario="Skirmish", sides=(side(hero, piece("2"), piece("3", counters=1)), side(victim, piece("6"))))
    assert game_rules.why_in_the_fight(state, 0, hero) == "he took 1 enemy out of action"
    assert game_rules.why_in_the_fight(state, 0, state.sides[0].pieces[1]) is None  # nothing shows he was there
    assert game_rules.why_in_the_fight(state, 0, state.sides[0].pieces[2]) == "he carries 1 wyrdstone"
    assert game_rules.why_in_the_fight(state, 1, victim) == "he is out of action"  # else Hans's kill would vanish
    for st in (PieceState.KNOCKED_DOWN, PieceState.STUNNED, PieceState.FLED, PieceState.HIDDEN):
        assert game_rules.why_in_the_fight(state, 1, piece("6", state=st)) == f"he is {st.words}"



def test_took_part_says_yes_exactly_when_there_is_a_reason():
    # the panel's quick yes/no (game_rules.took_part) and the refusal's reason (why_in_the_fight) agree
    from engine.campaign.rules.game_state import piece_ref

    hero = Piece(key="1", warrior_id=1, name="Hans", role="hero", leadership=7)
    idle_hero = Piece(key="2", warrior_id=2, name="Otto", role="hero", leadership=7)
    carrier = Piece(key="3", warrior_id=3, name="Karl", role="henchmen", leadership=7, counters=1)
    stunned = Piece(key="4", warrior_id=4, name="Rolf", role="henchmen", leadership=7, state=PieceState.STUNNED)
    victim = Piece(key="9", warrior_id=9, name="Rat", role="henchmen", leadership=5, state=PieceState.OUT_OF_ACTION,
                   taken_out_by=piece_ref(0, "1"))
    state = GameState(scenario="Skirmish", sides=(side(hero, idle_hero, carrier, stunned),
                                                   Side(warband_id=2, warband="Rats", owner_id=2, pieces=(victim,))))
    answers = {p.name: game_rules.took_part(state, 0, p) for p in state.sides[0].pieces}
    assert answers == {"Hans": True, "Otto": False, "Karl": True, "Rolf": True}
    for p in state.sides[0].pieces:
        assert answers[p.name] == (game_rules.why_in_the_fight(state, 0, p) is not None)
