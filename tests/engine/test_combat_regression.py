"""Exact odds pinned to the values the engine gave before the speed-ups (commit 984c578).

The odds code was restructured for speed (shared step tables, dead fields reset, volley
keys without the attacker's unread fields); these numbers must not move by more than 1e-9.
"""

import pytest

from engine.combat import duel_odds, make_fighter, round_odds, shot_odds

TOL = 1e-9

ROUNDS = [('lrb',
  {'profile': 'WS4 S4 A3', 'weapons': 'hammer'},
  {'profile': 'WS4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler'},
  {},
  [({'unharmed': 0.8201379448808608,
     'wounded': 0.0,
     'knocked down': 0.0444103839800343,
     'stunned': 0.05551297997504288,
     'out of action': 0.07993869116406174},
    {0: 0.8201379448808608, 1: 0.1199080367460926, 2: 0.05995401837304631}),
   ({'unharmed': 0.44058225397139555,
     'wounded': 0.2788659665051601,
     'knocked down': 0.026601805383638866,
     'stunned': 0.11773418502489885,
     'out of action': 0.1362157891149065},
    {0: 0.44058225397139555, 1: 0.2788659665051601, 2: 0.18758325591263889, 3: 0.08032658438477883, 4: 0.012641939226026494})]),
 ('lrb',
  {'profile': 'WS3 A1', 'weapons': 'sword, pistol', 'equipment': 'black lotus'},
  {'profile': 'WS3', 'weapons': 'dagger', 'equipment': 'lucky charm'},
  {},
  [({'unharmed': 0.8841520919067214,
     'wounded': 0.0,
     'knocked down': 0.027661084438347805,
     'stunned': 0.035329503886602644,
     'out of action': 0.05285731976832799},
    {0: 0.8841520919067214, 1: 0.07394547325102879, 2: 0.04190243484224965}),
   ({'unharmed': 0.6388888888888887,
     'wounded': 0.0,
     'knocked down': 0.08611968449931413,
     'stunned': 0.11141117969821673,
     'out of action': 0.16358024691358025},
    {0: 0.6388888888888887, 1: 0.22916666666666669, 2: 0.1076388888888889, 3: 0.024305555555555552})]),
 ('lrb',
  {'profile': 'WS3 A2', 'weapons': 'sword', 'hates': True, 'causes_fear': True},
  {'profile': 'WS4', 'weapons': 'morning star', 'armour': 'shield'},
  {},
  [({'unharmed': 0.8907402049039784,
     'wounded': 0.0,
     'knocked down': 0.02933827831282072,
     'stunned': 0.03439660215985877,
     'out of action': 0.04552491462334249},
    {0: 0.8907402049039784, 1: 0.08194484632201648, 2: 0.027314948774005483}),
   ({'unharmed': 0.4538483796296297,
     'wounded': 0.0,
     'knocked down': 0.11158800582990401,
     'stunned': 0.16093857167352538,
     'out of action': 0.27362504286694106},
    {0: 0.4538483796296297, 1: 0.281394675925926, 2: 0.20326967592592599, 3: 0.06148726851851853})]),
 ('core2',
  {'profile': 'WS4 A4', 'weapons': 'sword', 'armour': 'gromril armour'},
  {'profile': 'WS4 A4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler, helmet'},
  {},
  [({'unharmed': 0.6325000956411714,
     'wounded': 0.0,
     'knocked down': 0.07960689309389464,
     'stunned': 0.10276311589836412,
     'out of action': 0.18512989536656949},
    {0: 0.6325000956411714,
     1: 0.21747678758616748,
     2: 0.10882671345747338,
     3: 0.031729683879198826,
     4: 0.00794320931724326,
     5: 0.0013195545886784269,
     6: 0.0001873592192556618,
     7: 1.5518628291065282e-05,
     8: 1.0776825202128666e-06}),
   ({'unharmed': 0.4735380777319469,
     'wounded': 0.29475021663486545,
     'knocked down': 0.07232725202916682,
     'stunned': 0.034192980639040416,
     'out of action': 0.12519147296498054},
    {0: 0.4735380777319469,
     1: 0.29475021663486545,
     2: 0.16022087825594847,
     3: 0.05385864950087721,
     4: 0.014490527825877232,
     5: 0.0027026824093183736,
     6: 0.00039994375800353016,
     7: 3.6596560286778236e-05,
     8: 2.427322876163863e-06})]),
 ('lrb',
  {'profile': 'WS3 BS4', 'weapons': 'sword, crossbow pistol', 'equipment': 'dark venom'},
  {'profile': 'WS3', 'weapons': 'sword', 'state': 'knocked down'},
  {'first_round': True},
  [({'unharmed': 0.9999999999999999, 'wounded': 0.0, 'knocked down': 0.0, 'stunned': 0.0, 'out of action': 0.0}, {0: 0.9999999999999999}),
   ({'unharmed': 0.2407407407407407, 'wounded': 0.0, 'knocked down': 0.0, 'stunned': 0.0, 'out of action': 0.7592592592592592},
    {0: 0.2407407407407407, 1: 0.5833333333333333, 2: 0.1759259259259259})]),
 ('lrb',
  {'profile': 'WS4 S4 A4', 'weapons': 'sword', 'armour': 'light armour, helmet'},
  {'profile': 'WS4 T4 A4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler'},
  {},
  [({'unharmed': 0.5995490699318281,
     'wounded': 0.0,
     'knocked down': 0.1277200007278123,
     'stunned': 0.056634729840338134,
     'out of action': 0.21609619950002126},
    {0: 0.5995490699318281,
     1: 0.17141307806563538,
     2: 0.1431201210680434,
     3: 0.06999520033012317,
     4: 0.014812302538887465,
     5: 0.001110228065482229}),
   ({'unharmed': 0.4249669810663691,
     'wounded': 0.24654625539464128,
     'knocked down': 0.06001699763751714,
     'stunned': 0.10144924983116078,
     'out of action': 0.16702051607031163},
    {0: 0.4249669810663691,
     1: 0.24654625539464128,
     2: 0.20547262523732096,
     3: 0.1001320213627323,
     4: 0.02127755963755772,
     5: 0.001604557301378588})]),
 ('core2',
  {'profile': 'WS4 S4 A4', 'weapons': 'sword', 'armour': 'light armour, helmet'},
  {'profile': 'WS4 T4 A4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler'},
  {},
  [({'unharmed': 0.5644674606871072,
     'wounded': 0.0,
     'knocked down': 0.14994093970510688,
     'stunned': 0.061990149565120604,
     'out of action': 0.22360145004266507},
    {0: 0.5644674606871072,
     1: 0.22684319349896115,
     2: 0.13713786953825122,
     3: 0.05238863436932464,
     4: 0.015413737004312447,
     5: 0.003189152338858606,
     6: 0.0005058797797929054,
     7: 5.065471107359402e-05,
     8: 3.418072318019066e-06}),
   ({'unharmed': 0.418055613142071,
     'wounded': 0.30362550008021366,
     'knocked down': 0.04931776793624226,
     'stunned': 0.08231255673819905,
     'out of action': 0.14668856210327383},
    {0: 0.418055613142071,
     1: 0.30362550008021366,
     2: 0.18295496308053724,
     3: 0.06977284982839266,
     4: 0.02057209959900376,
     5: 0.004267838095785133,
     6: 0.0006784200045923212,
     7: 6.811960325516453e-05,
     8: 4.596566148855129e-06})]),
 ('core',
  {'profile': 'WS4 S3 A2', 'weapons': 'axe', 'equipment': 'crimson shade'},
  {'profile': 'WS3 A2 W3', 'weapons': 'hammer, dagger', 'armour': 'helmet', 'wounds': 2},
  {},
  [({'unharmed': 0.5952199788523092,
     'wounded': 0.0,
     'knocked down': 0.06131657484978647,
     'stunned': 0.16251735658659394,
     'out of action': 0.18094608971131043},
    {0: 0.5952199788523092, 1: 0.28207836394350466, 2: 0.10458794902679695, 3: 0.017172134935957144, 4: 0.0009415732414322566}),
   ({'unharmed': 0.30864197530864185,
     'wounded': 0.4115226337448561,
     'knocked down': 0.10791037951531779,
     'stunned': 0.04435299497027892,
     'out of action': 0.12757201646090535},
    {0: 0.30864197530864185, 1: 0.4115226337448561, 2: 0.22222222222222224, 3: 0.057613168724279844})]),
 ('core',
  {'profile': 'WS3 A2', 'weapons': 'fist'},
  {'profile': 'WS3 A2 W2', 'weapons': 'fist', 'equipment': 'lucky charm'},
  {},
  [({'unharmed': 0.8560702184970322,
     'wounded': 0.0,
     'knocked down': 0.03416709551983427,
     'stunned': 0.047976593834322595,
     'out of action': 0.06178609214881095},
    {0: 0.8560702184970322, 1: 0.14071992910548864, 2: 0.003209852397479211}),
   ({'unharmed': 0.9279192386831276,
     'wounded': 0.07047325102880656,
     'knocked down': 0.0005358367626886143,
     'stunned': 0.0005358367626886143,
     'out of action': 0.0005358367626886143},
    {0: 0.9279192386831276, 1: 0.07047325102880656, 2: 0.001607510288065843})]),
 ('lrb',
  {'profile': 'WS4 A1', 'weapons': 'sword'},
  {'profile': 'WS3 A1', 'weapons': 'sword', 'state': 'stunned'},
  {'charged': False},
  [({'unharmed': 1.0, 'wounded': 0.0, 'knocked down': 0.0, 'stunned': 0.0, 'out of action': 0.0}, {0: 1.0}),
   ({'unharmed': 0.0, 'wounded': 0.0, 'knocked down': 0.0, 'stunned': 0.0, 'out of action': 1.0}, {0: 1.0})]),
 ('core2',
  {'profile': 'WS4 A2', 'weapons': 'mace'},
  {'profile': 'WS3 A1', 'weapons': 'sword', 'state': 'knocked down'},
  {},
  [({'unharmed': 1.0, 'wounded': 0.0, 'knocked down': 0.0, 'stunned': 0.0, 'out of action': 0.0}, {0: 1.0}),
   ({'unharmed': 0.4444444444444445, 'wounded': 0.0, 'knocked down': 0.0, 'stunned': 0.0, 'out of action': 0.5555555555555556},
    {0: 0.4444444444444445, 1: 0.4444444444444444, 2: 0.1111111111111111})]),
 ('core',
  {'profile': 'WS5 S4 A3', 'weapons': 'sword, sword', 'armour': 'light armour'},
  {'profile': 'WS4 S4 T4 A3 W2', 'weapons': 'axe, axe', 'armour': 'heavy armour, helmet'},
  {'first_round': False, 'charged': False},
  [({'unharmed': 0.41709635095470105,
     'wounded': 0.0,
     'knocked down': 0.10309451028873519,
     'stunned': 0.16765573328446157,
     'out of action': 0.3121534054721021},
    {0: 0.41709635095470105,
     1: 0.24214826906486048,
     2: 0.19855507950506968,
     3: 0.10564989552310866,
     4: 0.032420782104569765,
     5: 0.004129622847690152}),
   ({'unharmed': 0.5255184083851477,
     'wounded': 0.20672709469661063,
     'knocked down': 0.08936191404891096,
     'stunned': 0.04026676021476225,
     'out of action': 0.13812582265456813},
    {0: 0.5255184083851477,
     1: 0.20672709469661063,
     2: 0.1639610655236225,
     3: 0.08107993993434524,
     4: 0.02067379799207687,
     5: 0.0020396934681967543})])]

