"""Answering a press by drawing its message again, without reading back the message Discord returns.

``InteractionResponse.edit_message`` sends the new message, then reads the copy Discord sends back
into a ``discord.Message`` (every embed, button and menu made an object again), which nothing of
the bot uses; for a panel of fourteen components drawn again on every press, that reading costs as
much as drawing it did (bench/bench_game.py). ``edit_pressed`` sends the same request the same way
(discord.py's own steps, through the interaction's adapter: the harness and plain-text readers see
it as before) and marks the interaction answered, as ``edit_message`` does, without the reading.

For views discord.py need not keep (``cogs/_ui/drawn.py``'s ``Drawn``): every press of their
components is answered through a ``DynamicItem``.
"""

from __future__ import annotations

import discord
from discord.webhook.async_ import async_context, interaction_message_response_params

from cogs._ui.drawn import Drawn


async def edit_pressed(interaction: discord.Interaction, *, embed: discord.Embed, view: Drawn) -> None:
    """``interaction.response.edit_message(embed=embed, view=view)``, less reading Discord's answer."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if interaction.type != discord.InteractionType.component:
        raise TypeError("edit_pressed answers a press of a button or menu")
    state = interaction._state  # discord.py's connection state: its http client and allowed mentions
    if interaction.message is not None:
        state.prevent_view_updates_for(interaction.message.id)  # as edit_message does when given a view
    params = interaction_message_response_params(type=discord.InteractionResponseType.message_update.value, embed=embed,
                                                 view=view, previous_allowed_mentions=state.allowed_mentions)
    http = state.http
    await async_context.get().create_interaction_response(interaction.id, interaction.token, session=interaction._session,
                                                          proxy=http.proxy, proxy_auth=http.proxy_auth, params=params)
    response._response_type = discord.InteractionResponseType.message_update  # answered: what edit_message records
