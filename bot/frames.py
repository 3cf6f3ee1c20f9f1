"""Whether an INTERACTION_CREATE frame has what the bot needs to answer it at all.

An exception while reading a gateway event ends discord.py's connection loop, and with it the
process (exit 1): a component interaction without ``data`` did exactly that (issue 19). A frame
that fails these checks is logged once and dropped; nobody can be answered without its id and
token anyway.
"""

from __future__ import annotations

from typing import Any

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# what discord.py reads from ``data`` without checking, by interaction type
_DATA_KEYS: dict[int, tuple[tuple[str, type], ...]] = {
    APPLICATION_COMMAND: (("name", str),),
    AUTOCOMPLETE: (("name", str),),
    MESSAGE_COMPONENT: (("custom_id", str), ("component_type", int)),
    MODAL_SUBMIT: (("custom_id", str), ("components", list)),
}


def _snowflake(value: Any) -> bool:
    return isinstance(value, str) and value.isdigit() or isinstance(value, int) and not isinstance(value, bool) and value > 0


def unreadable(frame: Any) -> str | None:
    """What makes ``frame`` (an INTERACTION_CREATE's ``d``) impossible to answer, or ``None``."""
    if not isinstance(frame, dict):
        return "it is not an object"
    for key in ("id", "application_id"):
        if not _snowflake(frame.get(key)):
            return f"it has no {key}"
    if not isinstance(frame.get("token"), str) or not frame["token"]:
        return "it has no token"
    kind = frame.get("type")
    if kind not in (PING, *_DATA_KEYS):
        return f"its type {kind!r} is not one the bot knows"
    if kind == PING:
        return None
    data = frame.get("data")
    if not isinstance(data, dict):
        return "it has no data"
    for key, expected in _DATA_KEYS[kind]:
        if not isinstance(data.get(key), expected) or isinstance(data.get(key), bool):
            return f"its data has no {key}"
    return None
