"""/trade through the harness: rare-item searches with the bot's dice, found items that survive a restart,
selling at half price, the stash, concurrent purchases, and undo."""

from __future__ import annotations

import asyncio

from bot.harness import ADMIN_PERMISSIONS, Actor, Harness
from tests.conftest import make_bot
from tests.engine.scripted_dice import Scripted

from tests.conftest import both_backends

pytestmark = both_backends

GUILD = 812
OWNER = Actor(user_id=1, guild_id=GUILD)
OTHER = Actor(user_id=2, guild_id=GUILD)
ADMIN = Actor(user_id=3, guild_id=GUILD, permissions=ADMIN_PERMISSIONS)


def svc(h):
    return h.bot.campaigns


async def ok(h, path, actor=OWNER, **options):
    res = await h.command(path, actor, **options)
    assert not res.is_error, (path, options, res.text)
    return res


async def reavers(h, gold=None, battle=True):
    await ok(h, "warband create", name="Reavers", warband_type="Reiklanders", **({"gold": gold} if gold is not None else {}))
    await ok(h, "hire fighter", warband="Reavers", type="Mercenary Captain", name="Otto")
    await ok(h, "hire fighter", warband="Reavers", type="Champion", name="Hans")
    if battle:
        await ok(h, "battle record", warband="Reavers", result="win")


def gold(h):
    return svc(h).get_warband(GUILD, "Reavers").gold_crowns


async def test_a_search_shows_its_dice_and_a_found_item_is_bought_at_its_rolled_price(harness):
    await reavers(harness)
    harness.bot.rng = Scripted(6, 6, 4)  # 2D6 = 12 against Rare 12; then the price's D6 x 10 = 40
    res = await ok(harness, "trade search", warband="Reavers", hero="Otto", item="Elven cloak")
    assert not res.ephemeral
    assert "Otto looks for **Elven cloak** (Rare 12): 2d6 (6, 6) = 12 → **12** against 12." in res.text
    assert "**Found**, for 140 gc (price dice: d6 (4) × 10 = 40)" in res.text
    left = gold(harness)
    res = await ok(harness, "trade buy", warband="Reavers", warrior="Hans", item="Elven cloak")  # anyone may have it
    assert "140 gc (by Otto)" in res.text and gold(harness) == left - 140
    assert svc(harness).get_warrior(GUILD, "Reavers", "Hans").equipment == ("Dagger", "Elven cloak")
    again = await harness.command("trade buy", OWNER, warband="Reavers", warrior="Otto", item="Elven cloak")
    assert again.is_error and "a hero must find it first" in again.text  # one search finds one
    # undo gives the gold back and the found item can be bought again
    await ok(harness, "warband undo", name="Reavers")
    assert gold(harness) == left
    assert [o.item for o in svc(harness).offers(GUILD, "Reavers")] == ["Elven cloak"]


async def test_a_failed_search_and_one_search_per_hero_per_battle(harness):
    await reavers(harness)
    harness.bot.rng = Scripted(1, 2)
    res = await ok(harness, "trade search", warband="Reavers", hero="Hans", item="Lucky charm")
    assert "2d6 (1, 2) = 3 → **3** against 6" in res.text and "**Not found.**" in res.text
    again = await harness.command("trade search", OWNER, warband="Reavers", hero="Hans", item="Pistol")
    assert again.is_error and again.ephemeral and "Hans already searched after this battle (for Lucky charm)" in again.text
    # undo passes over the dice already rolled: it cannot buy Hans a second roll
    undo = await ok(harness, "warband undo", name="Reavers")
    assert "undo battle" in undo.text
    choices = await harness.autocomplete("trade search", "hero", OWNER, warband="Reavers", hero="")
    assert [c["value"] for c in choices.choices] == ["Otto", "Hans"]  # the search counted for the undone battle only


async def test_who_may_search_and_for_what(harness):
    await reavers(harness, battle=False)
    res = await harness.command("trade search", OWNER, warband="Reavers", hero="Otto", item="Elven cloak")
    assert res.is_error and "has fought no battle yet" in res.text
    await ok(harness, "battle record", warband="Reavers", result="loss")
    await ok(harness, "hire fighter", warband="Reavers", type="Warrior", name="Grunts", count=2)
    res = await harness.command("trade search", OWNER, warband="Reavers", hero="Grunts", item="Elven cloak")
    assert res.is_error and "only living heroes look for rare items" in res.text
    res = await harness.command("trade search", OWNER, warband="Reavers", hero="Otto", item="Sword")
    assert res.is_error and "Sword is common: buy it with `/trade buy`" in res.text
    res = await harness.command("trade search", OWNER, warband="Reavers", hero="Otto", item="Sigmarite warhammer")
    assert res.is_error and "Sigmarite warhammer is not for Reikland Mercenaries" in res.text
    rare = await harness.autocomplete("trade search", "item", OWNER, warband="Reavers", item="")
    assert rare.choices and all("Rare" in c["name"] for c in rare.choices)
    assert not any("Sigmarite" in c["value"] for c in rare.choices)


