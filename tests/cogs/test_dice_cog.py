"""Dice commands through the harness: payloads, ephemeral errors, and the Re-roll button."""

import random

import pytest

from bot.harness import Actor, HarnessInputError
from engine.dice import roll

OTHER = Actor(user_id=777)


def buttons(harness, result) -> dict[str, str]:
    """The message's components by label (a menu by its placeholder): label -> custom_id.

    ``result`` is a command's result or a message id."""
    message_id = result if isinstance(result, int) else result.message_id
    comps = harness.messages[message_id].components()
    return {c.get("label") or c.get("placeholder"): c["custom_id"] for c in comps}


def reroll_id(harness, result):
    comps = harness.messages[result.message_id].components()
    assert comps[0]["label"] == "Re-roll"
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


async def test_success_counting_says_what_it_counted(harness):
    res = await harness.command("roll", expression="10d6 4+")
    expected = roll("10d6 4+", random.Random(1234))
    n = expected.successes
    assert f"**{n} success{'es' if n != 1 else ''}** — {n} of 10 dice scored 4 or more." in res.embeds[0]["description"]


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
        ("99999999d6", "the limit is 100 dice per roll."),
        ("1d6+" * 1000 + "1d6", "the limit is 200 characters."),
        ("(" * 150 + "1d6" + ")" * 150, "the limit is 200 characters."),
        ("(" * 40 + "1d6" + ")" * 40, "the limit is 10 levels of nesting."),
        ("🎲🎲", "found `🎲`"),
        ("x" * 5000, "the limit is 200 characters."),
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
    assert "Community Core Rules (cited as 002)" in res.embeds[0]["footer"]["text"]


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


# ----- targets, roll sets and re-roll choices --------------------------------------------

from tests.engine.scripted_dice import Scripted  # noqa: E402


async def test_a_leadership_test_typed_as_dice_tests_the_total(harness):
    harness.bot.rng = Scripted(3, 5)
    res = await harness.command("roll", expression="2d6<=7 nerve")
    desc = res.embeds[0]["description"]
    assert res.embeds[0]["title"] == "🎲 nerve"
    assert "2d6 (3, 5) = 8, needs <=7: failed" in desc
    assert "Total: **8** — The total, 8, is not 7 or less: **failed**." in desc
    assert "success" not in desc


async def test_how_a_target_was_read_and_targets_that_cannot_be_met_are_said(harness):
    harness.bot.rng = Scripted(4, 4)
    res = await harness.command("roll", expression="2d6 7+")
    assert "ℹ️ No D6 can score 7 or more, so the target is read as the total." in res.text
    assert "**passed**" in res.text
    harness.bot.rng = Scripted(6)
    res = await harness.command("roll", expression="d6 7+")
    assert "⚠️ This target can never be met: `d6` totals at most 6." in res.text


async def test_roll_set_and_repeat(harness):
    harness.bot.rng = Scripted(5, 2, 4, 3, 3)
    res = await harness.command("roll", expression="3x d6 4+ to hit, 2d6<=7 nerve")
    desc = res.embeds[0]["description"]
    assert res.embeds[0]["title"] == "🎲 3x d6 4+, 2d6 <=7"
    assert "**#1** to hit: d6 (5) 4+ = 1 success" in desc
    assert "**#3** to hit: d6 (4) 4+ = 1 success" in desc
    assert "**#4** nerve: 2d6 (3, 3) = 6, needs <=7: passed" in desc
    harness.bot.rng = Scripted(4, 5)
    res = await harness.command("roll", expression="2x d6 4+", label="volley")
    assert res.embeds[0]["title"] == "🎲 volley" and "In all: **" in res.embeds[0]["description"]
    harness.bot.rng = Scripted(2, 3, 6, 6, 1, 1)
    res = await harness.command("roll", expression="3x 2d6 7+ casting")
    desc = res.embeds[0]["description"]
    assert desc.count("No D6 can score 7 or more") == 1  # a note the rolls share is said once
    assert "Passed: **1 of 3**." in desc


async def test_modifiers_typed_after_a_space(harness):
    harness.bot.rng = Scripted(1, 4, 5, 6)
    res = await harness.command("roll", expression="3d6 r1 blessed")
    assert res.embeds[0]["title"] == "🎲 blessed"
    assert "3d6r1 (~~1~~→6, 4, 5) = 15" in res.embeds[0]["description"]


