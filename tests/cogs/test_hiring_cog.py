"""/hire and /trade buy through the harness: a legal starting warband for each rulebook list, typed as a
player would, every refusal with its reason, and undo of a hire or a purchase, gold included."""

from __future__ import annotations

import asyncio

import pytest

from bot.harness import Actor
from tests.engine.held_writes import write_held_by_a_thread

from tests.conftest import both_backends

pytestmark = both_backends

GUILD = 811
OWNER = Actor(user_id=1, guild_id=GUILD)
OTHER = Actor(user_id=2, guild_id=GUILD)


def svc(h):
    return h.bot.campaigns


async def run(h, line: tuple, actor=OWNER):
    """One command as a player types it; every step of a starting warband must succeed."""
    path, options = line
    res = await h.command(path, actor, **options)
    assert not res.is_error, (path, options, res.text)
    return res


def hire(warband, type_, name=None, count=None):
    opts = {"warband": warband, "type": type_}
    if name:
        opts["name"] = name
    if count:
        opts["count"] = count
    return ("hire fighter", opts)


def buy(warband, warrior, item, count=None):
    opts = {"warband": warband, "warrior": warrior, "item": item}
    if count:
        opts["count"] = count
    return ("trade buy", opts)


# Each rulebook warband as a player builds it: the type as typed, the hires and purchases, and
# the gold it costs worked out by hand from the lists (rules_data/warbands/lists/*.json).
STARTING_WARBANDS = {
    "Reiklanders": ([
        hire("W", "Mercenary Captain", "Otto"), buy("W", "Otto", "Sword"),
        buy("W", "Otto", "Light armour"),
        hire("W", "Champion", "Hans"), buy("W", "Hans", "Double-handed weapon"),
        hire("W", "Youngblood", "Kurt"), buy("W", "Kurt", "Spear"),
        hire("W", "Marksmen", "Marksmen", 3), buy("W", "Marksmen", "Bow"),
        hire("W", "Warrior", "Warriors", 4), buy("W", "Warriors", "Sword"), buy("W", "Warriors", "Shield"),
    ], 60 + 10 + 20 + 35 + 15 + 15 + 10 + 3 * 25 + 3 * 10 + 4 * 25 + 4 * 10 + 4 * 5),
    "Middenheimers": ([
        hire("W", "captain", "Ulric"), buy("W", "Ulric", "sword"),
        hire("W", "Champion", "Greta"), buy("W", "Greta", "double-handed weapon"),
        hire("W", "Youngblood", "Jonas"), buy("W", "Jonas", "axe"),
        hire("W", "Youngblood", "Lukas"), buy("W", "Lukas", "axe"),
        hire("W", "Warriors", "Wolves", 5), buy("W", "Wolves", "mace"),
        hire("W", "Marksmen", "Hunters", 2), buy("W", "Hunters", "long bow"),
    ], 60 + 10 + 35 + 15 + 15 + 5 + 15 + 5 + 5 * 25 + 5 * 3 + 2 * 25 + 2 * 15),
    "Marienburgers": ([
        hire("W", "Mercenary Captain", "Jan"), buy("W", "Jan", "Brace of duelling pistols"), buy("W", "Jan", "Sword"),
        hire("W", "Champion", "Piet"), buy("W", "Piet", "Halberd"),
        hire("W", "Champion", "Klaas"), buy("W", "Klaas", "Halberd"),
        hire("W", "Swordsmen", "Blades", 3), buy("W", "Blades", "Buckler"),
        hire("W", "Marksmen", "Guns", 4), buy("W", "Guns", "Handgun"),
    ], 60 + 50 + 10 + 35 + 10 + 35 + 10 + 3 * 35 + 3 * 5 + 4 * 25 + 4 * 35),
    "Possessed": ([
        hire("W", "Magister", "Dieter"), buy("W", "Dieter", "Sword"),
        hire("W", "Possessed", "Thing"), buy("W", "Thing", "Great claw"),
        hire("W", "Mutant", "Otto"), buy("W", "Otto", "Tentacle"),
        hire("W", "Brethren", "Brethren", 4), buy("W", "Brethren", "Axe"),
        hire("W", "Darksouls", "Darksouls", 2), buy("W", "Darksouls", "Double-handed weapon"),
    ], 70 + 10 + 90 + 50 + 25 + 35 + 4 * 25 + 4 * 5 + 2 * 35 + 2 * 15),  # every crown of 500
    "Witch Hunters": ([
        hire("W", "Witch Hunter Captain", "Mathias"), buy("W", "Mathias", "Crossbow pistol"), buy("W", "Mathias", "Sword"),
        hire("W", "Warrior-Priest", "Father Hals"), buy("W", "Father Hals", "Double-handed weapon"),
        hire("W", "Witch Hunter", "Brand"), buy("W", "Brand", "Crossbow"),
        hire("W", "Witch Hunter", "Stake"), buy("W", "Stake", "Crossbow"),
        hire("W", "Zealots", "Zealots", 3), buy("W", "Zealots", "Spear"),
        hire("W", "Flagellants", "Flagellants", 2), buy("W", "Flagellants", "Flail"),
        hire("W", "Warhounds", "Hounds", 2),
    ], 60 + 35 + 10 + 40 + 15 + 25 + 25 + 25 + 25 + 3 * 20 + 3 * 10 + 2 * 40 + 2 * 15 + 2 * 15),
    "Sisters of Sigmar": ([
        hire("W", "Sigmarite Matriarch", "Mother Ilse"), buy("W", "Mother Ilse", "Sigmarite warhammer"),
        buy("W", "Mother Ilse", "Heavy armour"),
        hire("W", "Sister Superior", "Agna"), buy("W", "Agna", "Steel whip"), buy("W", "Agna", "Helmet"),
        hire("W", "Sister Superior", "Berta"), buy("W", "Berta", "Steel whip"), buy("W", "Berta", "Helmet"),
        hire("W", "Augur", "Seer"), buy("W", "Seer", "Sling"),
        hire("W", "Sigmarite Sisters", "Sisters", 3), buy("W", "Sisters", "Flail"),
        hire("W", "Novices", "Novices", 4), buy("W", "Novices", "Mace"),
    ], 70 + 15 + 50 + 35 + 10 + 10 + 35 + 10 + 10 + 25 + 2 + 3 * 25 + 3 * 15 + 4 * 15 + 4 * 3),
    "Undead": ([
        hire("W", "Vampire", "Count Orlok"), buy("W", "Count Orlok", "Sword"), buy("W", "Count Orlok", "Light armour"),
       
        hire("W", "Necromancer", "Morbius"),
        hire("W", "Dreg", "Igor"), buy("W", "Igor", "Spear"),
        hire("W", "Dreg", "Fritz"), buy("W", "Fritz", "Spear"),
        hire("W", "Zombies", "Zombies", 5),
        hire("W", "Ghouls", "Ghouls", 2),
        hire("W", "Dire Wolf", "Wolf"),
    ], 110 + 10 + 20 + 35 + 20 + 10 + 20 + 10 + 5 * 15 + 2 * 40 + 50),
    "Clan Eshin": ([
        hire("W", "Assassin Adept", "Snikch"), buy("W", "Snikch", "Weeping blades"),
        hire("W", "Eshin Sorcerer", "Kratch"),
        hire("W", "Black Skaven", "Skrit"), buy("W", "Skrit", "Fighting claws"),
        hire("W", "Night Runner", "Tik"), buy("W", "Tik", "Sling"),
        hire("W", "Night Runner", "Tok"), buy("W", "Tok", "Sling"),
        hire("W", "Verminkin", "Pack", 5), buy("W", "Pack", "Spear"),
        hire("W", "Giant Rats", "Rats", 5),
    ], 60 + 50 + 45 + 40 + 35 + 20 + 2 + 20 + 2 + 5 * 20 + 5 * 10 + 5 * 15),
}


