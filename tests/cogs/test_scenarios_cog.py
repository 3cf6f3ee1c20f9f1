"""/battle scenario and the scenario of /battle record through the harness: the table rolled with
every die shown (typed at the table or by the bot), one scenario read, a rulebook scenario stored
by its id, a custom one marked, a near miss refused, both ratings stored and the underdog named."""

from __future__ import annotations

import asyncio
import random

from bot.harness import Actor

from tests.conftest import both_backends

pytestmark = both_backends

G = 151
OWNER = Actor(user_id=1, guild_id=G)
RIVAL = Actor(user_id=2, guild_id=G)
ELSEWHERE = Actor(user_id=1, guild_id=G + 1)
PROFILE = "4 3 3 3 3 1 3 1 7"


async def ok(res):
    assert not res.is_error, res.text
    return res


async def warbands(h):
    """Raiders, rated 62 (Captain 20 xp, Hans 8, Otto 1, three Marksmen 1), and Rats, rated 5."""
    await ok(await h.command("warband create", OWNER, name="Raiders", warband_type="custom"))
    for name, role, extra in (("Captain", "leader", {"experience": 20}), ("Hans", "hero", {"experience": 8}),
                              ("Otto", "hero", {"experience": 1}), ("Marksmen", "henchmen", {"group_size": 3, "experience": 1})):
        await ok(await h.command("warrior add", OWNER, warband="Raiders", name=name, role=role, warrior_type="Human",
                                 profile=PROFILE, **extra))
    await ok(await h.command("warband create", RIVAL, name="Rats", warband_type="custom"))
    await ok(await h.command("warrior add", RIVAL, warband="Rats", name="Skritch", role="leader", warrior_type="Skaven",
                             profile=PROFILE))


# ------------------------------------------------------------------ /battle scenario
async def test_dice_typed_at_the_table_roll_the_table_for_everyone_to_see(harness):
    res = await ok(await harness.command("battle scenario", OWNER, dice="3 4"))
    assert not res.ephemeral
    text = res.text
    assert "Scenario table: 7, Scenario 2: Skirmish" in text
    assert "2D6: 3 + 4 = **7** (typed at the table)" in text
    assert "+1 Winning leader" in text and "Before the battle" in text


async def test_the_bot_rolls_with_its_own_dice_and_shows_them(harness):
    rng = random.Random(1234)  # the bot's seed (tests/conftest.py make_bot)
    a, b = (int(rng.random() * 6) + 1 for _ in range(2))
    res = await ok(await harness.command("battle scenario", OWNER))
    assert f"2D6: {a} + {b} = **{a + b}** (rolled by the bot)" in res.text


async def test_a_two_lets_the_lower_rated_player_choose(harness):
    res = await ok(await harness.command("battle scenario", OWNER, dice="1 1"))
    assert "Scenario table: 2, choose" in res.text
    assert "lower rating picks the scenario" in res.text and "**Surprise Attack**" in res.text


async def test_one_scenario_is_read_by_a_misspelt_name(harness):
    res = await ok(await harness.command("battle scenario", OWNER, name="wyrdstone hnut"))
    text = res.text
    assert "Scenario 3: Wyrdstone Hunt" in text
    assert "D3+1 wyrdstone counters" in text
    assert "+1 Per wyrdstone counter" in text and "+1 Survives" in text
    treasure = await ok(await harness.command("battle scenario", OWNER, name="Hidden Treasure"))
    assert "D3 wyrdstone shards: on a D6 of 5+" in treasure.text and "+2 Finding the chest" in treasure.text
    sides = await ok(await harness.command("battle scenario", OWNER, name="Breakthrough"))
    assert "lower rating chooses" in sides.text


async def test_bad_input_gets_a_private_message_saying_how_to_fix_it(harness):
    both = await harness.command("battle scenario", OWNER, name="Skirmish", dice="3 4")
    assert both.is_error and both.ephemeral and "not both" in both.text
    one_die = await harness.command("battle scenario", OWNER, dice="3")
    assert one_die.is_error and "you typed 1 dice" in one_die.text and "`3 4`" in one_die.text
    seven = await harness.command("battle scenario", OWNER, dice="7 1")
    assert seven.is_error and "7 cannot be rolled on a D6" in seven.text
    unknown = await harness.command("battle scenario", OWNER, name="Tower of Doom")
    assert unknown.is_error and "no scenario called 'Tower of Doom'" in unknown.text


async def test_the_scenario_autocomplete_offers_the_rulebooks_scenarios(harness):
    offered = await harness.autocomplete("battle record", "scenario", OWNER, scenario="wyrd")
    assert [(c["name"], c["value"]) for c in offered.choices][:1] == [("Scenario 3: Wyrdstone Hunt", "Wyrdstone Hunt")]
    everything = await harness.autocomplete("battle scenario", "name", OWNER)
    assert len(everything.choices) == 9


