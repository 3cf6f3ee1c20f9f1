"""Every item a warband list sells fights, or /rule finds it (issue 16); the lists' own weapons,
armour and equipment play their rules, against values worked out by hand from those rules."""

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from engine.combat import make_fighter, resolve_round, round_odds, shot_odds
from engine.combat.api import round_rules
from engine.combat.citations import cite
from engine.combat.item_data import armour, equipment, kits, unmodelled, weapons
from engine.combat.items import find_item, find_kit
from engine.combat.melee import initial_state
from engine.rules import load_library

WARBANDS = Path(__file__).resolve().parents[2] / "rules_data" / "warbands"
EXACT = 1e-12


def sold_items() -> list[tuple[str, dict]]:
    """(where, item) for every item id the warband data names: the trading post, every list's own
    items, what hired swords and Dramatis Personae carry or may choose at hire."""
    catalogue: dict[str, dict] = {}
    out = []
    for path in [WARBANDS / "items.json", *sorted((WARBANDS / "lists").glob("*.json"))]:
        for item in json.loads(path.read_text(encoding="utf-8")).get("items", []):
            catalogue[item["id"]] = item
            out.append((path.name, item))
    for name, key in (("hired_swords.json", "hired_swords"), ("dramatis_personae.json", "dramatis_personae")):
        for who in json.loads((WARBANDS / name).read_text(encoding="utf-8"))[key]:
            ids = list(who.get("equipment", []))
            ids += [i for choice in who.get("choices") or [] for option in choice["options"] for i in option["items"]]
            out += [(f"{name}: {who['id']}", catalogue[i]) for i in dict.fromkeys(ids)]
    return out


def fights_as(name: str) -> str | None:
    """The stats id a stored item of this name fights as, read as /fight reads a stored warrior's
    kit (a bundle is what it holds; "Brace of ..." is the pistol, twice), or None."""
    if find_kit(name) is not None:
        return find_kit(name).id
    try:
        found = find_item(name.lower().removeprefix("brace of "))
    except Exception:  # noqa: BLE001 - not found: the test says which
        return None
    return found.id if found.base == found.id else f"{found.id}={found.base}"


def test_every_item_a_list_sells_fights_or_rule_finds_it():
    library = load_library()
    neither, wrong = [], []
    for where, item in sold_items():
        combat = item.get("combat")
        if combat is not None:
            got = fights_as(item["name"])
            if got is None or (got != combat and not got.startswith(f"{combat}=") and not got.endswith(f"={combat}")):
                wrong.append((where, item["id"], combat, got))
            continue
        found = library.lookup_exact(item["name"], "lrb")
        if found is None or found.entry is None:
            neither.append((where, item["id"]))
    assert not wrong, f"items whose name does not fight as their combat id: {wrong}"
    assert not neither, f"items that neither fight nor have a /rule entry: {neither}"


def test_every_list_item_has_an_entry_that_says_how_a_fight_plays_it():
    library = load_library()
    for where, item in sold_items():
        if where.endswith(".json") and where != "items.json":
            entry = library.lookup_exact(item["name"], "lrb").entry
            assert entry is not None, item["id"]
            if entry.id.startswith("lrb/warband-items/"):
                assert "**In a fight:**" in entry.body and item["summary"] in entry.body, item["id"]
    claws = library.lookup_exact("fighting claws", "lrb").entry.body
    assert "`/fight`, `/shoot` and `/odds` play it" in claws
    assert "not modelled by `/fight` and `/odds`" in library.lookup_exact("swivel gun", "lrb").entry.body
    assert "plays no part" in library.lookup_exact("compass", "lrb").entry.body
    assert library.lookup_exact("tome of magic", "lrb").entry.id == "lrb/equipment/tome-of-magic"  # the rulebook's own stays