async def test_hatred_rerolls_only_the_failed_dice_and_the_rest_can_still_be_rerolled(harness):
    harness.bot.rng = Scripted(1, 4, 6, 3, 5)
    res = await harness.command("roll", expression="5d6 4+ to hit")
    assert list(buttons(harness, res)) == ["Re-roll", "Re-roll failed", "Re-roll one…"]
    harness.bot.rng = Scripted(6, 2)
    again = await harness.click(res.message_id, buttons(harness, res)["Re-roll failed"])
    assert again.first.callback_type == 7
    embed = harness.messages[res.message_id].data["embeds"][0]
    assert "5d6 (~~1~~→6, 4, 6, ~~3~~→2, 5) 4+ = 4 successes" in embed["description"]
    assert "5d6 (1, 4, 6, 3, 5) 4+ = 3 successes" in embed["fields"][0]["value"]  # the original stays shown
    # the misses were re-rolled once (004:62); the hits still may be
    assert list(buttons(harness, res)) == ["Re-roll", "Re-roll one…"]
    harness.bot.rng = Scripted(1, 1, 1)
    await harness.click(res.message_id, buttons(harness, res)["Re-roll"])
    embed = harness.messages[res.message_id].data["embeds"][0]
    assert "5d6 (~~1~~→6, ~~4~~→1, ~~6~~→1, ~~3~~→2, ~~5~~→1) 4+ = 1 success" in embed["description"]
    assert harness.messages[res.message_id].components() == []


async def test_reroll_one_chosen_die(harness):
    harness.bot.rng = Scripted(6, 3)
    res = await harness.command("roll", expression="2d6<=7 leadership")
    opened = await harness.click(res.message_id, buttons(harness, res)["Re-roll one…"])
    assert opened.first.callback_type == 7
    menu = [c for c in harness.messages[res.message_id].components() if c["type"] == 3][0]
    assert [o["label"] for o in menu["options"]] == ["2d6 <=7 · die 1: 6", "2d6 <=7 · die 2: 3"]
    assert [o.get("description") for o in menu["options"]] == ["failed", "failed"]
    harness.bot.rng = Scripted(2)
    await harness.select(res.message_id, menu["custom_id"], ["0.0"])
    embed = harness.messages[res.message_id].data["embeds"][0]
    assert "2d6 (~~6~~→2, 3) = 5, needs <=7: passed" in embed["description"]
    assert list(buttons(harness, res)) == ["Re-roll"]  # only the 3 is left, and nothing failed


async def test_the_menu_of_dice_can_be_closed_and_is_the_rollers_only(harness):
    res = await harness.command("roll", expression="3d6")
    await harness.click(res.message_id, buttons(harness, res)["Re-roll one…"])
    menu = buttons(harness, res)
    refused = await harness.select(res.message_id, menu["Choose the die to re-roll"], ["0.1"], OTHER)
    assert refused.is_error and "only they can re-roll" in refused.text
    await harness.click(res.message_id, menu["Back"])
    assert list(buttons(harness, res)) == ["Re-roll", "Re-roll one…"]


async def test_checks_offer_the_same_choices(harness):
    harness.bot.rng = Scripted(6, 5)
    res = await harness.command("leadership", leadership=7)
    assert list(buttons(harness, res)) == ["Re-roll", "Re-roll failed", "Re-roll one…"]
    harness.bot.rng = Scripted(2)
    await harness.click(res.message_id, buttons(harness, res)["Re-roll one…"])
    menu = buttons(harness, res)["Choose the die to re-roll"]
    await harness.select(res.message_id, menu, ["0.0"])
    embed = harness.messages[res.message_id].data["embeds"][0]
    assert "Rolled 2 + 5 = 7 against Leadership 7: the Leadership test is passed." in embed["description"]


async def test_injury_rerolls_whole_once(harness):
    res = await harness.command("injury")
    assert list(buttons(harness, res)) == ["Re-roll"]
    await harness.click(res.message_id, buttons(harness, res)["Re-roll"])
    assert harness.messages[res.message_id].components() == []


async def test_leadership_without_a_value_names_its_own_option(harness):
    res = await harness.command("leadership")
    assert res.is_error and "`leadership:7`" in res.text and "value:" not in res.text
    res = await harness.command("test", characteristic="Initiative")
    assert res.is_error and "`value:3`" in res.text


async def test_artillery_and_scatter_wording(harness):
    harness.bot.rng = Scripted(2)
    res = await harness.command("artillery")
    assert "The Artillery dice shows 4, so the distance is 4 inches." in res.text
    harness.bot.rng = Scripted(2, 6)
    res = await harness.command("scatter", distance=True)
    assert "Misfire! The Scatter dice pointed to your right (3 o'clock)." in res.text


# ----- secret rolls -------------------------------------------------------------------------

import asyncio as _asyncio  # noqa: E402

