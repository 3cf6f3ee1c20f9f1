"""Several a side, fast: a round's Odds mode (engine/combat/round_odds.py) and a fight to the end
(engine/combat/duel.py) give the numbers the engine gave before they were made fast, prune with
a reported bound, and simulate, when the budget runs out, within the interval they report."""

import math
import random

import pytest

from engine.combat import Budget, duel_odds, make_fighter, round_odds
from engine.combat import api
from engine.combat.api import round_rules
from engine.combat.duel import Z95, wilson_interval
from engine.combat.round_odds import odds_of
from engine.combat.state import OUT_OF_ACTION, RoundState

TOL = 1e-9
NO_LIMIT = Budget(exact_steps=10**12, seconds=None)


def two_against_two():
    return ([make_fighter("A1", "WS4 S4 T4 W2 A2", weapons="sword", armour="light armour, helmet"),
             make_fighter("A2", "WS3 S3 T3 W1 A2", weapons="axe")],
            [make_fighter("D1", "WS4 S4 T4 W2 A2", weapons="sword", armour="heavy armour, buckler"),
             make_fighter("D2", "WS3 S3 T3 W1 A1 Ld6", weapons="club, dagger")])


def three_against_one():
    return ([make_fighter(f"Y{i}", "WS3 S3 A2 W1", weapons="sword", armour="light armour") for i in (1, 2, 3)],
            [make_fighter("V", "WS4 S4 T4 A3 W2 Ld7", weapons="sword", armour="heavy armour, shield")])


SHAPES = {"2v2": two_against_two, "3v1": three_against_one}

