"""/trade buy and /hire through the harness for the prices and limits the lists write as more than a
number (issue 16): dice parts rolled and shown, gromril and ithilmar at their multiple, the Pit
Fighters' styles, a second mutation at double, several items at once, the club that is a hammer,
and the limits that count across fighter types."""

from __future__ import annotations

import random

from bot.harness import Actor
from tests.conftest import both_backends
from tests.engine.scripted_dice import Scripted

pytestmark = both_backends

GUILD = 816
OWNER = Actor(user_id=1, guild_id=GUILD)


class Faces(random.Random):
    """The bot's dice showing the scripted faces, in order (a D6 is int(random() * 6) + 1)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        assert self.faces, "the test scripted too few dice"
        return (self.faces.pop(0) - 0.5) / 6


def svc(h):
    return h.bot.campaigns


async def ok(h, path, **options):
    res = await h.command(path, OWNER, **options)
    assert not res.is_error, (path, options, res.text)
    return res


async def refused(h, path, *words, **options):
    """Refused privately, each of ``words`` in the reason, and the warband unchanged."""
    before = svc(h).export_warband(GUILD, options["warband"])
    res = await h.command(path, OWNER, **options)
    assert res.is_error and res.ephemeral, res.text
    for w in words:
        assert w in res.text, (w, res.text)
    after = svc(h).export_warband(GUILD, options["warband"])
    assert {k: v for k, v in after.items() if k != "exported_at"} == {k: v for k, v in before.items() if k != "exported_at"}
    return res


def gold(h, name):
    return svc(h).get_warband(GUILD, name).gold_crowns


def kit(h, warband, warrior):
    return svc(h).get_warrior(GUILD, warband, warrior).equipment


async def band(h, name, warband_type, *hires):
    await ok(h, "warband create", name=name, warband_type=warband_type)
    for hire in hires:
        type_, who, *count = hire
        await ok(h, "hire fighter", warband=name, type=type_, name=who, **({"count": count[0]} if count else {}))


async def check(h, name):
    return await ok(h, "warband check", name=name)


# ---------------------------------------------------------------- dice parts


async def test_a_price_with_dice_is_rolled_shown_and_paid(harness):
    await band(harness, "Raiders", "Dark Elves", ("High Born", "Malus"), ("Beastmaster", "Kor"), ("Corsair", "Crew", 2))
    left = gold(harness, "Raiders")
    harness.bot.rng = Faces(4)
    res = await ok(harness, "trade buy", warband="Raiders", warrior="Kor", item="Beastlash")
    assert "**Beastlash** to Kor: **14 gc** (Beastmaster equipment, 10 + D6 gc each)" in res.text
    assert "**Dice:** Beastlash: D6 4" in res.text and gold(harness, "Raiders") == left - 14
    # a group rolls for each model's cloak; dice typed at the table come first
    res = await ok(harness, "trade buy", warband="Raiders", warrior="Crew", item="sea dragon cloak", dice="1 2 6 6")
    assert "Sea Dragon cloak (model 1): 2D6 1+2 = 3 (entered)" in res.text and "(model 2): 2D6 6+6 = 12 (entered)" in res.text
    assert "**115 gc**" in res.text and gold(harness, "Raiders") == left - 14 - (53 + 62)
    assert kit(harness, "Raiders", "Crew") == ("Dagger", "Sea Dragon cloak")


async def test_typed_dice_that_do_not_fit_are_refused_and_nothing_is_bought(harness):
    await band(harness, "Raiders", "Dark Elves", ("High Born", "Malus"), ("Beastmaster", "Kor"))
    await refused(harness, "trade buy", "2 entered dice were not needed", warband="Raiders", warrior="Kor", item="Beastlash",
                  dice="3 4 5")
    await refused(harness, "trade buy", "7 cannot be rolled on a D6", warband="Raiders", warrior="Kor", item="Beastlash", dice="7")
    await refused(harness, "trade buy", "1 entered dice were not needed", warband="Raiders", warrior="Kor",
                  item="Sword", dice="3")


# ---------------------------------------------------------------- gromril and ithilmar


async def test_gromril_at_the_dwarfs_list_multiple_before_the_first_battle_and_found_after(harness):
    await band(harness, "Hold", "Dwarf Treasure Hunters", ("Dwarf Noble", "Thorin"))
    left = gold(harness, "Hold")
    res = await ok(harness, "trade buy", warband="Hold", warrior="Thorin", item="gromril AXE")
    assert "**Gromril axe** to Thorin: **15 gc** (Dwarf Warrior equipment, 3 × 5 gc (axe))" in res.text
    assert gold(harness, "Hold") == left - 15 and kit(harness, "Hold", "Thorin") == ("Dagger", "Gromril axe")
    res = await refused(harness, "trade buy", "Say which weapon the Gromril weapon is", "`Gromril sword`",
                        warband="Hold", warrior="Thorin", item="Gromril weapon")
    await refused(harness, "trade buy", "cannot be bought: a Gromril weapon is a close-combat weapon",
                  warband="Hold", warrior="Thorin", item="gromril pistol")
    assert "nothing broken" in (await check(harness, "Hold")).text
    # after the first battle it is rare: found at the trading post's four times the weapon's price (000:1054)
    await ok(harness, "battle record", warband="Hold", result="win")
    await refused(harness, "trade buy", "Gromril sword is rare (Rare 11): a hero must find it first",
                  warband="Hold", warrior="Thorin", item="Gromril sword")
    harness.bot.rng = Scripted(6, 6)  # the search's 2D6
    res = await ok(harness, "trade search", warband="Hold", hero="Thorin", item="gromril sword")
    assert "looks for **Gromril sword** (Rare 11)" in res.text and "**Found**, for 40 gc" in res.text
    offered = await harness.autocomplete("trade buy", "item", OWNER, warband="Hold", warrior="Thorin", item="grom")
    assert [(c["value"], c["name"]) for c in offered.choices] == [("Gromril sword", "Gromril sword — 40 gc (found by Thorin)")]
    res = await ok(harness, "trade buy", warband="Hold", warrior="Thorin", item="Gromril sword")
    assert "**40 gc** (found, 40 gc (by Thorin))" in res.text
    sold = await ok(harness, "trade sell", warband="Hold", warrior="Thorin", item="gromril axe")
    assert "**+7 gc** (half of 15 gc, rounded down)" in sold.text  # his list's 3 × 5


async def test_ithilmar_at_the_shadow_warriors_twice_and_the_weapon_must_be_his(harness):
    await band(harness, "Shadows", "Shadow Warriors", ("Shadow Master", "Aelis"))
    res = await ok(harness, "trade buy", warband="Shadows", warrior="Aelis", item="Ithilmar sword")
    assert "**20 gc** (Shadow Warrior heroes, 2 × 10 gc (sword))" in res.text
    await refused(harness, "trade buy", "Halberd is not on the Shadow Warrior heroes", "Ithilmar halberd is a halberd",
                  warband="Shadows", warrior="Aelis", item="Ithilmar halberd")


# ---------------------------------------------------------------- packages and mutations


async def test_a_fighting_style_is_bought_whole_and_gives_its_items(harness):
    await band(harness, "Pit", "Pit Fighters", ("Pit King", "Krug"), ("Pursuer", "Nets", 2))
    left = gold(harness, "Pit")
    res = await ok(harness, "trade buy", warband="Pit", warrior="Krug", item="orc style")
    assert "**Orc style** to Krug: **20 gc**" in res.text and "gives Helmet, Dagger, Axe, Shield" in res.text
    assert kit(harness, "Pit", "Krug") == ("Helmet", "Dagger", "Axe", "Shield")
    await refused(harness, "trade buy", "Skink style comes with a choice", "`Skink style (Trident, Net)`",
                  warband="Pit", warrior="Nets", item="Skink style")
    res = await ok(harness, "trade buy", warband="Pit", warrior="Nets", item="Skink style (javelins, buckler)")
    assert "**Skink style (Javelins, Buckler)** for each of 2 to Nets: **50 gc**" in res.text
    assert kit(harness, "Pit", "Nets") == ("Helmet", "Dagger", "Javelins", "Buckler")
    assert gold(harness, "Pit") == left - 70
    assert "nothing broken" in (await check(harness, "Pit")).text  # each style's items are theirs to carry
    styles = await harness.autocomplete("trade buy", "item", OWNER, warband="Pit", warrior="Nets", item="skink")
    assert {c["value"] for c in styles.choices} == {"Skink style (Trident, Net)", "Skink style (Trident, Buckler)",
                                                     "Skink style (Javelins, Net)", "Skink style (Javelins, Buckler)"}


async def test_each_mutation_after_the_first_costs_double(harness):
    await band(harness, "Cult", "Cult of the Possessed", ("Magister", "Dieter"), ("Possessed", "Thing"), ("Mutant", "Otto"))
    left = gold(harness, "Cult")
    res = await ok(harness, "trade buy", warband="Cult", warrior="Thing", item="Great claw, tentacle")
    assert "**Great claw**: 50 gc" in res.text and "**Tentacle**: 70 gc" in res.text and "after the first costs 2 times" in res.text
    assert "**120 gc** in all" in res.text and gold(harness, "Cult") == left - 120
    res = await ok(harness, "trade buy", warband="Cult", warrior="Otto", item="Spines")
    assert "**35 gc**" in res.text  # Otto's first
    await refused(harness, "trade buy", "is a mutation: it is bought for the warrior", warband="Cult", warrior="the stash",
                  item="Spines")


# ---------------------------------------------------------------- several items, the club, canonical names


async def test_several_items_at_once_all_or_nothing_and_one_undo(harness):
    await band(harness, "Reavers", "Reiklanders", ("Mercenary Captain", "Otto"), ("Warrior", "Grunts", 2))
    left = gold(harness, "Reavers")
    res = await ok(harness, "trade buy", warband="Reavers", warrior="Grunts", item="sword, dagger, shield")
    assert "To Grunts for each of 2:" in res.text
    assert "- **Sword**: 20 gc (Mercenary equipment list, 10 gc each)" in res.text
    assert "- **Dagger**: 4 gc" in res.text and "- **Shield**: 10 gc" in res.text and "**34 gc** in all" in res.text
    assert kit(harness, "Reavers", "Grunts") == ("Dagger", "Sword", "Dagger", "Shield") and gold(harness, "Reavers") == left - 34
    # one refused item refuses the whole purchase
    await refused(harness, "trade buy", "Elven cloak is rare", warband="Reavers", warrior="Otto", item="sword, elven cloak")
    await refused(harness, "trade buy", "There is no item called 'sowrd'", warband="Reavers", warrior="Otto", item="helmet, sowrd")
    # one undo takes the whole purchase back
    await ok(harness, "warband undo", name="Reavers")
    assert kit(harness, "Reavers", "Grunts") == ("Dagger",) and gold(harness, "Reavers") == left


async def test_too_little_gold_for_several_items_buys_none(harness):
    await ok(harness, "warband create", name="Poor", warband_type="Reiklanders", gold=75)
    await ok(harness, "hire fighter", warband="Poor", type="Mercenary Captain", name="Otto")
    await refused(harness, "trade buy", "Sword, Light armour costs 30 gc", "15 gc in its treasury: 15 gc missing",
                  "Nothing was bought", warband="Poor", warrior="Otto", item="Sword, Light armour")


async def test_the_autocomplete_completes_the_last_item_typed(harness):
    await band(harness, "Reavers", "Reiklanders", ("Mercenary Captain", "Otto"))
    res = await harness.autocomplete("trade buy", "item", OWNER, warband="Reavers", warrior="Otto", item="sword, dag")
    assert [c["value"] for c in res.choices] == ["sword, Dagger"]
    assert res.choices[0]["name"].startswith("Dagger — 2 gc")
    clubs = await harness.autocomplete("trade buy", "item", OWNER, warband="Reavers", warrior="Otto", item="clu")
    assert [c["value"] for c in clubs.choices] == ["Club"]


async def test_a_club_is_a_hammer_and_keeps_its_name(harness):
    await band(harness, "Reavers", "Reiklanders", ("Mercenary Captain", "Otto"))  # the list sells a hammer and a mace
    res = await ok(harness, "trade buy", warband="Reavers", warrior="Otto", item="CLUB")
    assert "**Club** to Otto: **3 gc**" in res.text
    assert kit(harness, "Reavers", "Otto") == ("Dagger", "Club")
    await ok(harness, "trade buy", warband="Reavers", warrior="Otto", item="staff")
    assert "nothing broken" in (await check(harness, "Reavers")).text
    sold = await ok(harness, "trade sell", warband="Reavers", warrior="Otto", item="club")
    assert "**Club** from Otto: **+1 gc**" in sold.text
    await ok(harness, "warrior equip", warband="Reavers", warrior="Otto", item="helmet")  # by hand: the lists' spelling
    assert kit(harness, "Reavers", "Otto")[-1] == "Helmet"


# ---------------------------------------------------------------- limits that count across types


async def test_no_more_than_twice_as_many_goblins_as_orcs(harness):
    await band(harness, "Mob", "Orc Mob", ("Orc Boss", "Grob"), ("Goblin Warriors", "Gits", 2))
    res = await refused(harness, "hire fighter", "No more than twice as many Goblin Warriors as Orcs", "Mob would have 3",
                        "against 1", warband="Mob", type="Goblin Warriors", name="Gits")
    assert "Town Cryer 6" in res.text
    await ok(harness, "hire fighter", warband="Mob", type="Orc Boyz", name="Boyz", count=2)
    await ok(harness, "hire fighter", warband="Mob", type="Goblin Warriors", name="Snots", count=4)  # 6 against 3
    choices = await harness.autocomplete("hire fighter", "type", OWNER, warband="Mob", type="gob")
    assert choices.choices == []  # no room for a seventh
    await ok(harness, "warrior edit", warband="Mob", warrior="Boyz", status="dead")  # the Boyz fall: the check says so
    text = (await check(harness, "Mob")).text
    assert "No more than twice as many Goblin Warriors as Orcs" in text and "6 Goblin Warriors against 1" in text


async def test_a_trained_bear_only_with_a_bear_tamer(harness):
    await band(harness, "Kislev", "Kislevites", ("Druzhina Captain", "Ivan"))
    await refused(harness, "hire fighter", "A Trained Bear only while the warband has a Bear Tamer", warband="Kislev",
                  type="Trained Bear", name="Misha")
    await ok(harness, "hire fighter", warband="Kislev", type="Bear Tamer", name="Boris")
    await ok(harness, "hire fighter", warband="Kislev", type="Trained Bear", name="Misha")
    assert "nothing broken" in (await check(harness, "Kislev")).text
    await ok(harness, "warrior edit", warband="Kislev", warrior="Boris", status="dead")
    assert "A Trained Bear only while the warband has a Bear Tamer" in (await check(harness, "Kislev")).text


async def test_the_outlaws_champions_thieves_and_cleric_and_their_bows(harness):
    await band(harness, "Outlaws", "Outlaws of Stirwood Forest", ("Bandit Leader", "Rob"), ("Champion", "John"),
               ("Champion", "Will"), ("Petty Thief", "Much"))
    await ok(harness, "trade buy", warband="Outlaws", warrior="Rob", item="bow")
    await ok(harness, "hire fighter", warband="Outlaws", type="Cleric", name="Tuck")  # four: the most
    await refused(harness, "hire fighter", "Champions, Petty Thieves and the Cleric are four at most", warband="Outlaws",
                  type="Petty Thief", name="Alan")
    text = (await check(harness, "Outlaws")).text
    assert "John: Bow duty" in text and "Rob: Bow duty" not in text and "Tuck: Bow duty" not in text


async def test_one_swivel_gun_per_pirate_warband(harness):
    await band(harness, "Crew", "Pirates", ("Pirate Captain", "Jack"), ("Gunner", "Guns", 1), ("Gunner", "Guns2", 1))
    await ok(harness, "trade buy", warband="Crew", warrior="Guns", item="Swivel gun")
    await refused(harness, "trade buy", "One Swivel Gun in the whole warband", "holds 1 already", warband="Crew",
                  warrior="Guns2", item="Swivel gun")


async def test_a_mutant_is_reminded_of_his_mutation_and_the_check_reports_it(harness):
    await band(harness, "Cult", "Cult of the Possessed", ("Magister", "Dieter"))
    res = await ok(harness, "hire fighter", warband="Cult", type="Mutant", name="Otto")
    assert "Still to give him" in res.text and "Every Mutant has at least one mutation." in res.text
    assert "Otto: Every Mutant has at least one mutation" in (await check(harness, "Cult")).text
    await ok(harness, "trade buy", warband="Cult", warrior="Otto", item="Tentacle")
    assert "nothing broken" in (await check(harness, "Cult")).text


async def test_brutes_start_with_strongman_and_starting_experience_is_checked(harness):
    await band(harness, "Carnival", "Carnival of Chaos", ("Carnival Master", "Doc"), ("Brutes", "Hulk"))
    assert svc(harness).get_warrior(GUILD, "Carnival", "Hulk").skills == ("Strongman",)
    assert "nothing broken" in (await check(harness, "Carnival")).text  # a starting skill is never judged
    await ok(harness, "warband create", name="Druchii", warband_type="Dark Elves")
    await ok(harness, "hire fighter", warband="Druchii", type="High Born", name="Malus")
    await ok(harness, "hire fighter", warband="Druchii", type="Fellblade", name="Blade")
    assert svc(harness).get_warrior(GUILD, "Druchii", "Blade").experience == 12
    await ok(harness, "warrior edit", warband="Druchii", warrior="Blade", experience=8)
    assert "Blade has 8 experience; a Fellblade of the Dark Elves list starts with 12" in (await check(harness, "Druchii")).text
