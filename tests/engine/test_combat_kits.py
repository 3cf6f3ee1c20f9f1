"""What a warrior fights with (kits, pistols, bucklers, animals) and the traits and skills the
engine applies, against values worked out by hand from the rules named."""

import itertools
import random
from fractions import Fraction

import pytest

from engine.combat import make_fighter, resolve_round, round_odds, shot_odds
from engine.combat.api import round_rules
from engine.combat.melee import initial_state
from engine.combat.state import RoundState
from engine.errors import MordheimError

EXACT = 1e-12


def blows(fighter, *, first_round=True, edition="lrb", enemy=None):
    """[(weapon id, attacks)] the fighter makes this round, and his numbers."""
    _, rules = round_rules(fighter, enemy or make_fighter("E"), edition=edition, first_round=first_round)
    numbers = rules.numbers(0, initial_state(fighter))
    return [(s.weapon.id, s.count) for s in numbers.blows], numbers


# ----- pistols (000:1177) ------------------------------------------------------------------------


def test_a_pistol_beside_a_close_combat_weapon_is_one_more_attack_once_per_combat():
    assert blows(make_fighter("A", "A1", weapons="sword, pistol"))[0] == [("sword", 1), ("pistol", 1)]
    assert blows(make_fighter("A", "A1", weapons="sword, pistol"), first_round=False)[0] == [("sword", 1)]


def test_a_brace_gives_two_attacks_in_the_first_turn_and_no_more_beside_a_sword():
    assert blows(make_fighter("A", "A1", weapons="brace of pistols"))[0] == [("pistol", 2)]
    assert blows(make_fighter("A", "A2", weapons="brace of pistols"))[0] == [("pistol", 2)]  # "2 Attacks"
    assert blows(make_fighter("A", "A1", weapons="sword, brace of pistols"))[0] == [("sword", 1), ("pistol", 1)]
    # the pistols are empty after the first turn: bare hands (000:903)
    assert blows(make_fighter("A", "A1", weapons="brace of pistols"), first_round=False)[0] == [("fist", 1)]
    # a pistol replaces the second weapon's +1 in the first turn, not adds to it
    assert blows(make_fighter("A", "A1", weapons="sword, dagger, pistol"))[0] == [("sword", 1), ("pistol", 1)]
    assert blows(make_fighter("A", "A1", weapons="sword, dagger, pistol"), first_round=False)[0] == [("sword", 1), ("dagger", 1)]


def test_brace_odds_first_turn_and_bare_hands_after():
    # two pistol attacks at WS3 vs WS3 (4+), S4 vs T3 (3+): unharmed (1 - 1/2 x 2/3)^2 = 4/9
    brace = make_fighter("A", "WS3 A1", weapons="brace of pistols")
    target = make_fighter("D", "WS3 T3 A0", weapons="dagger")  # strikes back with nothing
    assert round_odds(brace, target).fighters[1].outcomes["unharmed"] == pytest.approx(4 / 9, abs=EXACT)
    # later, a fist: S2 vs T3 5+, +1 save (6+, 000:909); a 6 is an lrb critical: vital part (save
    # first) or no save: hurt 1/2 x (1/6 x 5/6 + 1/6 x (1/3 x 5/6 + 2/3)) = 4/27
    later = round_odds(brace, target, first_round=False, charged=False).fighters[1]
    assert later.outcomes["unharmed"] == pytest.approx(23 / 27, abs=EXACT)


def test_duelling_pistols_are_plus_1_to_hit_000_1199():
    from tests.engine.combat_helpers import first_volley

    volley, _ = first_volley(make_fighter("A", "WS3", weapons="duelling pistol"), make_fighter("E", "WS3"))
    assert volley.plans[0].needed == 3


# ----- hands: bucklers, shields, two-handed weapons, spears (000:967, 985, 1000, 1019, 1046) ---------