# (shape, edition, per fighter (outcomes, wounds lost) of one round, (win, lose, both, unfinished) of
# a fight to the end), as the engine gave them before this speed-up (commit 3f9f783): every
# round's state was then kept whole, with every model's wounds at once
BEFORE = [('2v2',
  'lrb',
  [({'unharmed': 0.6133240450245979,
     'wounded': 0.17279848388398988,
     'knocked down': 0.05388045074822053,
     'stunned': 0.023378677959936454,
     'out of action': 0.0824913201748846,
     'fled': 0.05412702220837052,
     'netted': 0.0},
    {0: 0.6313962793843343,
     1: 0.19629810749988785,
     2: 0.13697108830992213,
     3: 0.034172771061961385,
     4: 0.0010609957324378052,
     5: 0.00010075801145632372}),
   ({'unharmed': 0.7477057998082561,
     'wounded': 0.0,
     'knocked down': 0.03570280349794238,
     'stunned': 0.08504533179012345,
     'out of action': 0.12205863788327163,
     'fled': 0.009487427020406716,
     'netted': 0.0},
    {0: 0.7510178540068804,
     1: 0.14265952934251383,
     2: 0.0876872427908192,
     3: 0.01860790168337263,
     4: 2.747217641456203e-05}),
   ({'unharmed': 0.5808372244114458,
     'wounded': 0.14952623589992264,
     'knocked down': 0.02859798288991628,
     'stunned': 0.04508781901471657,
     'out of action': 0.09075748027400882,
     'fled': 0.10519325750998938,
     'netted': 0.0},
    {0: 0.6225296409727248,
     1: 0.1919716720658353,
     2: 0.15004292132782182,
     3: 0.03367439013670121,
     4: 0.0016449573646794894,
     5: 0.00013641813223689629}),
   ({'unharmed': 0.535730734338049,
     'wounded': 0.0,
     'knocked down': 0.09653635116598079,
     'stunned': 0.13185871056241422,
     'out of action': 0.2230715941766936,
     'fled': 0.012802609756861563,
     'netted': 0.0},
    {0: 0.5401922786150407,
     1: 0.26452663052773645,
     2: 0.1585471947567062,
     3: 0.03670513078977411,
     4: 2.8765310741891277e-05})],
  (0.5431902347369549, 0.4568097418530593, 0.0, 2.3409976628296682e-08)),
 ('2v2',
  'core2',
  [({'unharmed': 0.6118399907901301,
     'wounded': 0.21740417196813425,
     'knocked down': 0.041016873101470425,
     'stunned': 0.018618756117308215,
     'out of action': 0.06458970047659984,
     'fled': 0.04653050754635733,
     'netted': 0.0},
    {0: 0.6252942404714835,
     1: 0.24175182742710666,
     2: 0.11133100892390309,
     3: 0.01910334926627093,
     4: 0.002519573911236002}),
   ({'unharmed': 0.817458651187833,
     'wounded': 0.0,
     'knocked down': 0.03200592675151145,
     'stunned': 0.0633144718792867,
     'out of action': 0.07742693472590274,
     'fled': 0.009794015455466352,
     'netted': 0.0},
    {0: 0.8207233230063217, 1: 0.1463743985196442, 2: 0.029960534646873937, 3: 0.0029417438271604934}),
   ({'unharmed': 0.572080540512166,
     'wounded': 0.18501305576633764,
     'knocked down': 0.017221585362412115,
     'stunned': 0.03168861565716728,
     'out of action': 0.06501086482200734,
     'fled': 0.128985337879909,
     'netted': 0.0},
    {0: 0.6174598670889708,
     1: 0.24955629704632887,
     2: 0.11471257793050356,
     3: 0.01641826421346815,
     4: 0.0018529937207281701}),
   ({'unharmed': 0.5391097055591785,
     'wounded': 0.0,
     'knocked down': 0.10646242950769699,
     'stunned': 0.13217306812985816,
     'out of action': 0.210559649582855,
     'fled': 0.011695147220410393,
     'netted': 0.0},
    {0: 0.543008087965982,
     1: 0.30596073549161246,
     2: 0.12633981851771328,
     3: 0.021604938271604934,
     4: 0.003086419753086421})],
  (0.577510115615693, 0.42248685544545894, 0.0, 3.0289388386693826e-06)),
 ('3v1',
  'lrb',
  [({'unharmed': 0.49640136903331633,
     'wounded': 0.0,
     'knocked down': 0.08429153794249541,
     'stunned': 0.14411874902299024,
     'out of action': 0.2751883440011979,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.49640136903331633,
     1: 0.1925262022810684,
     2: 0.17397550049877797,
     3: 0.10720968642648036,
     4: 0.02988724176035682}),
   ({'unharmed': 0.9999999999999998,
     'wounded': 0.0,
     'knocked down': 0.0,
     'stunned': 0.0,
     'out of action': 0.0,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9999999999999998}),
   ({'unharmed': 0.9999999999999998,
     'wounded': 0.0,
     'knocked down': 0.0,
     'stunned': 0.0,
     'out of action': 0.0,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9999999999999998}),
   ({'unharmed': 0.2997702801328877,
     'wounded': 0.07926568060796572,
     'knocked down': 0.04276542028534266,
     'stunned': 0.034906221213232135,
     'out of action': 0.3208863012070521,
     'fled': 0.2224060965535193,
     'netted': 0.0},
    {0: 0.4234070999342601,
     1: 0.14169688970323166,
     2: 0.34412678524764234,
     3: 0.06910773914928384,
     4: 0.01869189811482773,
     5: 0.002901442931624322,
     6: 6.769894838029407e-05,
     7: 4.459707495531606e-07})],
  (0.8235480950504603, 0.17645190491858087, 0.0, 3.0956940922227814e-11)),
 ('3v1',
  'core2',
  [({'unharmed': 0.34995456279800635,
     'wounded': 0.0,
     'knocked down': 0.11744742418900221,
     'stunned': 0.18779217907832554,
     'out of action': 0.3448058339346658,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.34995456279800635,
     1: 0.2761254954486345,
     2: 0.23020045644867057,
     3: 0.10860723094517083,
     4: 0.03016926709531376,
     5: 0.004634050560191202,
     6: 0.0003089367040127468}),
   ({'unharmed': 0.9999999999999992,
     'wounded': 0.0,
     'knocked down': 0.0,
     'stunned': 0.0,
     'out of action': 0.0,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9999999999999992}),
   ({'unharmed': 0.9999999999999992,
     'wounded': 0.0,
     'knocked down': 0.0,
     'stunned': 0.0,
     'out of action': 0.0,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9999999999999992}),
   ({'unharmed': 0.36394587252740696,
     'wounded': 0.1253139897206422,
     'knocked down': 0.01705095247766661,
     'stunned': 0.03744113372240266,
     'out of action': 0.12243950937885847,
     'fled': 0.3338085421730229,
     'netted': 0.0},
    {0: 0.5377057844687742,
     1: 0.26141583217743863,
     2: 0.1635118666112909,
     3: 0.03278603672000469,
     4: 0.004292979184925777,
     5: 0.0002755655826135919,
     6: 1.1731313215230929e-05,
     7: 2.0177422531945357e-07,
     8: 2.1539303300597413e-09,
     9: 1.3581346752221235e-11})],
  (0.7183651535266, 0.2816348302045395, 0.0, 1.6268854913172954e-08))]