async def test_the_lists_modifiers_are_added_to_the_search(harness):
    await ok(harness, "warband create", name="Traders", warband_type="Marienburgers")
    await ok(harness, "hire fighter", warband="Traders", type="Mercenary Captain", name="Jan")
    await ok(harness, "battle record", warband="Traders", result="win")
    harness.bot.rng = Scripted(3, 3)
    res = await ok(harness, "trade search", warband="Traders", hero="Jan", item="Lucky charm")
    assert "2d6 (3, 3) = 6 +1 Traders → **7** against 6" in res.text  # Marienburg's traders: +1


async def test_a_found_item_survives_a_restart(tmp_path, database):
    async with Harness(make_bot(tmp_path, database=database)) as h:
        await reavers(h)
        h.bot.rng = Scripted(6, 5, 2, 3, 4, 1)  # found (11 against Rare 9); the price 20 + 4D6 = 30
        await ok(h, "trade search", warband="Reavers", hero="Otto", item="Mordheim map")
    async with Harness(make_bot(tmp_path, database=database)) as h:  # a new process on the same file
        found = await ok(h, "trade found", warband="Reavers")
        assert "**Mordheim map** for" in found.text and "found by Otto" in found.text
        price = svc(h).offers(GUILD, "Reavers")[0].price
        left = gold(h)
        await ok(h, "trade buy", warband="Reavers", warrior="Otto", item="Mordheim map")
        assert gold(h) == left - price


async def test_a_found_item_is_gone_after_the_next_battle(harness):
    await reavers(harness)
    harness.bot.rng = Scripted(6, 6, 1)
    await ok(harness, "trade search", warband="Reavers", hero="Otto", item="Lucky charm")
    assert svc(harness).offers(GUILD, "Reavers")
    await ok(harness, "battle record", warband="Reavers", result="draw")
    assert svc(harness).offers(GUILD, "Reavers") == []
    res = await harness.command("trade buy", OWNER, warband="Reavers", warrior="Otto", item="Lucky charm")
    assert res.is_error and "a hero must find it first" in res.text


async def test_rare_list_items_are_free_to_buy_only_before_the_first_battle(harness):
    await reavers(harness, battle=False)
    await ok(harness, "trade buy", warband="Reavers", warrior="Otto", item="Brace of pistols")  # Rare 4, on his list
    await ok(harness, "battle record", warband="Reavers", result="win")
    res = await harness.command("trade buy", OWNER, warband="Reavers", warrior="Hans", item="Brace of pistols")
    assert res.is_error and "after the first battle rare items must be found" in res.text


async def test_selling_returns_half_rounded_down_and_the_free_dagger_nothing(harness):
    await reavers(harness, battle=False)
    await ok(harness, "hire fighter", warband="Reavers", type="Marksman", name="Eyes", count=3)
    await ok(harness, "trade buy", warband="Reavers", warrior="Eyes", item="Crossbow")
    await ok(harness, "trade buy", warband="Reavers", warrior="Otto", item="Dagger")  # his second: the first came with him
    left = gold(harness)
    res = await ok(harness, "trade sell", warband="Reavers", warrior="Eyes", item="Crossbow")
    assert "3 x **Crossbow** from Eyes: **+36 gc** (half of 25 gc, rounded down)" in res.text  # 3 x 12
    res = await ok(harness, "trade sell", warband="Reavers", warrior="Otto", item="Dagger")
    assert "**+1 gc**" in res.text  # the bought one
    res = await ok(harness, "trade sell", warband="Reavers", warrior="Otto", item="Dagger")
    assert "**+0 gc**" in res.text and "the first dagger was free" in res.text
    assert gold(harness) == left + 37
    res = await harness.command("trade sell", OWNER, warband="Reavers", warrior="Otto", item="Sword")
    assert res.is_error and "Otto holds no 'Sword'" in res.text