@pytest.mark.parametrize("typed", list(STARTING_WARBANDS))
async def test_a_legal_starting_warband_of_every_rulebook_list(harness, typed):
    lines, spent = STARTING_WARBANDS[typed]
    created = await harness.command("warband create", OWNER, name="W", warband_type=typed)
    assert not created.is_error and "(custom)" not in created.text, created.text
    wb = svc(harness).get_warband(GUILD, "W")
    catalogue = svc(harness).catalogue(GUILD)
    wlist = catalogue.warbands[wb.list_id]
    assert wb.gold_crowns == wlist.starting_gold and wb.warband_type == wlist.name
    for line in lines:
        await run(harness, line)
    wb = svc(harness).get_warband(GUILD, "W")
    assert spent <= wlist.starting_gold
    assert wb.gold_crowns == wlist.starting_gold - spent
    assert svc(harness).audit_treasury(GUILD, "W").balanced
    check = await harness.command("warband check", OTHER, name="W")
    assert not check.is_error and "nothing broken" in check.text, check.text
    sheet = svc(harness).show_warband(GUILD, "W")
    assert sheet.value == spent  # what each warrior cost, kit included, is what was paid
    assert all(w.from_list and w.race and w.fighter_type for w in wb.warriors)
    show = await harness.command("warband show", OTHER, name="W")
    assert f"**Value:** {spent} gc" in show.text and "Can still hire" in show.text and "**Cost:**" in show.text


