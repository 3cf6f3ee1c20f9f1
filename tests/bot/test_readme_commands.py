"""The README's command reference names every command the tree offers, so a new command cannot
land undocumented."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

README = Path(__file__).resolve().parents[2] / "README.md"


def _paths(commands, prefix: str = "") -> list[str]:
    out: list[str] = []
    for cmd in commands:
        path = f"{prefix} {cmd.name}".strip()
        if isinstance(cmd, app_commands.Group):
            out.extend(_paths(cmd.commands, path))
        else:
            out.append(path)
    return out


async def test_every_command_has_a_row_in_the_readme(harness):
    reference = README.read_text(encoding="utf-8").split("## Command reference", 1)[1]
    # each row starts with the command in backticks, e.g. | `/warband show name` |; a row may name
    # two related commands (`/warrior equip` / `/warrior unequip ...`)
    documented = set(re.findall(r"`/([^`]+)`", reference))
    paths = _paths(harness.tree.get_commands())
    assert len(paths) > 40
    missing = [p for p in paths if not any(d == p or d.startswith(p + " ") for d in documented)]
    assert missing == []
