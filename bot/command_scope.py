"""Where Discord offers each command: in servers only, or also in DMs and as a user install.

A command that needs no server data (dice, rules, combat odds, falling, help, a member's own
preferences) may be used anywhere, and a player may install the bot on their own account to
roll and look up rules in a DM or a group chat. Everything else (warbands, warriors, battles,
settings, admin, and any command added later) is offered in servers where the bot is
installed, and nowhere else: a command is user-installable only if it is on the list below.
The cogs still refuse direct messages themselves, for forged or stale interactions.

One group of server data is also offered in the bot's own direct messages: ``/warband``, for
``/warband sheet``, which there draws only the member's own warbands (cogs/warbands.py). Discord
sets where a command may be used per top-level command, so the other ``/warband`` subcommands
appear there too, and refuse, saying the sheet is the one that works there. Installed on
servers only: not in group chats or other people's DMs, where a sheet would be shown to others.

``/echo`` stays in the tree for the console and the benchmarks, but is never sent to Discord.
"""

from __future__ import annotations

from discord import app_commands

#: Top-level commands that need no server data.
SERVER_FREE = frozenset({
    "roll", "test", "leadership", "injury", "artillery", "scatter",  # dice
    "rule", "rules",  # rules lookup
    "fight", "shoot", "odds",  # combat
    "fall", "jump",  # falling
    "help", "preferences",  # about the bot, and a member's own way of reading it
})

#: Server data, with one subcommand answering in the bot's DMs too (a member's own warbands' sheets).
SERVER_AND_BOT_DM = frozenset({"warband"})

#: In the tree for the offline console and the benchmarks; never offered to Discord members.
CONSOLE_ONLY = frozenset({"echo"})

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
SERVERS_ONLY = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
SERVERS_AND_BOT_DM = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
SERVER_OR_USER_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)


def apply_command_scopes(tree: app_commands.CommandTree) -> None:
    """Set every top-level command's contexts and install types from ``SERVER_FREE`` and ``SERVER_AND_BOT_DM``.

    Applied after the cogs load and before the definitions are hashed and synced, so it
    overrides whatever a cog declared; commands added later fall back to the tree's
    defaults, which are the server-only ones (see ``MordheimBot``).
    """
    for command in tree.get_commands():
        if command.name in SERVER_FREE:
            command.allowed_contexts, command.allowed_installs = EVERYWHERE, SERVER_OR_USER_INSTALL
        elif command.name in SERVER_AND_BOT_DM:
            command.allowed_contexts, command.allowed_installs = SERVERS_AND_BOT_DM, SERVER_INSTALL
        else:
            command.allowed_contexts, command.allowed_installs = SERVERS_ONLY, SERVER_INSTALL


def synced_commands(tree: app_commands.CommandTree) -> list[app_commands.Command | app_commands.Group | app_commands.ContextMenu]:
    """The commands Discord is told about: every global command but the console-only ones."""
    return [c for c in tree.get_commands() if c.name not in CONSOLE_ONLY]