DUELS = [('lrb',
  {'profile': 'WS4 S4 A4', 'weapons': 'sword', 'armour': 'light armour, helmet'},
  {'profile': 'WS4 T4 A4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler'},
  {},
  (0.4290686447615812, 0.5709313552384172, 0.0, 1.2361684656499204e-15),
  (0.42869339374186166,
   0.5703505864532753,
   0.0,
   0.0009560198048632782,
   {1: 0.3831167155703329,
    2: 0.3999541848621303,
    3: 0.13482355479067365,
    4: 0.05682576132710995,
    5: 0.016145729818875697,
    6: 0.006403870232640783,
    7: 0.0017741635933733466})),
 ('core',
  {'profile': 'WS4 S4 A4', 'weapons': 'sword', 'armour': 'light armour, helmet'},
  {'profile': 'WS4 T4 A4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler'},
  {},
  (0.3850308734533299, 0.6149691265466667, 0.0, 2.115932268672566e-15),
  (0.38459479508546107,
   0.6142663263913903,
   0.0,
   0.0011388785231485365,
   {1: 0.3616112575421129,
    2: 0.4101197182155148,
    3: 0.13670399318226814,
    4: 0.0632838363213902,
    5: 0.01772345063788955,
    6: 0.007387383196721845,
    7: 0.0020314823809539765})),
 ('core2',
  {'profile': 'WS4 S4 A4', 'weapons': 'sword', 'armour': 'light armour, helmet'},
  {'profile': 'WS4 T4 A4 W2', 'weapons': 'sword', 'armour': 'heavy armour, buckler'},
  {},
  (0.39554177656493605, 0.6044582233932819, 0.0, 3.163610456561168e-11),
  (0.3929525799222433,
   0.601015127977367,
   0.0,
   0.006032292100389976,
   {1: 0.37029001214593904,
    2: 0.3355875675373573,
    3: 0.15174051798364172,
    4: 0.0789790154943779,
    5: 0.03371867793532972,
    6: 0.016562431443692554,
    7: 0.007089485359271798})),
 ('lrb',
  {'profile': 'WS3 A1', 'weapons': 'sword, pistol', 'equipment': 'black lotus'},
  {'profile': 'WS3', 'weapons': 'dagger', 'equipment': 'lucky charm'},
  {},
  (0.6754383243737961, 0.32454415701700656, 0.0, 1.7518609197587196e-05),
  (0.6160414856757455,
   0.2922529574336935,
   0.0,
   0.09170555689056072,
   {1: 0.21643756668190822,
    2: 0.2103895082553628,
    3: 0.1826269691927319,
    4: 0.10678193074333632,
    5: 0.0925238923181831,
    6: 0.05364049327598463,
    7: 0.04589408264193206})),
 ('core',
  {'profile': 'WS4 S3 A2', 'weapons': 'axe', 'equipment': 'crimson shade'},
  {'profile': 'WS3 A2 W3', 'weapons': 'hammer, dagger', 'armour': 'helmet', 'wounds': 2},
  {},
  (0.47187084670251933, 0.528129153285993, 0.0, 2.224485848255229e-15),
  (0.47134733013658114,
   0.5277721409359714,
   0.0,
   0.000880528927445511,
   {1: 0.3085181061722157,
    2: 0.41133782419971315,
    3: 0.19745454660717499,
    4: 0.049450703661306925,
    5: 0.024721482135389574,
    6: 0.005018070039001506,
    7: 0.002618738257752394})),
 ('core',
  {'profile': 'WS3 A2', 'weapons': 'fist'},
  {'profile': 'WS3 A2 W2', 'weapons': 'fist', 'equipment': 'lucky charm'},
  {},
  (0.24698596662666342, 0.744630666481408, 0.0, 0.00838336689192697),
  (0.08710634421740798,
   0.4738045898560062,
   0.0,
   0.43908906592658564,
   {1: 0.06232192891149957,
    2: 0.11468102953020759,
    3: 0.07080648309953415,
    4: 0.10395302401183494,
    5: 0.06661381716593942,
    6: 0.08456208522856333,
    7: 0.05797256612583505}))]

