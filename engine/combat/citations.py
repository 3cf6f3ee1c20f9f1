"""Every seed line the combat engine cites, in one table: rule id -> where each edition says it.

Logs and notes never write a line number themselves; they call ``cite(rule_id, edition)``.
A test reads each cited line range from the seed files and checks that it contains the
rule's key words, so a citation cannot drift away from the text it names.

An edition without its own entry falls back to lrb's (000's text): the community editions
(002, 004) copy 000 where they do not differ, and only 000 has weapons and equipment.
"""

from __future__ import annotations

from dataclasses import dataclass

SEED_FILES = {"000": "000_e71f97bd3b98baf5.txt", "002": "002_32d19b400a56c30f.txt", "004": "004_0d95f4dac3ec7500.txt"}


@dataclass(frozen=True)
class Source:
    line: str  # "000:765" or a range "002:964-966" (1-based lines of the seed file)
    words: tuple[str, ...]  # words the seed text there contains (case-insensitive)


@dataclass(frozen=True)
class Rule:
    what: str  # the rule, in our words
    lrb: Source | None = None
    core: Source | None = None
    core2: Source | None = None

    def source(self, edition: str) -> Source:
        own = getattr(self, edition, None)
        found = own or self.lrb or self.core or self.core2
        assert found is not None, self.what
        return found


def S(line: str, *words: str) -> Source:
    return Source(line, words)


