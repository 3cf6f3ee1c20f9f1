"""Option values of the wrong type, refused for every command before it runs.

Discord checks an option against the command as Discord knows it. A client still showing an
older definition of a command, or anything else speaking the API, can send ``expression`` as a
number or ``private`` as ``"yes"``; discord.py hands the value to the callback as it came and it
fails there as a bug ("something went wrong"), or, for a number option, fails before any reply.
``check_option_types`` (called by the tree, ``bot/tree.py``) names the option and what it takes. The
same goes for a value past the limits the command declares (a text's length, a number's range, a
choice it does not offer),
which Discord's client refuses and an older one may not: 12,000 characters of profile took the
profile reader seconds, a 30-digit count overflowed SQLite. An autocomplete is checked too (its
callback would meet the same values), and answered with no choices.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

OptionType = discord.AppCommandOptionType


# Discord's ids are 64-bit; every one so far is below 2**63, and both databases keep them as signed
# 64-bit integers, so a larger one (no member, channel or file has one) could not even be looked up.
SNOWFLAKE_LIMIT = 2 ** 63


def _snowflake(value: Any) -> bool:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        value = int(value)
    return type(value) is int and 0 < value < SNOWFLAKE_LIMIT


# what each option type takes, in words, and whether a value is one
TAKES: dict[OptionType, tuple[str, Any]] = {
    OptionType.string: ("text", lambda v: isinstance(v, str)),
    OptionType.integer: ("a whole number", lambda v: type(v) is int),
    OptionType.number: ("a number", lambda v: type(v) in (int, float)),
    OptionType.boolean: ("true or false", lambda v: type(v) is bool),
    OptionType.user: ("a member", _snowflake),
    OptionType.channel: ("a channel", _snowflake),
    OptionType.role: ("a role", _snowflake),
    OptionType.mentionable: ("a member or a role", _snowflake),
    OptionType.attachment: ("a file", _snowflake),
}


class WrongOptionType(app_commands.AppCommandError):
    """An option's value is not of the type the command takes; the message says which and what."""

    def __init__(self, option: str, takes: str, value: Any) -> None:
        self.option = option
        super().__init__(
            f"The option `{option}` takes {takes}, but Discord sent {described(value)}. Discord may still be showing "
            "an older version of this command: try again in a minute (or reload Discord with Ctrl+R)."
        )


class BrokenText(WrongOptionType):
    """Text holding half of a UTF-16 character pair (a lone surrogate): JSON can carry it, but it is
    no character, and nothing can be written or looked up with it (SQLite refuses to encode it)."""

    def __init__(self, option: str, value: str) -> None:
        self.option = option
        half = next(ch for ch in value if "\ud800" <= ch <= "\udfff")
        app_commands.AppCommandError.__init__(
            self, f"The option `{option}` holds U+{ord(half):04X}, half of a character pair that is no character on "
                  "its own, so it was not read. Type it again (copying it from elsewhere may have cut a character in two).")


class OutOfRange(WrongOptionType):
    """A value of the right type outside what the command declares (text too long, a number past its
    limits): Discord's client refuses it, an older one may not."""

    def __init__(self, option: str, takes: str, sent: str) -> None:
        self.option = option
        app_commands.AppCommandError.__init__(
            self, f"The option `{option}` takes {takes}, but Discord sent {sent}. Discord may still be showing an older "
                  "version of this command: try again in a minute (or reload Discord with Ctrl+R).")


def _range_problem(parameter: app_commands.Parameter, value: Any) -> OutOfRange | None:
    """``value`` (of the parameter's type) outside its declared limits: not one of its choices, or
    past its range (discord.py keeps a text option's length limits in ``min_value``/``max_value`` too)."""
    if parameter.choices:
        allowed = [c.value for c in parameter.choices]
        if value in allowed and type(value) is type(allowed[0]):
            return None
        shown = ", ".join(str(v) for v in allowed[:10]) + (", ..." if len(allowed) > 10 else "")
        sent = described(value) if isinstance(value, str) else str(value)[:24]
        return OutOfRange(parameter.display_name, f"one of: {shown}", sent)
    low, high = parameter.min_value, parameter.max_value
    if low is None and high is None:
        return None
    if parameter.type is OptionType.string:
        if (low is None or len(value) >= low) and (high is None or len(value) <= high):
            return None
        takes = f"text of {low or 0:,} to {high:,} characters" if high is not None else f"text of at least {low:,} characters"
        return OutOfRange(parameter.display_name, takes, f"{len(value):,}")
    if parameter.type in (OptionType.integer, OptionType.number):
        if (low is None or value >= low) and (high is None or value <= high):
            return None
        kind = "a whole number" if parameter.type is OptionType.integer else "a number"
        takes = (f"{kind} from {low:,} to {high:,}" if low is not None and high is not None
                 else f"{kind} of at least {low:,}" if low is not None else f"{kind} of at most {high:,}")
        shown = str(value)
        return OutOfRange(parameter.display_name, takes, shown if len(shown) <= 24 else f"{shown[:12]}… ({len(shown)} characters)")
    return None


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def described(value: Any) -> str:
    """A value as the member would call it: ``a whole number (12)``, ``text ("yes")``."""
    shown = repr(value) if not isinstance(value, str) else '"' + value[:40].replace("`", "'") + '"'
    kind = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}.get(type(value), "something else")
    return f"{kind} ({shown[:42]})"


def leaf_options(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The options of the (sub)command being run, under any subcommand group and subcommand."""
    options = data.get("options") or []
    while options and options[0].get("type") in (OptionType.subcommand.value, OptionType.subcommand_group.value):
        options = options[0].get("options") or []
    return options


def check_option_types(command: app_commands.Command, data: dict[str, Any]) -> None:
    """Raise ``WrongOptionType`` for the first option whose value (or type code) is not what ``command`` takes,
    ``BrokenText`` for text that is not text (a lone surrogate), ``OutOfRange`` for a value past the limits the
    command declares (the length of a text, the range of a number, its choices)."""
    parameters = {p.display_name: p for p in command.parameters}
    for option in leaf_options(data):
        parameter = parameters.get(option.get("name"))
        if parameter is None:  # not ours to judge: discord.py reports a changed command
            continue
        takes, fits = TAKES.get(parameter.type, (None, None))
        if fits is None:
            continue
        value = option.get("value")
        if isinstance(value, str) and not _is_text(value):
            raise BrokenText(parameter.display_name, value)
        if option.get("focused") and isinstance(value, str):  # an autocomplete's text as typed so far, whatever the type
            longest = parameter.max_value if parameter.type is OptionType.string else None
            if longest is not None and len(value) > longest:  # too short is fine: the member is still typing
                raise OutOfRange(parameter.display_name, f"text of at most {longest:,} characters", f"{len(value):,}")
            continue
        if option.get("type") != parameter.type.value or not fits(value):
            raise WrongOptionType(parameter.display_name, takes, value)
        out = _range_problem(parameter, value)
        if out is not None:
            raise out
