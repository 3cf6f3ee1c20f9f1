"""Plain-text rendering of what the bot sent, for the offline console."""

from __future__ import annotations

from typing import Any

from bot.harness import Message, Result, Sent

BUTTON, SELECT, TEXT_INPUT = 2, 3, 4


def render_embed(embed: dict[str, Any]) -> list[str]:
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
    label = {"edit_original": "(edited)", "edit_message": "(edited)", "followup": "(follow-up)"}.get(sent.kind)
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