SHOTS = [('lrb',
  {'profile': 'BS4'},
  {'profile': 'T3', 'armour': 'light armour, helmet'},
  'crossbow',
  {'range_inches': 10},
  ({'unharmed': 0.5555555555555556,
    'wounded': 0.0,
    'knocked down': 0.18930041152263374,
    'stunned': 0.06995884773662552,
    'out of action': 0.1851851851851852},
   {0: 0.5555555555555556, 1: 0.33333333333333337, 2: 0.11111111111111112})),
 ('core',
  {'profile': 'BS3', 'equipment': 'hunting arrows'},
  {'profile': 'T3', 'armour': 'helmet'},
  'bow',
  {'range_inches': 20, 'cover': True},
  ({'unharmed': 0.9166666666666666,
    'wounded': 0.0,
    'knocked down': 0.025977366255144033,
    'stunned': 0.013374485596707819,
    'out of action': 0.04398148148148148},
   {0: 0.9166666666666666, 1: 0.07407407407407408, 2: 0.009259259259259259})),
 ('core2',
  {'profile': 'BS4'},
  {'profile': 'T4 W2', 'armour': 'shield'},
  'repeater crossbow',
  {'twice': True},
  ({'unharmed': 0.7256515775034293,
    'wounded': 0.20507544581618653,
    'knocked down': 0.021376314586191134,
    'stunned': 0.023033836305441244,
    'out of action': 0.024862825788751715},
   {0: 0.7256515775034293, 1: 0.20507544581618653, 2: 0.06181412894375857, 3: 0.006687242798353908, 4: 0.0007716049382716048})),
 ('lrb',
  {'profile': 'BS3', 'equipment': 'black lotus'},
  {'profile': 'T3 W2', 'state': 'knocked down'},
  'sling',
  {'range_inches': 8, 'twice': True},
  ({'unharmed': 0.5625,
    'wounded': 0.32443923690494325,
    'knocked down': 0.0,
    'stunned': 0.04698851801046588,
    'out of action': 0.06607224508459075},
   {0: 0.5625, 1: 0.2916666666666666, 2: 0.12114197530864196, 3: 0.021604938271604934, 4: 0.003086419753086419})),
 ('core',
  {'profile': 'BS4'},
  {'profile': 'T3', 'armour': 'heavy armour'},
  'handgun',
  {},
  ({'unharmed': 0.5555555555555556,
    'wounded': 0.0,
    'knocked down': 0.139917695473251,
    'stunned': 0.14814814814814814,
    'out of action': 0.15637860082304525},
   {0: 0.5555555555555556, 1: 0.40740740740740744, 2: 0.03703703703703703})),
 ('lrb',
  {'profile': 'BS4'},
  {'profile': 'T3', 'armour': 'heavy armour', 'equipment': 'mandrake root'},
  'pistol',
  {},
  ({'unharmed': 0.6666666666666666,
    'wounded': 0.0,
    'knocked down': 0.18518518518518517,
    'stunned': 0.0,
    'out of action': 0.14814814814814814},
   {0: 0.6666666666666666, 1: 0.2222222222222222, 2: 0.1111111111111111}))]


