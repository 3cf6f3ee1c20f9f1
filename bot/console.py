"""The offline console: the bot's real slash commands, typed as Discord reads them.

Every line goes through the interaction harness into the bot's real ``CommandTree``, so the
console answers exactly as the bot would in a channel, without Discord.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from typing import Callable, TextIO

from bot.console_line import parse_line
from bot.harness import ADMIN_PERMISSIONS, MEMBER_PERMISSIONS, Actor, Harness, HarnessInputError, Result
from bot.text_render import render_result

CONSOLE_HELP = """\
Type slash commands as in Discord:   /roll 2d6 label:"to hit"    /warband show name:Reikland
  ? /rule fla            show the autocomplete choices for the option being typed
  press N                press button N of the last message (numbers are shown beside them)
  select N value[,value] choose in menu N of the last message
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

    def __init__(self, harness: Harness, actor: Actor, *, as_json: bool = False) -> None:
        self.h = harness
        self.actor = actor
        self.as_json = as_json
        self.last_message_id: int | None = None
        self.open_modal: str | None = None

    def _show(self, result: Result) -> Outcome:
        for s in result.sent:
            if s.message_id is not None and s.kind in ("callback", "followup", "edit_original"):
                msg = self.h.messages.get(s.message_id)
                if msg is not None and msg.components():
                    self.last_message_id = s.message_id
                elif msg is not None and s.kind != "edit_original":
                    self.last_message_id = s.message_id
            if s.callback_type == 9:
                self.open_modal = s.data.get("custom_id")
        text = json.dumps(result.to_json(), indent=2, default=str) if self.as_json else render_result(result, self.h.messages)
        return Outcome(text, result.is_error, result.to_json())

    def _nth(self, n_text: str):
        if self.last_message_id is None or self.last_message_id not in self.h.messages:
            raise HarnessInputError("There is no message with buttons or menus yet.")
        comps = self.h.messages[self.last_message_id].components()
        if not n_text.isdigit() or not 1 <= int(n_text) <= len(comps):
            raise HarnessInputError(f"Choose a component number from 1 to {len(comps)}." if comps else "The last message has no buttons or menus.")
        return comps[int(n_text) - 1]

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
            comp = self._nth(rest.strip())
            if comp.get("type") != 2:
                raise HarnessInputError("That is a menu; use `select N value`.")
            return self._show(await self.h.click(self.last_message_id, comp["custom_id"], self.actor))
        if word == "select":
            n, _, values = rest.strip().partition(" ")
            comp = self._nth(n)
            if comp.get("type") == 2:
                raise HarnessInputError("That is a button; use `press N`.")
            chosen = [v.strip() for v in values.split(",") if v.strip()]
            if not chosen:
                raise HarnessInputError("Say which option(s): `select N value`.")
            return self._show(await self.h.select(self.last_message_id, comp["custom_id"], chosen, self.actor))
        if word == "modal":
            if self.open_modal is None:
                raise HarnessInputError("No form is open.")
            try:
                parts = shlex.split(rest)
            except ValueError as exc:
                raise HarnessInputError(f"Couldn't read that line: {exc}.") from None
            fields = dict(p.partition(":")[::2] for p in parts)
            modal, self.open_modal = self.open_modal, None
            return self._show(await self.h.submit_modal(modal, fields, self.actor, message_id=self.last_message_id))
        if line.startswith("?"):
            cl = parse_line(line[1:].strip(), self.h.tree)
            focused = cl.focused or next((p.display_name for p in self.h.find_command(cl.path).parameters), None)
            if focused is None:
                raise HarnessInputError("That command has no options to complete.")
            return self._show(await self.h.autocomplete(cl.path, focused, self.actor, **cl.options))
        if line.startswith("/"):
            cl = parse_line(line, self.h.tree)
            return self._show(await self.h.command(cl.path, self.actor, **cl.options))
        raise HarnessInputError("Commands start with `/` (try `/help`); type `help` for the console's own commands.")


async def run_console(
    harness: Harness,
    actor: Actor,
    *,
    command: str | None = None,
    as_json: bool = False,
    stdin: TextIO = sys.stdin,
    out: Callable[[str], None] = print,
) -> int:
    """Run one line (``command``), lines from a pipe, or an interactive prompt. Returns the exit code."""
    console = Console(harness, actor, as_json=as_json)
    failed = False
    async with harness:
        if command is not None:
            outcome = await console.run_line(command)
            if outcome:
                out(outcome.text)
            return 1 if outcome and outcome.error else 0
        interactive = stdin.isatty()
        if interactive:
            out("Mordheim bot console — type /help for commands, `help` for the console, `quit` to leave.")
        while True:
            try:
                line = input("> ") if interactive else stdin.readline()
                if not interactive and line == "":
                    break
            except (EOFError, KeyboardInterrupt):
                break
            try:
                outcome = await console.run_line(line)
            except EOFError:
                break
            if outcome:
                if not interactive and not as_json:
                    out(f"> {line.strip()}")
                out(outcome.text)
                failed = failed or outcome.error
    return 1 if failed and not interactive else 0

