"""Tab completion for the console, through the same autocomplete the bot offers in Discord.

``complete(harness, actor, line)`` returns what the last word of ``line`` may become: a
console word, a command, a subcommand, an option name (``name:``), or an option's value:
its fixed choices, true/false, or the choices the bot's own autocomplete answers with (sent
through the harness as an autocomplete interaction, with the options typed so far, so a
warrior list follows the warband already named).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.console_line import option_word, split_words
from bot.harness import Actor, Harness, HarnessInputError

CONSOLE_WORDS = ("press", "select", "modal", "user", "guild", "admin", "commands", "help", "quit")
_SAFE = re.compile(r"[^\s\"'\\]+")


def quoted(value: str) -> str:
    """A value as it must be typed: quoted when it holds spaces or quotes."""
    if value and _SAFE.fullmatch(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


async def complete(harness: Harness, actor: Actor, line: str) -> list[str]:
    """Candidates for the last word of ``line`` (the text before the cursor)."""
    ends_in_space = not line or line[-1].isspace()
    if line.lstrip().startswith("?"):
        line = line.lstrip()[1:].lstrip()
    words = split_words(line, partial=True)
    typing = "" if ends_in_space else (words.pop().text if words else "")
    if not words:
        if typing.startswith("/"):
            return sorted("/" + c.name for c in harness.tree.get_commands() if ("/" + c.name).startswith(typing.lower()))
        return [w for w in (*CONSOLE_WORDS, "/") if w.startswith(typing.lower())]
    if not words[0].text.startswith("/"):
        return []
    node = harness.tree.get_command(words[0].text[1:].lower())
    path = [words[0].text[1:].lower()]
    rest = words[1:]
    while isinstance(node, app_commands.Group):
        if not rest:
            return sorted(c.name for c in node.commands if c.name.startswith(typing.lower()))
        node = node.get_command(rest[0].text.lower())
        path.append(rest[0].text.lower())
        rest = rest[1:]
    if node is None:
        return []
    params = {p.display_name: p for p in node.parameters}
    typed = dict(pair for w in rest if (pair := option_word(w)) and pair[0] in params)
    name, sep, value = typing.partition(":")
    if not sep or name not in params:
        return [f"{p}:" for p in params if p not in typed and p.startswith(typing)]
    return [f"{name}:{quoted(v)}" for v in await _values(harness, actor, path, params[name], value, typed)]


async def _values(harness: Harness, actor: Actor, path: list[str], param: app_commands.Parameter, value: str,
                  typed: dict[str, str]) -> list[str]:
    if param.choices:
        return [str(c.value) for c in param.choices if str(c.value).lower().startswith(value.lower())]
    if param.type is discord.AppCommandOptionType.boolean:
        return [v for v in ("true", "false") if v.startswith(value.lower())]
    if not param.autocomplete:
        return []
    try:
        result = await harness.autocomplete(path, param.display_name, actor, **{**typed, param.display_name: value})
        return [str(c["value"]) for c in result.choices]
    except (HarnessInputError, AssertionError):  # options typed so far that Discord would refuse
        return []