def test_the_kit_data_names_its_sources_and_every_id_once():
    doc = json.loads((WARBANDS.parent / "stats" / "warband_kit.json").read_text(encoding="utf-8"))
    ids = [row["id"] for key in ("weapons", "same_as", "armour", "equipment", "kits", "not_modelled") for row in doc[key]]
    assert len(ids) == len(set(ids))
    for key in ("weapons", "same_as", "armour", "equipment", "kits", "not_modelled"):
        for row in doc[key]:
            assert row["source"] and not row["source"].startswith("000:") or row["id"].endswith("-weapon"), row["id"]
    for key in ("weapons", "armour", "equipment"):
        for row in doc[key]:
            assert row["checked_against"], row["id"]
    assert set(weapons()) >= {"fighting-claws", "weeping-blades", "steel-whip", "sigmarite-warhammer", "ball-and-chain",
                              "warplock-pistol", "choppa", "sunstaff"}
    assert "sea-dragon-cloak" in armour() and "peg-leg" in equipment() and "orc-style" in kits() and "barding" in unmodelled()


# ----- the must-show fights -------------------------------------------------------------------------


def _blows(fighter, **kw):
    _, rules = round_rules(fighter, make_fighter("E"), **kw)
    return [(s.weapon.id, s.count) for s in rules.numbers(0, initial_state(fighter)).blows]


@pytest.mark.parametrize("edition", ["lrb", "core", "core2"])
def test_a_charge_with_fighting_claws_gives_the_defender_what_a_charge_with_two_swords_does(edition):
    """Issue 16: the claws are a pair (+1 Attack, as two weapons, 000:685): charging, they strike
    first, so what they do to the defender is what two swords do. (Their parry, re-rolled as with
    a sword and buckler, only helps their wielder.)"""
    claws = make_fighter("Eshin", "WS4 A2", weapons="fighting claws")
    swords = make_fighter("Eshin", "WS4 A2", weapons="sword, sword")
    assert _blows(claws) == [("fighting-claws", 2), ("fighting-claws", 1)]
    assert _blows(swords) == [("sword", 2), ("sword", 1)]
    defender = make_fighter("Guard", "WS3", weapons="sword", armour="shield")
    with_claws = round_odds(claws, defender, edition=edition).fighters[1]
    with_swords = round_odds(swords, defender, edition=edition).fighters[1]
    for got, want in ((with_claws.outcomes, with_swords.outcomes), (with_claws.wounds_lost, with_swords.wounds_lost)):
        assert set(got) == set(want)
        for k in want:  # the same sums of the same terms, taken in another order: equal to the last bit or two
            assert got[k] == pytest.approx(want[k], rel=1e-14, abs=1e-15), k
    assert with_claws.render() == with_swords.render()  # the odds table, exactly


def test_a_club_a_mace_a_staff_and_a_hammer_are_one_weapon_000_921():
    assert cite("hammer-staff-mace-club") == "000:921"  # the line reads "Hammer, staff, mace or club" (test_combat_citations)
    defender = make_fighter("D", "WS3", armour="helmet")
    tables = [round_odds(make_fighter("A", "WS4 A2", weapons=w), defender).fighters[1].outcomes for w in ("club", "mace", "staff", "hammer")]
    assert all(t == tables[0] for t in tables)
    assert {find_item(w).id for w in ("Club", "Mace", "Staff", "Hammer", "Quarterstaff", "Cudgel")} == {"hammer"}


# ----- the lists' own rules, by hand ------------------------------------------------------------------


def test_weeping_blades_are_a_pair_of_swords_coated_in_black_lotus():
    # WS4 vs WS3 hits on 3+; a 6 to hit wounds automatically (Black Lotus, 000:1361); S3 vs T3 wounds on 4+;
    # no save; W1: each wound an injury roll, 5-6 out of action; the defender has no parry
    blades = make_fighter("A", "WS4 A1", weapons="weeping blades")
    assert _blows(blades) == [("weeping-blades", 1), ("weeping-blades", 1)]
    odds = round_odds(blades, make_fighter("D", "WS3", weapons="dagger")).fighters[1]
    lotus = round_odds(make_fighter("A", "WS4 A1", weapons="sword, sword", equipment="black lotus"),
                       make_fighter("D", "WS3", weapons="dagger")).fighters[1]
    assert odds.outcomes == pytest.approx(lotus.outcomes, abs=EXACT)