from bot.harness import ADMIN_PERMISSIONS, Harness  # noqa: E402
from engine.rolls.secret import SecretRolls  # noqa: E402
from tests.conftest import make_bot  # noqa: E402

ADMIN = Actor(user_id=888, permissions=ADMIN_PERMISSIONS)


def reveal_id(harness, message_id):
    comps = harness.messages[message_id].components()
    assert [c["label"] for c in comps] == ["Reveal"]
    return comps[0]["custom_id"]


async def test_a_secret_roll_shows_the_table_only_that_it_was_made(harness):
    harness.bot.rng = Scripted(3, 5)
    res = await harness.command("roll", expression="2d6<=7 nerve", secret=True)
    public, mine = res.sent[0], res.sent[1]
    assert not public.ephemeral and public.data["content"] == "🎲 **tester** made a secret roll."
    assert not public.data.get("embeds")  # nothing of the roll is public
    assert "nerve" not in str(public.data) and "2d6" not in str(public.data)
    assert mine.kind == "followup" and mine.ephemeral
    assert "2d6 (3, 5) = 8, needs <=7: failed" in mine.data["embeds"][0]["description"]
    assert [s.kind for s in res.sent] == ["callback", "followup"]  # no channel named: no copy
    reveal_id(harness, public.message_id)


async def test_reveal_by_the_roller_an_admin_or_someone_else(harness):
    harness.bot.rng = Scripted(6, 6)
    res = await harness.command("roll", expression="2d6 crit", secret=True)
    public = res.sent[0].message_id
    custom_id = reveal_id(harness, public)
    other = await harness.click(public, custom_id, OTHER)
    assert other.is_error and other.ephemeral and "Only <@300000000000000001> can reveal" in other.text
    peek = await harness.click(public, custom_id, ADMIN)
    assert peek.ephemeral and "Only you see this" in peek.text and "2d6 (6, 6) = 12" in peek.text
    assert harness.messages[public].data["content"] == "🎲 **tester** made a secret roll."  # still secret
    shown = await harness.click(public, custom_id)
    assert shown.first.callback_type == 7 and not shown.ephemeral
    msg = harness.messages[public]
    assert msg.data["content"] == "🎲 **tester**'s secret roll, revealed:"
    assert "2d6 (6, 6) = 12" in msg.data["embeds"][0]["description"] and msg.components() == []


async def test_reveal_works_after_a_restart(tmp_path):
    async with Harness(make_bot(tmp_path)) as first:
        first.bot.rng = Scripted(1, 2)
        res = await first.command("roll", expression="2d6", secret=True)
        public = first.messages[res.sent[0].message_id]
        custom_id = reveal_id(first, public.id)
    async with Harness(make_bot(tmp_path)) as second:  # a new process on the same database
        second.messages[public.id] = public
        shown = await second.click(public.id, custom_id)
        assert "2d6 (1, 2) = 3" in shown.text


async def test_secret_rolls_stay_in_their_server(harness):
    res = await harness.command("roll", expression="d6", secret=True)
    public = res.sent[0].message_id
    elsewhere = Actor(guild_id=424242, permissions=ADMIN_PERMISSIONS)
    other = await harness.click(public, reveal_id(harness, public), elsewhere)
    assert other.is_error and "not kept" in other.text


async def test_secret_roll_is_copied_to_the_servers_channel(harness):
    await _asyncio.to_thread(SecretRolls(harness.bot.store).set_channel, Actor().guild_id, 1, True, 4242)
    harness.bot.rng = Scripted(4)
    res = await harness.command("test", characteristic="Initiative", value=3, secret=True)
    copy = [s for s in res.sent if s.kind == "channel_message"]
    assert len(copy) == 1 and copy[0].path.endswith("/channels/4242/messages")
    assert copy[0].body["content"] == f"🔒 <@{Actor().user_id}> made a secret roll in <#{Actor().channel_id}>."
    assert copy[0].body["allowed_mentions"] == {"parse": []}
    assert "Rolled 4 against Initiative 3" in copy[0].body["embeds"][0]["description"]


async def test_rerolling_a_secret_roll_updates_what_reveal_shows(harness):
    harness.bot.rng = Scripted(1)
    res = await harness.command("roll", expression="d6", secret=True)
    public, mine = res.sent[0].message_id, res.sent[1].message_id
    harness.bot.rng = Scripted(6)
    await harness.click(mine, buttons(harness, mine)["Re-roll"])
    shown = await harness.click(public, reveal_id(harness, public))
    assert "d6 (~~1~~→6) = 6" in shown.text and "Original roll" in shown.text