async def reikland(h, gold=None):
    opts = {"name": "Reavers", "warband_type": "Reiklanders"}
    if gold is not None:
        opts["gold"] = gold
    await run(h, ("warband create", opts))
    await run(h, hire("Reavers", "Mercenary Captain", "Otto"))


def gold(h, name="Reavers"):
    return svc(h).get_warband(GUILD, name).gold_crowns


async def refused(h, line, *words, actor=OWNER):
    """The command is refused privately, with every one of ``words`` in the reason, and nothing changes."""
    before = svc(h).export_warband(GUILD, line[1]["warband"])
    res = await h.command(line[0], actor, **line[1])
    assert res.is_error and res.ephemeral, res.text
    for w in words:
        assert w in res.text, (w, res.text)
    after = svc(h).export_warband(GUILD, line[1]["warband"])
    assert {k: v for k, v in after.items() if k != "exported_at"} == {k: v for k, v in before.items() if k != "exported_at"}
    return res


# ---------------------------------------------------------------- refusals, each with its limit


async def test_not_enough_gold_says_how_much_is_missing(harness):
    await reikland(harness, gold=100)
    await refused(harness, hire("Reavers", "Swordsmen", count=2),
                  "2 Swordsman costs 70 gc; Reavers has 40 gc in its treasury: 30 gc missing")
    await refused(harness, buy("Reavers", "Otto", "Heavy armour"), "Heavy armour costs 50 gc; Reavers has 40 gc", "10 gc missing",
                  "Nothing was bought")


async def test_type_maximum_second_leader_and_group_size(harness):
    await reikland(harness)
    await run(harness, hire("Reavers", "Champion"))
    await run(harness, hire("Reavers", "Champion"))
    res = await refused(harness, hire("Reavers", "Champion"), "allows at most 2 Champions; Reavers has 2")
    assert "Reavers cannot hire Champion" in res.text
    await refused(harness, hire("Reavers", "Captain", "Second"), "already has a leader (Otto); a warband has one")
    await refused(harness, hire("Reavers", "Marksman", count=6), "A henchman group has 1 to 5 warriors (not 6)")
    await refused(harness, hire("Reavers", "Champion", count=2), "Heroes are hired one at a time")
    await run(harness, hire("Reavers", "Marksman", "Eyes", 5))
    await refused(harness, hire("Reavers", "Marksman", "Eyes", 3),
                  "Eyes has 5; 3 more would make 8", "allows at most 7 Marksmen; Reavers has 5, so 2 more at most")


async def test_six_heroes_at_most(harness):
    await reikland(harness, gold=1000)
    for n in range(5):  # heroes added by hand still count
        await run(harness, ("warrior add", {"warband": "Reavers", "name": f"Hero {n}", "role": "hero", "warrior_type": "Sellsword",
                                           "profile": "4 3 3 3 3 1 3 1 7"}))
    await refused(harness, hire("Reavers", "Youngblood"),
                  "Reavers already has 6 heroes, the most a Reikland Mercenaries warband may have (6, leader included)")


async def test_warband_size_and_the_halfling_cookbook(harness):
    await run(harness, ("warband create", {"name": "Reavers", "warband_type": "Witch Hunters", "gold": 2000}))
    await run(harness, hire("Reavers", "Witch Hunter Captain", "Otto"))
    for n in range(2):
        await run(harness, hire("Reavers", "Zealots", f"Zealots {n}", 5))
    await run(harness, hire("Reavers", "Warhound", "Dog"))  # 12 models: the Witch Hunters' maximum
    await refused(harness, hire("Reavers", "Warhound", "Dog"),
                  "Reavers has 12 warriors; 1 more would make 13, over its maximum of 12 for Witch Hunters.")
    await run(harness, ("warrior equip", {"warband": "Reavers", "warrior": "Otto", "item": "Halfling cookbook"}))
    await run(harness, hire("Reavers", "Warhound", "Dog"))  # seed 000:1475: +1
    await refused(harness, hire("Reavers", "Warhound", "Dog"),
                  "over its maximum of 13 (12 for Witch Hunters, +1 Halfling cookbook (000:1475))")