def fear_and_stupidity():
    return ([make_fighter("Zombie", "WS2 S3 T3 W1 A1 Ld5", traits="causes fear"),
             make_fighter("Troll", "WS3 S5 T4 W2 A2 Ld4", traits="stupidity")],
            [make_fighter("Guard", "WS3 S3 T3 W1 A1 Ld7", weapons="spear", armour="shield"),
             make_fighter("Lucky", "WS3 S3 T3 W1 A1 Ld6", weapons="sword", equipment="lucky charm")])


def shade_and_pistol():
    return ([make_fighter("Duellist", "WS4 S3 T3 W1 A1 I4 BS4", weapons="sword, crossbow pistol", equipment="crimson shade")],
            [make_fighter("Hater", "WS3 S3 T3 W1 A2 Ld7", weapons="axe", traits="hates"),
             make_fighter("Brute", "WS3 S4 T3 W2 A1", weapons="club, club")])


def three_against_a_frenzied_one():
    return ([make_fighter("A1", "WS3 S3 T3 W1 A1", weapons="sword, dagger"), make_fighter("A2", "WS3 S3 T3 W1 A1", weapons="halberd"),
             make_fighter("A3", "WS3 S3 T3 W1 A1 Ld8", weapons="spear")],
            [make_fighter("Frenzied", "WS4 S4 T4 W2 A2", weapons="axe", frenzy=True, armour="light armour")])


RULES = {"fear-stupidity": fear_and_stupidity, "shade-pistol": shade_and_pistol, "later-defender-charged": three_against_a_frenzied_one}