def test_a_whip_cannot_be_parried_and_cracks_once_more_on_the_charge():
    whip = make_fighter("Sister", "WS4 A1", weapons="steel whip")
    assert _blows(whip) == [("steel-whip", 1), ("steel-whip", 1)]  # charging: +1 A (Whipcrack)
    assert _blows(whip, first_round=False) == [("steel-whip", 1)]
    # WS4 vs WS3: 3+ (2/3); the swordsman cannot parry a whip; S3 vs T3 4+ (1/2); no armour
    fencer = make_fighter("Fencer", "WS3", weapons="sword")
    unharmed = (1 - Fraction(2, 3) * Fraction(1, 2)) ** 2
    assert round_odds(whip, fencer).fighters[1].outcomes["unharmed"] == pytest.approx(float(unharmed), abs=EXACT)
    # charged, her extra attack strikes first, before the charger's blows
    _, rules = round_rules(make_fighter("Orc", "WS3", weapons="axe"), whip)
    kinds = [seg.kind for seg in rules.segments]
    assert kinds.index("first") < kinds.index("blows")
    log = resolve_round(make_fighter("Orc", "WS3", weapons="axe"), whip, random.Random(2)).lines
    assert any("Sister was charged: the steel whip's extra attack strikes first (Whipcrack)" in line for line in log)


def test_a_sigmarite_warhammer_wounds_the_undead_more_easily():
    hammer = make_fighter("Sister", "WS4 S3 A1", weapons="sigmarite warhammer")
    # S3+1 vs T3 wounds on 3+; +1 against Undead: 2+
    zombie = make_fighter("Z", "WS2 T3", traits="undead, no weapons")
    human = make_fighter("H", "WS2 T3")
    hit = Fraction(2, 3)  # WS4 vs WS2
    assert round_odds(hammer, zombie).fighters[1].outcomes["unharmed"] == pytest.approx(float(1 - hit * Fraction(5, 6)), abs=EXACT)
    assert round_odds(hammer, human).fighters[1].outcomes["unharmed"] == pytest.approx(float(1 - hit * Fraction(4, 6)), abs=EXACT)


def test_a_ball_and_chain_allows_no_save_and_causes_d3_wounds():
    # S3+2 vs T4 wounds on 3+; no save in spite of heavy armour and shield; each wound D3 wounds:
    # a W3 target keeps standing only when one D3 comes up 1 or 2 (then no injury roll)
    gob = make_fighter("Gob", "WS3 S3 A1", weapons="ball and chain", equipment="mad cap mushrooms")
    ogre = make_fighter("Ogre", "WS3 T4 W3", armour="heavy armour, shield")
    hit = Fraction(1, 2)
    wound = Fraction(4, 6)
    odds = round_odds(gob, ogre).fighters[1]
    # mad cap: frenzied, 2 attacks. Unharmed: no wound from either attack
    unharmed = (1 - hit * wound) ** 2
    assert odds.outcomes["unharmed"] == pytest.approx(float(unharmed), abs=EXACT)
    assert not any("Mad Cap" in n for n in round_odds(gob, ogre).kit.get("Gob", []))
    no_cap = make_fighter("Gob", "WS3 S3 A1", weapons="ball and chain")
    assert any("only a warrior under Mad Cap Mushrooms" in n for n in round_odds(no_cap, ogre).kit["Gob"])


def test_fighting_claws_leave_every_other_weapon_out_and_parry_twice():
    claws = make_fighter("Eshin", "WS4 A1", weapons="fighting claws, sword, pistol")
    odds = round_odds(claws, make_fighter("D"))
    assert any("no other weapon beside his fighting claws in this battle: sword, pistol left out" in n for n in odds.kit["Eshin"])
    _, rules = round_rules(claws, make_fighter("D"))
    numbers = rules.numbers(0, initial_state(claws))
    assert (numbers.parry_attempts, numbers.parry_bonus) == (2, 0)  # as a sword and buckler, in every edition
    _, rules = round_rules(claws, make_fighter("D"), edition="core")
    assert (rules.numbers(0, initial_state(claws)).parry_attempts, rules.numbers(0, initial_state(claws)).parry_bonus) == (2, 0)