async def test_items_off_the_list_animals_and_unknown_names(harness):
    await reikland(harness)
    await run(harness, hire("Reavers", "Marksman", "Eyes", 2))
    await refused(harness, buy("Reavers", "Eyes", "Halberd"), "Halberd is not on the Marksman equipment list")
    await refused(harness, buy("Reavers", "Eyes", "Lantern"), "Henchmen carry only their list's items")
    await run(harness, buy("Reavers", "Otto", "Lantern"))  # a hero may buy miscellaneous kit off his list
    res = await refused(harness, buy("Reavers", "Otto", "Halbred"), "There is no item called 'Halbred'")
    assert "Halberd" in res.text  # the closest name
    res = await refused(harness, hire("Reavers", "Marksmn"), "no fighter called 'Marksmn'")
    assert "Marksman" in res.text
    await run(harness, ("warband create", {"name": "Hunters", "warband_type": "Witch Hunters"}))
    await run(harness, hire("Hunters", "Warhound", "Rex"))
    await refused(harness, buy("Hunters", "Rex", "Dagger"), "Rex is an animal (Warhound): animals carry nothing")


async def test_a_henchman_group_pays_for_every_model_and_the_first_dagger_is_free(harness):
    await reikland(harness)
    await run(harness, hire("Reavers", "Warrior", "Spears", 4))  # hired with the free dagger each
    left = gold(harness)
    assert svc(harness).get_warrior(GUILD, "Reavers", "Spears").equipment == ("Dagger",)
    res = await run(harness, buy("Reavers", "Spears", "Dagger"))  # the second dagger each is paid
    assert gold(harness) == left - 4 * 2 and "**8 gc**" in res.text
    res = await run(harness, buy("Reavers", "Spears", "Spear"))
    assert gold(harness) == left - 8 - 4 * 10 and "Spear** for each of 4" in res.text
    assert svc(harness).get_warrior(GUILD, "Reavers", "Spears").equipment == ("Dagger", "Dagger", "Spear")
    # new recruits joining the group buy its kit too: 25 + 2 + 10 each, the first dagger still free
    res = await run(harness, hire("Reavers", "Warrior", "Spears", 1))
    assert gold(harness) == left - 48 - 37 and "1 more for Spears" in res.text
    assert svc(harness).get_warrior(GUILD, "Reavers", "Spears").group_size == 5


async def test_the_free_dagger_comes_with_the_hire_unless_refused(harness):
    await reikland(harness)
    res = await run(harness, hire("Reavers", "Champion", "Hans"))
    assert "**Equipment:** Dagger" in res.text and svc(harness).get_warrior(GUILD, "Reavers", "Hans").equipment == ("Dagger",)
    assert gold(harness) == 500 - 60 - 35  # the dagger is free
    left = gold(harness)
    await run(harness, ("hire fighter", {"warband": "Reavers", "type": "Warrior", "name": "Bare", "count": 2, "dagger": False}))
    assert gold(harness) == left - 2 * 25 and svc(harness).get_warrior(GUILD, "Reavers", "Bare").equipment == ()
    res = await run(harness, buy("Reavers", "Bare", "Dagger"))  # refused at hire, still the first: free
    assert gold(harness) == left - 50 and "first dagger is free (2 free)" in res.text
    # joining a group takes the group's kit: no dagger option then
    await refused(harness, ("hire fighter", {"warband": "Reavers", "type": "Warrior", "name": "Bare", "dagger": False}),
                  "carry the group's kit", "Leave `dagger` out")
    # a list that sells no dagger gives none, and asking for one says why
    await run(harness, ("warband create", {"name": "Zealots", "warband_type": "Witch Hunters"}))
    await run(harness, hire("Zealots", "Witch Hunter Captain", "Hunter"))
    await run(harness, hire("Zealots", "Flagellants", "Whips", 2))
    assert svc(harness).get_warrior(GUILD, "Zealots", "Whips").equipment == ()
    await refused(harness, ("hire fighter", {"warband": "Zealots", "type": "Flagellants", "name": "More", "dagger": True}),
                  "carries no dagger: his list sells none")