# (case, edition, options, per fighter (outcomes, wounds lost) of one round, (win, lose, both,
# unfinished) of a fight of at most 8 rounds), as commit 3f9f783 gave them: fear and Stupidity
# tests, a lucky charm, Crimson Shade, a crossbow pistol's shot, hatred, two weapons, frenzy, a
# later round, the defenders charging. fear-stupidity since issue 16: the Troll charged, so he has
# passed his Stupidity test (000:887-891) and fights in the first round
BEFORE_RULES = [('fear-stupidity',
  'lrb',
  {'charged': True},
  [({'unharmed': 0.7644379699707404,
     'wounded': 0.0,
     'knocked down': 0.05291685718640471,
     'stunned': 0.0661460714830059,
     'out of action': 0.10469423556856149,
     'fled': 0.011804865791291242,
     'netted': 0.0},
    {0: 0.7697501595768216, 1: 0.1529096503258903, 2: 0.07674994680772741, 3: 0.0005902432895645621}),
   ({'unharmed': 0.7741683796904929,
     'wounded': 0.03602100205576104,
     'knocked down': 0.00974508459076364,
     'stunned': 0.01461762688614546,
     'out of action': 0.04360403408987674,
     'fled': 0.1218438726869639,
     'netted': 0.0},
    {0: 0.8355576503538876,
     1: 0.07531224487726364,
     2: 0.0790450594450932,
     3: 0.008373927813859393,
     4: 0.0016627725802537455,
     5: 4.834492964614415e-05}),
   ({'unharmed': 0.846397926668956,
     'wounded': 0.0,
     'knocked down': 0.020951217421124907,
     'stunned': 0.03279320987654334,
     'out of action': 0.07566483421856196,
     'fled': 0.024192811814817517,
     'netted': 0.0},
    {0: 0.8587872395800288, 1: 0.06488334819435097, 2: 0.07495108673404238, 3: 0.0011637135232921499, 4: 0.00021461196828945076}),
   ({'unharmed': 0.8063933814005401,
     'wounded': 0.0,
     'knocked down': 0.03729423868312772,
     'stunned': 0.04372427983539111,
     'out of action': 0.07851546702047643,
     'fled': 0.034072633060468455,
     'netted': 0.0},
    {0: 0.82118650033919, 1: 0.130743771843194, 2: 0.04666043315863034, 3: 0.0012763423326697075, 4: 0.00013295232631976118})],
  (0.31671461650737914, 0.6195496866480352, 0.0, 0.0637356968445896)),
 ('shade-pistol',
  'core',
  {'charged': True},
  [({'unharmed': 0.34265695915680194,
     'wounded': 0.0,
     'knocked down': 0.05623537589964465,
     'stunned': 0.17385534028423866,
     'out of action': 0.4103506109494088,
     'fled': 0.016901713709905748,
     'netted': 0.0},
    {0: 0.3485707337162074,
     1: 0.4240264940399729,
     2: 0.1789652700115069,
     3: 0.04534969082270516,
     4: 0.0029197345832682577,
     5: 0.0001680768263394556}),
   ({'unharmed': 0.43209876543209874,
     'wounded': 0.0,
     'knocked down': 0.1691815272062185,
     'stunned': 0.18289894833104706,
     'out of action': 0.2158207590306357,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.43209876543209874, 1: 0.4917695473251036, 2: 0.07613168724279827}),
   ({'unharmed': 0.9012345679012325,
     'wounded': 0.08641975308641968,
     'knocked down': 0.0020576131687242796,
     'stunned': 0.004115226337448559,
     'out of action': 0.006172839506172839,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9012345679012325, 1: 0.08641975308641968, 2: 0.012345679012345673})],
  (0.06248761558500265, 0.9336106728030025, 0.0, 0.0039017116119916487)),
 ('later-defender-charged',
  'core2',
  {'charged': 'defender', 'first_round': False},
  [({'unharmed': 0.2759511846102074,
     'wounded': 0.0,
     'knocked down': 0.13081803746005696,
     'stunned': 0.2091710779270929,
     'out of action': 0.3840597000026426,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.2759511846102074,
     1: 0.3075605587496464,
     2: 0.2564072574853822,
     3: 0.12097144662240135,
     4: 0.033603838826350235,
     5: 0.005161606599386425,
     6: 0.00034410710662576157}),
   ({'unharmed': 0.9999999999999998,
     'wounded': 0.0,
     'knocked down': 0.0,
     'stunned': 0.0,
     'out of action': 0.0,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9999999999999998}),
   ({'unharmed': 0.9999999999999998,
     'wounded': 0.0,
     'knocked down': 0.0,
     'stunned': 0.0,
     'out of action': 0.0,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.9999999999999998}),
   ({'unharmed': 0.6669892111977426,
     'wounded': 0.23360009673975224,
     'knocked down': 0.04044802712320095,
     'stunned': 0.013552999549717467,
     'out of action': 0.04540966538958669,
     'fled': 0.0,
     'netted': 0.0},
    {0: 0.6692734208251324,
     1: 0.26049049936453733,
     2: 0.057253839343356955,
     3: 0.012103601398981876,
     4: 0.0008466006286867827,
     5: 3.2038439305050284e-05})],
  (0.22414569578502894, 0.6677197723855602, 0.0, 0.10813453182940953))]


@pytest.mark.parametrize("case,edition,options,fighters,duel", BEFORE_RULES, ids=[c for c, *_ in BEFORE_RULES])
def test_the_rules_of_several_a_side_give_the_numbers_they_gave_before(case, edition, options, fighters, duel):
    a, b = RULES[case]()
    odds = round_odds(a, b, edition=edition, **options)
    for got, (outcomes, wounds) in zip(odds.fighters, fighters, strict=True):
        _close(got.outcomes, outcomes)
        _close(got.wounds_lost, wounds)
    fight = duel_odds(a, b, edition=edition, max_rounds=8, budget=NO_LIMIT, **{k: v for k, v in options.items() if k != "first_round"})
    for got, want in zip((fight.win, fight.lose, fight.both, fight.unfinished), duel):
        assert abs(got - want) <= fight.pruned + TOL


def _close(got: dict, want: dict, tol: float = TOL) -> None:
    for k in set(got) | set(want):
        assert abs(got.get(k, 0.0) - want.get(k, 0.0)) <= tol, (k, got.get(k), want.get(k))


