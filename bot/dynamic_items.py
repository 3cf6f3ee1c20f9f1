"""A press of a ``DynamicItem`` (a button or menu whose custom id carries its state), answered without
rebuilding the message's whole view.

discord.py answers such a press by rebuilding every component of the message into a ``View``
(``View.from_message``) only to find the one that was pressed. The pressed one is all a dynamic
item needs: its custom id says what to do, and the component (its label, the values chosen) is in
the message discord.py already read. So the item is built from that one component, then
``from_custom_id``, ``interaction_check`` and ``callback`` run as discord.py would run them. A press
whose component is no longer on the message (the message moved on) is left unanswered here: the
caller (bot/answering.py) then tells the member it moved on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

import discord
from discord.ui.view import _component_to_item  # discord.py's own: one component to its Item

log = logging.getLogger("mordheim.dynamic_items")


def dynamic_item_for(view_store: Any, custom_id: str) -> tuple[type[discord.ui.DynamicItem[Any]], re.Match[str]] | None:
    """The dynamic item class whose template the custom id fits, and the match; None for any other."""
    for pattern, factory in view_store._dynamic_items.items():  # discord.py keeps them there (add_dynamic_items)
        match = pattern.fullmatch(custom_id)
        if match is not None:
            return factory, match
    return None


def _pressed(components: Iterable[discord.Component], component_type: int, custom_id: str) -> discord.Component | None:
    for component in components:
        children = getattr(component, "children", None)
        if children:
            found = _pressed(children, component_type, custom_id)
            if found is not None:
                return found
        elif getattr(component, "custom_id", None) == custom_id and component.type.value == component_type:
            return component
    return None


async def press(interaction: discord.Interaction, factory: type[discord.ui.DynamicItem[Any]], match: re.Match[str],
                component_type: int, custom_id: str) -> None:
    """Run the press of ``custom_id`` on the item ``factory`` makes of the pressed component."""
    message = interaction.message
    component = _pressed(message.components, component_type, custom_id) if message is not None else None
    if component is None:
        return  # no longer on the message: it moved on
    try:
        item = await factory.from_custom_id(interaction, _component_to_item(component), match)
    except Exception:
        log.exception("Could not make the dynamic item %s of %r", factory.__name__, custom_id)
        return
    item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]  # a menu's chosen values
    try:
        allowed = await item.interaction_check(interaction)
    except Exception:
        log.exception("The dynamic item %s refused %r with an error", factory.__name__, custom_id)
        return
    if allowed:
        await item.callback(interaction)