def test_a_spiked_gauntlet_is_a_second_weapon_and_a_buckler():
    pit = make_fighter("Pit", "WS4 A1", weapons="sword, spiked gauntlet", armour="shield")
    assert _blows(pit) == [("sword", 1), ("spiked-gauntlet", 1)]
    _, rules = round_rules(pit, make_fighter("D"))
    numbers = rules.numbers(0, initial_state(pit))
    assert numbers.can_parry and numbers.parry_attempts == 2  # sword and buckler: re-roll (000:773)
    assert not numbers.loadout.shield  # the gauntlet is that hand


def test_a_pike_strikes_first_even_against_a_charging_spear_and_once():
    pike = make_fighter("Pikeman", "WS3 I2 A3", weapons="pike")
    assert _blows(pike, charged="defender") == [("pike", 1)]
    _, rules = round_rules(make_fighter("Spearman", "WS3 I5", weapons="spear"), pike)
    numbers = [rules.numbers(i, initial_state(f)) for i, f in enumerate(rules.fight.fighters)]
    assert numbers[1].tier > numbers[0].tier


def test_a_ladle_allows_only_a_shields_save():
    ladle = make_fighter("Chef", "WS3 S3 A1", weapons="ladle")  # S3-1 = 2 vs T3: 5+
    armoured = make_fighter("K", "WS3 T3", armour="heavy armour")
    shielded = make_fighter("K", "WS3 T3", armour="shield")
    hit, five, six = Fraction(1, 2), Fraction(1, 6), Fraction(1, 6)  # to wound: a 5, or a 6 (an lrb critical)
    assert round_odds(ladle, armoured).fighters[1].outcomes["unharmed"] == pytest.approx(float(1 - hit * (five + six)), abs=EXACT)
    # a shield alone: 6+ (S2: no modifier); of the criticals (000:568-572) only "a vital part" (1-2) allows the save
    fails = Fraction(5, 6)
    hurt = hit * (five * fails + six * (Fraction(1, 3) * fails + Fraction(2, 3)))
    assert round_odds(ladle, shielded).fighters[1].outcomes["unharmed"] == pytest.approx(float(1 - hurt), abs=EXACT)


def test_a_tentacle_takes_an_attack_and_a_cloud_of_flies_makes_hitting_harder():
    # A2 with a sword against a Tentacle: one attack; WS3 vs WS3 4+ (1/2), S3 vs T3 4+ (1/2), no armour
    tentacled = make_fighter("Mutant", "WS3", equipment="tentacle")
    swordsman = make_fighter("A", "WS3 A2", weapons="axe")
    assert round_odds(swordsman, tentacled).fighters[1].outcomes["unharmed"] == pytest.approx(0.75, abs=EXACT)
    # a Cloud of Flies: his opponent hits on 5+ instead of 4+ (1/3)
    flies = make_fighter("Tainted", "WS3", equipment="cloud of flies")
    assert round_odds(make_fighter("A", "WS3", weapons="axe"), flies).fighters[1].outcomes["unharmed"] == pytest.approx(
        float(1 - Fraction(1, 3) * Fraction(1, 2)), abs=EXACT)


def test_special_saves_and_a_sea_dragon_cloak():
    # a peg leg: an unmodified 6+ after armour against every wound
    hit, wound = Fraction(1, 2), Fraction(1, 2)
    peg = make_fighter("Pirate", "WS3 T3", equipment="peg leg")
    odds = round_odds(make_fighter("A", "WS3 S3", weapons="dagger"), peg).fighters[1]
    # dagger: +1 save, 6+ if none; then the 6+ special save; an lrb critical on a 6 to wound (2 wounds)
    assert odds.outcomes["unharmed"] > float(1 - hit * wound)
    cloak = make_fighter("Corsair", "WS3", armour="light armour, sea dragon cloak")
    assert cloak.armour_save(shooting=False) == 5 and cloak.armour_save(shooting=True) == 4
    leathers = make_fighter("Swabbie", armour="toughened leathers, shield")
    assert leathers.armour_save(shooting=True) == 6  # a shield adds nothing to toughened leathers


