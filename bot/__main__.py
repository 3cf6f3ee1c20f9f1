"""``mordheim-bot``: connect to Discord when a token is set, otherwise open the offline console.

    mordheim-bot                 run the bot (or the console, when DISCORD_TOKEN is unset)
    mordheim-bot console [-c LINE] [--json] [--seed N] [--user ID] [--guild ID|dm] [--admin]
    mordheim-bot sync            push the slash-command definitions to Discord now
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys

from bot.config import ConfigError, load_config


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mordheim-bot", description="A Discord companion for Mordheim.")
    sub = p.add_subparsers(dest="mode")
    sub.add_parser("run", help="connect to Discord (needs DISCORD_TOKEN)")
    sub.add_parser("sync", help="sync the slash commands with Discord now (needs DISCORD_TOKEN)")
    c = sub.add_parser("console", help="the offline console: the same slash commands, no Discord")
    for parser in (p, c):
        parser.add_argument("-c", dest="command", metavar="LINE", help="run one line and exit (exit code 1 on an error reply)")
        parser.add_argument("--json", action="store_true", help="print the payloads the bot would send, as JSON")
        parser.add_argument("--seed", type=int, help="make dice deterministic")
        parser.add_argument("--user", type=int, help="act as this user id")
        parser.add_argument("--guild", help="act in this server id, or `dm` for direct messages")
        parser.add_argument("--admin", action="store_true", help="act as a member with Manage Server")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings: we have no voice

    from bot.client import MordheimBot

    mode = args.mode
    if mode in (None, "run") and not config.has_token:
        if mode == "run":
            print("DISCORD_TOKEN is not set: put it in .env or the environment to connect to Discord.", file=sys.stderr)
            return 2
        print("No DISCORD_TOKEN set, so opening the offline console (the same slash commands, no Discord).")
        mode = "console"
    if mode == "console":
        from bot.console import run_console
        from bot.harness import ADMIN_PERMISSIONS, Actor, Harness

        actor = Actor()
        if args.user:
            actor.user_id = args.user
        if args.guild:
            if args.guild.lower() == "dm":
                actor.guild_id = None
            elif args.guild.isdigit():
                actor.guild_id = int(args.guild)
            else:
                print("--guild takes a server id or `dm`.", file=sys.stderr)
                return 2
        if args.admin:
            actor.permissions = ADMIN_PERMISSIONS
        rng = random.Random(args.seed) if args.seed is not None else None
        bot = MordheimBot(config, rng=rng)
        return asyncio.run(run_console(Harness(bot), actor, command=args.command, as_json=args.json))
    if not config.has_token:
        print("DISCORD_TOKEN is not set: `mordheim-bot sync` needs it.", file=sys.stderr)
        return 2
    bot = MordheimBot(config)
    if mode == "sync":
        async def do_sync() -> None:
            async with bot:
                await bot.login(config.token)
                await bot.sync_commands(force=True)
        asyncio.run(do_sync())
        print("Commands synced" + (f" to server {config.guild_id}." if config.guild_id else " globally (may take up to an hour to show)."))
        return 0
    bot.run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
