"""What every interaction gets from the bot layer: autocomplete errors, unknown components, a clean stop."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands

from bot.harness import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT, Actor
from bot.option_types import leaf_options
from bot.tree import STOPPING, UNKNOWN_COMPONENT
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
    checked = await harness.autocomplete("roll", "expression", expression="2d")
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


def payload_for(harness, path: str, actor: Actor | None = None, **options):
    actor = actor or Actor()
    return harness._base_payload(APPLICATION_COMMAND, harness.command_data(path.split(), options), actor)


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
