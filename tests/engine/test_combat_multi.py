"""Several fighters at once (up to 3 v 1 and 2 v 2), against values worked out by hand."""

import random
from fractions import Fraction

import pytest

from engine.combat import duel_odds, make_fighter, resolve_round, round_odds
from engine.combat.api import round_rules
from engine.combat.state import RoundState
from engine.errors import LimitExceeded
from tests.engine.combat_helpers import Faces

EXACT = 1e-12


def test_a_second_attacker_finishes_what_the_first_knocked_down_000_787():
    # lrb; S3 against T6 wounds only on 6s (000:521-533), so no critical (000:564); no armour.
    # Each attacker hits on 4+ and wounds on 6: a wound 1/12, then injury 1/3 each.
    # Two attackers: the second hits a knocked-down warrior automatically (000:779) and wounds
    # on 6 (out of action, 000:779), and takes a stunned one out at once (000:783):
    #   1/12 x (1/3 + 1/3 x 1/6 + 1/3) + 11/12 x 1/12 x 1/3 = 37/432
    # One attacker with both attacks cannot (000:787): 1 - (1 - 1/36)^2 = 71/1296
    target = make_fighter("D", "WS3 T6 A0", traits="immune to psychology")  # no All Alone test here
    two = [make_fighter(f"A{i}", "WS3 S3", weapons="axe") for i in (1, 2)]
    assert round_odds(two, target).fighters[2].outcomes["out of action"] == pytest.approx(37 / 432, abs=EXACT)
    one = make_fighter("A", "WS3 S3 A2", weapons="axe")
    assert round_odds(one, target).fighters[1].outcomes["out of action"] == pytest.approx(71 / 1296, abs=EXACT)


def test_while_an_enemy_stands_nobody_attacks_the_fallen_000_789():
    attackers = [make_fighter(f"A{i}", "WS3 S4 A2", weapons="axe") for i in (1, 2)]
    down = make_fighter("D1", "WS3 T3", state="knocked down")
    standing = make_fighter("D2", "WS3 T10 A0")  # S4 cannot wound T10 (000:521-533): he stays up
    odds = round_odds(attackers, [down, standing])
    assert odds.fighters[2].outcomes["unharmed"] == pytest.approx(1.0, abs=EXACT)  # D1 untouched (still knocked down)
    assert odds.fighters[2].wounds_lost == {0: pytest.approx(1.0)}
    log = "\n".join(resolve_round(attackers, [down, standing], random.Random(3)).lines)
    assert "A1 attacks D2: fighting a standing enemy, he may not attack D1 (000:789)." in log


def test_all_alone_against_two_he_tests_and_may_break_000_837():
    # S1 against T10 cannot wound (000:521-533): only the test matters. 2D6 over Ld7: 15/36.
    harmless = [make_fighter(f"A{i}", "WS3 S1", weapons="dagger") for i in (1, 2)]
    alone = make_fighter("D", "WS3 T10 A0 Ld7")
    odds = round_odds(harmless, alone).fighters[2]
    assert odds.outcomes["fled"] == pytest.approx(15 / 36, abs=EXACT)
    log = "\n".join(resolve_round(harmless, alone, random.Random(2)).lines)
    assert "D is all alone against 2 (000:837)" in log
    # a frenzied warrior takes no such test (000:867), nor one immune to psychology
    for trait in ("frenzy", "immune to psychology"):
        calm = make_fighter("D", "WS3 T10 A0 Ld7", traits=trait)
        assert round_odds(harmless, calm).fighters[2].outcomes["fled"] == 0
    # core2 counts only enemies of his size or larger (004:666): a large creature is not alone
    big = make_fighter("D", "WS3 T10 A0 Ld7", traits="large target")
    assert round_odds(harmless, big, edition="core2").fighters[2].outcomes["fled"] == 0