def _close(got: dict, want: dict) -> None:
    assert set(got) >= set(want)
    for k in set(got) | set(want):
        assert abs(got.get(k, 0.0) - want.get(k, 0.0)) <= TOL, (k, got.get(k), want.get(k))


@pytest.mark.parametrize("edition,a,b,kw,want", ROUNDS)
def test_round_odds_unchanged(edition, a, b, kw, want):
    o = round_odds(make_fighter("A", **a), make_fighter("B", **b), edition=edition, **kw)
    for fo, (outcomes, wounds) in zip(o.fighters, want, strict=True):
        _close(fo.outcomes, outcomes)
        _close(fo.wounds_lost, wounds)


@pytest.mark.parametrize("edition,a,b,kw,want,want7", DUELS)
def test_duel_odds_unchanged(edition, a, b, kw, want, want7):
    fa, fb = make_fighter("A", **a), make_fighter("B", **b)
    d = duel_odds(fa, fb, edition=edition, **kw)
    for got, exp in zip((d.win, d.lose, d.both, d.unfinished), want):
        assert abs(got - exp) <= TOL
    d = duel_odds(fa, fb, edition=edition, max_rounds=7, **kw)
    for got, exp in zip((d.win, d.lose, d.both, d.unfinished), want7[:4]):
        assert abs(got - exp) <= TOL
    _close(d.rounds, want7[4])


