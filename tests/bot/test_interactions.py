"""What every interaction gets from the bot layer: autocomplete errors, unknown components, a clean
stop, and (issue 19) no work for an interaction too old to answer, no answer after Discord said it
is gone, an answer for every press, unreadable frames dropped, option types checked."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

import discord
from discord import app_commands

from bot.harness import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT, Actor, Sent
from bot.option_types import leaf_options
from bot.tree import MOVED_ON, STOPPING, UNKNOWN_COMPONENT
from engine.errors import MordheimError


def add_commands(tree: app_commands.CommandTree, gate: asyncio.Event | None = None) -> None:
    async def broken(interaction: discord.Interaction, current: str):
        raise RuntimeError("autocomplete bug")

    async def refusing(interaction: discord.Interaction, current: str):
        raise MordheimError("not here")

    @app_commands.command(name="pick", description="autocompletes badly")
    @app_commands.autocomplete(what=broken, other=refusing)
    async def pick(interaction: discord.Interaction, what: str, other: str = ""):
        await interaction.response.send_message(what)

    @app_commands.command(name="slow", description="answers when the test says so")
    async def slow(interaction: discord.Interaction):
        await gate.wait()
        await interaction.response.send_message("finished")

    for c in (pick, slow):
        tree.add_command(c)


async def test_autocomplete_errors_are_answered_with_no_choices(harness, caplog, monkeypatch):
    add_commands(harness.tree)
    with caplog.at_level(logging.ERROR):
        bug = await harness.autocomplete("pick", "what", what="x")
    assert bug.choices == [] and [s.callback_type for s in bug.sent] == [8]  # an autocomplete answer, no message
    assert any(r.exc_info and "autocomplete bug" in str(r.exc_info[1]) for r in caplog.records)  # a bug is logged
    refused = await harness.autocomplete("pick", "other", what="x", other="y")
    assert refused.choices == [] and len(refused.sent) == 1

    async def check_fails(interaction):
        raise app_commands.CheckFailure("Only in a server.")

    monkeypatch.setattr(harness.tree, "interaction_check", check_fails)  # an error before the callback: on_error
    checked = await harness.autocomplete("pick", "what", what="2d")
    assert [s.callback_type for s in checked.sent] == [8] and checked.choices == []


async def test_autocomplete_for_a_command_that_no_longer_exists(harness):
    payload = harness._base_payload(AUTOCOMPLETE, {"id": "1", "name": "gone", "type": 1,
                                                   "options": [{"name": "x", "type": 3, "value": "", "focused": True}]},
                                    Actor())
    res = await harness.dispatch(payload, Actor())
    assert res.choices == [] and len(res.sent) == 1


async def test_unknown_button_menu_and_form_get_a_private_explanation(harness):
    actor = Actor()
    shown = await harness.command("echo", actor, text="hi")
    message = harness.messages[shown.message_id]
    for data in ({"custom_id": "old:thing", "component_type": 2}, {"custom_id": "old:menu", "component_type": 3, "values": ["a"]}):
        res = await harness.dispatch(harness._base_payload(MESSAGE_COMPONENT, data, actor, message), actor)
        assert res.ephemeral and res.first.callback_type == 4 and UNKNOWN_COMPONENT in res.text
    form = await harness.dispatch(harness._base_payload(MODAL_SUBMIT, {"custom_id": "old:form", "components": []}, actor), actor)
    assert form.ephemeral and UNKNOWN_COMPONENT in form.text


async def test_known_components_are_not_called_unknown(harness):
    rolled = await harness.command("roll", expression="2d6")
    again = await harness.click(rolled.message_id, rolled.sent[0].data["components"][0]["components"][0]["custom_id"])
    assert UNKNOWN_COMPONENT not in again.text and again.first.callback_type == 7


async def test_stop_finishes_answers_in_progress_and_turns_new_ones_away(harness):
    gate = asyncio.Event()
    add_commands(harness.tree, gate)
    slow = asyncio.create_task(harness.command("slow"))
    await asyncio.sleep(0.05)
    assert len(harness.bot.in_flight) == 1
    stopping = asyncio.create_task(harness.bot.stop(timeout=5))
    await asyncio.sleep(0.05)
    refused = await harness.command("echo", text="new work")
    assert refused.ephemeral and STOPPING in refused.text and "new work" not in refused.text
    assert not stopping.done()  # still waiting for /slow
    gate.set()
    assert (await slow).content == "finished"
    await stopping
    assert harness.bot.store is None and harness.bot.is_closed()


async def test_stop_waits_a_bounded_time(harness):
    add_commands(harness.tree, asyncio.Event())  # never set: /slow would wait forever
    slow = asyncio.create_task(harness.command("slow"))
    await asyncio.sleep(0.05)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await harness.bot.stop(timeout=0.3)
    assert loop.time() - started < 3
    assert harness.bot.store is None
    await slow  # the harness sees the cancelled answer end; nothing hangs


# ----- issue 19: every interaction answered once, in time, or not at all -----------------------

def payload_for(harness, path: str, actor: Actor | None = None, **options):
    actor = actor or Actor()
    return harness._base_payload(APPLICATION_COMMAND, harness.command_data(path.split(), options), actor)


def made_seconds_ago(seconds: float) -> str:
    return str(discord.utils.time_snowflake(discord.utils.utcnow() - dt.timedelta(seconds=seconds)) + 1)


async def test_an_interaction_too_old_when_its_turn_comes_is_dropped_before_any_work(harness):
    ran = []

    @app_commands.command(name="count", description="counts")
    async def count(interaction: discord.Interaction):
        ran.append(interaction.id)
        await interaction.response.send_message("counted")

    harness.tree.add_command(count)
    assert (await harness.command("count")).content == "counted"
    old = payload_for(harness, "count")
    old["id"] = made_seconds_ago(10)  # Discord made it ten seconds ago: its three seconds are long over
    res = await harness.dispatch(old, Actor())
    assert res.sent == [] and len(ran) == 1
    typed = harness._base_payload(AUTOCOMPLETE, harness.command_data(["rule"], {"query": "fla"}, focused="query"), Actor())
    typed["id"] = made_seconds_ago(10)
    assert (await harness.dispatch(typed, Actor())).sent == []


async def test_dropped_interactions_are_counted_in_one_log_line(harness, monkeypatch, caplog):
    monkeypatch.setattr("bot.state.SHED_REPORT_EVERY", 0.05)
    await harness.command("echo", text="fresh")  # the line learns how quickly interactions arrive
    with caplog.at_level(logging.WARNING, logger="mordheim.state"):
        for _ in range(3):
            old = payload_for(harness, "echo", text="old")
            old["id"] = made_seconds_ago(10)
            assert (await harness.dispatch(old, Actor())).sent == []
        await asyncio.sleep(0.2)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Under load")]
    assert len(said) == 1 and said[0].startswith("Under load: 3 interactions dropped")


def gone_after_first_callback(harness, monkeypatch):
    """Discord answers every interaction callback with 10062 Unknown interaction (its three seconds
    passed); follow-ups would still work."""
    answer = harness._answer

    def expired(adapter, method, path, route, body, recorded, files):
        if path.endswith("/callback"):
            adapter.sink.append(Sent("callback", method, path, body, recorded))

            class Response:
                status, reason = 404, "Not Found"

            raise discord.NotFound(Response(), {"message": "Unknown interaction", "code": 10062})
        return answer(adapter, method, path, route, body, recorded, files)

    monkeypatch.setattr(harness, "_answer", expired)


async def test_no_error_reply_follows_10062_unknown_interaction(harness, monkeypatch, caplog):
    rolled = await harness.command("roll", expression="2d6")
    reroll = rolled.sent[0].data["components"][0]["components"][0]["custom_id"]
    gone_after_first_callback(harness, monkeypatch)
    with caplog.at_level(logging.ERROR):
        command = await harness.command("roll", expression="2d6")
        press = await harness.click(rolled.message_id, reroll)
    for res in (command, press):
        assert [s.kind for s in res.sent] == ["callback"]  # the answer, refused; no error reply after it
    assert not [r for r in caplog.records if "error reply" in r.getMessage() or "Unhandled" in r.getMessage()]


async def test_a_reveal_pressed_after_its_button_was_removed_is_answered(harness):
    res = await harness.command("roll", expression="2d6", secret=True)
    public = res.sent[0].message_id
    reveal = harness.messages[public].components()[0]["custom_id"]
    shown = await harness.click(public, reveal)
    assert shown.first.callback_type == 7 and harness.messages[public].components() == []
    # a second device still shows the button; Discord sends the message as it is now, without it
    again = harness._base_payload(MESSAGE_COMPONENT, {"custom_id": reveal, "component_type": 2}, Actor(),
                                  harness.messages[public])
    late = await harness.dispatch(again, Actor())
    assert late.ephemeral and late.first.callback_type == 4 and MOVED_ON in late.text


async def test_a_post_battle_step_pressed_after_it_moved_on_is_answered(harness):
    from tests.cogs.test_postbattle_cog import FOE, OWNER, RIVAL, component, start_after_battle, warband

    await warband(harness)
    await warband(harness, FOE, RIVAL)
    mid = await start_after_battle(harness)
    confirm = component(harness, mid, "confirm")["custom_id"]
    moved = await harness.click(mid, confirm, OWNER)
    assert not moved.is_error and confirm not in str(harness.messages[mid].data["components"])
    second_device = harness._base_payload(MESSAGE_COMPONENT, {"custom_id": confirm, "component_type": 2}, OWNER,
                                          harness.messages[mid])
    res = await harness.dispatch(second_device, OWNER)
    assert res.ephemeral and [s.callback_type for s in res.sent] == [4] and MOVED_ON in res.text


async def test_a_press_whose_item_cannot_be_rebuilt_is_answered(harness, monkeypatch):
    rolled = await harness.command("roll", expression="2d6")
    reroll = rolled.sent[0].data["components"][0]["components"][0]["custom_id"]
    from cogs._ui.dice_rerolls import RerollButton

    async def broken(cls, interaction, item, match, /):
        raise RuntimeError("cannot rebuild")

    monkeypatch.setattr(RerollButton, "from_custom_id", classmethod(broken))
    res = await harness.click(rolled.message_id, reroll)
    assert res.ephemeral and MOVED_ON in res.text


async def test_frames_the_bot_cannot_read_are_logged_once_and_dropped(harness, caplog):
    actor = Actor()
    shown = await harness.command("echo", actor, text="hi")
    good = harness._base_payload(MESSAGE_COMPONENT, {"custom_id": "x", "component_type": 2}, actor,
                                 harness.messages[shown.message_id])
    spoilt = [{k: v for k, v in good.items() if k != key} for key in ("data", "token", "id")]
    with caplog.at_level(logging.WARNING, logger="mordheim"):
        for frame in spoilt:
            assert (await harness.dispatch(frame, actor)).sent == []
    unread = [r for r in caplog.records if "cannot read" in r.getMessage()]
    assert len(unread) == 3 and not any(r.exc_info for r in unread)
    assert [r.getMessage().rsplit(": ", 1)[1] for r in unread] == ["it has no data.", "it has no token.", "it has no id."]
    assert (await harness.command("echo", actor, text="still here")).content  # the next one is answered


async def test_option_values_of_the_wrong_type_get_a_clear_refusal(harness):
    cases = [("roll", {"expression": "2d6"}, "expression", 12, "`expression` takes text"),
             ("roll", {"expression": "2d6", "private": True}, "private", "yes", "`private` takes true or false"),
             ("warband show", {"name": "Anyone"}, "name", 7, "`name` takes text")]
    for path, options, option, value, said in cases:
        payload = payload_for(harness, path, **options)
        wanted = next(o for o in leaf_options(payload["data"]) if o["name"] == option)
        wanted["value"] = value
        wanted["type"] = {int: 4, str: 3}[type(value)]
        res = await harness.dispatch(payload, Actor())
        assert res.ephemeral and res.is_error and said in res.text, res.text
        assert "went wrong" not in res.text


async def test_interactions_do_not_scan_every_task_of_the_loop(harness, monkeypatch):
    rolled = await harness.command("roll", expression="2d6")
    reroll = rolled.sent[0].data["components"][0]["components"][0]["custom_id"]

    def scan():
        raise AssertionError("asyncio.all_tasks() called while answering an interaction")

    with monkeypatch.context() as m:
        m.setattr(asyncio, "all_tasks", scan)
        assert not (await harness.command("roll", expression="2d6")).is_error
        assert (await harness.click(rolled.message_id, reroll)).first.callback_type == 7