def test_breaking_from_combat_each_enemy_hits_once_000_801():
    attackers = [make_fighter(f"A{i}", "WS1 S3 I4", weapons="dagger") for i in (1, 2)]
    coward = make_fighter("D", "WS10 T3 I3 A0 Ld2")
    r, rules = round_rules(attackers, coward, charged=False, edition="core2")
    # A1 and A2 miss (1, 1); D is all alone against 2: 2D6 = 5 over Ld2, he breaks; each enemy
    # hits him once, automatically: A1 wounds (4), D's save against a dagger 6+ fails (2), injury
    # 1 (knocked down); A2 does not wound (1); D survives and flees
    dice = Faces(1, 1, 2, 3, 4, 2, 1, 1)
    end = rules.roll(dice, RoundState.start(rules.fight.start_models()))
    log = "\n".join(dice.lines)
    assert "D is all alone against 2 (004:666-668): Ld test rolled 2+3=5 vs Ld2 → failed" in log
    assert log.count("D is breaking from combat: hit automatically (004:656)") == 2
    assert "**D flees 2D6\" from the combat** (004:666-668)." in log
    assert end.models[2].status == 4 and not dice.faces  # fled
    # the odds: he breaks unless he rolls a double 1 (35/36); two automatic dagger hits at 4+ to
    # wound, each saved on 6+ (000:919); W1: out of action if an injury roll of either is 5-6
    odds = round_odds(attackers, coward, charged=False, edition="core2").fighters[2]
    blows = Fraction(1, 3) * Fraction(1, 2) * Fraction(5, 6)  # their own blows: 5+ to hit (004:541)
    assert odds.outcomes["fled"] > 0 and sum(odds.outcomes.values()) == pytest.approx(1, abs=EXACT)
    assert odds.outcomes["fled"] <= float(Fraction(35, 36)) and blows < 1


def test_one_parry_a_phase_against_the_first_enemy_who_hits_000_771():
    attackers = [make_fighter(f"A{i}", "WS3 S3 I4", weapons="axe") for i in (1, 2)]
    swordsman = make_fighter("D", "WS3 T3 I3 A0", weapons="sword", traits="immune to psychology")
    r, rules = round_rules(attackers, swordsman, charged=False)
    # A1 hits (5), D parries (4: fails); A2 hits (6)... the parry is spent: no second parry roll
    dice = Faces(5, 4, 1, 4, 1)  # A1: hit 5, parry 4 fails, wound 1; A2: hit 4, wound 1
    rules.roll(dice, RoundState.start(rules.fight.start_models()))
    log = "\n".join(dice.lines)
    assert log.count("D parries") == 1
    assert "D has parried already this phase: one parry, against the first enemy to hit (000:771)." in log


def test_a_tie_in_the_strike_order_between_the_sides_is_one_roll():
    attackers = [make_fighter(f"A{i}", "WS3 I3", weapons="axe") for i in (1, 2)]
    defender = make_fighter("D", "WS3 I3 A0", traits="immune to psychology")
    r, rules = round_rules(attackers, defender, charged=False)
    dice = Faces(4, 1, 1)  # the roll: 4-6, the defending side first; then A1 and A2 miss
    end = rules.roll(dice, RoundState.start(rules.fight.start_models()))
    assert "Equal Initiative: rolled 4, D strikes first." in dice.lines and not dice.faces and end.order == ()


def test_fights_to_the_end_with_several_a_side_add_up():
    three = [make_fighter(f"A{i}", "WS3 A2", weapons="sword") for i in (1, 2, 3)]
    one = make_fighter("D", "WS4 S4 T4 A2", weapons="sword", armour="heavy armour, shield")
    d = duel_odds(three, one)
    assert d.win + d.lose + d.both + d.unfinished == pytest.approx(1, abs=1e-9)
    assert d.win > 0.8 and d.names == ("A1 & A2 & A3", "D")
    two_two = duel_odds([make_fighter("A1", "WS3 A2"), make_fighter("A2", "WS3 A2")],
                        [make_fighter("D1", "WS3 A2"), make_fighter("D2", "WS3 A2")], charged=False)
    assert two_two.win == pytest.approx(two_two.lose, abs=0.05)  # a mirror match, the attackers' turn first


def test_more_than_3_v_1_or_2_v_2_is_refused():
    h = make_fighter("H")
    with pytest.raises(LimitExceeded, match="up to 3 v 1 or 2 v 2"):
        round_odds([h, h, h], [h, h])
    with pytest.raises(LimitExceeded):
        round_odds([h, h, h, h], h)
