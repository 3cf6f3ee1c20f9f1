"""Where every interaction enters the bot: discord.py's connection state, with what all of them need.

discord.py turns each INTERACTION_CREATE into tasks (the command tree, a view, a dynamic
item). ``MordheimState.parse_interaction_create`` wraps that one step, so every cog, present
or future, gets the same behaviour without knowing:

- while the bot is stopping, a short private "restarting" instead of new work;
- a button, menu or form that no view or dynamic item claims gets a short private
  explanation instead of Discord's "this interaction failed";
- a member who reads plain text gets every message of the answer as text
  (``bot/plain_text.py``, set for the interaction's tasks through discord.py's adapter context);
- the tasks the interaction started are tracked, so a stop can wait for them.

``store_view`` is where discord.py attaches a view to a message it sent; a view that wants
its buttons to outlive the process (``cogs/_ui/views.py``) defines
``keep_for_restarts(client, message_id, guild_id=...)`` and is called there, once the
message id is known.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord.state import AutoShardedConnectionState
from discord.webhook.async_ import async_context

from bot.plain_text import PlainTextAdapter
from bot.tree import Stopping, UnknownComponent

log = logging.getLogger("mordheim.state")

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5


@dataclass(frozen=True)
class Origin:
    """Who started the interaction being answered, and where."""

    guild_id: int | None  # None in direct messages and group chats
    user_id: int


#: The interaction the current task is answering (set for the tasks it starts).
ORIGIN: contextvars.ContextVar[Origin | None] = contextvars.ContextVar("mordheim_origin", default=None)


def origin_of(data: dict[str, Any]) -> Origin:
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    guild = data.get("guild_id")
    return Origin(guild_id=int(guild) if guild else None, user_id=int(user.get("id") or 0))


class MordheimState(AutoShardedConnectionState):
    def parse_interaction_create(self, data: dict[str, Any]) -> None:
        client = self._get_client()
        origin = origin_of(data)
        before = asyncio.all_tasks()
        resets = [(ORIGIN, ORIGIN.set(origin))]
        try:
            if client.stopping:
                self._refuse(data, Stopping())
            elif data["type"] in (MESSAGE_COMPONENT, MODAL_SUBMIT) and not self._is_claimed(data):
                self._refuse(data, UnknownComponent())
            else:
                if data["type"] not in (PING, AUTOCOMPLETE) and client.reads_plain_text(origin):
                    adapter = PlainTextAdapter(async_context.get(), application_id=int(data["application_id"]), token=data["token"])
                    resets.append((async_context, async_context.set(adapter)))
                super().parse_interaction_create(data)
        finally:
            for var, token in reversed(resets):
                var.reset(token)
            client.track(asyncio.all_tasks() - before)

    def _refuse(self, data: dict[str, Any], error: Exception) -> None:
        interaction = discord.Interaction(data=data, state=self)
        asyncio.get_running_loop().create_task(self._tell(interaction, error), name="mordheim-refusal")

    async def _tell(self, interaction: discord.Interaction, error: Exception) -> None:
        try:
            await self._get_client().tree.report_error(interaction, error)
        except Exception:  # the connection is going away: nobody left to tell
            log.warning("Could not answer interaction %s with %s", interaction.id, type(error).__name__, exc_info=True)

    def _is_claimed(self, data: dict[str, Any]) -> bool:
        """Whether a view, a persistent view or a dynamic item of this process handles this
        component or form: the same lookups discord.py's ViewStore.dispatch_view and
        dispatch_modal make (their attributes are internal; tests/bot/test_interactions.py
        checks both answers)."""
        views = self._view_store
        inner = data["data"]
        custom_id = inner["custom_id"]
        if data["type"] == MODAL_SUBMIT:
            return custom_id in views._modals
        if any(pattern.fullmatch(custom_id) for pattern in views._dynamic_items):
            return True
        key = (inner["component_type"], custom_id)
        message_id = int(data["message"]["id"]) if data.get("message") else None
        return key in views._views.get(message_id, {}) or key in views._views.get(None, {})

    def store_view(self, view: discord.ui.View, message_id: int | None = None) -> None:
        keep = getattr(view, "keep_for_restarts", None)
        if keep is not None and message_id is not None:
            origin = ORIGIN.get()
            try:
                keep(self._get_client(), message_id, guild_id=origin.guild_id if origin else None)
            except Exception:  # the answer is out; only its buttons will say they were not kept
                log.exception("Could not keep the buttons of message %s", message_id)
        super().store_view(view, message_id)
