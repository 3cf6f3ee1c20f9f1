"""The tree's one on_error: engine errors become an ephemeral reply, bugs an apology and a log."""

import logging

import discord
from discord import app_commands

from bot.tree import APOLOGY
from engine.errors import MordheimError


def add_failing_commands(tree):
    @app_commands.command(name="failuser", description="raises a user error")
    async def failuser(interaction: discord.Interaction):
        raise MordheimError("That expression is empty.", hint="Type something like `2d6`.")

    @app_commands.command(name="failbug", description="raises a bug")
    async def failbug(interaction: discord.Interaction):
        raise RuntimeError("secret internals")

    @app_commands.command(name="failafter", description="responds, then fails")
    async def failafter(interaction: discord.Interaction):
        await interaction.response.send_message("working on it")
        raise MordheimError("Second step failed.")

    for c in (failuser, failbug, failafter):
        tree.add_command(c)


async def test_user_error_is_ephemeral_with_fix(harness):
    add_failing_commands(harness.tree)
    result = await harness.command("failuser")
    assert result.is_error and result.ephemeral
    assert "That expression is empty." in result.text and "2d6" in result.text


async def test_bug_is_logged_and_apologised(harness, caplog):
    add_failing_commands(harness.tree)
    with caplog.at_level(logging.ERROR, logger="mordheim.tree"):
        result = await harness.command("failbug")
    assert result.is_error and result.ephemeral
    assert APOLOGY in result.text
    assert "secret internals" not in result.text
    assert any("failbug" in r.getMessage() for r in caplog.records)
    assert any(r.exc_info for r in caplog.records)


async def test_error_after_response_uses_followup(harness):
    add_failing_commands(harness.tree)
    result = await harness.command("failafter")
    kinds = [s.kind for s in result.sent]
    assert kinds == ["callback", "followup"]
    assert result.sent[1].ephemeral and "Second step failed." in result.text
