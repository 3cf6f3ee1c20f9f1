"""Buttons and menus written straight as Discord's component payload, for a message drawn again on every press.

A ``discord.ui.View`` builds an object per button (checks, a callback, a place in the view's rows)
only to turn each into the same small dict when the message is sent: for a panel drawn again on
every press, that is most of the drawing (bench/bench_game.py). When every component of a message
is answered through a ``DynamicItem`` (its custom_id carries what a press needs, and discord.py
need not keep the view), the payload can be written at once: ``button``, ``menu``, ``option`` and ``action_row``
write the dicts discord.py writes (tests/cogs/test_drawn.py compares them), cut to Discord's
lengths (Discord refuses longer ones), and ``Drawn`` hands them to discord.py as a view.
"""

from __future__ import annotations

from typing import Any

import discord

Component = dict[str, Any]

LABEL_MAX = 80  # a button's label
OPTION_MAX = 100  # a menu option's label, value and description; a menu's placeholder is 150
PLACEHOLDER_MAX = 150
ROW_MAX = 5  # components in one action row; five rows in a message
OPTIONS_MAX = 25


def button(label: str, custom_id: str, *, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           disabled: bool = False) -> Component:
    """A button, as ``discord.ui.Button(...).to_component_dict()`` writes it."""
    return {"type": 2, "style": style.value, "disabled": disabled, "label": label[:LABEL_MAX], "custom_id": custom_id}


def option(label: str, value: str, *, default: bool = False, description: str = "") -> Component:
    """A menu's option, as ``discord.SelectOption(...).to_dict()`` writes it (``default``: shown chosen)."""
    written: Component = {"label": label[:OPTION_MAX], "value": value[:OPTION_MAX], "default": default}
    if description:  # discord.py leaves an empty description out
        written["description"] = description[:OPTION_MAX]
    return written


def menu(custom_id: str, placeholder: str, options: list[Component], *, min_values: int = 1, max_values: int = 1) -> Component:
    """A menu (of one choice unless told), as ``discord.ui.Select(...).to_component_dict()`` writes it."""
    if not 1 <= len(options) <= OPTIONS_MAX:
        raise ValueError(f"a menu has 1 to {OPTIONS_MAX} options, not {len(options)}")
    return {"type": 3, "custom_id": custom_id, "min_values": min_values, "max_values": max_values, "disabled": False,
            "required": True, "placeholder": placeholder[:PLACEHOLDER_MAX], "options": options}


def action_row(*components: Component) -> Component:
    """One action row (a menu alone, or up to five buttons)."""
    if not 1 <= len(components) <= ROW_MAX:
        raise ValueError(f"an action row holds 1 to {ROW_MAX} components, not {len(components)}")
    return {"type": 1, "components": list(components)}


class Drawn(discord.ui.View):
    """A view already written as its rows of components: discord.py sends them as they are. It has no
    items, so discord.py keeps nothing of it for the message: each press is its DynamicItem's."""

    def __init__(self, rows: list[Component]) -> None:
        if len(rows) > ROW_MAX:
            raise ValueError(f"a message holds at most {ROW_MAX} action rows, not {len(rows)}")
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[Component]:
        return self.rows