def test_the_lists_missile_weapons_shoot():
    shooter = make_fighter("Rat", "BS3")
    target = make_fighter("Man", "T3", armour="light armour")
    warplock = shot_odds(shooter, target, "warplock pistol", range_inches=4).fighters[0]
    # BS3 4+ (1/2); S5 vs T3 2+ (5/6); light armour 6+ at -3: no save; lrb critical on a 6 to wound
    assert warplock.outcomes["unharmed"] == pytest.approx(float(1 - Fraction(1, 2) * Fraction(5, 6)), abs=EXACT)
    # a blowpipe: a 6 to hit wounds as Black Lotus does; else S1 vs T3 on 6s, no critical; light armour 6+ and +1: 5+
    blowpipe = shot_odds(shooter, target, "blowpipe", range_inches=4).fighters[0]
    fails = Fraction(4, 6)
    hurt = Fraction(1, 6) * fails + Fraction(2, 6) * Fraction(1, 6) * fails
    assert blowpipe.outcomes["unharmed"] == pytest.approx(float(1 - hurt), abs=EXACT)
    sunstaff = shot_odds(make_fighter("Amazon", "BS3"), target, "sunstaff", range_inches=10)
    assert "no long-range penalty for a sunstaff" in sunstaff.title
    # in close combat the sunstaff is a staff that stuns
    assert _blows(make_fighter("Amazon", "A1", weapons="sunstaff")) == [("sunstaff", 1)]


def test_a_pit_fighters_style_is_the_kit_it_holds():
    assert kits()["orc-style"].items == ("helmet", "dagger", "axe", "shield")
    assert find_kit("Orc style").id == "orc-style" and find_kit("sword") is None


def test_ghouls_and_zombies_templates_are_not_animals():
    from engine.combat.profile import find_template

    for name in ("zombie", "ghoul", "troll"):
        traits = find_template(name).traits
        assert "animal" not in traits and "no-weapons" in traits, name
    for name in ("rat ogre", "giant rat", "dire wolf", "wardog"):
        assert "animal" in find_template(name).traits, name


def test_a_censers_fumes_wound_those_who_fail_a_toughness_test_but_not_the_undead():
    # WS3 vs WS3 4+ (1/2); each hit: a D6 over T3 (or a 6) is a wound more, no save; then S3+2 vs T3
    # wounds on 2+, and heavy armour's 5+ at -2 is gone: unharmed only if the test passes and the
    # wound roll is a 1
    monk = make_fighter("Monk", "WS3 S3 A1", weapons="censer")
    man = make_fighter("Man", "WS3 T3", armour="heavy armour")
    unharmed = Fraction(1, 2) + Fraction(1, 2) * Fraction(1, 2) * Fraction(1, 6)
    assert round_odds(monk, man).fighters[1].outcomes["unharmed"] == pytest.approx(float(unharmed), abs=EXACT)
    zombie = make_fighter("Zombie", "WS3 T3", traits="undead, no weapons")
    assert round_odds(monk, zombie).fighters[1].outcomes["unharmed"] == pytest.approx(float(Fraction(1, 2) + Fraction(1, 12)), abs=EXACT)
    logs = [resolve_round(monk, man, random.Random(seed)).lines for seed in range(20)]
    hits = [log for log in logs if any("(Censer) to hit" in line and line.endswith("→ hit") for line in log)]
    assert hits and all(any("breathes the censer's fumes: Toughness test rolled" in line for line in log) for log in hits)


def test_a_hireling_with_no_weapon_fights_with_natural_weapons_not_as_a_man_unarmed():
    """The Clan Skryre Rat Ogre carried nothing and so fought with one fist at S4 (a playtest found
    it): a hireling with no equipment must fight with claws and teeth, unless he is a man who
    really has nothing to fight with (the Dark Emissary, a wizard whose staff is no weapon)."""
    from engine.campaign.lists import registry
    from engine.campaign.lists.catalogue import bundled_catalogue

    natural = {"animal", "no-weapons"}
    catalogue = bundled_catalogue()
    unarmed = sorted(h.id for h in (*catalogue.hired_swords.values(), *catalogue.dramatis_personae.values())
                     if not h.equipment and not natural & {registry.COMBAT.get(r.id) for r in h.special_rules})
    assert unarmed == ["dark-emissary"]
