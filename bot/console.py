"""The offline console: the bot's real slash commands, typed as Discord reads them.

Every line goes through the interaction harness into the bot's real ``CommandTree``, so the
console answers exactly as the bot would in a channel, without Discord. At a terminal it
keeps a history and completes with Tab (``bot/console_input.py``); a file option is given
as ``file:@path``; files the bot sends are saved to disk and their paths printed.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

import discord

from bot.console_complete import complete
from bot.console_input import ConsoleInput
from bot.console_line import parse_line
from bot.harness import ADMIN_PERMISSIONS, MEMBER_PERMISSIONS, Actor, Harness, HarnessInputError, Result, fixed_values
from bot.text_render import render_result

CONSOLE_HELP = """\
Type slash commands as in Discord:   /roll 2d6 label:"to hit"    /warband show name:Reikland
  ? /rule fla            show the autocomplete choices for the option being typed (or press Tab)
  /warband import file:@roster.json   attach a file from disk; files the bot sends are saved to disk
  press N                press button N of the newest message with buttons (numbers are shown beside them)
  select N value[,value] choose in menu N of the newest message with menus (values or labels)
  modal field:value ...  submit the form the bot opened
  user ID | guild ID | guild dm | admin on|off      act as another member, server, or with Manage Server
  commands               list the slash commands
  help | quit"""


@dataclass
class Outcome:
    text: str
    error: bool
    payload: list[dict] | None = None


class Console:
    """Runs console lines against a harness; remembers the last message for buttons and menus."""

    def __init__(self, harness: Harness, actor: Actor, *, as_json: bool = False, files_dir: Path | None = None) -> None:
        self.h = harness
        self.actor = actor
        self.as_json = as_json
        self.files_dir = files_dir if files_dir is not None else Path.cwd() / "console-files"
        self.open_modal: str | None = None
        self.modal_fields: dict[str, str] = {}  # the open form's field ids and their labels

    @property
    def newest_with_components(self) -> int | None:
        """The newest message that has buttons or menus now: a private refusal sent after it
        does not hide it (Discord's ids grow with time)."""
        return max((mid for mid, m in self.h.messages.items() if m.components()), default=None)

    def _show(self, result: Result) -> Outcome:
        for s in result.sent:
            if s.callback_type == 9:
                self.open_modal = s.data.get("custom_id")
                self.modal_fields = {c["custom_id"]: c.get("label", "") for row in s.data.get("components", [])
                                     for c in row.get("components", [])}
        if self.as_json:
            return Outcome(json.dumps(result.to_json(), indent=2, default=str), result.is_error, result.to_json())
        text = render_result(result, self.h.messages)
        saved = self._save_files(result)
        if saved:
            text += "\n" + "\n".join(f"   saved to {path}" for path in saved)
        return Outcome(text, result.is_error, result.to_json())

    def _save_files(self, result: Result) -> list[Path]:
        """Write every file the bot sent to ``files_dir``, never over an existing file."""
        saved: list[Path] = []
        for s in result.sent:
            message = self.h.messages.get(s.message_id) if s.files and s.message_id else None
            for f in message.files if message else []:
                if f.get("content") is None:
                    continue
                self.files_dir.mkdir(parents=True, exist_ok=True)
                name = Path(f.get("filename") or "file").name
                path = self.files_dir / name
                n = 1
                while path.exists():
                    path = self.files_dir / f"{Path(name).stem}-{n}{Path(name).suffix}"
                    n += 1
                path.write_bytes(f["content"])
                saved.append(path.resolve())
        return saved

    def _nth(self, n_text: str):
        newest = self.newest_with_components
        if newest is None:
            raise HarnessInputError("There are no buttons or menus to use: no message has any now.")
        comps = self.h.messages[newest].components()
        if not n_text.isdigit() or not 1 <= int(n_text) <= len(comps):
            raise HarnessInputError(f"Choose a component number from 1 to {len(comps)}.")
        return newest, comps[int(n_text) - 1]

    def _attach_files(self, path: list[str], options: dict[str, str]) -> dict[str, object]:
        """``file:@path`` for each attachment option: the file read from disk, as Discord would upload it."""
        out: dict[str, object] = dict(options)
        for p in self.h.find_command(path).parameters:
            if p.type is not discord.AppCommandOptionType.attachment or p.display_name not in options:
                continue
            given = options[p.display_name]
            if not given.startswith("@"):
                raise HarnessInputError(f"Attach a file from disk with {p.display_name}:@path, e.g. {p.display_name}:@roster.json.")
            file = Path(given[1:]).expanduser()
            if not file.is_file():
                raise HarnessInputError(f"There is no file at {file}.")
            out[p.display_name] = (file.name, file.read_bytes())
        return out

    async def run_line(self, line: str) -> Outcome | None:
        line = line.strip()
        if not line or line.startswith("#"):
            return None
        try:
            return await self._run(line)
        except HarnessInputError as exc:
            return Outcome(f"Discord would refuse that: {exc}" if line.startswith(("/", "?")) else str(exc), True)

    async def _run(self, line: str) -> Outcome | None:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            raise EOFError
        if word == "help":
            return Outcome(CONSOLE_HELP, False)
        if word == "commands":
            names = []
            for c in sorted(self.h.tree.get_commands(), key=lambda c: c.name):
                names.append(f"/{c.name} — {c.description}")
            return Outcome("\n".join(names), False)
        if word == "user":
            if not rest.strip().isdigit():
                raise HarnessInputError("Give a user id: `user 1234`.")
            self.actor.user_id = int(rest)
            self.actor.name = f"user {int(rest)}"  # so that /luck and the tracker tell members apart
            return Outcome(f"Now acting as user {rest.strip()}.", False)
        if word == "guild":
            arg = rest.strip().lower()
            if arg == "dm":
                self.actor.guild_id = None
                return Outcome("Now in direct messages.", False)
            if not arg.isdigit():
                raise HarnessInputError("Give a server id (`guild 1234`) or `guild dm`.")
            self.actor.guild_id = int(arg)
            return Outcome(f"Now in server {arg}.", False)
        if word == "admin":
            on = rest.strip().lower() in ("on", "yes", "true", "1")
            self.actor.permissions = ADMIN_PERMISSIONS if on else MEMBER_PERMISSIONS
            return Outcome(f"Manage Server {'on' if on else 'off'}.", False)
        if word in ("press", "click"):
            message_id, comp = self._nth(rest.strip())
            if comp.get("type") != 2:
                raise HarnessInputError("That is a menu; use `select N value`.")
            return self._show(await self.h.click(message_id, comp["custom_id"], self.actor))
        if word == "select":
            n, _, values = rest.strip().partition(" ")
            message_id, comp = self._nth(n)
            if comp.get("type") == 2:
                raise HarnessInputError("That is a button; use `press N`.")
            # values as typed, or quoted as slash options are ('"Wall Runner"'): the quotes are not the value's
            chosen = [v.strip().strip('"\'') for v in values.split(",") if v.strip().strip('"\'')]
            if not chosen:
                raise HarnessInputError("Say which option(s): `select N value`.")
            chosen = [_option_value(comp, v) for v in chosen]
            return self._show(await self.h.select(message_id, comp["custom_id"], chosen, self.actor))
        if word == "modal":
            if self.open_modal is None:
                raise HarnessInputError("No form is open.")
            try:
                parts = shlex.split(rest)
            except ValueError as exc:
                raise HarnessInputError(f"Couldn't read that line: {exc}.") from None
            fields = dict(p.partition(":")[::2] for p in parts)
            unknown = [k for k in fields if k not in self.modal_fields]
            if unknown:  # Discord's form has only its own fields: a misnamed one must not pass as left empty
                raise HarnessInputError(f"The form has no field '{unknown[0]}'. Its fields: "
                                        + ", ".join(f"{k} ({label})" for k, label in self.modal_fields.items()) + ".")
            modal, self.open_modal = self.open_modal, None
            return self._show(await self.h.submit_modal(modal, fields, self.actor, message_id=self.newest_with_components))
        if line.startswith("?"):
            cl = parse_line(line[1:].strip(), self.h.tree)
            focused = cl.focused or next((p.display_name for p in self.h.find_command(cl.path).parameters), None)
            if focused is None:
                raise HarnessInputError("That command has no options to complete.")
            param = next((p for p in self.h.find_command(cl.path).parameters if p.display_name == focused), None)
            if param is not None and not param.autocomplete:  # fixed choices are the client's: show them, as Discord would
                return Outcome(f"`{focused}`: {fixed_values(param)}", False)
            return self._show(await self.h.autocomplete(cl.path, focused, self.actor, **cl.options))
        if line.startswith("/"):
            cl = parse_line(line, self.h.tree)
            return self._show(await self.h.command(cl.path, self.actor, **self._attach_files(cl.path, cl.options)))
        raise HarnessInputError("Commands start with `/` (try `/help`); type `help` for the console's own commands.")


def _option_value(menu: dict, typed: str) -> str:
    """A menu option's value from what was typed: its value, its label as the menu shows it
    (`select 2 Hans` for the option labelled Hans whose value is `12:1`), or the start of one label only."""
    options = menu.get("options") or []
    if any(o.get("value") == typed for o in options):
        return typed
    by_label = [o["value"] for o in options if str(o.get("label", "")).casefold() == typed.casefold()]
    if not by_label:  # the start of one label only ("Ulf" for "Ulf — standing")
        by_label = [o["value"] for o in options if str(o.get("label", "")).casefold().startswith(typed.casefold())]
    return by_label[0] if len(by_label) == 1 else typed


async def run_console(
    harness: Harness,
    actor: Actor,
    *,
    command: str | None = None,
    as_json: bool = False,
    stdin: TextIO = sys.stdin,
    out: Callable[[str], None] = print,
    files_dir: Path | None = None,
) -> int:
    """Run one line (``command``), lines from a pipe, or an interactive prompt. Returns the exit code."""
    console = Console(harness, actor, as_json=as_json, files_dir=files_dir)
    async with harness:
        if command is not None:
            outcome = await console.run_line(command)
            if outcome:
                out(outcome.text)
            return 1 if outcome and outcome.error else 0
        if stdin.isatty():
            await _interactive(console, out)
            return 0
        failed = False
        for line in stdin:
            try:
                outcome = await console.run_line(line)
            except EOFError:
                break
            if outcome:
                if not as_json:
                    out(f"> {line.strip()}")
                out(outcome.text)
                failed = failed or outcome.error
        return 1 if failed else 0


async def _interactive(console: Console, out: Callable[[str], None]) -> None:
    out("Mordheim bot console — type /help for commands, `help` for the console, Tab to complete, `quit` to leave.")

    async def completions(line: str) -> list[str]:
        return await complete(console.h, console.actor, line)

    with ConsoleInput(asyncio.get_running_loop(), completions) as reader:
        while True:
            try:
                line = await reader.prompt("> ")
                outcome = await console.run_line(line)
            except EOFError:
                out("")
                return
            if outcome:
                out(outcome.text)