# ------------------------------------------------------------------ /battle record
async def test_a_rulebook_scenario_is_stored_by_id_with_both_ratings_and_the_underdog_named(harness):
    h = harness
    await warbands(h)
    res = await ok(await h.command("battle record", OWNER, warband="Raiders", result="win", opponent="Rats",
                                   scenario="wyrdstone hunt"))
    text = res.text
    assert "Scenario: **Scenario 3: Wyrdstone Hunt**; its own experience: +1 per wyrdstone counter" in text
    assert "Underdog: **Rats** (rating 5 against 62)" in text and "+1 experience for each of its warriors" in text
    c = h.bot.campaigns
    ours, = await asyncio.to_thread(c.list_battles, G, "Raiders")
    theirs, = await asyncio.to_thread(c.list_battles, G, "Rats")
    assert (ours.scenario, ours.scenario_id, ours.rating, ours.opponent_rating) == ("Wyrdstone Hunt", "wyrdstone-hunt", 62, 5)
    assert (theirs.scenario_id, theirs.rating, theirs.opponent_rating) == ("wyrdstone-hunt", 5, 62)
    listed = await ok(await h.command("battle list", OWNER, warband="Raiders"))
    assert "Wyrdstone Hunt" in listed.text and "(custom)" not in listed.text


async def test_a_custom_scenario_stays_allowed_and_is_marked(harness):
    h = harness
    await warbands(h)
    res = await ok(await h.command("battle record", OWNER, warband="Raiders", result="draw", scenario="Bridge of Sighs",
                                   opponents="Some Orcs"))
    assert "Custom scenario **Bridge of Sighs**" in res.text and "Underdog" not in res.text
    named_alike = await ok(await h.command("battle record", OWNER, warband="Raiders", result="loss",
                                           scenario="custom: Wyrdstone Hunt Two"))
    assert "Custom scenario **Wyrdstone Hunt Two**" in named_alike.text
    listed = await ok(await h.command("battle list", OWNER, warband="Raiders"))
    assert "Bridge of Sighs (custom)" in listed.text and "Wyrdstone Hunt Two (custom)" in listed.text
    log = await ok(await h.command("campaign log", OWNER))
    assert "Bridge of Sighs (custom)" in log.text
    battles = await asyncio.to_thread(h.bot.campaigns.list_battles, G, "Raiders")
    assert {b.scenario_id for b in battles} == {None} and {b.rating for b in battles} == {None}


async def test_a_near_miss_of_a_rulebook_name_is_refused_and_nothing_is_stored(harness):
    h = harness
    await warbands(h)
    res = await h.command("battle record", OWNER, warband="Raiders", result="win", opponent="Rats", scenario="Wyrdston Hunt")
    assert res.is_error and res.ephemeral
    assert "`Wyrdstone Hunt`" in res.text and "`custom: Wyrdston Hunt`" in res.text
    assert await asyncio.to_thread(h.bot.campaigns.list_battles, G, "Raiders") == []
    assert await asyncio.to_thread(h.bot.campaigns.list_battles, G, "Rats") == []


async def test_equal_warbands_have_no_underdog_and_another_server_sees_none_of_it(harness):
    h = harness
    await warbands(h)
    await ok(await h.command("warband create", RIVAL, name="Rats Two", warband_type="custom"))
    await ok(await h.command("warrior add", RIVAL, warband="Rats Two", name="Skreech", role="leader", warrior_type="Skaven",
                             profile=PROFILE))
    res = await ok(await h.command("battle record", RIVAL, warband="Rats", result="win", opponent="Rats Two", scenario="Occupy"))
    assert "Ratings 5 and 5: a gap of 0, no underdog experience" in res.text
    await ok(await h.command("warband create", ELSEWHERE, name="Far Away", warband_type="custom"))
    assert "Occupy" not in (await ok(await h.command("campaign log", ELSEWHERE))).text


async def test_undo_takes_the_battle_back_with_its_scenario(harness):
    h = harness
    await warbands(h)
    await ok(await h.command("battle record", OWNER, warband="Raiders", result="win", scenario="Street Fight"))
    await ok(await h.command("warband undo", OWNER, name="Raiders"))
    assert await asyncio.to_thread(h.bot.campaigns.list_battles, G, "Raiders") == []


async def test_rule_finds_a_scenario_and_the_underdog_table(harness):
    res = await ok(await harness.command("rule", OWNER, query="wyrdstone hunt"))
    assert res.embeds[0]["title"] == "Wyrdstone Hunt" and "+1 per wyrdstone counter" in res.text
    assert "`/battle scenario name:Wyrdstone Hunt`" in res.text
    underdog = await ok(await harness.command("rule", OWNER, query="underdog"))
    assert underdog.embeds[0]["title"] == "Underdogs" and "151-300" in underdog.text