@pytest.mark.parametrize("shape,edition,fighters,duel", BEFORE, ids=[f"{s}-{e}" for s, e, *_ in BEFORE])
def test_several_a_side_give_the_numbers_they_gave_before(shape, edition, fighters, duel):
    a, b = SHAPES[shape]()
    odds = round_odds(a, b, edition=edition)
    for got, (outcomes, wounds) in zip(odds.fighters, fighters, strict=True):
        _close(got.outcomes, outcomes)
        _close(got.wounds_lost, wounds)
    fight = duel_odds(a, b, edition=edition, budget=NO_LIMIT)
    assert fight.exact
    for got, want in zip((fight.win, fight.lose, fight.both, fight.unfinished), duel):
        assert abs(got - want) <= fight.pruned + TOL  # what was pruned is the only difference allowed


def test_pruned_probability_is_reported_and_bounds_the_difference():
    a, b = two_against_two()
    whole = duel_odds(a, b, budget=Budget(exact_steps=10**12, prune_below=0.0, seconds=None))
    assert whole.pruned == 0 and whole.win + whole.lose + whole.both + whole.unfinished == pytest.approx(1, abs=TOL)
    coarse = duel_odds(a, b, budget=Budget(exact_steps=10**12, prune_below=1e-5, seconds=None))  # coarse, to have something pruned
    assert 0 < coarse.pruned < 1e-2
    assert coarse.win + coarse.lose + coarse.both + coarse.unfinished + coarse.pruned == pytest.approx(1, abs=TOL)
    for got, want in ((coarse.win, whole.win), (coarse.lose, whole.lose), (coarse.unfinished, whole.unfinished)):
        assert want - coarse.pruned - TOL <= got <= want + TOL  # pruning only ever takes probability away
    assert duel_odds(a, b).how_computed().startswith("Exact odds, to within ")


def test_a_fight_simulated_after_its_first_round_lands_within_its_interval():
    # Budget(exact_steps=0): only the first round exact, then 20,000 fights (min = max, with work
    # enough for them) from a seeded generator.
    # A figure is (its part decided in round 1) + left x (share of the simulated fights), left being
    # the probability still fighting after round 1: a standard error of left x sqrt(p(1-p)/n), here
    # under 0.0035. The tolerance is 4 standard errors (a correct engine misses it for about 1 seed
    # in 16,000); the seed is fixed, so the test is deterministic.
    a, b = two_against_two()
    exact = duel_odds(a, b, budget=NO_LIMIT)
    first = duel_odds(a, b, max_rounds=1)  # exact: what round 1 decides
    left = first.unfinished
    n = 20_000
    only_round_1 = Budget(exact_steps=0, simulated_steps=10**9, min_fights=n, max_fights=n, seconds=None)
    api._cached_rules.cache_clear()  # the budget counts work done: rows already worked out are free
    sim = duel_odds(a, b, budget=only_round_1, rng=random.Random(5))
    assert not sim.exact and sim.simulated == n and sim.exact_rounds == 1
    assert sim.rounds[1] == pytest.approx(first.rounds[1], abs=TOL)
    widest = 0.0
    for got, want, decided in ((sim.win, exact.win, first.win), (sim.lose, exact.lose, first.lose)):
        share = (want - decided) / left
        assert abs(got - want) <= 4 * left * math.sqrt(share * (1 - share) / n) + exact.pruned
        seen = (got - decided) / left
        widest = max(widest, Z95 * left * math.sqrt(seen * (1 - seen) / n))
    assert sim.margin == pytest.approx(widest, rel=0.05)  # the widest 95% interval, as reported
    assert sim.how_computed() == (f"Simulated, ±{100 * sim.margin:.1f}% (95%): the first round exact, "
                                  f"then 20,000 fights played on at random.")
    api._cached_rules.cache_clear()
    again = duel_odds(a, b, budget=only_round_1, rng=random.Random(5))
    assert (again.win, again.lose) == (sim.win, sim.lose)  # the same generator, the same answer


