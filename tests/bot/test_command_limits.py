"""Every command definition must be accepted by Discord (API docs: Application Commands)."""

import json
import re

from bot.sync import command_definitions

NAME = re.compile(r"^[-_\p{L}\p{N}]{1,32}$".replace(r"\p{L}\p{N}", "a-z0-9"))
LOCALISED_LIMIT = 4000  # combined characters of names, descriptions and choice values per command


def _check_options(options, where, problems):
    if len(options) > 25:
        problems.append(f"{where}: more than 25 options")
    seen_optional = False
    names = set()
    for opt in options:
        here = f"{where} {opt['name']}"
        if not NAME.match(opt["name"]):
            problems.append(f"{here}: option name must be 1-32 lowercase letters, digits, - or _")
        if opt["name"] in names:
            problems.append(f"{here}: duplicate option name")
        names.add(opt["name"])
        if not 1 <= len(opt.get("description", "")) <= 100:
            problems.append(f"{here}: description must be 1-100 characters")
        if opt["type"] in (1, 2):
            _check_options(opt.get("options", []), here, problems)
            continue
        if opt.get("required"):
            if seen_optional:
                problems.append(f"{here}: required option after an optional one")
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{here}: more than 25 choices")
        if choices and opt.get("autocomplete"):
            problems.append(f"{here}: choices and autocomplete together")
        for ch in choices:
            if not 1 <= len(ch["name"]) <= 100:
                problems.append(f"{here}: choice name must be 1-100 characters")
            if isinstance(ch["value"], str) and len(ch["value"]) > 100:
                problems.append(f"{here}: choice value over 100 characters")


def _size(cmd) -> int:
    total = len(cmd["name"]) + len(cmd.get("description", ""))
    for opt in cmd.get("options", []) or []:
        total += _size(opt)
        for ch in opt.get("choices") or []:
            total += len(ch["name"]) + len(str(ch["value"]))
    return total


async def test_every_command_meets_discord_limits(harness):
    defs = command_definitions(harness.tree)
    assert len(defs) <= 100, "Discord allows at most 100 global slash commands"
    problems: list[str] = []
    for cmd in defs:
        where = "/" + cmd["name"]
        if not NAME.match(cmd["name"]):
            problems.append(f"{where}: name must be 1-32 lowercase letters, digits, - or _")
        if not 1 <= len(cmd.get("description", "")) <= 100:
            problems.append(f"{where}: description must be 1-100 characters")
        _check_options(cmd.get("options", []), where, problems)
        if _size(cmd) > LOCALISED_LIMIT:
            problems.append(f"{where}: {_size(cmd)} characters in total, over {LOCALISED_LIMIT}")
        subs = [o for o in cmd.get("options", []) if o["type"] in (1, 2)]
        if subs and len(subs) != len(cmd.get("options", [])):
            problems.append(f"{where}: mixes subcommands with plain options")
        assert json.dumps(cmd)  # serialisable as sent
    assert not problems, "\n".join(problems)


async def test_limits_check_can_fail():
    problems: list[str] = []
    _check_options([{"name": "Bad Name", "description": "", "type": 3, "required": True},
                    {"name": "x", "description": "d", "type": 3},
                    {"name": "y", "description": "d", "type": 3, "required": True}], "/t", problems)
    assert len(problems) == 3
