"""Embeds as text: for members who chose plain text, and for the offline console.

Both read an embed in the same order (author, title, description, fields, image, footer).
``embed_as_text`` writes it in Discord's Markdown, for a message's content; ``render_embed``
lays it out for a terminal. ``split_text`` cuts text to Discord's 2000 characters per message
at line ends, closing and reopening a code block it cuts through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.captured import Message, Result, Sent

BUTTON, SELECT, TEXT_INPUT = 2, 3, 4
CONTENT_LIMIT = 2000  # characters in one message's content (Discord's limit for bots)
_BLANK_NAMES = ("", "\u200b")
FENCE = "```"


def embed_as_text(embed: dict[str, Any]) -> str:
    """One embed as Markdown text, in reading order; nothing is left out but decoration."""
    lines: list[str] = []
    if embed.get("author", {}).get("name"):
        lines.append(f"*{embed['author']['name']}*")
    if embed.get("title"):
        title = f"**{embed['title']}**"
        lines.append(f"{title} <{embed['url']}>" if embed.get("url") else title)
    if embed.get("description"):
        lines.append(str(embed["description"]))
    for f in embed.get("fields") or []:
        lines.append("")
        name = str(f.get("name", "")).strip()
        if name not in _BLANK_NAMES:
            lines.append(f"**{name}**")
        lines.append(str(f.get("value", "")))
    if embed.get("image", {}).get("url"):
        lines.append(embed["image"]["url"])
    if embed.get("footer", {}).get("text"):
        lines.append(f"-# {embed['footer']['text']}")
    return "\n".join(lines)


def message_as_text(message: dict[str, Any]) -> str:
    """A message's content and every embed, as one text."""
    parts = [str(message["content"])] if message.get("content") else []
    parts += [embed_as_text(e) for e in message.get("embeds") or []]
    return "\n\n".join(p for p in parts if p)


def split_text(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """``text`` in parts of at most ``limit`` characters, cut at line ends where it can be.

    A part that ends inside a code block closes it, and the next part opens it again, so a
    monospace table stays monospace across the cut.
    """
    if len(text) <= limit:
        return [text]
    room = limit - len(FENCE) - 1  # space for a closing fence
    parts: list[str] = []
    current = ""
    in_code = False
    for line in _short_lines(text.split("\n"), room - len(FENCE) - 1):
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > room and current:
            parts.append(current + ("\n" + FENCE if in_code else ""))
            current = (FENCE + "\n" if in_code else "") + line
        else:
            current = candidate
        if line.count(FENCE) % 2 == 1:  # an odd number of fences opens or closes a block
            in_code = not in_code
    if current:
        parts.append(current)
    return parts


def _short_lines(lines: list[str], width: int) -> list[str]:
    """Lines longer than ``width`` (rare: a long paragraph) cut at spaces, else hard."""
    out: list[str] = []
    for line in lines:
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            cut = cut if cut > width // 2 else width
            out.append(line[:cut])
            line = line[cut:].lstrip(" ")
        out.append(line)
    return out


def render_embed(embed: dict[str, Any]) -> list[str]:
    """One embed laid out for a terminal (the console)."""
    lines: list[str] = []
    if embed.get("author", {}).get("name"):
        lines.append(embed["author"]["name"])
    if embed.get("title"):
        title = str(embed["title"])
        lines += [title, "─" * min(len(title), 60)]
    if embed.get("description"):
        lines.append(str(embed["description"]))
    for f in embed.get("fields") or []:
        lines.append("")
        lines.append(f"▸ {f.get('name', '')}")
        lines += ["  " + line for line in str(f.get("value", "")).splitlines()]
    if embed.get("image", {}).get("url"):
        lines.append(f"[image: {embed['image']['url']}]")
    if embed.get("footer", {}).get("text"):
        lines += ["", f"— {embed['footer']['text']}"]
    return lines


def render_components(components: list[dict[str, Any]]) -> list[str]:
    """Buttons and menus numbered in order, so the console can press them by number."""
    lines = []
    for i, c in enumerate(components, start=1):
        off = " (disabled)" if c.get("disabled") else ""
        if c.get("type") == BUTTON:
            if c.get("url"):
                lines.append(f"  [{i}] link: {c.get('label') or ''} → {c['url']}")
            else:
                lines.append(f"  [{i}] button: {c.get('label') or c.get('emoji', {}).get('name', '')}{off}")
        elif c.get("type") == SELECT:
            opts = ", ".join(o.get("value", "") + (f" ({o['label']})" if o.get("label") and o.get("label") != o.get("value") else "") for o in c.get("options") or [])
            lines.append(f"  [{i}] menu: {c.get('placeholder') or 'choose'}{off} — options: {opts}")
        else:
            lines.append(f"  [{i}] component type {c.get('type')}{off}")
    return lines


def render_sent(sent: Sent, message: Message | None) -> list[str]:
    if sent.callback_type == 8:
        choices = sent.data.get("choices") or []
        if not choices:
            return ["(no suggestions)"]
        return ["Suggestions:"] + [f"  • {c['name']}" + (f"  [{c['value']}]" if str(c["value"]) != c["name"] else "") for c in choices]
    if sent.callback_type == 9:
        d = sent.data
        fields = []
        for row in d.get("components") or []:
            for c in row.get("components") or []:
                if c.get("type") == TEXT_INPUT:
                    fields.append(f"  {c['custom_id']}: {c.get('label', '')}" + (f" (now: {c['value']})" if c.get("value") else ""))
        return [f"A form opened: {d.get('title', '')}  (answer with: modal field:value ...)"] + fields
    if sent.callback_type == 6:
        return []
    if sent.callback_type == 5:
        return ["(thinking…)"]
    if sent.kind in ("delete_original", "delete_message"):
        return ["(message deleted)"]
    if sent.kind == "other":
        return []
    lines: list[str] = []
    d = sent.data
    label = {"edit_original": "(edited)", "edit_message": "(edited)", "followup": "(follow-up)",
             "channel_edit": "(a message in the channel, edited)"}.get(sent.kind)
    if sent.kind == "channel_message" and message is not None:
        label = f"(posted in channel {message.channel_id})"
    if sent.callback_type == 7:
        label = "(updated)"
    head = []
    if label:
        head.append(label)
    flags = d.get("flags")
    if flags is None and message is not None:
        flags = message.data.get("flags")
    if (flags or 0) & 64:
        head.append("(only you can see this)")
    if head:
        lines.append(" ".join(head))
    if d.get("content"):
        lines.append(d["content"])
    for e in d.get("embeds") or []:
        lines += render_embed(e)
    for f in sent.files:
        lines.append(f"📎 {f.get('filename')} ({f.get('size')} bytes)")
    if message is not None and "components" in d:
        comps = message.components()
        if comps:
            lines.append("")
            lines += render_components(comps)
    return lines


def render_result(result: Result, messages: dict[int, Message]) -> str:
    out: list[str] = []
    for s in result.sent:
        chunk = render_sent(s, messages.get(s.message_id) if s.message_id else None)
        if chunk:
            if out:
                out.append("")
            out += chunk
    return "\n".join(out) if out else "(the bot sent nothing)"