def test_drawn_rounds_end_as_often_as_the_exact_odds_say():
    # 20,000 rounds of a 2 v 2 drawn segment by segment (RoundOdds.draw, what a simulated fight
    # plays when the chain has no row) against the exact odds of that round: every drawn end is
    # possible, and each end's share is within 4.5 standard errors of its probability.
    a, b = two_against_two()
    _, rules = round_rules(a, b, first_round=False, charged=None)
    start = RoundState.start(rules.fight.start_models())
    exact = odds_of(rules).odds_from(start, wounds_of=(), gone_alike=True)
    rng, n = random.Random(11), 20_000
    seen: dict = {}
    for _ in range(n):
        end = odds_of(rules).draw(rng, start)
        seen[end] = seen.get(end, 0) + 1
    assert all(exact.get(end, 0.0) > 0 for end in seen)
    for end, p in exact.items():
        assert abs(seen.get(end, 0) / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-12


def test_gone_alike_changes_only_whether_a_gone_warrior_fled_or_fell():
    # a fight to the end reads who is still in the fight: with gone_alike the hits on a warrior
    # breaking from combat are skipped, and nothing else may change
    a, b = two_against_two()
    _, rules = round_rules(a, b, first_round=False, charged=None)
    start = RoundState.start(rules.fight.start_models())

    def in_fight(dist):
        out: dict = {}
        for s, p in dist.items():
            key = tuple(m if m.status < OUT_OF_ACTION else "gone" for m in s.models)
            out[key] = out.get(key, 0.0) + p
        return out

    full = in_fight(odds_of(rules).odds_from(start, wounds_of=()))
    alike = in_fight(odds_of(rules).odds_from(start, wounds_of=(), gone_alike=True))
    _close(full, alike, 1e-12)


def test_a_big_two_against_two_is_answered_within_the_budget_and_says_so():
    # 2 v 2 with W3 and 12 attacks each: too big for exact odds within Budget() (issue 19 §5)
    def berserker(name):
        return make_fighter(name, "WS4 S4 T4 W3 A6", weapons="sword", frenzy=True, armour="light armour, helmet")

    duel = duel_odds([berserker("B1"), berserker("B2")], [berserker("B3"), berserker("B4")], budget=Budget(seconds=None))
    assert not duel.exact and duel.exact_rounds >= 1 and duel.simulated >= Budget().min_fights
    assert 0 < duel.margin <= 0.02
    assert duel.win + duel.lose + duel.both + duel.unfinished == pytest.approx(1, abs=1e-6)
    assert duel.how_computed().startswith("Simulated, ±")


def test_wilson_interval():
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)  # sound at 0, where p(1-p)/n says nothing


def test_a_fights_tables_go_when_its_rules_are_forgotten():
    # the Odds-mode tables live on the rules object: once the rules cache lets a fight go, its
    # tables (tens of MB for a big 2 v 2) are freed with it, not kept for the life of the process
    import gc
    import weakref

    a, b = two_against_two()
    round_odds(a, b)
    _, rules = round_rules(a, b)
    tables = weakref.ref(odds_of(rules))
    del rules
    api._cached_rules.cache_clear()
    gc.collect()
    assert tables() is None


def test_a_fight_past_its_time_limit_is_answered_from_the_work_done_and_says_so():
    # Budget.seconds is the safety net of a very busy machine: past it, the exact chain stops at
    # its next row and the simulation after its first fight, whatever the steps left
    a, b = two_against_two()
    api._cached_rules.cache_clear()
    duel = duel_odds(a, b, budget=Budget(seconds=0.0))
    assert duel.cut_short and duel.exact_rounds == 1 and duel.simulated == 1
    assert duel.win + duel.lose + duel.both + duel.unfinished == pytest.approx(1, abs=1e-9)
    assert duel.how_computed().endswith("then 1 fight played on at random. Cut short at its time limit: the machine is busy.")


# --- the fast paths of a round's odds against the general way ------------------------------------
def berserkers_and_veterans():
    """2 v 2, W3, a berserker (A6 frenzied: 12 attacks) and a veteran each side: the issue 19 §5
    shape, smaller; frenzied warriors take no All Alone test (lrb, core), veterans do."""
    def berserker(name):
        return make_fighter(name, "WS4 S4 T4 W3 A6", weapons="sword", frenzy=True, armour="light armour, helmet")

    def veteran(name):
        return make_fighter(name, "WS4 S4 T4 W3 A4", weapons="sword", armour="light armour")

    return [berserker("B1"), veteran("V1")], [berserker("B2"), veteran("V2")]


def against_an_ogre():
    """3 v 1 against a larger model (core2 counts only enemies of his size or larger, 004:666)."""
    return ([make_fighter(f"M{i}", "WS4 S4 T3 A3 W2", weapons="axe", armour="light armour, helmet") for i in (1, 2, 3)],
            [make_fighter("Ogre", "WS3 S4 T5 W3 I3 A6", weapons="club, club")])


