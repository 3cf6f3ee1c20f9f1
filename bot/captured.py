"""What the bot sent, as captured: each request discord.py made (``Sent``), a message as the
pretend Discord holds it (``Message``), everything sent in answer to one interaction (``Result``),
and an embed's text in reading order. The harness records these; the plain-text rendering and the
console read them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

EPHEMERAL = 1 << 6

# Interaction callback types
CALLBACK_NAMES = {
    1: "pong",
    4: "channel_message",
    5: "deferred_channel_message",
    6: "deferred_update_message",
    7: "update_message",
    8: "autocomplete_result",
    9: "modal",
}


@dataclass
class Sent:
    """One request discord.py made: its kind, HTTP method and path, and the JSON body."""

    kind: str  # callback | followup | edit_original | delete_original | edit_message | delete_message | get_original | channel_message | channel_edit
    method: str
    path: str
    body: dict[str, Any] | None
    files: list[dict[str, Any]] = field(default_factory=list)
    message_id: int | None = None  # the message this request created or changed

    @property
    def callback_type(self) -> int | None:
        return self.body.get("type") if self.kind == "callback" and self.body else None

    @property
    def data(self) -> dict[str, Any]:
        """The message (or autocomplete/modal) data, wherever this kind of request keeps it."""
        if not self.body:
            return {}
        if self.kind == "callback":
            return self.body.get("data") or {}
        return self.body

    @property
    def ephemeral(self) -> bool:
        return bool((self.data.get("flags") or 0) & EPHEMERAL)

    def to_json(self) -> dict[str, Any]:
        out = {"kind": self.kind, "method": self.method, "path": self.path, "body": self.body}
        if self.callback_type is not None:
            out["callback_type"] = CALLBACK_NAMES.get(self.callback_type, self.callback_type)
        if self.files:
            out["attachments"] = self.files
        if self.message_id is not None:
            out["message_id"] = str(self.message_id)
        return out


@dataclass
class Message:
    """A message as the harness's pretend Discord holds it."""

    id: int
    channel_id: int
    data: dict[str, Any]
    files: list[dict[str, Any]] = field(default_factory=list)
    interaction_user_id: int | None = None

    @property
    def ephemeral(self) -> bool:
        return bool((self.data.get("flags") or 0) & EPHEMERAL)

    def components(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects), flattened out of action rows."""
        out: list[dict[str, Any]] = []

        def walk(items):
            for c in items or []:
                if c.get("type") == 1 or "components" in c:
                    walk(c.get("components"))
                else:
                    out.append(c)

        walk(self.data.get("components"))
        return out


@dataclass
class Result:
    """Everything the bot sent in answer to one interaction."""

    sent: list[Sent]
    interaction_id: int

    @property
    def first(self) -> Sent:
        if not self.sent:
            raise AssertionError("the bot sent nothing in answer to this interaction")
        return self.sent[0]

    @property
    def messages(self) -> list[Sent]:
        return [s for s in self.sent if s.kind != "callback" or s.callback_type in (4, 7)]

    @property
    def ephemeral(self) -> bool:
        """True when every message the bot sent was ephemeral (an error reply, say)."""
        msgs = [s for s in self.sent if s.kind in ("callback", "followup") and s.callback_type not in (8, 9, 6)]
        return bool(msgs) and all(s.ephemeral for s in msgs)

    @property
    def is_error(self) -> bool:
        """An ephemeral reply whose embed is red: the tree's error reply."""
        for s in self.sent:
            for e in s.data.get("embeds") or []:
                if e.get("color") == discord.Colour.red().value and s.ephemeral:
                    return True
        return False

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return [e for s in self.sent for e in (s.data.get("embeds") or [])]

    @property
    def content(self) -> str:
        return "\n".join(s.data.get("content") or "" for s in self.sent if s.data.get("content"))

    @property
    def text(self) -> str:
        """Content and every embed's text, for assertions that don't care about layout."""
        parts: list[str] = []
        for s in self.sent:
            d = s.data
            if d.get("content"):
                parts.append(d["content"])
            for e in d.get("embeds") or []:
                parts.append(embed_text(e))
            for ch in d.get("choices") or []:
                parts.append(f"{ch['name']} = {ch['value']}")
        return "\n".join(parts)

    @property
    def choices(self) -> list[dict[str, Any]]:
        for s in self.sent:
            if s.callback_type == 8:
                return s.data.get("choices") or []
        raise AssertionError("the bot did not answer with autocomplete choices")

    @property
    def message_id(self) -> int | None:
        for s in self.sent:
            if s.message_id is not None:
                return s.message_id
        return None

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.sent]


def embed_text(embed: dict[str, Any]) -> str:
    """An embed's text content in reading order."""
    parts = []
    if embed.get("author", {}).get("name"):
        parts.append(embed["author"]["name"])
    for key in ("title", "description"):
        if embed.get(key):
            parts.append(str(embed[key]))
    for f in embed.get("fields") or []:
        parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
    if embed.get("footer", {}).get("text"):
        parts.append(embed["footer"]["text"])
    return "\n".join(parts)
