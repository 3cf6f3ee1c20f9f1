"""Dice commands through the harness: payloads, ephemeral errors, and the Re-roll button."""

import random

import pytest

from bot.harness import Actor, HarnessInputError
from engine.dice import roll

OTHER = Actor(user_id=777)


def reroll_id(harness, result):
    comps = harness.messages[result.message_id].components()
    assert [c["label"] for c in comps] == ["Re-roll"]
    return comps[0]["custom_id"]


async def test_roll_shows_every_die_and_total(harness):
    res = await harness.command("roll", expression="2d6+1 to hit")
    assert not res.ephemeral and not res.is_error
    embed = res.embeds[0]
    expected = roll("2d6+1 to hit", random.Random(1234))  # the bot's rng is seeded 1234 in tests
    assert embed["title"] == "🎲 to hit"
    assert expected.render() in embed["description"]
    assert f"Total: **{expected.total}**" in embed["description"]
    assert embed["author"]["name"] == "tester"
    assert res.first.data["allowed_mentions"] == {"parse": []}


async def test_label_option_and_private(harness):
    res = await harness.command("roll", expression="d66", label="exploration", private=True)
    assert res.ephemeral and res.embeds[0]["title"] == "🎲 exploration"


async def test_success_counting(harness):
    res = await harness.command("roll", expression="10d6 4+")
    assert "successes** (4+)" in res.embeds[0]["description"] or "success** (4+)" in res.embeds[0]["description"]


async def test_reroll_by_roller_shows_both_on_same_message(harness):
    res = await harness.command("roll", expression="3d6")
    first_desc = res.embeds[0]["description"]
    custom_id = reroll_id(harness, res)
    again = await harness.click(res.message_id, custom_id)
    assert again.first.callback_type == 7  # the same message is updated
    msg = harness.messages[res.message_id]
    embed = msg.data["embeds"][0]
    assert embed["description"].startswith("Re-roll:")
    assert embed["fields"][0]["name"] == "Original roll"
    assert first_desc.split("\n")[0] in embed["fields"][0]["value"]  # original still visible
    assert "second score stands" in embed["footer"]["text"]
    assert msg.components() == []  # a die is never re-rolled twice


async def test_reroll_by_someone_else_is_refused_privately(harness):
    res = await harness.command("roll", expression="2d6")
    custom_id = reroll_id(harness, res)
    before = dict(harness.messages[res.message_id].data)
    other = await harness.click(res.message_id, custom_id, OTHER)
    assert other.is_error and other.ephemeral and "only they can re-roll" in other.text
    assert harness.messages[res.message_id].data == before


async def test_reroll_pressed_twice(harness):
    res = await harness.command("roll", expression="2d6")
    custom_id = reroll_id(harness, res)
    message = harness.messages[res.message_id]
    components = message.data["components"]
    await harness.click(res.message_id, custom_id)
    message.data["components"] = components  # a second press from a client that had not refreshed yet
    second = await harness.click(res.message_id, custom_id)
    assert second.is_error and second.ephemeral and "already been re-rolled" in second.text


async def test_reroll_after_restart_explains(harness):
    res = await harness.command("roll", expression="2d6")
    custom_id = reroll_id(harness, res)
    harness.bot.get_cog("Dice").rolls.clear()  # what a restart leaves behind
    late = await harness.click(res.message_id, custom_id)
    assert late.is_error and late.ephemeral and "too old to re-roll" in late.text


@pytest.mark.parametrize(
    "expression,words",
    [
        ("   ", "empty"),
        ("1d0", "at least 2 sides"),
        ("d", "number of sides"),
        ("0d6", "rolls no dice"),
        ("99999999d6", "MAX_DICE"),
        ("1d6+" * 1000 + "1d6", "MAX_EXPRESSION_LENGTH"),
        ("(" * 150 + "1d6" + ")" * 150, "MAX_EXPRESSION_LENGTH"),
        ("(" * 40 + "1d6" + ")" * 40, "MAX_NESTING_DEPTH"),
        ("🎲🎲", "found `🎲`"),
        ("x" * 5000, "MAX_EXPRESSION_LENGTH"),
        ("scatter + 1", "scatter"),
    ],
)
async def test_bad_expressions_get_a_clear_private_answer(harness, expression, words):
    res = await harness.command("roll", expression=expression)
    assert res.is_error and res.ephemeral, res.text
    assert words.lower() in res.text.lower()
    assert len(res.sent) == 1 and res.sent[0].kind == "callback"  # nothing public was posted
    ok = await harness.command("roll", expression="2d6")  # and the bot keeps running
    assert not ok.is_error