FAST_PATH_CASES = [(shape, edition, first_round)
                   for shape in ("2v2", "3v1", "berserkers", "ogre") for edition in ("lrb", "core", "core2") for first_round in (True, False)]
FAST_PATH_SHAPES = {**SHAPES, "berserkers": berserkers_and_veterans, "ogre": against_an_ogre}


@pytest.mark.parametrize("shape,edition,first_round", FAST_PATH_CASES, ids=[f"{s}-{e}-{'first' if f else 'later'}" for s, e, f in FAST_PATH_CASES])
def test_the_end_of_the_phase_and_each_models_ends_are_those_of_the_general_way(shape, edition, first_round):
    # RoundOdds._tail_from (the end of the phase from the calm state and each breaking warrior's
    # ends, remembered per what his breaking reads) against every segment of the tail run on the
    # state; and each_models_ends (every model's ends in one pass, the states carrying each
    # model's counts of wounds lost) against the round's whole distribution with his wounds
    # counted, summed by his end
    a, b = FAST_PATH_SHAPES[shape]()
    _, rules = round_rules(a, b, edition=edition, first_round=first_round, charged=True if first_round else None)
    odds = odds_of(rules)
    start = RoundState.start(rules.fight.start_models())
    each = odds.each_models_ends(start)
    assert len(each) == len(rules.fight.fighters)
    for i, ends in enumerate(each):
        _close(ends, _his_ends(odds, start, i), 1e-12)
    after_blows = {RoundState(s.models, (), odds._none, odds._none, s.critical_used, odds._none, s.breaking, odds._zeros)
                   for s in odds._segments(odds._phase, {start: 1.0}, ())}
    for key in after_blows:
        for gone_alike in (False, True):
            _close(odds._tail_from(key, gone_alike), odds._tail_by_segments(key, gone_alike), 1e-12)
    tested = sum(1 for key in after_blows if rules.alone_testers(key.models))
    assert tested  # warriors all alone were met, and their tests taken
    if shape in ("2v2", "berserkers"):  # states after the blows that differ only in what a breaking warrior's hits do not read share them
        assert len(odds._broken) < tested


def one_against_one():
    return ([make_fighter("Captain", "WS4 S4 A3 W2", weapons="sword", armour="light armour, helmet")],
            [make_fighter("Orc", "WS4 T4 A3 W2", weapons="axe", armour="heavy armour, buckler")])


EACH_MODEL_CASES = [(shape, edition) for shape in ("1v1", *RULES) for edition in ("lrb", "core2")]


@pytest.mark.parametrize("shape,edition", EACH_MODEL_CASES, ids=[f"{s}-{e}" for s, e in EACH_MODEL_CASES])
def test_each_models_ends_are_those_of_the_general_way_with_shots_steps_and_one_a_side(shape, edition):
    # each_models_ends through crossbow pistols' shots, Crimson Shade, fear and Stupidity tests
    # (RULES), and with no end of the phase but the end of the round (1 v 1)
    a, b = one_against_one() if shape == "1v1" else RULES[shape]()
    _, rules = round_rules(a, b, edition=edition)
    odds = odds_of(rules)
    start = RoundState.start(rules.fight.start_models())
    for i, ends in enumerate(odds.each_models_ends(start)):
        _close(ends, _his_ends(odds, start, i), 1e-12)


def _his_ends(odds, start: RoundState, i: int) -> dict:
    """Model i's ends of the round the general way: the whole distribution with his wounds
    counted, summed by (his model, wounds he lost)."""
    summed: dict = {}
    for s, p in odds.odds_from(start, wounds_of=(i,)).items():
        summed[(s.models[i], s.wounds_lost[i])] = summed.get((s.models[i], s.wounds_lost[i]), 0.0) + p
    return summed


# --- monsters: Stupidity and fear tests each turn (the /odds playtest of issue 19) -------------------
def monsters():
    """Two Rat Ogres against a Troll and an Ogre, as /odds builds them from their templates."""
    from engine.combat.profile import find_template

    def template(name, label):
        t = find_template(name)
        return make_fighter(label, t.profile, traits=sorted(t.traits))

    return ([template("Rat Ogre", "R1"), template("Rat Ogre", "R2")], [template("Troll", "T"), template("Ogre", "O")])