async def test_a_custom_warband_cannot_hire_from_a_list(harness):
    created = await harness.command("warband create", OWNER, name="Pirates", warband_type="Goblin Pirates", gold=100)
    assert "Goblin Pirates (custom)" in created.text and "100 gc" in created.text
    res = await harness.command("hire fighter", OWNER, warband="Pirates", type="Boss")
    assert res.is_error and "Pirates is a custom warband (Goblin Pirates): it has no list to hire from" in res.text
    show = await harness.command("warband show", OWNER, name="Pirates")
    assert "*custom*" in show.text and "Can still hire" not in show.text
    assert (await harness.autocomplete("hire fighter", "type", OWNER, warband="Pirates", type="")).choices == []


# ---------------------------------------------------------------- undo


async def test_undo_takes_a_hire_back_with_its_gold(harness):
    await reikland(harness)
    assert gold(harness) == 440
    await run(harness, hire("Reavers", "Warrior", "Spears", 3))
    assert gold(harness) == 365
    undo = await harness.command("warband undo", OWNER, name="Reavers")
    assert not undo.is_error and "undo treasury" in undo.text and "**undo hire**" in undo.text and "warrior.hire" not in undo.text
    assert gold(harness) == 440 and [w.name for w in svc(harness).get_warband(GUILD, "Reavers").warriors] == ["Otto"]
    assert svc(harness).audit_treasury(GUILD, "Reavers").balanced
    log = await harness.command("warband log", OWNER, name="Reavers")
    assert "↳" in log.text  # the hire and its cost shown as one action


async def test_undo_takes_a_purchase_back_exactly(harness):
    await reikland(harness)
    await run(harness, hire("Reavers", "Warrior", "Spears", 3))
    await run(harness, buy("Reavers", "Spears", "Spear"))
    before_buy = 365
    assert gold(harness) == before_buy - 30
    await run(harness, ("warband undo", {"name": "Reavers"}))
    assert gold(harness) == before_buy
    assert svc(harness).get_warrior(GUILD, "Reavers", "Spears").equipment == ("Dagger",)
    await run(harness, ("warband undo", {"name": "Reavers"}))  # and then the hire
    assert gold(harness) == 440


# ---------------------------------------------------------------- autocomplete offers only what is legal


async def test_autocomplete_offers_what_may_be_hired_and_afforded(harness):
    await reikland(harness, gold=100)  # 40 gc left
    res = await harness.autocomplete("hire fighter", "type", OWNER, warband="Reavers", type="")
    names = [c["value"] for c in res.choices]
    assert "Mercenary Captain" not in names  # it has one
    assert "Swordsman" in names and "Champion" in names  # 35 gc each: affordable
    assert "Marksman" in names and all(c["name"].count("gc") == 1 for c in res.choices)
    await run(harness, ("warband treasury", {"name": "Reavers", "reason": "spent", "gold": -20}))
    res = await harness.autocomplete("hire fighter", "type", OWNER, warband="Reavers", type="")
    assert [c["value"] for c in res.choices] == ["Youngblood"]  # 20 gc: only the 15 gc youngblood
    await run(harness, ("warband treasury", {"name": "Reavers", "reason": "loot", "gold": 100}))
    await run(harness, hire("Reavers", "Marksman", "Eyes"))
    items = await harness.autocomplete("trade buy", "item", OWNER, warband="Reavers", warrior="Eyes", item="")
    values = [c["value"] for c in items.choices]
    assert "Halberd" not in values and "Dagger" in values and "Lantern" not in values
    assert all(c["name"].endswith(")") for c in items.choices)


async def test_concurrent_hires_cannot_spend_the_same_gold(harness):
    await reikland(harness, gold=160)  # 100 gc left: four 25 gc warriors at most
    results = await asyncio.gather(*[harness.command("hire fighter", OWNER, warband="Reavers", type="Warrior", name=f"W{n}")
                                     for n in range(6)])
    ok = [r for r in results if not r.is_error]
    assert len(ok) == 4 and gold(harness) == 0
    assert all("25 gc missing" in r.text for r in results if r.is_error)
    assert svc(harness).audit_treasury(GUILD, "Reavers").balanced