async def test_syntax_error_points_at_the_position(harness):
    res = await harness.command("roll", expression="2d6 + ")
    assert "```\n2d6 + \n      ^\n```" in res.embeds[0]["description"]


async def test_empty_option_is_refused_by_discord_itself(harness):
    with pytest.raises(HarnessInputError):
        await harness.command("roll", expression="")


async def test_characteristic_test(harness):
    res = await harness.command("test", characteristic="Initiative", value=3)
    embed = res.embeds[0]
    assert embed["title"] == "Initiative test"
    assert "3 or less on a D6 (a 6 always fails)" in embed["fields"][0]["value"]
    assert "Living Rulebook 2005" in embed["footer"]["text"]
    assert ("passed" in embed["description"]) != ("failed" in embed["description"])


async def test_characteristic_out_of_range_refused(harness):
    with pytest.raises(HarnessInputError):
        await harness.command("test", characteristic="Initiative", value=11)


async def test_leadership_and_reroll(harness):
    res = await harness.command("leadership", leadership=7)
    assert "7 or less on 2D6" in res.text
    again = await harness.click(res.message_id, reroll_id(harness, res))
    assert "Re-roll:" in again.text and "Original roll" in again.text


async def test_artillery_and_scatter(harness):
    art = await harness.command("artillery")
    assert art.embeds[0]["title"] == "Artillery dice"
    assert any(w in art.text for w in ('"', "Misfire"))
    sc = await harness.command("scatter", distance=True)
    assert sc.embeds[0]["title"] == "Scatter dice"
    assert any(w in sc.text for w in ("Direct hit", "Misfire", "Scatters"))


async def test_injury_with_modifiers_names_them(harness):
    res = await harness.command("injury", concussion=True, helmet=True, bonus=1)
    text = res.text
    assert "concussion, helmet, +1 to the roll" in text
    assert any(w in text for w in ("knocked down**", "stunned**", "out of action**"))


async def test_server_edition_shown_on_tests(harness):
    import asyncio

    await asyncio.to_thread(harness.bot.settings.set_edition, Actor().guild_id, 1, True, "core")
    res = await harness.command("test", characteristic="Strength", value=4)
    assert "Community Core Rules (seed 002)" in res.embeds[0]["footer"]["text"]


async def _stored_warrior(harness):
    import asyncio

    c = harness.bot.campaigns
    g, u = Actor().guild_id, Actor().user_id
    await asyncio.to_thread(c.create_warband, g, u, "Reavers", "Reiklanders")
    profile = {"M": 4, "WS": 4, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 8}
    await asyncio.to_thread(c.add_warrior, g, u, False, "Reavers", "Otto", role="leader", warrior_type="Captain", profile=profile)


async def test_tests_read_a_stored_warrior(harness):
    await _stored_warrior(harness)
    res = await harness.command("test", characteristic="Initiative", warrior="Reavers/Otto")
    assert "Initiative 4:" in res.text and "Reavers/Otto" in res.embeds[0]["author"]["name"]
    res = await harness.command("leadership", warrior="Otto")
    assert "Leadership 8:" in res.text
    choices = (await harness.autocomplete("leadership", "warrior", Actor(), warrior="ot")).choices
    assert [c["value"] for c in choices] == ["Reavers/Otto"]


async def test_stored_warriors_stay_in_their_server(harness):
    await _stored_warrior(harness)
    elsewhere = Actor(guild_id=424242)
    res = await harness.command("leadership", elsewhere, warrior="Reavers/Otto")
    assert res.is_error and "no warband called" in res.text.lower()
    assert (await harness.autocomplete("leadership", "warrior", elsewhere, warrior="ot")).choices == []


async def test_value_or_warrior_not_both(harness):
    res = await harness.command("test", characteristic="Strength")
    assert res.is_error and "neither" in res.text
    res = await harness.command("leadership", leadership=7, warrior="x")
    assert res.is_error and "both" in res.text