@pytest.mark.parametrize("edition,a,b,weapon,kw,want", SHOTS)
def test_shot_odds_unchanged(edition, a, b, weapon, kw, want):
    (fo,) = shot_odds(make_fighter("A", **a), make_fighter("B", **b), weapon, edition=edition, **kw).fighters
    _close(fo.outcomes, want[0])
    _close(fo.wounds_lost, want[1])


ROLL_SCENARIOS = [(ed, a, b, kw) for ed, a, b, kw, _ in ROUNDS] + [
    ("core", dict(profile="WS4 A2", weapons="hammer"), dict(profile="WS4 A2 W2", weapons="fist", equipment="lucky charm"), {}),
    ("core2", dict(profile="WS3 A1 BS4", weapons="sword, pistol, pistol"), dict(profile="WS4 A2", weapons="sword, sword", armour="light armour"), {}),
]


@pytest.mark.parametrize("edition,a,b,kw", ROLL_SCENARIOS)
@pytest.mark.parametrize("first_round", [True, False])
def test_every_rolled_round_is_a_state_odds_mode_gives(edition, a, b, kw, first_round):
    """Roll mode and Odds mode run the same segments and steps: each of 80 rolled rounds must end
    in a state to which Odds mode gives a probability above 0, and the log must say every die."""
    import random

    from engine.combat.api import round_rules
    from engine.combat.dice import RollDice
    from engine.combat.round_odds import odds_of
    from engine.combat.state import RoundState

    fa, fb = make_fighter("A", **a), make_fighter("B", **b)
    r, rules = round_rules(fa, fb, edition=edition, **{**kw, "first_round": first_round})
    before = RoundState.start(rules.fight.start_models())
    exact = odds_of(rules).odds({before: 1.0})
    assert abs(sum(exact.values()) - 1) < 1e-9
    for seed in range(80):
        dice = RollDice(random.Random(seed))
        end = rules.roll(dice, before)
        assert exact.get(end, 0.0) > 0, seed
        assert len(dice.lines) >= 1 and all(str(face) in " ".join(dice.lines) for face in dice.rolled), seed


