"""Views every cog shares: errors go through the tree's one handler; owner-only buttons; pages."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

import discord

from engine.errors import MordheimError


class BaseView(discord.ui.View):
    """A view whose errors reach the member the same way command errors do."""

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /) -> None:
        await interaction.client.tree.report_error(interaction, error)


class OwnedView(BaseView):
    """Only ``owner_id`` may use this view's components; anyone else is told so, privately."""

    def __init__(self, owner_id: int, *, timeout: float | None = 840.0, what: str = "use these buttons") -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.what = what
        self.message: discord.InteractionMessage | None = None

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.user.id != self.owner_id:
            raise MordheimError(f"Only <@{self.owner_id}> can {self.what}.", hint="Run the command yourself to get your own.")
        return True

    async def on_timeout(self) -> None:
        """Remove the buttons once they stop working, so nobody presses a dead one."""
        if self.message is not None:
            try:
                await self.message.edit(view=None)
            except discord.HTTPException:
                pass


class Paginator(OwnedView):
    """Pages of embeds with previous/next buttons; nothing is cut off, it is paged."""

    def __init__(self, owner_id: int, pages: list[discord.Embed], *, extra: list[discord.ui.Item] | None = None) -> None:
        super().__init__(owner_id, what="turn these pages")
        self.pages = pages
        self.index = 0
        for item in extra or []:
            self.add_item(item)
        self._sync()

    def _sync(self) -> None:
        self.previous.disabled = self.index == 0
        self.next.disabled = self.index >= len(self.pages) - 1
        self.counter.label = f"{self.index + 1}/{len(self.pages)}"
        if len(self.pages) <= 1:
            for b in (self.previous, self.counter, self.next):
                if b in self.children:
                    self.remove_item(b)

    @property
    def embed(self) -> discord.Embed:
        return self.pages[self.index]

    @discord.ui.button(label="◀", style=discord.ButtonStyle.secondary, custom_id="page:prev")
    async def previous(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.index = max(0, self.index - 1)
        self._sync()
        await interaction.response.edit_message(embed=self.embed, view=self)

    @discord.ui.button(label="1/1", style=discord.ButtonStyle.secondary, disabled=True, custom_id="page:count")
    async def counter(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:  # pragma: no cover - disabled
        await interaction.response.defer()

    @discord.ui.button(label="▶", style=discord.ButtonStyle.secondary, custom_id="page:next")
    async def next(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.index = min(len(self.pages) - 1, self.index + 1)
        self._sync()
        await interaction.response.edit_message(embed=self.embed, view=self)


class Confirm(OwnedView):
    """A yes/no question; ``on_confirm`` runs at most once."""

    def __init__(self, owner_id: int, on_confirm: Callable[[discord.Interaction], Awaitable[None]], *, label: str = "Confirm") -> None:
        super().__init__(owner_id, timeout=120.0, what="answer this")
        self.on_confirm = on_confirm
        self.done = False
        self.confirm.label = label

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.danger, custom_id="confirm:yes")
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        if self.done:
            raise MordheimError("This was already answered.")
        self.done = True
        self.stop()
        await self.on_confirm(interaction)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary, custom_id="confirm:no")
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        if self.done:
            raise MordheimError("This was already answered.")
        self.done = True
        self.stop()
        await interaction.response.edit_message(content="Cancelled; nothing changed.", embed=None, view=None)