def test_a_buckler_fills_the_off_hand():
    attacks, numbers = blows(make_fighter("A", "A1", weapons="sword, dagger", armour="buckler"))
    assert attacks == [("sword", 1)]
    assert numbers.can_parry and numbers.parry_attempts == 2  # sword and buckler re-roll (000:773)
    assert any("buckler in the other hand: no second weapon, dagger left out" in n for n in numbers.loadout.notes)


def test_a_shield_fills_the_off_hand_too_and_counts_in_close_combat():
    attacks, numbers = blows(make_fighter("A", "A1", weapons="axe, dagger", armour="light armour, shield"))
    assert attacks == [("axe", 1)] and numbers.save == 5


@pytest.mark.parametrize("kit,expected,note", [
    ("spear, dagger", [("spear", 1)], "fights with the spear alone: dagger left out (000:1019)"),
    ("flail, dagger", [("flail", 1)], "fights with the flail in both hands (000:967)"),
    ("double-handed sword, dagger", [("double-handed-weapon", 1)], "no second weapon beside it: dagger left out"),
    ("morning star, dagger", [("morning-star", 1)], "fights with the morning star alone: dagger left out (000:985)"),
    ("dagger, sword", [("sword", 1), ("dagger", 1)], None),  # the better weapon in the main hand
    ("dagger, axe, sword", [("axe", 1), ("sword", 1)], "two weapons at most, one in each hand: dagger left out (000:685)"),
])
def test_real_kits_are_fought_with_as_a_player_would(kit, expected, note):
    attacks, numbers = blows(make_fighter("A", "A1", weapons=kit))
    assert attacks == expected
    if note:
        assert note in numbers.loadout.notes


def test_a_flail_with_a_shield_fights_two_handed_and_the_shield_still_counts_against_shooting():
    f = make_fighter("A", "A1", weapons="flail", armour="shield")
    attacks, numbers = blows(f)
    assert attacks == [("flail", 1)] and numbers.save is None
    assert f.armour_save(shooting=True) == 6


def test_only_what_no_reading_allows_is_refused():
    with pytest.raises(MordheimError, match="needs a warhorse"):
        round_odds(make_fighter("A", weapons="lance"), make_fighter("B"))
    with pytest.raises(MordheimError, match="missile weapon"):
        round_odds(make_fighter("A", weapons="bow"), make_fighter("B"))
    # a lance beside a sword on foot: the sword is used, the lance left out with the reason
    attacks, numbers = blows(make_fighter("A", weapons="lance, sword"))
    assert attacks == [("sword", 1)] and "lance left out: it needs a warhorse (000:1033)" in numbers.loadout.notes


# ----- animals and monsters (000:903) ---------------------------------------------------------------


def test_animals_use_all_their_attacks_without_the_fist_rules_and_stupidity_can_stop_them():
    ogre = make_fighter("Rat Ogre", "rat ogre", traits="animal, causes fear, stupidity, large target")
    attacks, numbers = blows(ogre)
    assert attacks == [("natural-weapons", 3)]
    human = make_fighter("H", "WS3 T3", weapons="dagger")
    # lrb: the Rat Ogre charged, so it passed its Stupidity test (000:887-891: a stupid model that
    # fails does not charge). 3 attacks at 4+, S5 vs T3 wounds on 2+ (5/6); no armour.
    unharmed = (1 - Fraction(1, 2) * Fraction(5, 6)) ** 3
    assert round_odds(ogre, human).fighters[1].outcomes["unharmed"] == pytest.approx(float(unharmed), abs=EXACT)
    # charged by the human, it is the human's turn: the Rat Ogre's test of its own last turn is
    # rolled (2D6 <= Ld4 passes, 6/36); if it failed it does not fight
    # (his S3 dagger wounds T5 on 6s only, and even a critical's 2 wounds leave the W3 ogre standing)
    passes = Fraction(6, 36)
    unharmed = (1 - passes) + passes * (1 - Fraction(1, 2) * Fraction(5, 6)) ** 3
    assert round_odds(human, ogre).fighters[0].outcomes["unharmed"] == pytest.approx(float(unharmed), abs=EXACT)
    # core2 has no Stupidity test (004:700 depends on friends within 6"): named as not modelled
    assert any("stupidity: not modelled" in n for n in round_odds(ogre, human, edition="core2").notes)