@pytest.mark.sqlite_only  # on PostgreSQL every write goes to a worker thread: see tests/engine/test_storage_hosts.py
async def test_a_hire_while_another_write_holds_the_database_waits_in_a_thread_and_is_made_once(harness):
    """A hire is made on the event loop when the database is free; while another write holds it,
    the hire waits in a worker thread (the loop answers others meanwhile), then is made once."""
    await reikland(harness, gold=160)  # 100 gc left
    with write_held_by_a_thread(svc(harness).store):
        late = asyncio.ensure_future(harness.command("hire fighter", OWNER, warband="Reavers", type="Warrior", name="Late"))
        await asyncio.sleep(0.05)
        assert not late.done()
        echo = await harness.command("echo", OWNER, text="still answering")
        assert "still answering" in echo.text
    res = await late
    assert not res.is_error, res.text
    assert gold(harness) == 75 and [w.name for w in svc(harness).get_warband(GUILD, "Reavers").warriors] == ["Otto", "Late"]
    entries = svc(harness).ledger(GUILD, "Reavers", limit=10)
    assert sorted(e.what for e in entries if e.batch_id == entries[0].batch_id) == ["treasury", "warrior.hire"]
    assert sum(e.what == "warrior.hire" for e in entries) == 2  # Otto, then Late: once
    assert svc(harness).audit_treasury(GUILD, "Reavers").balanced


# ---------------------------------------------------------------- hired swords


async def test_hired_swords_fee_one_of_each_who_may_hire_and_upkeep(harness):
    await reikland(harness)  # 440 gc
    offered = await harness.autocomplete("hire sword", "sword", OWNER, warband="Reavers", sword="")
    names = [c["value"] for c in offered.choices]
    assert "Ogre Bodyguard" in names and "Freelancer" in names and all("upkeep" in c["name"] for c in offered.choices)
    # his employer chooses his weapons (hired_swords.json choices): with no default, the choice must be made
    await refused(harness, ("hire sword", {"warband": "Reavers", "sword": "Ogre Bodyguard", "name": "Grub"}),
                  "employer chooses his weapons: give `kit` one of Two swords, Two axes")
    res = await run(harness, ("hire sword", {"warband": "Reavers", "sword": "Ogre Bodyguard", "name": "Grub", "kit": "two axes"}))
    assert "**80 gc** from the treasury" in res.text and gold(harness) == 360 and "Kit chosen: Two axes" in res.text
    grub = svc(harness).get_warrior(GUILD, "Reavers", "Grub")
    assert grub.role == "hired_sword" and grub.fighter_type == "ogre-bodyguard" and grub.special_rules
    assert grub.equipment == ("Light armour", "Axe", "Axe")
    await refused(harness, ("hire sword", {"warband": "Reavers", "sword": "Ogre Bodyguard"}),
                  "already has an Ogre Bodyguard (Grub): a warband hires one of each hired sword")
    assert "Ogre Bodyguard" not in [c["value"] for c in
                                    (await harness.autocomplete("hire sword", "sword", OWNER, warband="Reavers", sword="")).choices]
    await refused(harness, buy("Reavers", "Grub", "Sword"), "Grub is a hired sword: hired swords keep the kit they come with")
    sheet = svc(harness).show_warband(GUILD, "Reavers")
    assert sheet.models == 1 and sheet.heroes == 1  # a hired sword counts towards neither
    assert "Grub (hired sword): 25 + 0 xp = **25**" in (await harness.command("warband show", OWNER, name="Reavers")).text
    await refused(harness, ("hire upkeep", {"warband": "Reavers"}), "Reavers has fought no battle yet")
    await run(harness, ("battle record", {"warband": "Reavers", "result": "win"}))
    paid = await run(harness, ("hire upkeep", {"warband": "Reavers"}))
    assert "Grub: 30 gc" in paid.text and "for battle 1" in paid.text and gold(harness) == 330
    await refused(harness, ("hire upkeep", {"warband": "Reavers"}), "already paid the upkeep of Grub for battle 1")
    await run(harness, ("battle record", {"warband": "Reavers", "result": "loss"}))
    await run(harness, ("warband treasury", {"name": "Reavers", "reason": "drank it", "gold": -320}))
    await refused(harness, ("hire upkeep", {"warband": "Reavers"}), "The upkeep (Grub 30 gc) costs 30 gc; Reavers has 10 gc",
                  "20 gc missing")
    await run(harness, ("warband create", {"name": "Rats", "warband_type": "Skaven"}))
    await refused(harness, ("hire sword", {"warband": "Rats", "sword": "Ogre Bodyguard"}),
                  "An Ogre Bodyguard does not fight for Skaven of Clan Eshin")