async def test_the_stash(harness):
    await reavers(harness, battle=False)
    await ok(harness, "hire fighter", warband="Reavers", type="Warrior", name="Grunts", count=2)
    left = gold(harness)
    res = await ok(harness, "trade buy", warband="Reavers", warrior="the stash", item="Sword", count=2)
    assert "to the stash: **20 gc** (trading post, 10 gc each)" in res.text and gold(harness) == left - 20
    assert (await harness.autocomplete("trade buy", "warrior", OWNER, warband="Reavers", warrior="st")).choices[0]["value"] == "the stash"
    stash = await ok(harness, "trade stash", warband="Reavers")
    assert "Sword x2" in stash.text and "Worth 20 gc" in stash.text
    await ok(harness, "trade give", warband="Reavers", item="Sword", warrior="Grunts")  # one each for both models
    assert svc(harness).get_warband(GUILD, "Reavers").stash == ()
    assert svc(harness).get_warrior(GUILD, "Reavers", "Grunts").equipment == ("Dagger", "Sword")
    await ok(harness, "trade store", warband="Reavers", warrior="Grunts", item="Sword")
    assert svc(harness).get_warband(GUILD, "Reavers").stash == ("Sword", "Sword")
    await ok(harness, "trade give", warband="Reavers", item="Sword", warrior="Otto")
    res = await harness.command("trade give", OWNER, warband="Reavers", item="Sword", warrior="Grunts")
    assert res.is_error and "The stash holds 1 Sword; Grunts needs 2 (one for each model of the group)" in res.text
    res = await harness.command("trade buy", OWNER, warband="Reavers", warrior="stash", item="Elven cloak")
    assert res.is_error and "Elven cloak is rare (Rare 12)" in res.text
    sheet = await ok(harness, "warband show", name="Reavers")
    assert "**Stash:** Sword" in sheet.text and "(+10 gc in the stash)" in sheet.text


async def test_concurrent_purchases_cannot_spend_the_same_crowns(harness):
    await reavers(harness, gold=195, battle=False)  # 100 gc left
    results = await asyncio.gather(*[
        harness.command("trade buy", who, warband="Reavers", warrior="Otto", item="Brace of pistols")
        for who in (OWNER, ADMIN, OWNER, ADMIN)  # the owner and a member with Manage Server, at once
    ])
    assert sorted(r.is_error for r in results) == [False, False, False, True]
    assert "costs 30 gc; Reavers has 10 gc in its treasury: 20 gc missing" in next(r for r in results if r.is_error).text
    assert gold(harness) == 10
    assert svc(harness).get_warrior(GUILD, "Reavers", "Otto").equipment.count("Brace of pistols") == 3
    assert svc(harness).audit_treasury(GUILD, "Reavers").balanced


async def test_trading_for_another_members_warband_is_refused(harness):
    await reavers(harness, battle=False)
    left = gold(harness)
    for path, opts in (("trade buy", {"warrior": "Otto", "item": "Sword"}), ("trade sell", {"warrior": "Otto", "item": "Sword"}),
                       ("hire fighter", {"type": "Warrior"}), ("trade store", {"warrior": "Otto", "item": "Sword"})):
        res = await harness.command(path, OTHER, warband="Reavers", **opts)
        assert res.is_error and "Only the owner of Reavers" in res.text, path
    assert gold(harness) == left
    assert (await harness.autocomplete("trade buy", "warband", OTHER, warband="")).choices == []


async def test_a_heros_streetwise_adds_two_to_his_search(harness):
    await reavers(harness)
    await ok(harness, "warrior edit", warband="Reavers", warrior="Otto", skills="Streetwise")  # an academic skill (skills.json)
    harness.bot.rng = Scripted(2, 2)
    res = await ok(harness, "trade search", warband="Reavers", hero="Otto", item="Lucky charm")
    assert "2d6 (2, 2) = 4 +2 Streetwise → **6** against 6." in res.text and "**Found**" in res.text


async def test_a_found_item_names_who_may_carry_it(harness):
    """The search's answer says whom /trade buy would sell the found item to: a group buys one per model."""
    await reavers(harness)
    await ok(harness, "hire fighter", warband="Reavers", type="Marksman", name="Shooters", count=2)
    harness.bot.rng = Scripted(6, 6)  # 2D6 = 12: found
    res = await ok(harness, "trade search", warband="Reavers", hero="Otto", item="Hochland long rifle")
    assert "**Found**" in res.text
    line = next(x for x in res.text.splitlines() if x.startswith("**Who may carry it:**"))
    assert "Shooters (a group of 2: one each, so 2 must be found)" in line and line.endswith("the stash.")
    assert "Otto" not in line and "Hans" not in line  # a rifle is on the marksmen's list only
    refused = await harness.command("trade buy", OWNER, warband="Reavers", warrior="Hans", item="Hochland long rifle")
    assert refused.is_error  # the answer matched what a purchase allows


async def test_the_log_says_what_a_search_looked_for_and_what_came_of_it(harness):
    await reavers(harness)
    harness.bot.rng = Scripted(6, 6, 4)
    await ok(harness, "trade search", warband="Reavers", hero="Otto", item="Elven cloak")
    harness.bot.rng = Scripted(1, 1)
    await ok(harness, "trade search", warband="Reavers", hero="Hans", item="Lucky charm")
    log = await ok(harness, "warband log", name="Reavers")
    assert "**rare item search** Elven cloak (Rare 12): 2d6 (6, 6) = 12 → 12, found, for 140 gc — Otto searched" in log.text
    assert "Lucky charm (Rare 6): 2d6 (1, 1) = 2 → 2, not found — Hans searched" in log.text