def test_each_leadership_test_is_a_step_of_its_own_and_rolls_as_before():
    # a step's table replays every sequence of its dice: two Stupidity tests in one step were
    # 36 x 36 replays from every tuple of models, one step each is 36 + 36. A roll still tests
    # in model order, each with two dice.
    a, b = monsters()
    _, rules = round_rules(a, b, first_round=False, charged=None)
    tests = [seg for seg in rules.segments if getattr(seg.step, "func", None) == rules.stupidity_test]
    assert [seg.step.args for seg in tests] == [(0,), (1,), (2,)]  # both Rat Ogres and the Troll; the Ogre is not stupid
    _, first = round_rules(a, b)  # the Rat Ogres charged and cause fear: the Troll and the Ogre test
    assert [seg.step.args for seg in first.segments if getattr(seg.step, "func", None) == first.fear_test] == [(2,), (3,)]
    lines = api.resolve_round(a, b, random.Random(3), first_round=False, charged=None).lines
    tested = [line.split(" tests for Stupidity")[0] for line in lines if " tests for Stupidity" in line]
    assert tested == ["R1", "R2", "T"]  # a round asked alone: the Troll's test of his own last turn rolled too


def test_drawn_steps_rolled_with_dice_end_as_often_as_the_exact_odds_say(monkeypatch):
    # a drawn round rolls a plain step (Stupidity tests) with dice the first times a state meets
    # it, as it does a volley; with every step and volley rolled, 20,000 drawn rounds end as the
    # exact odds say (each end's share within 4.5 standard errors)
    import sys

    monkeypatch.setattr(sys.modules["engine.combat.round_odds"], "ROLLED_BEFORE_TABLE", 10**9)
    a, b = monsters()
    api._cached_rules.cache_clear()
    _, rules = round_rules(a, b, first_round=False, charged=None)
    start = RoundState.start(rules.fight.start_models())
    exact = odds_of(rules).odds_from(start, wounds_of=(), gone_alike=True)
    rng, n = random.Random(13), 20_000
    seen: dict = {}
    for _ in range(n):
        end = odds_of(rules).draw(rng, start)
        seen[end] = seen.get(end, 0) + 1
    assert not odds_of(rules)._drawn  # no step's table was built: every one rolled
    assert all(exact.get(end, 0.0) > 0 for end in seen)
    for end, p in exact.items():
        assert abs(seen.get(end, 0) / n - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-12
    api._cached_rules.cache_clear()


def test_a_two_against_two_of_monsters_gets_a_useful_margin_within_the_budget():
    # the playtest's 2 v 2 of monsters got 25-33 simulated fights (±14-17%): each drawn round
    # built the table of its Stupidity tests (1,296 replays) from every new tuple of models
    a, b = monsters()
    api._cached_rules.cache_clear()  # the budget counts work done: a cold start, as the first /odds
    duel = duel_odds(a, b, budget=Budget(seconds=None))
    assert not duel.exact and duel.simulated >= 1_000
    assert 0 < duel.margin <= 0.03 and not duel.rough
    assert duel.win + duel.lose + duel.both + duel.unfinished == pytest.approx(1, abs=1e-6)
    assert duel.how_computed().startswith("Simulated, ±")
    api._cached_rules.cache_clear()


def test_a_wide_margin_is_said_to_be_rough():
    from engine.combat.duel import ROUGH_MARGIN, DuelOdds

    wide = DuelOdds("lrb", ("A", "B"), win=0.6, lose=0.4, both=0.0, unfinished=0.0, rounds={2: 1.0}, exact_rounds=1,
                    simulated=200, margin=0.068)
    assert wide.rough and wide.margin > ROUGH_MARGIN
    assert wide.how_computed() == ("⚠️ Rough: each figure may be off by up to 7% either way (too few fights fit the time "
                                   "allowed); read them as a rough guide. Simulated, ±6.8% (95%): the first round exact, "
                                   "then 200 fights played on at random.")
    narrow = DuelOdds("lrb", ("A", "B"), win=0.6, lose=0.4, both=0.0, unfinished=0.0, rounds={2: 1.0}, exact_rounds=1,
                      simulated=1500, margin=0.025)
    assert not narrow.rough and narrow.how_computed().startswith("Simulated, ±2.5% (95%)")
    exact = DuelOdds("lrb", ("A", "B"), win=0.6, lose=0.4, both=0.0, unfinished=0.0, rounds={2: 1.0})
    assert not exact.rough and exact.how_computed() == "Exact odds."
