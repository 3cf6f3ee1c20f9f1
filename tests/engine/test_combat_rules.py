"""Rules where the engine once differed from the seeds, each checked against exact values
worked out by hand from the seed lines named."""

import math
from fractions import Fraction

import pytest

from engine.combat import make_fighter, round_odds
from tests.engine.combat_helpers import Faces, first_volley

EXACT = 1e-12


def test_core2_automatic_hits_cannot_be_critical_004_390():
    # 004:609 a stunned warrior is hit automatically, then treated as knocked down (004:605): a
    # wound he fails to save takes him out of action. S3 sword vs T3: 4+ to wound (004:377);
    # heavy armour and shield: 4+ save (000:586-590). No critical (004:390): 1/2 x 1/2.
    sword = make_fighter("A", "WS3 S3", weapons="sword")
    stunned = make_fighter("D", "WS3 T3", weapons="sword", armour="heavy armour, shield", state="stunned")
    odds = round_odds(sword, stunned, edition="core2", charged=False).fighters[1]
    assert odds.outcomes["out of action"] == pytest.approx(0.25, abs=EXACT)
    # were a critical allowed, a 4 or 5 to wound would still need the failed save (1/3 x 1/2) and
    # a 6 would be Flesh Wound or Sliced! (no save, 2/3) or Bladestorm (either of two saves
    # failing, 1/3 x 3/4): 31.9%, what the engine gave before
    critical_allowed = Fraction(1, 3) * Fraction(1, 2) + Fraction(1, 6) * (Fraction(2, 3) + Fraction(1, 3) * Fraction(3, 4))
    assert float(critical_allowed) == pytest.approx(0.3194, abs=1e-4)
    assert odds.outcomes["out of action"] < float(critical_allowed)


def test_core2_knocked_down_hit_automatically_by_house_rule_cannot_be_critical_either():
    # toggle core2_knocked_down_auto_hit: the hits are automatic, so still no critical (004:390)
    axe = make_fighter("A", "WS3 S3", weapons="axe")
    down = make_fighter("D", "WS3 T3", weapons="sword", state="knocked down")
    odds = round_odds(axe, down, edition="core2", toggles={"core2_knocked_down_auto_hit": True}, charged=False).fighters[1]
    assert odds.outcomes["out of action"] == pytest.approx(0.5, abs=EXACT)  # 4+ to wound, no save
    assert odds.wounds_lost == pytest.approx({0: 0.5, 1: 0.5}, abs=EXACT)  # never the 2 wounds of a critical


def test_lrb_still_lets_an_automatic_hit_be_critical_000_562():
    # 000:779 knocked down: hit automatically; a 6 to wound is a critical (000:562), every lrb
    # critical causes 2 wounds (000:570-572): P(2 wounds) = 1/6 (no armour)
    axe = make_fighter("A", "WS3 S3", weapons="axe")
    down = make_fighter("D", "WS3 T3 W2", weapons="sword", state="knocked down")
    odds = round_odds(axe, down, edition="lrb", charged=False).fighters[1]
    assert odds.wounds_lost[2] == pytest.approx(1 / 6, abs=EXACT)


def test_the_one_critical_limit_is_per_hand_to_hand_phase_not_for_shots_000_566():
    from engine.combat import shot_odds

    # a sling fired twice within 9" (000:1120): BS3 needs 4+, 5+ for firing twice; S3 vs T3 4+
    # to wound; every lrb critical is 2 wounds (000:570-572) and nothing saves against them here.
    # Both shots critical (4 wounds): (1/3 x 1/6)^2 = 1/324, which the per-phase cap used to forbid.
    slinger = make_fighter("S", "BS3")
    target = make_fighter("T", "T3 W3")
    odds = shot_odds(slinger, target, "sling", edition="lrb", range_inches=8, twice=True).fighters[0]
    assert odds.wounds_lost[4] == pytest.approx(1 / 324, abs=EXACT)
    # in close combat the cap stands: a warrior's two blows are never both critical (000:566)
    blows = round_odds(make_fighter("A", "WS4 S3 A2", weapons="axe"), make_fighter("D", "WS1 T3 W4", weapons="fist"),
                       edition="lrb").fighters[1]
    assert max(blows.wounds_lost) == 3  # one critical (2 wounds) and one plain wound


@pytest.mark.parametrize("edition", ["core", "core2"])
def test_wild_sweep_knocks_the_weapon_away_002_682_004_410(edition):
    # a hit (4+, 1/2), a 6 to wound (1/6) and a 5 on the bludgeoning chart (1/6): 1/72
    volley, start = first_volley(make_fighter("A", "WS3 S3", weapons="hammer"), make_fighter("D", "WS3 W2", weapons="dagger"), edition)
    lost = sum(p for end, p in volley.odds(start) if end.weapons_lost == (0,))
    assert lost == pytest.approx(1 / 72, abs=EXACT)


def test_after_a_wild_sweep_the_victim_fights_on_with_what_is_left():
    from engine.combat.api import round_rules
    from engine.combat.state import RoundState

    hammer = make_fighter("A", "WS3 S3", weapons="hammer")
    sword_and_dagger = make_fighter("D", "WS3 W3", weapons="sword, dagger")
    r, rules = round_rules(hammer, sword_and_dagger, edition="core")
    # A charged: strikes first. Hit (4), D parries and fails (1), 6 to wound, critical 5: Wild
    # Sweep; which weapon: 2 (his main hand's, the sword); no armour. D then fights with the dagger
    # alone (one weapon: his A1), and misses (1).
    dice = Faces(4, 1, 6, 5, 2, 1)
    end = rules.roll(dice, RoundState.start(rules.fight.start_models()))
    log = "\n".join(dice.lines)
    assert "Critical 5: Wild Sweep" in log and "D's sword is knocked away" in log
    assert "D attack 1 (Dagger) to hit: rolled 1" in log and "D attack 2" not in log
    assert end.models[1].weapons_lost == (0,) and end.models[1].wounds == 2 and not dice.faces