VOLLEYS = [  # small enough to walk every sequence of dice Roll mode can ask for
    ("lrb", dict(profile="WS4 S4", weapons="sword"), dict(profile="WS3 W2", weapons="sword", armour="helmet, buckler, light armour")),
    ("core", dict(profile="WS3 S4", weapons="hammer"), dict(profile="WS3", weapons="sword", armour="helmet")),
    ("core2", dict(profile="WS4", weapons="spear", equipment="black lotus"), dict(profile="WS4 W2", weapons="sword", armour="light armour, helmet")),
    ("core2", dict(profile="WS4 S4", weapons="sword"), dict(profile="WS4 W3", weapons="sword", armour="heavy armour, helmet", state="stunned")),
    ("core", dict(profile="WS4 S4", weapons="sword"), dict(profile="WS3 W2", weapons="axe", armour="shield, helmet", equipment="mandrake root")),
    ("core", dict(profile="WS3 S3", weapons="hammer"), dict(profile="WS3 W2", weapons="sword, dagger")),  # Wild Sweep, parry
    ("core2", dict(profile="wardog", traits="animal"), dict(profile="WS3 T4", weapons="dagger", state="knocked down")),
    ("lrb", dict(profile="WS3 S4", weapons="axe"), dict(profile="WS3 T4 W2", traits="regeneration, step aside")),
    ("core2", dict(profile="WS4 S4", weapons="spear"), dict(profile="WS3 T3 W2", armour="helmet", traits="large target, hard to kill")),
]


@pytest.mark.parametrize("edition,a,b", VOLLEYS)
def test_a_volley_rolled_every_possible_way_gives_its_exact_odds(edition, a, b):
    """``Volley.roll`` enumerated over every sequence of faces (``enumerate_outcomes``) and
    ``Volley.odds`` (the prefix-sharing Odds mode) give the same distribution."""
    from engine.combat.dice import enumerate_outcomes
    from tests.engine.combat_helpers import first_volley

    volley, start = first_volley(make_fighter("A", **a), make_fighter("B", **b), edition)
    rolled = enumerate_outcomes(volley.roll, start)
    exact = dict(volley.odds(start))
    assert set(rolled) == set(exact)
    for end, p in exact.items():
        assert abs(rolled[end] - p) < 1e-12, end