def _ooa_by_enumeration(attacks: int, to_hit: int, to_wound: int) -> Fraction:
    """P(a W1, T3 warrior with a sword and a 6+ save that S5 removes is taken out of action) by
    walking every die, written from the rules without the engine: to hit; one sword parry, a D6
    over the best to-hit roll, none if a 6 was rolled (000:765-771); to wound, a 6 a critical
    (one per phase, 000:566), every lrb critical 2 wounds with no save and 5-6 +2 on the injury
    rolls (000:568-572); each wound from the one that takes him to 0 rolls for injury, 5-6 out of
    action, the highest standing (000:613-627)."""
    faces = range(1, 7)

    def after_parry(rolls):
        hits = [r for r in rolls if r >= to_hit]
        if not hits or 6 in rolls:
            return [(len(hits), Fraction(1))]
        parried = Fraction(sum(1 for d in faces if d > max(hits)), 6)
        return [(len(hits) - 1, parried), (len(hits), 1 - parried)]

    def standing(hits: int, critical_used: bool) -> Fraction:
        if hits == 0:
            return Fraction(1)
        out = Fraction(0)
        for w in faces:
            if w < to_wound:
                out += Fraction(1, 6) * standing(hits - 1, critical_used)
            elif w == 6 and not critical_used:
                for c in faces:
                    bonus = 2 if c >= 5 else 0
                    safe = Fraction(sum(1 for i in faces if i + bonus < 5), 6) ** 2
                    out += Fraction(1, 36) * safe * standing(hits - 1, True)
            else:
                out += Fraction(1, 6) * Fraction(4, 6) * standing(hits - 1, critical_used)
        return out

    total = Fraction(0)
    for rolls in itertools.product(faces, repeat=attacks):
        for hits, p in after_parry(rolls):
            total += Fraction(1, 6 ** attacks) * p * (1 - standing(hits, False))
    return total


def test_a_rat_ogre_that_charged_has_passed_its_stupidity_test_and_fights():
    """Issue 16: a Rat Ogre charging a WS4 warrior with sword and shield takes him out of action
    39.0% of the time (it fought one time in six before: 6.5%)."""
    ogre = make_fighter("Rat Ogre", "rat ogre", traits="animal, causes fear, stupidity, large target")
    warrior = make_fighter("Warrior", "WS4", weapons="sword", armour="shield")
    expected = _ooa_by_enumeration(attacks=3, to_hit=4, to_wound=2)
    assert expected == Fraction(379, 972)  # 39.0%
    ooa = round_odds(ogre, warrior).fighters[1].outcomes["out of action"]
    assert ooa == pytest.approx(float(expected), abs=EXACT)
    assert f"{100 * ooa:.1f}" == "39.0"
    log = resolve_round(ogre, warrior, random.Random(1)).lines
    assert any("charged, so he passed his Stupidity test" in line and "000:887-891" in line for line in log)
    assert not any("tests for Stupidity" in line for line in log)


def test_a_warrior_without_weapons_has_one_attack_with_his_fists():
    assert blows(make_fighter("A", "A3"))[0] == [("fist", 1)]


# ----- skills and creature rules -------------------------------------------------------------------


def test_step_aside_saves_each_close_combat_wound_on_5():
    # S3 sword vs T3 (4+), no armour; a 4-5 wounds (1/3), a 6 is an lrb critical of 2 wounds; each
    # wound is avoided on 5+: hurt = 1/2 x (1/3 x 2/3 + 1/6 x (1 - 1/9)) = 5/27
    sword = make_fighter("A", "WS3 S3", weapons="sword")
    nimble = make_fighter("D", "WS3 T3", weapons="dagger", traits="step aside")
    assert round_odds(sword, nimble).fighters[1].outcomes["unharmed"] == pytest.approx(22 / 27, abs=EXACT)


