"""Logging for the process, with secrets blanked out of every line at every level.

An interaction token lets whoever holds it answer as the bot for 15 minutes, and discord.py
logs them at DEBUG: in the URLs of interaction callbacks and webhook follow-ups, and in the
gateway events it prints whole. ``RedactSecrets`` sits on the handlers (so it sees every
logger's records, discord.py's included) and rewrites each record's text, and the text of
its traceback, before anything is written.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable

REDACTED = "<redacted>"

_PATTERNS = (
    # /interactions/<id>/<token>/callback and /webhooks/<application id>/<token>[/messages/...]
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+"),
    # "token": "..." in a JSON or a Python dict's repr (a gateway event, an IDENTIFY)
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
    # an interaction token anywhere else: they start with base64("interaction:")
    re.compile(r"()aW50ZXJhY3Rpb246[A-Za-z0-9_.\-]+"),
)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    return text


class RedactSecrets(logging.Filter):
    """Blanks interaction tokens, webhook tokens and the given secrets (the bot token) out of
    a record's message and traceback. Returns True: it changes records, it drops none."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage(), self.secrets)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self.secrets)
        return True


def configure_logging(level: str, *, secrets: Iterable[str] = (), stream=None) -> logging.Handler:
    """One handler on the root logger, writing to ``stream`` (stderr) through ``RedactSecrets``."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings: we have no voice
    return handler
