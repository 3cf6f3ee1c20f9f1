"""Views every cog shares: errors go through the tree's one handler; owner-only buttons; pages; confirm.

Paged answers and confirm questions keep working after the bot restarts. Their buttons are
``DynamicItem``s (registered at start by ``cogs/kept_answers.py``) whose custom ids stay
``page:prev``/``page:count``/``page:next`` and ``confirm:yes``/``confirm:no``; what a press
needs is kept in the database under the id of the message the buttons are on
(``engine/storage/kept_answers.py``), written once discord.py attaches the view to the sent
message (``keep_for_restarts``, called by ``bot/state.py``), never making the event loop wait. A press reads it
back, checks the server and the member, and answers, in this process or the next one.

- Pages are kept for a day, with the page shown; anyone else's press is refused, as before.
- A confirm question lasts two minutes, as before, and is answered at most once (the database
  says which press won). It is rebuilt from what it kept: the ``Confirm`` subclass, its own
  plain attributes (ids, names) and which of its methods answers "yes". A question that cannot
  be rebuilt (its answer is a closure, or it holds objects) still works until a restart, and
  after one says so.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
import weakref
from collections import OrderedDict
from typing import Any, Awaitable, Callable

import discord

from cogs._ui.writes import call_write
from engine.errors import MordheimError, PermissionDenied
from engine.storage.kept_answers import CONFIRM, PAGES, KeptAnswer, KeptAnswers, encode_body

PAGES_KEPT_FOR = dt.timedelta(days=1)
QUESTION_OPEN_FOR = dt.timedelta(minutes=2)

OTHER_SERVER = "These buttons belong to a message of another server; they do nothing here."
PAGES_GONE = "These pages are no longer kept (a paged answer's buttons work for a day). Run the command again."
QUESTION_GONE = "This question is no longer open (questions last two minutes). Run the command again."
QUESTION_FROM_BEFORE_RESTART = "This question was asked before the bot restarted. Run the command again."


class BaseView(discord.ui.View):
    """A view whose errors reach the member the same way command errors do."""

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /) -> None:
        await interaction.client.tree.report_error(interaction, error)


def check_same_server(interaction: discord.Interaction, guild_id: int | None) -> None:
    """Buttons on a message act only in the server the message was sent in."""
    if interaction.guild_id != guild_id:
        raise PermissionDenied(OTHER_SERVER)


def owner_only(owner_id: int, what: str) -> MordheimError:
    return MordheimError(f"Only <@{owner_id}> can {what}.", hint="Run the command yourself to get your own.")


class OwnedView(BaseView):
    """Only ``owner_id`` may use this view's components; anyone else is told so, privately."""

    def __init__(self, owner_id: int, *, timeout: float | None = 840.0, what: str = "use these buttons") -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.what = what
        self.message: discord.InteractionMessage | None = None

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.user.id != self.owner_id:
            raise owner_only(self.owner_id, self.what)
        return True

    async def on_timeout(self) -> None:
        """Remove the buttons once they stop working, so nobody presses a dead one."""
        if self.message is not None:
            try:
                await self.message.edit(view=None)
            except discord.HTTPException:
                pass


def kept_answers(interaction: discord.Interaction) -> KeptAnswers:
    return interaction.client.kept_answers  # type: ignore[attr-defined]


# The writes of kept answers still under way, per bot and message id: a press that comes
# before its answer's write is done waits for it.
_KEEPING: weakref.WeakKeyDictionary[Any, dict[int, asyncio.Task]] = weakref.WeakKeyDictionary()


def _keep(client: Any, message_id: int, **row: Any) -> None:
    """Keep an answer's state (``body`` encoded by the caller) without the event loop ever
    waiting for the database file: written at once when no other write is under way (the
    usual case, a fraction of a millisecond), else by a worker thread
    (``client.write_in_background``) while the loop goes on."""
    if client.kept_answers.keep(message_id, wait=False, **row):
        return
    keeping = _KEEPING.setdefault(client, {})
    task = client.write_in_background(lambda: client.kept_answers.keep(message_id, **row))
    keeping[message_id] = task
    task.add_done_callback(lambda _: keeping.pop(message_id, None))


async def _until_kept(interaction: discord.Interaction) -> None:
    pending = _KEEPING.get(interaction.client, {}).get(interaction.message.id) if interaction.message else None
    if pending is not None:
        await asyncio.wait({pending})


async def guarded(interaction: discord.Interaction, work: Callable[[discord.Interaction], Awaitable[None]]) -> None:
    """``await work(interaction)``, its errors answered through the tree as a command's are.

    For a ``DynamicItem``'s callback (discord.py only logs its errors) and a modal's submit:
    every failure gets an answer, and the tree logs bugs."""
    try:
        await work(interaction)
    except Exception as exc:
        await interaction.client.tree.report_error(interaction, exc)