def test_a_trolls_regeneration_ignores_wounds_on_4():
    # the same blow on W3 T3 with regeneration: a wound lost = 1/2 x (1/3 x 1/2 + 1/6 x (1 - 1/4)) = 7/48
    sword = make_fighter("A", "WS3 S3", weapons="sword")
    troll = make_fighter("T", "WS3 T3 W3 A0", traits="animal, regeneration")
    assert round_odds(sword, troll).fighters[1].wounds_lost[0] == pytest.approx(1 - 7 / 48, abs=EXACT)


def test_mighty_blow_resilient_strike_to_injure_and_unstoppable_charge():
    _, rules = round_rules(make_fighter("A", "WS3 S3", weapons="sword", traits="mighty blow, unstoppable charge, strike to injure"),
                           make_fighter("D", "WS3 T3", weapons="dagger", traits="resilient"))
    a = rules.numbers(0, initial_state(rules.fight.fighters[0]))
    _, mu = rules.matchup(RoundState.start(rules.fight.start_models()), 0, 1)
    assert mu.blows[0].strength == 3  # S3 +1 Mighty Blow -1 Resilient
    assert mu.blows[0].save_modifier == -1  # Resilient does not change the save modifier of the S4 blow
    assert a.ws == 4 and a.injury_bonus == 1  # charging; +1 on injury rolls


def test_strongman_strikes_in_initiative_order_with_a_double_handed_weapon():
    _, plain = blows(make_fighter("A", weapons="double-handed sword"))
    _, strong = blows(make_fighter("A", weapons="double-handed sword", traits="strongman"))
    assert plain.tier < strong.tier


def test_lightning_reflexes_strike_first_when_charged():
    rules = round_rules(make_fighter("A", "I3", weapons="sword"), make_fighter("D", "I4", weapons="sword", traits="lightning reflexes"))[1]
    assert rules.numbers(1, initial_state(rules.fight.fighters[1])).tier == rules.numbers(0, initial_state(rules.fight.fighters[0])).tier
    result = resolve_round(make_fighter("A", "I3", weapons="sword"),
                           make_fighter("D", "I4", weapons="sword", traits="lightning reflexes"), random.Random(1))
    assert "D strikes first (Initiative 4 against 3" in result.lines[1]


def test_dire_wolves_get_an_extra_attack_on_the_charge():
    wolf = make_fighter("W", "dire wolf", traits="animal, charge attack")
    assert blows(wolf)[0] == [("natural-weapons", 2)]
    assert blows(wolf, first_round=False)[0] == [("natural-weapons", 1)]


# ----- thrown in the shooting phase: nets (000:1425), blessed water (000:1405), Dodge -------------------


def test_a_net_holds_a_target_who_rolls_over_his_strength():
    thrower, target = make_fighter("N", "BS3"), make_fighter("T", "S3")
    odds = shot_odds(thrower, target, "net", range_inches=8).fighters[0]
    assert odds.outcomes["netted"] == pytest.approx(1 / 4, abs=EXACT)  # 4+ to hit, then a D6 over 3
    with pytest.raises(MordheimError, match="reaches 8"):
        shot_odds(thrower, target, "net", range_inches=9)


def test_blessed_water_wounds_undead_with_no_save_and_nothing_else():
    thrower = make_fighter("P", "BS3 S3")
    zombie = make_fighter("Z", "zombie", armour="heavy armour", traits="undead, no pain")
    odds = shot_odds(thrower, zombie, "blessed water", range_inches=6).fighters[0]
    # 4+ to hit; W1: an injury roll, stunned counts as knocked down (no pain)
    assert odds.outcomes == pytest.approx({"unharmed": 0.5, "wounded": 0.0, "knocked down": 1 / 3, "stunned": 0.0,
                                           "out of action": 1 / 6, "fled": 0.0, "netted": 0.0}, abs=EXACT)
    assert shot_odds(thrower, make_fighter("H"), "blessed water").fighters[0].outcomes["unharmed"] == pytest.approx(1.0)
    with pytest.raises(MordheimError, match="reaches 6"):  # twice the thrower's Strength
        shot_odds(thrower, zombie, "blessed water", range_inches=7)


