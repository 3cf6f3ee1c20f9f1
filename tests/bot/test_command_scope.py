"""Every command Discord is told about says where it may be used and who may install it."""

from discord import app_commands

from bot.command_scope import CONSOLE_ONLY, SERVER_AND_BOT_DM, SERVER_FREE
from bot.sync import command_definitions

GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


async def test_every_command_payload_has_contexts_and_install_types(harness):
    definitions = command_definitions(harness.tree)
    names = {d["name"] for d in definitions}
    assert SERVER_FREE <= names, SERVER_FREE - names  # a renamed command must be renamed in the list too
    for d in definitions:
        if d["name"] in SERVER_FREE:
            assert d["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL], d["name"]
            assert d["integration_types"] == [GUILD_INSTALL, USER_INSTALL], d["name"]
        elif d["name"] in SERVER_AND_BOT_DM:  # /warband sheet draws one's own warbands in the bot's DMs
            assert d["contexts"] == [GUILD, BOT_DM], d["name"]
            assert d["integration_types"] == [GUILD_INSTALL], d["name"]
        else:
            assert d["contexts"] == [GUILD], d["name"]
            assert d["integration_types"] == [GUILD_INSTALL], d["name"]
    for server_data in ("warband", "warrior", "battle", "settings", "admin"):
        assert server_data not in SERVER_FREE and server_data in names
    assert SERVER_AND_BOT_DM == {"warband"}
    assert not (CONSOLE_ONLY & names)


async def test_a_command_added_later_is_offered_in_servers_only(harness):
    @app_commands.command(name="newthing", description="added by a future cog")
    @app_commands.allowed_installs(guilds=True, users=True)
    async def newthing(interaction):  # pragma: no cover - never invoked
        pass

    harness.tree.add_command(newthing)
    from bot.command_scope import apply_command_scopes

    apply_command_scopes(harness.tree)  # what setup_hook does before the first sync
    d = next(d for d in command_definitions(harness.tree) if d["name"] == "newthing")
    assert d["contexts"] == [GUILD] and d["integration_types"] == [GUILD_INSTALL]

    @app_commands.command(name="latecomer", description="added after the rules were applied")
    async def latecomer(interaction):  # pragma: no cover - never invoked
        pass

    harness.tree.add_command(latecomer)
    d = next(d for d in command_definitions(harness.tree) if d["name"] == "latecomer")
    assert d["contexts"] == [GUILD] and d["integration_types"] == [GUILD_INSTALL]  # the tree's defaults


async def test_server_free_commands_answer_in_a_dm_and_server_ones_refuse_kindly(harness):
    from bot.harness import Actor

    dm = Actor(guild_id=None)
    assert not (await harness.command("roll", dm, expression="2d6")).is_error
    assert not (await harness.command("rule", dm, query="parry")).is_error
    refused = await harness.command("warband list", dm)
    assert refused.is_error and refused.ephemeral
