"""/fall and /jump through the harness: the rolled fall and the exact odds, edition named."""

import asyncio
import re

from bot.harness import Actor


def chart_total(text: str) -> float:
    return sum(float(p) for p in re.findall(r"(\d+\.\d)%", text))


async def test_fall_shows_the_dice_and_the_odds(harness):
    res = await harness.command("fall", height=4)
    assert not res.is_error and not res.ephemeral
    embed = res.embeds[0]
    assert embed["title"] == 'Human falls 4"'
    assert "at Strength 4 against Toughness 3" in embed["description"]
    assert embed["fields"][0]["name"] == "Exact odds"
    assert abs(chart_total(embed["fields"][0]["value"]) - 100) < 0.5
    assert "Edition: lrb" in embed["footer"]["text"]


async def test_jump_reads_a_stored_warrior_and_his_helmet(harness):
    c, g, u = harness.bot.campaigns, Actor().guild_id, Actor().user_id
    await asyncio.to_thread(c.create_warband, g, u, "Reavers", "Reiklanders")
    profile = {"M": 4, "WS": 4, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 5, "A": 1, "Ld": 8}
    await asyncio.to_thread(c.add_warrior, g, u, False, "Reavers", "Otto", role="leader", warrior_type="Captain",
                            profile=profile, equipment=["helmet"])
    res = await harness.command("jump", height=6, who="Reavers/Otto", private=True)
    assert res.ephemeral and not res.is_error
    assert "Initiative test 1 of 3" in res.text and "needed 5 or less" in res.text


async def test_bad_heights_and_fighters(harness):
    res = await harness.command("fall", height=4, who="1 2 3")
    assert res.is_error and res.ephemeral and "9 values" in res.text
    res = await harness.command("jump", height=3, who="Nobody/Here")
    assert res.is_error and res.ephemeral


async def test_a_hired_leaders_fighting_rules_are_not_listed_for_a_jump(harness):
    c, g, u = harness.bot.campaigns, Actor().guild_id, Actor().user_id
    await asyncio.to_thread(c.create_warband, g, u, "Reavers", "Reiklanders")
    await asyncio.to_thread(c.hire_fighter, g, u, False, "Reavers", "Mercenary Captain", name="Otto")
    fight = await harness.command("fight", attacker="Reavers/Otto", defender="human")
    assert "military discipline" in fight.text.lower()  # a rule the fight leaves out, and says so
    res = await harness.command("jump", height=4, who="Reavers/Otto")
    assert not res.is_error and "military discipline" not in res.text.lower() and "Left out" not in res.text
