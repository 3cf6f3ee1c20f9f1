"""Reading one console line the way Discord's slash input reads.

``/roll expression:2d6 label:"to hit"`` gives the path ``["roll"]`` and the options
``{"expression": "2d6", "label": "to hit"}``. The first required option may be given
bare (``/roll 2d6``; every bare word joins it, so ``/rule can I shoot into combat``
works too). Subcommands read as ``/warband show name:Reikland``.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from discord import app_commands

from bot.harness import HarnessInputError


@dataclass
class CommandLine:
    path: list[str]
    options: dict[str, str] = field(default_factory=dict)
    focused: str | None = None  # the option to autocomplete, for `?` lines


def _split(text: str) -> list[str]:
    try:
        return shlex.split(text, posix=True)
    except ValueError as exc:  # unbalanced quotes
        raise HarnessInputError(f"Couldn't read that line: {exc}. Close your quotes.") from None


def parse_line(text: str, tree: app_commands.CommandTree) -> CommandLine:
    """Turn one typed line into a command path and its options, using the tree's definitions."""
    text = text.strip()
    if not text.startswith("/"):
        raise HarnessInputError("Commands start with `/`, e.g. `/roll 2d6`. Type `help` for the console's own commands.")
    words = _split(text[1:])
    if not words:
        raise HarnessInputError("Type a command after the `/`, e.g. `/roll 2d6`.")
    path = [words[0].lower()]
    node = tree.get_command(path[0])
    if node is None:
        known = ", ".join(sorted("/" + c.name for c in tree.get_commands()))
        raise HarnessInputError(f"There is no command /{path[0]}. Commands: {known}")
    rest = words[1:]
    while isinstance(node, app_commands.Group):
        if not rest:
            subs = ", ".join(c.name for c in node.commands)
            raise HarnessInputError(f"/{' '.join(path)} needs a subcommand: {subs}")
        sub = node.get_command(rest[0].lower())
        if sub is None:
            subs = ", ".join(c.name for c in node.commands)
            raise HarnessInputError(f"/{' '.join(path)} has no subcommand '{rest[0]}'. Choose one of: {subs}")
        path.append(rest[0].lower())
        node = sub
        rest = rest[1:]
    names = {p.display_name for p in node.parameters}
    options: dict[str, str] = {}
    bare: list[str] = []
    last: str | None = None
    for word in rest:
        key, sep, value = word.partition(":")
        if sep and key in names:
            options[key] = value
            last = key
        else:
            bare.append(word)
    if bare:
        first = next((p.display_name for p in node.parameters if p.required and p.display_name not in options), None)
        if first is None:
            first = next((p.display_name for p in node.parameters if p.display_name not in options), None)
        if first is None:
            raise HarnessInputError(f"I don't know where `{' '.join(bare)}` goes: name the option, like `option:value`.")
        options[first] = " ".join(bare)
        last = first if last is None else last
    return CommandLine(path=path, options=options, focused=last)