def test_dodge_avoids_each_missile_hit_on_5():
    bow, target = make_fighter("S", "BS3"), make_fighter("D", "T3", traits="dodge")
    # 4+ to hit, dodged on 5+ (1/3), 4+ to wound: hurt = 1/2 x 2/3 x 1/2 = 1/6
    assert shot_odds(bow, target, "bow").fighters[0].outcomes["unharmed"] == pytest.approx(5 / 6, abs=EXACT)


def test_the_blunderbuss_hits_automatically_000_1221():
    gun = make_fighter("G", "BS3")
    # S3 vs T3 4+; lrb: a 6 is a critical (2 wounds; the automatic hit may still be critical, 000:562)
    odds = shot_odds(gun, make_fighter("T", "T3 W3"), "blunderbuss").fighters[0]
    assert odds.wounds_lost == pytest.approx({0: 0.5, 1: 1 / 3, 2: 1 / 6}, abs=EXACT)
    core2 = shot_odds(gun, make_fighter("T", "T3 W3"), "blunderbuss", edition="core2").fighters[0]
    assert core2.wounds_lost == pytest.approx({0: 0.5, 1: 0.5}, abs=EXACT)  # 004:390 no critical without a to-hit roll


def test_hard_to_kill_goes_out_only_on_a_6():
    # S3 sword vs T3, no armour: a 4-5 wounds (1/3): out of action on an injury 6 (1/6); a 6 is an
    # lrb critical of 2 wounds, two injury rolls: out if either is a 6 (11/36), or with Master
    # strike's +2 if either is 4+ (3/4) (000:570-572):
    #   1/2 x (1/3 x 1/6 + 1/6 x 1/3 x (11/36 + 11/36 + 3/4)) = 85/1296
    sword = make_fighter("A", "WS3 S3", weapons="sword")
    dwarf = make_fighter("D", "WS3 T3 A0", traits="hard to kill")
    assert round_odds(sword, dwarf).fighters[1].outcomes["out of action"] == pytest.approx(85 / 1296, abs=EXACT)


def test_hard_head_refuses_concussion_and_perfect_killer_pierces_armour():
    from engine.combat.state import RoundState

    _, rules = round_rules(make_fighter("A", weapons="hammer", traits="perfect killer"), make_fighter("D", traits="hard head"))
    _, mu = rules.matchup(RoundState.start(rules.fight.start_models()), 0, 1)
    assert mu.blows[0].concussion is False and mu.blows[0].save_modifier == -1  # S3: no modifier but Perfect Killer's -1


def test_a_weapon_of_several_names_is_shown_as_carried_and_fights_as_one():
    """000:921: hammer, staff, mace and club are one weapon. A club fights as the hammer does,
    but the fighter's kit and his attacks say 'Club', as his roster does."""
    from engine.combat.fighter import make_fighter

    ulrich = make_fighter("Ulrich", "4 4 3 3 3 1 3 1 7", weapons="dagger, club")
    hans = make_fighter("Hans", "4 4 3 3 3 1 3 1 7", weapons="staff, mace")
    assert ulrich.describe().endswith(": Dagger, Club") and hans.describe().endswith(": Staff, Mace")
    assert ulrich.weapons[1] == make_fighter("Otto", "4 4 3 3 3 1 3 1 7", weapons="hammer").weapons[0]
    assert ulrich.weapon_name(ulrich.weapons[1]) == "Club"
    assert make_fighter("Otto", "4 4 3 3 3 1 3 1 7", weapons="hammer").describe().endswith(": Hammer")