async def test_secret_needs_a_server_and_is_not_private_too(harness):
    dm = await harness.command("roll", Actor(guild_id=None), expression="d6", secret=True)
    assert dm.is_error and "secret roll is made in a server" in dm.text
    both = await harness.command("roll", expression="d6", secret=True, private=True)
    assert both.is_error and "not both" in both.text
    assert len(both.sent) == 1  # nothing posted


# ----- the roll record ----------------------------------------------------------------------


async def test_rolls_and_rerolls_are_recorded_and_a_clean_stop_loses_none(tmp_path):
    async with Harness(make_bot(tmp_path)) as h:
        h.bot.rng = Scripted(1, 4, 6, 3, 5)
        res = await h.command("roll", expression="5d6 4+")
        h.bot.rng = Scripted(6, 2)
        await h.click(res.message_id, buttons(h, res)["Re-roll failed"])
        h.bot.rng = Scripted(6, 5)
        await h.command("leadership", leadership=7)
        await h.command("roll", Actor(guild_id=None), expression="d6")  # direct messages: no record
        store = h.bot.store
        record = h.bot.get_cog("Dice").record
        assert record.pending == 3  # written in the background, not while rolling
    from engine.storage import Store

    with Store.open(tmp_path / "mordheim.db") as store:
        with store.read() as c:
            rows = c.all("SELECT kind, what, result, dice, rerolled FROM rolls ORDER BY id")
    assert [(r["kind"], r["what"], r["result"], r["rerolled"]) for r in rows] == [
        ("roll", "5d6 4+", "3 successes", 0),
        ("roll", "5d6 4+", "4 successes", 1),
        ("leadership", "Leadership 7 test", "11, failed", 0),
    ]
    assert rows[1]["dice"] == "[[6,6],[6,2]]"


async def test_admin_names_the_secret_roll_channel(harness):
    refused = await harness.command("admin secretrolls", OTHER, channel="4242")
    assert refused.is_error and "Manage Server" in refused.text
    res = await harness.command("admin secretrolls", ADMIN, channel="<#4242>")
    assert res.ephemeral and "copied to <#4242>" in res.text
    harness.bot.rng = Scripted(2)
    rolled = await harness.command("roll", expression="d6", secret=True)
    assert [s.kind for s in rolled.sent] == ["callback", "followup", "channel_message"]
    res = await harness.command("admin secretrolls", ADMIN)
    assert "not copied to any channel" in res.text
    harness.bot.rng = Scripted(3)
    rolled = await harness.command("roll", expression="d6", secret=True)
    assert [s.kind for s in rolled.sent] == ["callback", "followup"]


async def test_a_secret_roll_channel_the_bot_cannot_post_in_is_reported_to_the_roller(harness, monkeypatch):
    await _asyncio.to_thread(SecretRolls(harness.bot.store).set_channel, Actor().guild_id, 1, True, 4242)

    async def forbidden(route, **kwargs):
        import discord

        class _Resp:
            status = 403
            reason = "Forbidden"

        raise discord.Forbidden(_Resp(), {"message": "Missing Access", "code": 50001})

    monkeypatch.setattr(harness.bot.http, "request", forbidden)
    res = await harness.command("roll", expression="d6", secret=True)
    assert not res.sent[0].ephemeral and res.sent[1].ephemeral
    assert res.sent[-1].ephemeral and "could not be copied to <#4242>" in res.sent[-1].data["content"]


async def test_drop_lowest_in_words_is_the_grammars_drop_not_a_label(harness):
    """Playtest: `/roll 3D6 drop lowest` showed the words as the label and dropped nothing."""
    res = await harness.command("roll", expression="3D6 drop lowest")
    assert not res.is_error
    embed = res.embeds[0]
    expected = roll("3d6dl1", random.Random(1234))
    assert embed["title"] == "🎲 3d6dl1"
    assert expected.render() in embed["description"] and "~~" in expected.render()
    assert f"Total: **{expected.total}**" in embed["description"]
    assert "ℹ️ `drop lowest` is read as `3d6dl1`." in embed["description"]


async def test_leadership_typed_as_dice_points_at_leadership(harness):
    res = await harness.command("roll", expression="Ld 8")
    assert res.is_error and res.ephemeral
    assert "Unknown word `Ld`" in res.text and "`/leadership leadership:8`" in res.text and "`2d6<=8`" in res.text
    ws = await harness.command("roll", expression="WS 4")
    assert ws.is_error and "`/test characteristic:Weapon Skill value:4`" in ws.text


async def test_a_limit_is_said_without_the_codes_name(harness):
    res = await harness.command("roll", expression="1000d6")
    assert res.is_error and "the limit is 100 dice per roll." in res.text and "MAX_DICE" not in res.text