# ---------------------------------------------------------------- pages


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"page:(?P<role>prev|count|next)"):
    """◀, the page counter, ▶ of a paged answer."""

    LABELS = {"prev": "◀", "next": "▶"}

    def __init__(self, role: str, *, disabled: bool = False, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or self.LABELS.get(role, "1/1"), style=discord.ButtonStyle.secondary,
            custom_id=f"page:{role}", disabled=disabled or role == "count",
        ))
        self.role = role

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(match["role"], disabled=item.disabled, label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: turn_page(i, self.role))


def page_buttons(index: int, count: int) -> list[PageButton]:
    return [
        PageButton("prev", disabled=index == 0),
        PageButton("count", label=f"{index + 1}/{count}"),
        PageButton("next", disabled=index >= count - 1),
    ]


async def turn_page(interaction: discord.Interaction, role: str) -> None:
    message = interaction.message
    if role == "count":  # disabled in Discord; nothing to do
        await interaction.response.defer()
        return

    def may_turn(answer: KeptAnswer | None) -> None:
        if answer is None or answer.kind != PAGES:
            raise MordheimError(PAGES_GONE)
        check_same_server(interaction, answer.guild_id)
        if interaction.user.id != answer.owner_id:
            raise owner_only(answer.owner_id, "turn these pages")

    await _until_kept(interaction)
    kept = kept_answers(interaction)
    turned = await call_write(kept.store, kept.turn_page, message.id, 1 if role == "next" else -1, may_turn)
    layout = discord.ui.View(timeout=None)
    for button in page_buttons(turned.index, turned.count):
        layout.add_item(button)
    for item in discord.ui.View.from_message(message, timeout=None).children:  # anything else on the message stays
        if not str(getattr(item, "custom_id", "") or "").startswith("page:"):
            layout.add_item(item)
    # A layout only: each button on it answers through its own registration (dynamic items by
    # their pattern, anything else through the view that first sent it), so discord.py must
    # not register this copy in their place.
    layout.stop()
    await interaction.response.edit_message(embed=discord.Embed.from_dict(turned.page), view=layout)


# The page sets encoded last, by the list a cog handed over. A cog that shows an unchanged
# answer again hands the very same list (the warbands cog does, for an unchanged roster), and
# its encoding (to_dict, JSON, compression: most of the cost of keeping pages) is reused. The
# entry holds the list, so its id cannot be reused while cached; pages given to a Paginator
# are sent as they are and must not change afterwards.
_ENCODED_PAGES: OrderedDict[int, tuple[list[discord.Embed], bytes]] = OrderedDict()
ENCODED_PAGES_KEPT = 64


def _encoded_pages(pages: list[discord.Embed]) -> bytes:
    cached = _ENCODED_PAGES.get(id(pages))
    if cached is not None and cached[0] is pages:
        _ENCODED_PAGES.move_to_end(id(pages))
        return cached[1]
    blob = encode_body({"pages": [page.to_dict() for page in pages]})
    _ENCODED_PAGES[id(pages)] = (pages, blob)
    if len(_ENCODED_PAGES) > ENCODED_PAGES_KEPT:
        _ENCODED_PAGES.popitem(last=False)
    return blob


class Paginator(OwnedView):
    """Pages of embeds with previous/next buttons; nothing is cut off, it is paged."""

    def __init__(self, owner_id: int, pages: list[discord.Embed], *, extra: list[discord.ui.Item] | None = None) -> None:
        super().__init__(owner_id, timeout=None, what="turn these pages")
        self.pages = pages
        self.index = 0
        if len(pages) > 1:
            for button in page_buttons(0, len(pages)):
                self.add_item(button)
        for item in extra or []:
            self.add_item(item)

    @property
    def embed(self) -> discord.Embed:
        return self.pages[self.index]

    def keep_for_restarts(self, client: Any, message_id: int, *, guild_id: int | None) -> None:
        if len(self.pages) > 1:
            _keep(client, message_id, kind=PAGES, guild_id=guild_id, owner_id=self.owner_id,
                                body=_encoded_pages(self.pages), lifetime=PAGES_KEPT_FOR)


async def send_pages(interaction: discord.Interaction, pages: list[discord.Embed], *, ephemeral: bool = False) -> None:
    """One embed, or pages with previous/next buttons when there are several: only the member who
    asked may turn them, only in the server (or DM) where they asked (kept with the server, see above)."""
    if len(pages) == 1:
        await interaction.response.send_message(embed=pages[0], ephemeral=ephemeral)
        return
    view = Paginator(interaction.user.id, pages)
    await interaction.response.send_message(embed=view.embed, view=view, ephemeral=ephemeral)