async def test_a_hired_sword_does_not_fill_the_warband_and_undo_returns_his_fee(harness):
    await reikland(harness, gold=2000)
    for n, size in enumerate((5, 5, 4)):
        await run(harness, hire("Reavers", "Warrior", f"G{n}", size))
    left = gold(harness)
    await run(harness, ("hire sword", {"warband": "Reavers", "sword": "Dwarf Troll Slayer"}))
    assert gold(harness) == left - 25
    await run(harness, ("warband undo", {"name": "Reavers"}))
    assert gold(harness) == left and "Dwarf Troll Slayer" not in [w.name for w in svc(harness).get_warband(GUILD, "Reavers").warriors]


async def test_warband_check_flags_every_skill_a_hero_may_not_have(harness):
    """Playtest: a Black Skaven with a Sisters of Sigmar skill and a skill of no list was said to have
    'nothing broken'. Each skill is flagged with what to do, in plain English."""
    await run(harness, ("warband create", {"name": "Rats", "warband_type": "Skaven"}))
    await run(harness, hire("Rats", "Assassin Adept", "Queek"))
    await run(harness, hire("Rats", "Black Skaven", "Snikch"))
    await run(harness, ("warrior edit", {"warband": "Rats", "warrior": "Snikch", "skills": "Wall Runner, Sign of Sigmar"}))
    check = await harness.command("warband check", OWNER, name="Rats")
    assert "nothing broken" not in check.text
    assert ("Snikch: Sign of Sigmar is a Sisters of Sigmar skill; a Black Skaven learns from Combat, Shooting, Strength, "
            "Speed and Skaven skills: take it off with /warrior edit") in check.text, check.text
    assert "Wall Runner" not in check.text.replace("Wall Runner, Sign of Sigmar", "")
    await run(harness, ("warrior edit", {"warband": "Rats", "warrior": "Snikch",
                                         "skills": "Sorcery, Foo Bar, Sign of Sigmar, Battle Tongue"}))
    text = (await harness.command("warband check", OWNER, name="Rats")).text
    assert "Snikch: Sorcery is an Academic skill; a Black Skaven learns from" in text
    assert "Snikch: Battle Tongue is an Academic skill" in text
    assert "Snikch: Sign of Sigmar is a Sisters of Sigmar skill" in text
    assert "Snikch: Foo Bar is on no skill list the bot knows: check its spelling, or take it off with /warrior edit" in text
    assert "skills skill" not in text and "a Academic" not in text
    assert "Snikch: changed by hand since hired (skills)." in text  # the hand edit is kept, and marked


async def test_warband_check_flags_a_skill_its_own_limits_bar(harness):
    """Sorcery typed by hand onto a Skaven leader who casts no spells: allowed as a hand edit, then flagged."""
    await run(harness, ("warband create", {"name": "Rats", "warband_type": "Skaven"}))
    await run(harness, hire("Rats", "Assassin Adept", "Queek"))
    await run(harness, ("warrior edit", {"warband": "Rats", "warrior": "Queek", "skills": "Sorcery, Battle Tongue"}))
    text = (await harness.command("warband check", OWNER, name="Rats")).text
    assert "Queek: Only a warrior who casts spells or recites prayers may take Sorcery (Mordheim rulebook (2000)" in text
    assert "Battle Tongue" not in text.replace("Sorcery, Battle Tongue", "")  # the leader may have it


async def test_a_refused_purchase_names_what_the_warrior_may_carry(harness):
    """Playtest: the refusal pointed to /warband check, which lists no kit. It now names his list's items."""
    await run(harness, ("warband create", {"name": "Bandits", "warband_type": "Hochland Bandits"}))
    await run(harness, hire("Bandits", "Bandit Prince", "Rudi"))
    res = await harness.command("trade buy", OWNER, warband="Bandits", warrior="Rudi", item="Hochland long rifle")
    assert res.is_error and "Hochland long rifle is not on the" in res.text, res.text
    assert "/warband check" not in res.text
    assert "A Bandit Prince buys from the" in res.text and "Sword" in res.text
    assert "as a hero, also the trading post's miscellaneous items" in res.text
