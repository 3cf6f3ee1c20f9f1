"""Reading one console line the way Discord's slash input reads.

``/roll expression:2d6 label:"to hit"`` gives the path ``["roll"]`` and the options
``{"expression": "2d6", "label": "to hit"}``. The first required option may be given
bare (``/roll 2d6``; every bare word joins it, so ``/rule can I shoot into combat``
works too). Words after a text option are that option's, as Discord reads them:
``/hire fighter warband:Reiks type:Mercenary Captain name:Hans`` (an option that takes a number,
true/false or one of fixed choices takes one word; later bare words go to the first required
option). Subcommands read as ``/warband show name:Reikland``.

A word shaped like ``name:value`` must name one of the command's options: ``type:Y`` on a
command without a ``type`` option is refused, not swallowed into another option. Text that
really contains a colon is quoted: ``"note: bring rope"``. An apostrophe after a letter is part of
the word, as Discord reads it (``/rule bugman's ale``); one that begins a word opens a quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import discord
from discord import app_commands

from bot.harness import HarnessInputError

_OPTION_NAME = re.compile(r"[a-z0-9_-]{1,32}")  # Discord's option names are lower-case


@dataclass
class CommandLine:
    path: list[str]
    options: dict[str, str] = field(default_factory=dict)
    focused: str | None = None  # the option to autocomplete, for `?` lines


@dataclass(frozen=True)
class Word:
    text: str  # quotes removed
    quoted: bool  # the word began with a quote: it is one bare value, whatever it contains


def split_words(text: str, *, partial: bool = False) -> list[Word]:
    """Words as a POSIX shell splits them, remembering which began with a quote. ``partial``
    (for completion) accepts an unclosed quote at the end."""
    words: list[Word] = []
    buf: list[str] = []
    in_word = quoted = False
    quote: str | None = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"' and i + 1 < len(text) and text[i + 1] in '"\\':
                i += 1
                buf.append(text[i])
            else:
                buf.append(c)
        elif c == "'" and buf and buf[-1].isalnum():
            buf.append(c)  # an apostrophe after a letter is the word's own: bugman's ale, u'zhul, warriors'
        elif c in "\"'":
            quoted = quoted or not in_word
            in_word = True
            quote = c
        elif c.isspace():
            if in_word:
                words.append(Word("".join(buf), quoted))
            buf, in_word, quoted = [], False, False
        elif c == "\\" and i + 1 < len(text):
            i += 1
            buf.append(text[i])
            in_word = True
        else:
            buf.append(c)
            in_word = True
        i += 1
    if quote and not partial:
        raise HarnessInputError("Couldn't read that line: a quote is not closed. Close your quotes.")
    if in_word:
        words.append(Word("".join(buf), quoted))
    return words


def option_word(word: Word) -> tuple[str, str] | None:
    """``(name, value)`` when the word is shaped like an option, else None (a bare value)."""
    if word.quoted:
        return None
    name, sep, value = word.text.partition(":")
    if sep and _OPTION_NAME.fullmatch(name):
        return name, value
    return None


def parse_line(text: str, tree: app_commands.CommandTree) -> CommandLine:
    """Turn one typed line into a command path and its options, using the tree's definitions."""
    text = text.strip()
    if not text.startswith("/"):
        raise HarnessInputError("Commands start with `/`, e.g. `/roll 2d6`. Type `help` for the console's own commands.")
    words = split_words(text[1:])
    if not words:
        raise HarnessInputError("Type a command after the `/`, e.g. `/roll 2d6`.")
    path = [words[0].text.lower()]
    node = tree.get_command(path[0])
    if node is None:
        known = ", ".join(sorted("/" + c.name for c in tree.get_commands()))
        raise HarnessInputError(f"There is no command /{path[0]}. Commands: {known}")
    rest = words[1:]
    while isinstance(node, app_commands.Group):
        subs = ", ".join(c.name for c in node.commands)
        if not rest:
            raise HarnessInputError(f"/{' '.join(path)} needs a subcommand: {subs}")
        sub = node.get_command(rest[0].text.lower())
        if sub is None:
            raise HarnessInputError(f"/{' '.join(path)} has no subcommand '{rest[0].text}'. Choose one of: {subs}")
        path.append(rest[0].text.lower())
        node = sub
        rest = rest[1:]
    names = [p.display_name for p in node.parameters]
    free_text = {p.display_name for p in node.parameters if p.type is discord.AppCommandOptionType.string and not p.choices}
    options: dict[str, str] = {}
    bare: list[str] = []
    last: str | None = None
    for word in rest:
        named = option_word(word)
        if named is None:
            if last in free_text and not word.quoted:
                options[last] += " " + word.text  # as in Discord: text typed after `type:` is all that option's
            else:
                bare.append(word.text)
            continue
        key, value = named
        if key not in names:
            raise HarnessInputError(
                f"/{' '.join(path)} has no option '{key}'. Options: {', '.join(names) or 'none'}. "
                f"If the colon belongs to the text, quote it: \"{word.text}\"."
            )
        if key in options:
            raise HarnessInputError(f"The option '{key}' is given twice.")
        options[key] = value
        last = key
    if bare:
        first = next((p.display_name for p in node.parameters if p.required and p.display_name not in options), None)
        if first is None:
            first = next((p.display_name for p in node.parameters if p.display_name not in options), None)
        if first is None:
            raise HarnessInputError(f"I don't know where `{' '.join(bare)}` goes: name the option, like `option:value`.")
        options[first] = " ".join(bare)
        last = first if last is None else last
    return CommandLine(path=path, options=options, focused=last)