# ---------------------------------------------------------------- confirm


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"confirm:(?P<answer>yes|no)"):
    def __init__(self, answer: str, *, label: str | None = None) -> None:
        yes = answer == "yes"
        super().__init__(discord.ui.Button(
            label=label or ("Confirm" if yes else "Cancel"),
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"confirm:{answer}",
        ))
        self.answer = answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /):
        return cls(match["answer"], label=item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda i: answer_question(i, yes=self.answer == "yes"))


# Questions each bot sent, by message id, while they are open (their two-minute timer holds
# them): the one copy of a question that cannot be rebuilt, and the timer to stop once a
# question is answered. Per bot, as a restarted bot does not have them.
_SENT: weakref.WeakKeyDictionary[Any, weakref.WeakValueDictionary[int, Confirm]] = weakref.WeakKeyDictionary()


def _sent_by(client: Any) -> weakref.WeakValueDictionary[int, Confirm]:
    return _SENT.setdefault(client, weakref.WeakValueDictionary())


class Confirm(OwnedView):
    """A yes/no question; ``on_confirm`` runs at most once."""

    _kinds: dict[str, type[Confirm]] = {}  # every subclass, by name, to rebuild kept questions

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Confirm._kinds[_kind_name(cls)] = cls

    def __init__(self, owner_id: int, on_confirm: Callable[[discord.Interaction], Awaitable[None]] | None,
                 *, label: str = "Confirm") -> None:
        super().__init__(owner_id, timeout=QUESTION_OPEN_FOR.total_seconds(), what="answer this")
        self.on_confirm = on_confirm
        self.label = label
        self.done = False
        self.add_item(ConfirmButton("yes", label=label))
        self.add_item(ConfirmButton("no"))
        # what Confirm itself holds; anything a subclass adds after this is its own state
        self._confirm_attributes = frozenset(vars(self)) | {"_confirm_attributes"}

    def _own_state(self) -> tuple[dict[str, Any], str] | None:
        """The subclass's own attributes and the name of the method that answers "yes", or
        None when the question cannot be rebuilt from plain data."""
        answer = self.on_confirm
        if getattr(answer, "__self__", None) is not self:
            return None
        state = {k: v for k, v in vars(self).items() if k not in self._confirm_attributes}
        try:
            json.dumps(state)
        except (TypeError, ValueError):
            return None
        return state, answer.__name__

    def keep_for_restarts(self, client: Any, message_id: int, *, guild_id: int | None) -> None:
        own = self._own_state()
        body = {"kind": _kind_name(type(self)), "label": self.label, "state": None, "answer": None}
        if own is not None:
            body["state"], body["answer"] = own
        _sent_by(client)[message_id] = self
        _keep(client, message_id, kind=CONFIRM, guild_id=guild_id, owner_id=self.owner_id,
                            body=encode_body(body), lifetime=QUESTION_OPEN_FOR)

    @classmethod
    def rebuild(cls, kept: KeptAnswer) -> Confirm | None:
        kind = cls._kinds.get(kept.body.get("kind"))
        if kind is None or kept.body.get("state") is None:
            return None
        question = kind.__new__(kind)
        Confirm.__init__(question, kept.owner_id, None, label=kept.body["label"])
        vars(question).update(kept.body["state"])
        question.on_confirm = getattr(question, kept.body["answer"])
        return question

    async def on_cancel(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="Cancelled; nothing changed.", embed=None, view=None)


def _kind_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


async def answer_question(interaction: discord.Interaction, *, yes: bool) -> None:
    kept = kept_answers(interaction)
    message = interaction.message
    await _until_kept(interaction)
    answer = await asyncio.to_thread(kept.get, message.id) if message else None
    if answer is None or answer.kind != CONFIRM:
        raise MordheimError(QUESTION_GONE)
    check_same_server(interaction, answer.guild_id)
    sent_here = _sent_by(interaction.client)
    question = Confirm.rebuild(answer) or sent_here.get(message.id)
    if question is None:
        raise MordheimError(QUESTION_FROM_BEFORE_RESTART)
    await question.interaction_check(interaction)  # raises for anyone but the asker (and the server, in subclasses)
    if not await asyncio.to_thread(kept.claim_answer, message.id):
        raise MordheimError("This was already answered.")
    question.done = True
    sent = sent_here.pop(message.id, None)
    if sent is not None:
        sent.stop()  # its timer would only remove buttons the answer removes
    if yes:
        await question.on_confirm(interaction)
    else:
        await question.on_cancel(interaction)