RULES: dict[str, Rule] = {
    # --- dice, tests and characteristics ---------------------------------------------------
    "d3": Rule("A D3 is a D6 halved, rounding up.", S("000:188", "D3"), S("002:68", "D3"), S("004:64-72", "D3")),
    "ld-test": Rule("A Leadership test passes on 2D6 equal to or under Ld.", S("000:257", "two dice", "Leadership")),
    "characteristic-test": Rule("A characteristic test passes on a D6 equal to or under the value.", S("000:251", "D6", "equal to or lower")),
    "characteristic-zero": Rule("A characteristic of 0 means no ability in that field at all.",
                                S("000:234", "'0' for certain characteristics", "no ability in that field whatsoever")),
    "ws0": Rule("Blows against a WS 0 model hit automatically.", S("000:236", "WS of 0", "automatically hit")),
    "bs0": Rule("A model with BS 0 cannot use missile weapons.", S("000:234", "missile weapons")),
    # --- who strikes first --------------------------------------------------------------------
    "initiative-order": Rule("Models strike in order of Initiative; a tie is settled by a dice roll.",
                             S("000:661", "descending Initiative", "roll a dice"),
                             S("002:832-834", "descending Initiative", "roll a"), S("004:525", "descending Initiative", "roll a dice")),
    "stood-up-strikes-last": Rule("A model that stood up this turn strikes last.",
                                  S("000:661-663", "stood up", "strike last"), S("002:834-836", "stood up", "strike last"),
                                  S("004:527", "stood up", "strike last")),
    "charge-strikes-first": Rule("Chargers strike first; several who strike first go by Initiative.",
                                 S("000:665-667", "charged in that turn", "strike first"), S("002:837-848", "charged in that", "strike first"),
                                 S("004:529-531", "charged in that turn", "strike first")),
    "divide-attacks": Rule("A model touching several enemies chooses whom to attack and may divide its attacks.",
                           S("000:673", "choose which to attack", "divide"), None, S("004:535", "choose which to attack", "divide")),
    # --- to hit -----------------------------------------------------------------------------------
    "cc-to-hit-chart": Rule("Close-combat to-hit chart: WS against WS.", S("000:699-715", "To hit chart", "weapon skill"),
                            S("002:865-869", "To Hit chart")),
    "cc-to-hit-formula": Rule("core2: 4+ at equal WS, 3+ if the attacker's is higher, 5+ if lower.", None, None,
                              S("004:541", "4+", "5+", "3+")),
    "cc-to-hit-cap": Rule("core2: a close-combat attack never needs worse than 5+.", None, None, S("004:543", "worse than a 5+")),
    "two-weapons": Rule("A second one-handed weapon gives 1 extra Attack, added after frenzy.",
                        S("000:685", "1 extra Attack", "frenzy"), S("002:873-882", "1 extra", "frenzy"),
                        S("004:547", "1 extra Attack", "-1 WS")),
    "hatred": Rule("Hatred: re-roll misses in the first turn of each combat.", S("000:875", "re-roll any misses", "first turn"),
                   S("002:1128", "re-roll any misses"), S("004:694", "re-roll any misses", "first turn")),
    "fear-charged": Rule("Charged by a fear-causer: Leadership test; on a failure he needs 6s to hit that round.",
                         S("000:851-853", "causes *fear*", "roll 6s to score hits"), S("002:1086-1096", "fear", "6s"),
                         S("004:674", "causes fear", "roll 6s", "supercedes")),
    "fear-immune-causers": Rule("Creatures that cause fear ignore fear tests.", S("000:849", "cause *fear* can ignore these tests"),
                                None, S("004:672", "unless they cause Fear themselves")),
    "knocked-down-auto-hit": Rule("Blows against a knocked-down warrior hit automatically; he cannot parry.",
                                  S("000:779", "hit automatically", "may not parry"), S("002:973-979", "hit automatically", "may not"),
                                  S("004:605", "knocked down")),
    "knocked-down-wounded": Rule("A knocked-down warrior who is wounded and fails his save is out of action.",
                                 S("000:779", "fails his armour save", "automatically taken *out of action*"),
                                 S("002:976-978", "fails his armor save", "out of action"),
                                 S("004:605", "fail their armour save", "out of action")),
    "stunned-auto-out": Rule("A stunned warrior is taken out of action automatically by an enemy who can attack him.",
                             S("000:783", "*stunned* model is automatically taken out of action"),
                             S("002:983-985", "stunned", "out of action")),
    "stunned-auto-hit": Rule("core2: blows against a stunned warrior hit automatically, then as knocked down.", None, None,
                             S("004:609", "automatically hit", "Knocked Down")),
    "one-attacker-no-knock-and-kill": Rule("One model cannot knock down or stun and then take out the same enemy in one phase.",
                                          S("000:787", "multiple attacks", "same hand-to-hand combat phase"),
                                          S("002:990-996", "multiple attacks"), S("004:613", "multiple attacks")),
    "standing-enemy-first": Rule("A model fighting a standing enemy cannot attack stunned or knocked-down ones.",
                                 S("000:789", "still standing", "cannot attack"), S("002:998-1002", "still standing"),
                                 S("004:615", "still standing", "cannot attack")),
    # --- to wound, criticals ----------------------------------------------------------------------
    "wound-chart": Rule("Wound chart: Strength against Toughness; a dash means no chance.",
                        S("000:521-533", "Wound chart", "toughness"), S("002:647-649", "dash", "no chance")),
    "wound-formula": Rule("core2: 4+ to wound, 1 better per point S beats T, 1 worse per point T beats S; 1 fails, 6 wounds.",
                          None, None, S("004:377", "4+", "always fail", "always succeed")),
    "cannot-wound": Rule("A dash on the wound chart: no chance to wound.", S("000:554", "dash", "no chance"),
                         S("002:647-649", "dash", "no chance")),
    "critical-on-6": Rule("A 6 to wound in close combat or shooting is a critical hit; armour saves are still rolled.",
                          S("000:562", "roll a 6 when rolling to wound", "critical hit"), S("002:656", "critical hit"),
                          S("004:384", "critical hit")),
    "critical-needs-6s": Rule("No critical hit when 6s are needed to wound.", S("000:564", "needs 6s to wound", "cannot cause a critical"),
                              S("002:658", "needs 6s to wound"), S("004:386", "needs 6s to wound")),
    "one-critical-per-phase": Rule("Each warrior causes at most one critical hit per hand-to-hand combat phase.",
                                   S("000:566", "one critical hit in each hand-to-hand combat phase"),
                                   S("002:660", "one critical hit in each hand-to")),
    "critical-rolled-to-hit": Rule("core2: only attacks that rolled to hit can cause critical hits.", None, None,
                                   S("004:390", "rolled to hit", "critical hits")),
    "critical-tables-by-weapon": Rule("core and core2: each kind of weapon rolls on its own critical chart.", None,
                                      S("002:662", "Depending on what weapon"), S("004:388", "Depending on what weapon")),
    # the single critical chart (000)
    "crit-vital-part": Rule("Hits a vital part: 2 wounds, armour save rolled before doubling.", S("000:570", "vital part", "before doubling")),
    "crit-exposed-spot": Rule("Hits an exposed spot: 2 wounds, no armour save.", S("000:571", "exposed spot", "ignores all armour saves")),
    "crit-master-strike": Rule("Master strike: 2 wounds, no armour save, +2 on injury rolls.", S("000:572", "Master strike", "+2")),
    # the charts by weapon kind (002 = core, 004 = core2)
    "crit-weak-spot": Rule("Missile: hits a weak spot, no armour save.", None, S("002:670", "Weak Spot"), S("004:398", "Weak Spot")),
    "crit-ricochet": Rule("Missile: ricochet, the nearest other enemy within 6\" is hit as well.", None, S("002:671", "Ricochet"),
                          S("004:399", "Ricochet")),
    "crit-master-shot": Rule("Missile: master shot, 2 wounds, no armour save.", None, S("002:672", "Master Shot", "2 wounds"),
                             S("004:400", "Master Shot", "2 wounds")),
    "crit-hammered": Rule("Bludgeoning: hammered, the target may not fight this turn if he has not yet.", None,
                          S("002:680", "Hammered", "may not fight"), S("004:408", "Hammered", "may not fight")),
    "crit-clubbed": Rule("Bludgeoning: clubbed, no armour save and no helmet save.", None, S("002:681", "Clubbed", "helmets"),
                         S("004:409", "Clubbed", "helmets")),
    "crit-wild-sweep": Rule("Bludgeoning: wild sweep, the target's weapon is knocked away for the rest of the combat.", None,
                            S("002:682", "Wild Sweep", "back-up weapon"), S("004:410", "Wild Sweep", "back-up weapon")),
    "crit-bludgeoned": Rule("Bludgeoning: bludgeoned, out of action if the save fails.", None, S("002:683", "Bludgeoned", "out of action"),
                            S("004:411", "Bludgeoned", "out of action", "Larger models")),
    "crit-flesh-wound": Rule("Bladed: flesh wound, no armour save.", None, S("002:691", "Flesh Wound", "no armor save"),
                             S("004:419", "Flesh Wound", "no armour save")),
    "crit-bladestorm": Rule("Bladed: bladestorm, 2 wounds, each saved separately.", None, S("002:692", "Bladestorm", "separately"),
                            S("004:420", "Bladestorm", "separately")),
    "crit-sliced": Rule("Bladed: sliced, 2 wounds, no armour save, +2 on injury rolls.", None, S("002:693", "Sliced", "+2"),
                        S("004:421", "Sliced", "+2")),
    "crit-body-blow": Rule("Unarmed: body blow, one extra attack at once.", None, S("002:701", "Body Blow", "additional attack"),
                           S("004:431", "Body Blow", "additional attack")),
    "crit-crushing-blow": Rule("Unarmed: crushing blow, +1 on the injury roll.", None, S("002:702", "Crushing Blow", "+1"),
                               S("004:432", "Crushing Blow", "+1")),
    "crit-mighty-blow": Rule("Unarmed: mighty blow, no armour save, +2 on injury rolls.", None, S("002:703", "Mighty Blow", "+2"),
                             S("004:433", "Mighty Blow", "+2")),
    "crit-stab": Rule("Thrusting: stab, +1 on injury rolls.", None, S("002:711", "Stab", "+1"), S("004:441", "Stab", "+1")),
    "crit-thrust": Rule("Thrusting: thrust, knocked down even if the save is made.", None, S("002:712", "Thrust", "knocked down"),
                        S("004:442", "Thrust", "knocked down", "Larger victims")),
    "crit-kebab": Rule("Thrusting: kebab, no armour save, +2 on injury rolls, knocked back.", None, S("002:713", "Kebab", "+2"),
                       S("004:443", "Kebab", "+2")),
    "unit-size": Rule("core2: sizes, infantry and war beasts are Small, monstrous infantry Large.", None, None,
                      S("004:362-371", "Unit Size", "Monstrous infantry")),
    # --- armour --------------------------------------------------------------------------------------
    "armour-save": Rule("An armour save is a D6 roll equal to or over the armour's save.", S("000:582-590", "armour", "save"),
                        None, S("004:449-461", "armour", "save")),
    "save-modifiers": Rule("Strength 4 or more makes armour saves harder: -1 at S4 up to -6 at S9.",
                           S("000:598-605", "Save modifier", "9+"), None, S("004:469-477", "Save modifier", "9+")),
    "weapon-save-modifiers": Rule("Some weapons pierce armour better than their Strength says.", S("000:607", "better at penetrating armour")),
    "shield": Rule("A shield adds +1 to the armour save (a 6+ alone).", S("000:1301", "shield", "basic save of 6")),
    # --- wounds and injuries -----------------------------------------------------------------------
    "lose-wounds": Rule("A model with more than 1 wound left deducts a wound for each wound suffered.", S("000:613", "deduct 1"),
                        None, S("004:485", "deduct 1")),
    "injury-roll": Rule("At 0 wounds, roll for injury for that wound and every later one; several in one turn: the highest stands.",
                        S("000:615", "extent of his injuries", "apply the highest result"), None,
                        S("004:485", "extent of their injuries", "apply the highest result")),
    "injury-table": Rule("Injury: 1-2 knocked down, 3-4 stunned, 5-6 out of action.", S("000:617-627", "Knocked Down", "Stunned", "Out of action"),
                         None, S("004:487-491", "Knocked down", "Stunned", "Out of action")),
    "stunned-recovers": Rule("A stunned warrior is turned face up in the next recovery phase: knocked down.",
                             S("000:641", "treated as *knocked down*"), None, S("004:503", "treated as _knocked down_")),
    "stand-up": Rule("A knocked-down warrior stands up at the start of his next turn and strikes last that turn.",
                     S("000:633-637", "stand up", "strike last"), None, S("004:499", "stand up", "strike last")),
    # --- parry ---------------------------------------------------------------------------------------
    "parry": Rule("Parry: a D6 higher than the opponent's highest to-hit roll discards that blow; a 6 cannot be parried.",
                  S("000:765", "higher than the number your opponent rolled", "impossible to parry a blow which scored a 6"),
                  S("002:948-951", "higher than the number", "impossible to parry"),
                  S("004:597", "higher than the number", "impossible to parry")),
    "parry-once": Rule("One parry per phase, only against the first enemy who hits.",
                       S("000:771", "only parry one blow", "first hit(s)"), S("002:953-962", "only parry one blow", "first"),
                       S("004:599", "only parry one blow", "first hit(s)")),
    "parry-reroll": Rule("Sword and buckler re-roll a failed parry; two swords roll once.",
                         S("000:773", "re-roll any failed parries once", "two swords"),
                         S("002:964-966", "re-roll any failed parries", "two", "+1"),
                         S("004:601", "or two swords", "re-roll any failed parries")),
    "parry-double-strength": Rule("No parry against blows of twice the parrying model's basic Strength or more.",
                                  S("000:775", "twice (or more)", "basic Strength"), S("002:967-969", "twice (or more)"),
                                  S("004:601", "twice (or more)", "basic Strength")),
    "sword-parry": Rule("A sword may parry.", S("000:954", "may parry blows")),
    "buckler-parry": Rule("A buckler may parry.", S("000:1311", "buckler may parry")),
    # --- weapons ------------------------------------------------------------------------------------
    "fist": Rule("Bare hands: user's Strength -1, +1 to the enemy's save, only ever 1 attack.",
                 S("000:903-909", "fists can only ever make 1 attack", "+1 Enemy armour save")),
    "animals-ignore-fist": Rule("Creatures such as animals and Zombies ignore the fist rules.", S("000:903", "Creatures such as Zombies, animals")),
    "dagger": Rule("Dagger: +1 to the enemy's armour save, 6+ if none.", S("000:919", "+1 bonus to his armour save")),
    "hammer-staff-mace-club": Rule("A hammer, a staff, a mace and a club are one weapon.", S("000:921", "Hammer, staff, mace or club")),
    "concussion": Rule("Hammer, mace, club: an injury roll of 2-4 is stunned.", S("000:930", "2-4", "*stunned*")),
    "cutting-edge": Rule("Axe: an extra -1 save modifier.", S("000:942", "extra save modifier of -1")),
    "heavy": Rule("Heavy: the Strength bonus applies only in the first turn of each combat.",
                  S("000:965", "only in the first turn"), None, None),
    "heavy-morning-star": Rule("Morning star: its +1 Strength only in the first turn.", S("000:983", "only in the first turn")),
    "two-handed": Rule("Two-handed: no shield, buckler or second weapon in close combat; a shield still counts against shooting.",
                       S("000:967", "may not use a shield, buckler or additional weapon", "against shooting")),
    "two-handed-halberd": Rule("Halberd: two-handed.", S("000:1000-1002", "may not use a shield, buckler or additional weapon")),
    "two-handed-double": Rule("Double-handed weapon: two-handed.", S("000:1046", "may not use a shield, buckler or additional weapon")),
    "difficult-to-use": Rule("Morning star: no second weapon or buckler; a shield is allowed.",
                             S("000:985", "may not use a second weapon or buckler", "shield")),
    "spear-strike-first": Rule("Spear: strikes first in the first turn of a combat.", S("000:1017", "strikes first in the first turn")),
    "unwieldy": Rule("Spear: only a shield or buckler in the other hand, no second weapon.",
                     S("000:1019", "only use a shield or a buckler in his other hand")),
    "lance-warhorse": Rule("Lance: only on a warhorse.", S("000:1033", "must own a warhorse")),
    "lance-charge": Rule("Lance: +2 Strength when charging.", S("000:1035", "+2 Strength bonus when he charges")),
    "strike-last": Rule("Double-handed weapons strike last, even when charging.", S("000:1048", "always strikes last, even when charging")),
    "critical-several-wounds": Rule("A weapon that causes several wounds and a critical hit: the one that causes the most.",
                                    S("000:574", "normally causes several wounds", "the one that causes the most damage")),
    "gromril-weapon": Rule("Gromril weapon: an extra -1 save modifier.", S("000:1054", "extra -1 save modifier")),
    "ithilmar-weapon": Rule("Ithilmar weapon: +1 Initiative in close combat.", S("000:1060", "+1 Initiative")),
    "crossbow-pistol-cc": Rule("Crossbow pistol: one shot in the first round of a combat, before any blows, at an extra -2, by BS.",
                               S("000:1155", "first round of a hand-to-hand combat", "-2")),
    "pistol-cc": Rule("Pistol: beside a close-combat weapon, +1 Attack once per combat at S4, -2 save; a brace fights with "
                      "2 Attacks in the first turn; by WS, and may be parried.",
                      S("000:1177", "+1 Attack", "only once per combat", "brace of pistols", "2 Attacks in the first turn")),
    "duelling-pistol-cc": Rule("Duelling pistol: as a pistol in close combat, +1 to hit.",
                               S("000:1199-1205", "+1 bonus to hit", "brace of duelling pistols")),
    "pistol-save": Rule("Pistols: a -2 save modifier.", S("000:1175", "-2 modifier")),
    "pistol-shots-are-attacks": Rule("Pistol shots in close combat count as close-combat attacks.",
                                     S("000:657", "pistols are treated like close combat weapon attacks")),
    "thrown-weapon-not-cc": Rule("Throwing stars and knives cannot be used in close combat.", S("000:1131", "cannot be used in close combat")),
    "multiple-loadouts": Rule("core2: once in combat a warrior may not change the weapons he fights with.", None, None,
                              S("004:553", "may not change what weapons they use")),
    # --- shooting ------------------------------------------------------------------------------------
    "bs-chart": Rule("To hit with a missile weapon: the D6 roll the BS chart gives.", S("000:518-519", "BS of shooter", "D6 roll needed"),
                     S("002:613-614", "BS of shooter", "D6 roll needed"), S("004:343-345", "BS of shooter", "D6 roll needed")),
    "out-of-range": Rule("A target out of range is missed automatically.", S("000:512", "automatically missed"), S("002:605-606", "automatically missed")),
    "cover": Rule("-1 to hit a target in cover.", S("000:543", "Cover"), S("002:622-623", "Cover"), S("004:354", "Cover")),
    "long-range": Rule("-1 to hit beyond half the weapon's range.", S("000:544", "Long range"), S("002:624-625", "Long range"),
                       S("004:355", "Long range")),
    "moving": Rule("-1 to hit after moving (standing up and turning excepted).", S("000:545", "Moving", "standing up"),
                   S("002:626-628", "Moving", "standing up"), S("004:356", "Moving", "standing up")),
    "stood-up-moving": Rule("core2: standing up counts as moving for shooting.", None, None, S("004:499", "counting as moving")),
    "large-target": Rule("+1 to hit a Large target.", S("000:546", "Large target"), S("002:630-632", "Large Target"), S("004:357", "Large Target")),
    "multiple-shots": Rule("core2: -1 to hit when firing more than once.", None, None, S("004:358", "Multiple Shots")),
    "move-or-fire": Rule("Move or fire: no moving and firing in one turn.", S("000:1108", "may not move and fire")),
    "sling-twice": Rule("Sling: twice if it did not move, within 9\", -1 to hit each.", S("000:1120", "fire twice", "9\"")),
    "repeater-twice": Rule("Repeater crossbow: twice a turn at an extra -1 each.", S("000:1145", "fire twice", "-1")),
    "thrown-no-penalties": Rule("Throwing weapons: no range or moving penalties.", S("000:1131", "do not suffer penalties for range or moving")),
    "elven-cloak": Rule("-1 to hit a warrior in an Elven cloak.", S("000:1411", "Elven cloak", "-1")),
    "duelling-pistol-accuracy": Rule("Duelling pistol: +1 to hit.", S("000:1199", "+1 bonus to hit")),
    "blunderbuss": Rule("Blunderbuss: every model in a 16\" by 1\" line is hit automatically at Strength 3.",
                        S("000:1221", "16\" long and 1\" wide", "automatically hit")),
    "blunderbuss-once": Rule("Blunderbuss: fires once per battle.", S("000:1223", "once per battle")),
    "hunting-arrows": Rule("Hunting arrows: +1 on injury rolls from bows.", S("000:1417", "+1 to all Injury rolls")),
    "superior-blackpowder": Rule("Superior blackpowder: +1 Strength for blackpowder weapons.", S("000:1514", "+1 Strength")),
    "net": Rule("Net: thrown 8\" by BS, no range or moving penalties; a D6 over his Strength and the target loses his next turn.",
                S("000:1425", "range of 8\"", "equal to, or lower than his Strength", "next turn")),
    "blessed-water": Rule("Blessed water: thrown twice the thrower's S in inches by BS, no range or moving modifiers; "
                          "1 wound on Undead, Daemons or Possessed, no save.",
                          S("000:1405", "twice the thrower's Strength", "Undead, Daemon or Possessed", "no armour save")),
    # --- equipment ----------------------------------------------------------------------------------
    "poison-not-blackpowder": Rule("Poison cannot be used on blackpowder weapons.", S("000:1355", "may not be used with blackpowder")),
    "black-lotus": Rule("Black Lotus: a 6 to hit wounds automatically; roll anyway for a critical.", S("000:1361", "roll a 6 to hit", "critical")),
    "dark-venom": Rule("Dark Venom: +1 Strength on hits.", S("000:1367", "+1 Strength")),
    "mad-cap": Rule("Mad Cap Mushrooms: frenzy.", S("000:1373", "*frenzy*")),
    "crimson-shade": Rule("Crimson Shade: +D3 Initiative, +1 Movement, +1 Strength.", S("000:1381", "+D3", "Strength by +1")),
    "mandrake-root": Rule("Mandrake Root: +1 Toughness, stunned counts as knocked down.", S("000:1389", "+1", "*stunned* results as *knocked down*")),
    "lucky-charm": Rule("Lucky charm: the first hit in a battle is discarded on a 4+.", S("000:1397", "first time", "4+", "discarded")),
    "helmet": Rule("Helmet: an unmodified 4+ turns a stunned result into knocked down.", S("000:1321", "4+ save", "*stunned*", "not modified")),
    "bugmans-ale": Rule("Bugman's ale: immune to fear.", S("000:1431", "immune to *fear*")),
    "wardog": Rule("Wardog profile.", S("000:1502", "Wardog")),
    "horses": Rule("Horse and warhorse profiles.", S("000:1489-1491", "Horse", "Warhorse")),
    "human": Rule("A typical Human's profile.", S("000:243-245", "Dieter Stahl", "typical profile for a Human")),
    # --- psychology -------------------------------------------------------------------------------
    "frenzy-attacks": Rule("Frenzy: double Attacks in close combat (core2: +1 A); a second weapon's +1 is not doubled.",
                           S("000:865", "double their Attacks", "not doubled"), S("002:1113-1118", "double their Attacks"),
                           S("004:690", "+1A")),
    "frenzy-immune": Rule("Frenzied warriors are immune to other psychology, such as fear.",
                          S("000:867", "immune to all other psychology"), S("002:1119-1121", "immune to all other psychology"),
                          S("004:690", "Immune to Psychology")),
    "frenzy-lost": Rule("A frenzied warrior knocked down or stunned is no longer frenzied.", S("000:869", "no longer *frenzied*"),
                        S("002:1122-1124", "no"), S("004:690", "no longer count as frenzied")),
    "stupidity": Rule("Stupidity: a Leadership test at the start of his turn; on a failure he does not fight in close combat "
                      "until his next turn (his enemies still roll to hit).",
                      S("000:883-885", "Stupidity test", "fight in hand-to-hand combat"),
                      S("002:1134-1136", "stupid", "fight in hand-to-"), S("004:700", "Stupidity", "within 6\"")),
    "stupidity-lasts": Rule("A Stupidity result lasts until the start of his next turn.", S("000:893", "until the start of the model's following turn")),
    "stupid-charger-passed": Rule("A stupid model that fails its test does not charge: one that charged has passed it.",
                                  S("000:887-891", "fails a Stupidity test", "will not charge an enemy", "may do nothing else")),
    "all-alone": Rule("All alone: fighting two or more enemies with no friend within 6\", a Leadership test at the end of his "
                      "combat phase; on a failure he breaks from combat and runs.",
                      S("000:837", "two or more opponents", "breaks from combat"), S("002:1058-1068", "breaks from"),
                      S("004:666-668", "two or more opponents of the same or larger size", "breaks from combat")),
    "break-from-combat": Rule("Breaking from combat: each opponent hits him once, automatically.",
                              S("000:801", "automatically hit the warrior as he breaks", "1 hit"),
                              S("002:1013-1014", "automatically hit"), S("004:656", "one automatic hit")),
    "immune-to-psychology": Rule("core2: models immune to psychology never test for fear, terror or all alone.", None, None,
                                 S("004:712", "never need to test for Fear, Terror, or All Alone")),
    "recovery-turns": Rule("Models in combat fight in every hand-to-hand combat phase, whose ever turn it is.",
                           S("000:655", "Regardless of whose turn it is"), None, S("004:515", "Regardless of whose turn it is")),
    # --- falling and jumping (the /fall and /jump logs) ------------------------------------------------
    "falling": Rule("A fall: D3 hits at Strength equal to the height, no armour saves, no critical hits.",
                    S("000:431", "D3 hits", "No armour saves", "critical hits")),
    "jumping-down": Rule("Jumping down: an Initiative test for every full 2\", up to 6\".", S("000:415", "Initiative test", "6\"")),
}


def cite(rule_id: str, edition: str = "lrb") -> str:
    """The seed line (or range) where ``edition`` states the rule, e.g. ``"000:765"``."""
    return RULES[rule_id].source(edition).line
