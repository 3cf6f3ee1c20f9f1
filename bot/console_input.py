"""The console's prompt: line editing, history kept between sessions, and Tab completion.

GNU readline (Python's ``readline`` module) reads each line in a thread of its own, so the
bot's event loop keeps running while the member types: Tab completion sends a real
autocomplete interaction through the harness on that loop and waits for its answer
(``bot/console_complete.py``). History is saved to ``~/.mordheim_bot_history`` (1,000 lines).
The terminal's settings are put back as they were on the way out, even after Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

log = logging.getLogger("mordheim.console")

HISTORY_FILE = Path.home() / ".mordheim_bot_history"
HISTORY_LENGTH = 1000
COMPLETION_TIMEOUT = 3.0

try:
    import readline
except ImportError:  # pragma: no cover - Windows without pyreadline: plain input()
    readline = None  # type: ignore[assignment]

try:
    import termios
except ImportError:  # pragma: no cover - not a POSIX terminal
    termios = None  # type: ignore[assignment]


class ConsoleInput:
    """``await prompt("> ")`` reads one line; raises EOFError at the end of input (Ctrl-D)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, complete: Callable[[str], Awaitable[list[str]]],
                 *, history: Path = HISTORY_FILE) -> None:
        self.loop = loop
        self.complete = complete
        self.history = history
        self._matches: list[str] = []
        self._terminal = None

    def __enter__(self) -> ConsoleInput:
        if termios is not None and sys.stdin.isatty():
            with contextlib.suppress(termios.error):
                self._terminal = termios.tcgetattr(sys.stdin)
        if readline is not None:
            with contextlib.suppress(OSError):
                readline.read_history_file(self.history)
            readline.set_history_length(HISTORY_LENGTH)
            readline.set_completer_delims(" \t\n")  # `name:value` is one word
            readline.set_completer(self._completer)
            readline.parse_and_bind("tab: complete")
        return self

    def __exit__(self, *exc: object) -> None:
        if readline is not None:
            with contextlib.suppress(OSError):
                readline.write_history_file(self.history)
        if self._terminal is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(sys.stdin, termios.TCSADRAIN, self._terminal)

    async def prompt(self, text: str) -> str:
        answer: asyncio.Future[str] = self.loop.create_future()

        def read() -> None:
            try:
                line = input(text)
            except BaseException as exc:  # EOFError, KeyboardInterrupt: handed to the loop
                self.loop.call_soon_threadsafe(_settle, answer, None, exc)
            else:
                self.loop.call_soon_threadsafe(_settle, answer, line, None)

        # a daemon thread: a Ctrl-C while it waits in input() must not keep the process alive
        threading.Thread(target=read, name="console-input", daemon=True).start()
        return await answer

    def _completer(self, text: str, state: int) -> str | None:
        """readline's hook, called in the input thread: the matches for ``text``, one by one."""
        if state == 0:
            line = readline.get_line_buffer()[: readline.get_endidx()]
            future = asyncio.run_coroutine_threadsafe(self.complete(line), self.loop)
            try:
                self._matches = future.result(COMPLETION_TIMEOUT)
            except Exception:  # a completion that fails offers nothing; the line stays as typed
                log.debug("Completion failed", exc_info=True)
                self._matches = []
        return self._matches[state] if state < len(self._matches) else None


def _settle(future: asyncio.Future[str], line: str | None, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(EOFError() if isinstance(error, KeyboardInterrupt) else error)
    else:
        future.set_result(line)
