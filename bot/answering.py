"""Answering one interaction, once its turn has come (``bot/state.py`` runs this as a task).

- ``ORIGIN``, and for a member who reads plain text the plain-text adapter
  (``bot/plain_text.py``), are set in this task's context, so every task it starts has them;
- the interaction goes where discord.py would send it: commands and autocomplete to the
  command tree (awaited here); a press of a dynamic item (a button or menu whose custom id
  carries its state) to that item, built from the pressed component alone (bot/dynamic_items.py,
  awaited here); other buttons, menus and forms to the view store, whose tasks are collected
  (``bot/task_collector.py``) and awaited, so a stop can wait for the answer;
- every press gets an answer. A button, menu or form that nothing of this process claims
  (no task was started for it) gets the "no longer knows" explanation; one that was claimed but
  never answered (a dynamic item whose ``from_custom_id`` failed, a step pressed from a second
  device after it moved on, a Reveal after its buttons were removed) gets the private
  "moved on" reply, unless Discord's three seconds are over.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from discord.webhook.async_ import async_context

from bot import dynamic_items
from bot.admission import ANSWER_WITHIN
from bot.dynamic_items import dynamic_item_for
from bot.frames import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT, PING
from bot.plain_text import PlainTextAdapter
from bot.task_collector import TaskCollector
from bot.tree import EXPIRED, MovedOn, UnknownComponent

log = logging.getLogger("mordheim.answering")


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


DEFERRED = (discord.InteractionResponseType.deferred_channel_message, discord.InteractionResponseType.deferred_message_update)


def answered_at_the_end(interaction: discord.Interaction) -> bool:
    """Whether the interaction's first answer came as its handling ended (it did not defer, so the
    time the handling took is the time its first answer took)."""
    kind = interaction.response.type
    return kind is not None and kind not in DEFERRED


async def answer(state: Any, data: dict[str, Any], born: float, collector: TaskCollector) -> bool:
    """Answer the interaction ``data`` (made at ``born``, monotonic clock) through discord.py.
    Returns whether its first answer came only at the end (``answered_at_the_end``)."""
    client = state._get_client()
    origin = origin_of(data)
    ORIGIN.set(origin)
    kind = data["type"]
    if kind not in (PING, AUTOCOMPLETE) and client.reads_plain_text(origin):
        async_context.set(PlainTextAdapter(async_context.get(), application_id=int(data["application_id"]), token=data["token"]))
    try:
        interaction = discord.Interaction(data=data, state=state)
    except Exception:  # a frame bot/frames.py let through that discord.py still cannot read
        log.warning("Dropped interaction %s of type %s: discord.py could not read it", data.get("id"), kind, exc_info=True)
        return False
    if kind in (APPLICATION_COMMAND, AUTOCOMPLETE):
        state.dispatch("interaction", interaction)
        await client.tree.answer(interaction)
        return answered_at_the_end(interaction)
    if kind not in (MESSAGE_COMPONENT, MODAL_SUBMIT):  # a ping: only HTTP interactions are answered with a pong
        state.dispatch("interaction", interaction)
        return False
    inner = data["data"]
    dynamic = dynamic_item_for(state._view_store, inner["custom_id"]) if kind == MESSAGE_COMPONENT else None
    if dynamic is not None:  # answered from the pressed component alone (bot/dynamic_items.py)
        state.dispatch("interaction", interaction)
        await dynamic_items.press(interaction, *dynamic, inner["component_type"], inner["custom_id"])
        return await _answered_or_moved_on(client, interaction, born)
    with collector.collecting() as started:
        if kind == MESSAGE_COMPONENT:
            state._view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)
        else:
            state._view_store.dispatch_modal(inner["custom_id"], interaction, inner["components"], inner.get("resolved", {}))
    state.dispatch("interaction", interaction)
    if not started:
        await client.tree.report_error(interaction, UnknownComponent())
        return answered_at_the_end(interaction)
    try:
        await asyncio.wait(started)
    except asyncio.CancelledError:  # a stop that ran out of time: the answer goes with it
        for task in started:
            task.cancel()
        raise
    return await _answered_or_moved_on(client, interaction, born)


async def _answered_or_moved_on(client: Any, interaction: discord.Interaction, born: float) -> bool:
    """Tell the member a press that nothing answered has moved on (unless Discord's three seconds
    are over); whether the first answer came only at the end."""
    late = time.monotonic() - born > ANSWER_WITHIN
    if not interaction.response.is_done() and not interaction.extras.get(EXPIRED) and not late:
        await client.tree.report_error(interaction, MovedOn())
    return answered_at_the_end(interaction)


async def refuse(state: Any, data: dict[str, Any], born: float, error: Exception) -> None:
    """Answer the interaction ``data`` with ``error``'s private message only (a stop under way)."""
    ORIGIN.set(origin_of(data))
    try:
        interaction = discord.Interaction(data=data, state=state)
    except Exception:
        log.warning("Dropped interaction %s of type %s: discord.py could not read it", data.get("id"), data.get("type"), exc_info=True)
        return
    if time.monotonic() - born > ANSWER_WITHIN:
        return
    try:
        await state._get_client().tree.report_error(interaction, error)
    except Exception:  # the connection is going away: nobody left to tell
        log.warning("Could not answer interaction %s with %s", interaction.id, type(error).__name__, exc_info=True)
