"""Running the bot as a service: connect, and stop cleanly on SIGTERM or SIGINT.

systemd and docker stop a service with SIGTERM (and kill it a while later); Ctrl-C sends
SIGINT. Both start ``MordheimBot.stop``: new interactions are turned away with a short
"restarting", answers in progress get ``MORDHEIM_STOP_TIMEOUT`` seconds to finish, then the
gateway is closed with code 1000 (Discord drops the session at once instead of waiting for
it to time out) and the database is closed. A second signal cancels what is still running.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal

import discord
import yarl

from bot.client import MordheimBot
from bot.config import SETTINGS, Config

log = logging.getLogger("mordheim.run")


def point_at_discord(config: Config) -> None:
    """Use the configured REST API and gateway URLs (Discord's unless a proxy or the wire test
    says otherwise). discord.py reads both from class attributes, so this is process-wide."""
    if config.api_url != SETTINGS["DISCORD_API_URL"][0]:
        discord.http.Route.BASE = config.api_url
    if config.gateway_url != SETTINGS["DISCORD_GATEWAY_URL"][0]:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


def freeze_what_was_loaded() -> None:
    """Keep what the start loaded (discord.py, the cogs, the rules library) out of the garbage
    collector's way. Its full collections walked all of it, stopping the event loop for about
    80 ms (up to 150 ms) every couple of seconds at 1,000 interactions a second; frozen, they
    take a fifth of that. Only the real process does this: the tests build many bots."""
    gc.collect()
    gc.freeze()


async def log_in_and_connect(bot: MordheimBot, token: str) -> None:
    """``bot.start``, with what was loaded frozen between logging in (which loads the cogs) and connecting."""
    await bot.login(token)
    freeze_what_was_loaded()
    await bot.connect()


async def run_until_stopped(bot: MordheimBot, token: str) -> None:
    """Log in, connect and run until the gateway closes or a stop signal arrives."""
    loop = asyncio.get_running_loop()
    stop_requested = asyncio.Event()

    def on_signal(name: str) -> None:
        if stop_requested.is_set():
            log.warning("%s again: cancelling the %d answers still running.", name, len(bot.in_flight))
            for task in list(bot.in_flight):
                task.cancel()
            return
        log.info("%s received: stopping.", name)
        stop_requested.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig.name)
    try:
        async with bot:
            running = asyncio.create_task(log_in_and_connect(bot, token), name="mordheim-bot")
            stopping = asyncio.create_task(stop_requested.wait(), name="mordheim-stop-signal")
            done, _ = await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                await bot.stop()
                await asyncio.wait({running}, timeout=5.0)  # closing ends the gateway loop
                if not running.done():
                    running.cancel()
                elif not running.cancelled() and running.exception() is not None:
                    log.debug("The gateway loop ended with an error while stopping", exc_info=running.exception())
                log.info("Stopped cleanly.")
            else:
                stopping.cancel()
                running.result()  # a failure to log in or connect, raised here
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