def test_a_body_blows_extra_attack_hits_a_knocked_down_warrior_automatically_002_701_002_975():
    # a wardog's bite (S4, the unarmed chart, 002:695-703) on a knocked-down T4 warrior: hit
    # automatically (002:975); a 6 to wound and a 1-2 on the chart is a Body Blow: one extra attack
    # at once, which hits automatically too, and wounds on 4+: 1/6 x 1/3 x 1/2 = 1/36 for 2 wounds
    dog = make_fighter("Dog", "wardog", traits="animal")
    down = make_fighter("D", "WS3 T4 W1", weapons="dagger", state="knocked down")
    odds = round_odds(dog, down, edition="core", charged=False).fighters[1]
    assert odds.wounds_lost[2] == pytest.approx(1 / 36, abs=EXACT)


def _fall_with_helmet(per_roll: bool) -> dict[str, Fraction]:
    """A 3" fall of a T3 W1 warrior with a helmet worked out by hand: D3 hits at S3 (000:431),
    4+ to wound (000:521-533), one injury roll per wound (000:615); injury 1-2 knocked down,
    3-4 stunned, 5-6 out (000:617-627); a helmet's 4+ turns stunned into knocked down (000:1321)."""
    half, third = Fraction(1, 2), Fraction(1, 3)
    one_roll = {"knocked down": third, "stunned": third, "out of action": third}
    if per_roll:  # the helmet on each stunned roll
        one_roll = {"knocked down": third + third * half, "stunned": third * half, "out of action": third}
    order = ["knocked down", "stunned", "out of action"]
    out: dict[str, Fraction] = {}
    for hits in (1, 2, 3):
        for wounds in range(hits + 1):
            p = third * Fraction(math.comb(hits, wounds)) * half ** hits
            if wounds == 0:
                out["unharmed"] = out.get("unharmed", 0) + p
                continue
            # the highest of `wounds` rolls: P(highest <= result) = P(one <= result) ** wounds
            below = Fraction(0)
            for k, result in enumerate(order):
                at_most = sum(one_roll[r] for r in order[:k + 1]) ** wounds
                share = at_most - below
                below = at_most
                if not per_roll and result == "stunned":  # one helmet roll on the result that applies
                    out["knocked down"] = out.get("knocked down", 0) + p * share * half
                    share *= half
                out[result] = out.get(result, 0) + p * share
    return out


@pytest.mark.parametrize("per_roll", [False, True])
def test_a_helmet_saves_once_on_the_applied_result_or_on_each_roll_by_house_rule(per_roll):
    from engine.combat.falling import fall_odds

    who = make_fighter("W", "T3 W1", armour="helmet")
    toggles = {"helmet_save_each_roll": True} if per_roll else None
    odds = fall_odds(who, 3, toggles=toggles)
    exact = _fall_with_helmet(per_roll)
    assert set(odds) == set(exact)
    for result, p in exact.items():
        assert odds[result] == pytest.approx(float(p), abs=EXACT), result


def test_in_close_combat_the_helmet_is_rolled_once_after_every_injury_roll_of_the_phase():
    from engine.combat.api import round_rules
    from engine.combat.state import RoundState

    # lrb, A charged with a sword: hit (6, no parry), wound (6, critical), critical 3: exposed
    # spot, 2 wounds, no save; W1: two injury rolls, 3 and 4 (stunned, stunned): the helmet is
    # rolled once, on the stunned result that applies: 4, knocked down
    sword = make_fighter("A", "WS3 S3", weapons="sword")
    helmet = make_fighter("D", "WS3 T3 A0", weapons="dagger", armour="helmet")
    r, rules = round_rules(sword, helmet, edition="lrb")
    dice = Faces(6, 6, 3, 3, 4, 4)
    end = rules.roll(dice, RoundState.start(rules.fight.start_models()))
    log = "\n".join(dice.lines)
    assert log.count("Helmet 4+") == 1 and "Helmet 4+ against the stunned result that applies: rolled 4" in log
    assert end.models[1].status == 1 and not dice.faces  # knocked down


@pytest.mark.parametrize("toggle,hit", [(False, Fraction(1, 2)), (True, Fraction(2, 3))])
def test_core2_two_weapons_minus_1_ws_applies_to_his_own_attacks_and_by_house_rule_when_attacked(toggle, hit):
    # 004:547 "-1 WS to all attacks": decided to be the attacks he makes (the default); the
    # toggle also lowers the WS he is attacked against: WS4 against WS4-1 hits on 3+ (004:541)
    axe = make_fighter("A", "WS4 S3", weapons="axe")
    two = make_fighter("D", "WS4 T3 W2", weapons="axe, dagger")
    odds = round_odds(axe, two, edition="core2", toggles={"two_weapons_penalty_when_attacked": toggle}).fighters[1]
    assert odds.at_least(1) == pytest.approx(float(hit * Fraction(1, 2)), abs=EXACT)  # S3 vs T3: 4+ to wound
    # his own attacks are at WS3 either way (004:547), so he needs 5+ against WS4 (004:541)
    from engine.combat.api import round_rules
    from engine.combat.melee import initial_state

    r, rules = round_rules(axe, two, edition="core2", toggles={"two_weapons_penalty_when_attacked": toggle})
    numbers = rules.numbers(1, initial_state(two))
    assert numbers.ws == 3 and numbers.ws_defending == (3 if toggle else 4)
    assert r.cc_needed(numbers.ws, 4, 0, False) == 5
