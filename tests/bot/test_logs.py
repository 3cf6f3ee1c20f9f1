"""Interaction tokens and the bot token never reach the log, at any level."""

import io
import logging

from bot.logs import REDACTED, configure_logging, redact

BOT_TOKEN = "MTIzNDU2Nzg5.GhIjKl.bot-token-secret"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA_tail-part"
PLAIN_TOKEN = "token-1000000000000000002"  # the harness's tokens do not look like Discord's


def test_every_place_discord_py_puts_a_token_is_redacted():
    lines = [
        f"POST https://discord.com/api/v10/interactions/123456/{INTERACTION_TOKEN}/callback with None has returned 204",
        f"Webhook ID 99 with PATCH https://discord.com/api/v10/webhooks/99/{PLAIN_TOKEN}/messages/@original has returned status code 200",
        f"For Shard ID 0: WebSocket Event: {{'t': 'INTERACTION_CREATE', 'd': {{'token': '{PLAIN_TOKEN}', 'id': '5'}}}}",
        f'{{"op": 2, "d": {{"token": "{BOT_TOKEN}"}}}}',
        f"anywhere: {INTERACTION_TOKEN}",
        f"the bot token on its own: {BOT_TOKEN}",
    ]
    for line in lines:
        out = redact(line, [BOT_TOKEN])
        assert REDACTED in out, line
        assert INTERACTION_TOKEN not in out and PLAIN_TOKEN not in out and BOT_TOKEN not in out, out
    assert redact("/interactions/123/") == "/interactions/123/"  # nothing to hide, nothing changed


def test_debug_logging_through_discord_py_loggers_hides_tokens():
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, logging.getLogger("discord.client").level)
    try:
        configure_logging("DEBUG", secrets=[BOT_TOKEN], stream=stream)
        logging.getLogger("discord.http").debug("%s %s with %s has received %s", "POST",
                                                f"https://x/api/v10/interactions/1/{INTERACTION_TOKEN}/callback", None, "{}")
        logging.getLogger("discord.gateway").debug("WebSocket Event: %s", {"d": {"token": PLAIN_TOKEN}})
        try:
            raise RuntimeError(f"failed at /webhooks/7/{PLAIN_TOKEN}/messages/@original with {BOT_TOKEN}")
        except RuntimeError:
            logging.getLogger("discord.webhook.async_").exception("request failed")
        logging.getLogger("mordheim.test").debug("plain %s", "words")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.getLogger("discord.client").setLevel(saved[2])
    text = stream.getvalue()
    assert text.count(REDACTED) >= 4 and "plain words" in text and "Traceback" in text
    for secret in (BOT_TOKEN, INTERACTION_TOKEN, PLAIN_TOKEN):
        assert secret not in text
