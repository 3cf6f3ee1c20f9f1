"""English the bot's sentences need around a name: its possessive ("Night Stalkers'", "The Grey Company's")."""

from __future__ import annotations


def possessive(name: str) -> str:
    """"Night Stalkers'", "The Grey Company's": a name ending in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
