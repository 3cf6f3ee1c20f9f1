"""Answers as plain text, for the members (or servers) who chose it: done once, for every cog.

Every message an interaction's answer sends (the response, follow-ups, edits) leaves the bot
through discord.py's webhook adapter. For a member who reads plain text, the interaction's
tasks run with ``PlainTextAdapter`` in front of the real adapter (``bot/state.py`` sets it),
which rewrites each message's embeds as its content before it is sent. Cogs build embeds as
always and never know.

Discord allows 2000 characters of content. A longer text is cut at line ends: the first part
is the message itself (with its buttons), the rest follow as follow-up messages seen by the
same people; when an existing message is edited (a page turned, a re-roll), the rest goes to
the member who acted, privately, rather than to the whole channel on every press.
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any, NamedTuple

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.text_render import message_as_text, split_text

log = logging.getLogger("mordheim.plain_text")

EPHEMERAL = 1 << 6
MAX_PARTS = 5  # 10,000 characters; a longer answer is paged already, so this is only a fence
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 5, 7


def as_plain_text(message: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``message`` with its embeds written into its content, and the parts that did not fit."""
    parts = split_text(message_as_text(message))
    if len(parts) > MAX_PARTS:
        cut = sum(len(p) for p in parts[MAX_PARTS:])
        parts = parts[:MAX_PARTS]
        parts[-1] = parts[-1][: 2000 - 60] + f"\n… ({cut:,} more characters not shown)"
    out = dict(message)
    out["content"] = parts[0]
    out["embeds"] = []
    # text that was in an embed never pinged anyone; as content it must not either
    mentions = dict(out.get("allowed_mentions") or {})
    mentions["parse"] = []
    out["allowed_mentions"] = mentions
    return out, parts[1:]


class OutgoingMessage(NamedTuple):
    message: dict[str, Any]  # the message inside the request's body, changed in place
    creates: bool  # a new message (False: an edit of one already shown)
    flags: int  # the new message's flags (ephemeral or not)


class PlainTextAdapter(AsyncWebhookAdapter):
    """Stands in front of the adapter discord.py would use, for one interaction's requests."""

    def __init__(self, inner: AsyncWebhookAdapter, *, application_id: int, token: str) -> None:
        super().__init__()
        self.inner = inner
        self.application_id = application_id
        self.token = token
        self.deferred_flags: int | None = None  # a "thinking…" response whose message is still to come

    async def request(self, route: Route, session: Any = None, *, payload: dict[str, Any] | None = None,
                      multipart: list[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
        body = payload if payload is not None else _payload_json(multipart)
        rest: list[str] = []
        rest_flags = EPHEMERAL
        if body is not None:
            body = copy.deepcopy(body)  # discord.py's own payload stays as it built it
            outgoing = self._message_in(route, body)
            if outgoing is not None and outgoing.message.get("embeds"):
                text_message, rest = as_plain_text(outgoing.message)
                outgoing.message.clear()
                outgoing.message.update(text_message)
                rest_flags = outgoing.flags if outgoing.creates else EPHEMERAL
                if payload is not None:
                    payload = body
                else:
                    multipart = _with_payload_json(multipart, body)
        result = await self.inner.request(route, session, payload=payload, multipart=multipart, **kwargs)
        for part in rest:
            await self._follow_up(session, part, rest_flags, kwargs)
        return result

    def _message_in(self, route: Route, body: dict[str, Any]) -> OutgoingMessage | None:
        """The message this request sends or edits, if it is one."""
        if route.path.endswith("/callback"):
            kind = body.get("type")
            data = body.get("data")
            if kind == DEFERRED_CHANNEL_MESSAGE:
                self.deferred_flags = (data or {}).get("flags") or 0
            if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE) and data is not None:
                return OutgoingMessage(data, creates=kind == CHANNEL_MESSAGE, flags=data.get("flags") or 0)
            return None
        if route.method == "POST" and route.path == "/webhooks/{webhook_id}/{webhook_token}":  # a follow-up
            return OutgoingMessage(body, creates=True, flags=body.get("flags") or 0)
        if route.method == "PATCH" and "/messages/" in route.path:
            # writing the message of a "thinking…" response creates it, as far as readers go
            creates = route.url.endswith("/@original") and self.deferred_flags is not None
            flags = self.deferred_flags or 0
            if creates:
                self.deferred_flags = None
            return OutgoingMessage(body, creates=creates, flags=flags)
        return None

    async def _follow_up(self, session: Any, text: str, flags: int, kwargs: dict[str, Any]) -> None:
        route = Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=self.application_id, webhook_token=self.token)
        body = {"content": text, "flags": flags, "allowed_mentions": {"parse": []}}
        try:
            await self.inner.request(route, session, payload=body, params={"wait": "true"},
                                     proxy=kwargs.get("proxy"), proxy_auth=kwargs.get("proxy_auth"))
        except discord.HTTPException:
            # the answer itself went out; losing its tail is logged, not turned into an error reply
            log.warning("Could not send the rest of a plain-text answer", exc_info=True)


def _payload_json(multipart: list[dict[str, Any]] | None) -> dict[str, Any] | None:
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _with_payload_json(multipart: list[dict[str, Any]], body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {**part, "value": json.dumps(body)} if part.get("name") == "payload_json" else part
        for part in multipart
    ]
