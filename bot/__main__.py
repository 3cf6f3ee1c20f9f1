"""``mordheim-bot``: connect to Discord when a token is set, otherwise open the offline console.

    mordheim-bot                 run the bot (or the console, when DISCORD_TOKEN is unset)
    mordheim-bot console [-c LINE] [--json] [--seed N] [--user ID] [--guild ID|dm] [--admin] [--files DIR]
    mordheim-bot sync            push the slash-command definitions to Discord now
    mordheim-bot backup PATH     a consistent copy of the live database (safe while the bot runs); PATH
                                 a file, or a folder to write a dated copy in
    mordheim-bot migrate-db SOURCE TARGET
                                 copy every server's data from one database to another (SQLite or PostgreSQL)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path

BYTECODE_CACHE = "MORDHEIM_BYTECODE_CACHE"  # a directory, or "off"


def keep_bytecode() -> Path | None:
    """Compile each module once rather than at every start: 0.3 s or more of a start is
    compiling the bot's modules when ``PYTHONDONTWRITEBYTECODE`` is set, as it is on machines
    that keep ``__pycache__`` out of their source trees. The bytecode then goes to a cache
    directory of the bot's own (``sys.pycache_prefix``), never beside the sources:
    ``$MORDHEIM_BYTECODE_CACHE``, else ``$XDG_CACHE_HOME/mordheim-bot/bytecode`` (default
    ``~/.cache``). ``MORDHEIM_BYTECODE_CACHE=off`` compiles at every start, as Python would.
    Nothing changes when Python writes bytecode anyway or a prefix is already chosen.
    Returns the directory used, if any."""
    setting = os.environ.get(BYTECODE_CACHE, "").strip()
    if setting.lower() == "off" or not sys.dont_write_bytecode or sys.pycache_prefix:
        return None
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(setting) if setting else Path(cache_home) / "mordheim-bot" / "bytecode"
    sys.pycache_prefix = str(folder)  # Python creates it when it first writes (and skips writing if it cannot)
    sys.dont_write_bytecode = False
    return folder


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mordheim-bot", description="A Discord companion for Mordheim.")
    sub = p.add_subparsers(dest="mode")
    sub.add_parser("run", help="connect to Discord (needs DISCORD_TOKEN)")
    sub.add_parser("sync", help="sync the slash commands with Discord now (needs DISCORD_TOKEN)")
    b = sub.add_parser("backup", help="copy the live database to PATH (consistent, safe while the bot runs)")
    b.add_argument("path", help="where to write the copy: a file (/backups/mordheim-2024-06-01.db) or a folder, where the "
                               "copy is named after the date and time (/backups/ gives /backups/mordheim-2024-06-01T0530.db)")
    m = sub.add_parser("migrate-db", help="copy a database into another, e.g. a SQLite file into PostgreSQL (and back)")
    m.add_argument("source", help="a SQLite file or a postgresql:// URL to copy from (read only)")
    m.add_argument("target", help="a SQLite file or a postgresql:// URL to copy into (must hold no data yet)")
    c = sub.add_parser("console", help="the offline console: the same slash commands, no Discord")
    for parser in (p, c):
        parser.add_argument("-c", dest="command", metavar="LINE", help="run one line and exit (exit code 1 on an error reply)")
        parser.add_argument("--json", action="store_true", help="print the payloads the bot would send, as JSON")
        parser.add_argument("--seed", type=int, help="make dice deterministic")
        parser.add_argument("--user", type=int, help="act as this user id")
        parser.add_argument("--guild", help="act in this server id, or `dm` for direct messages")
        parser.add_argument("--admin", action="store_true", help="act as a member with Manage Server")
        parser.add_argument("--files", metavar="DIR", help="where files the bot sends are saved (default ./console-files)")
    return p


def main(argv: list[str] | None = None) -> int:
    keep_bytecode()  # before the bot's modules are imported
    from bot.config import ConfigError, load_config
    from bot.logs import configure_logging

    args = _parser().parse_args(argv)
    try:
        config = load_config()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    configure_logging(config.log_level, secrets=[config.token, *config.database_secrets])

    mode = args.mode
    if mode == "backup":
        return backup(config, args.path)
    if mode == "migrate-db":
        return migrate_db(args.source, args.target)
    store = None
    if not (mode in ("run", "sync") and not config.has_token):  # those two stop first, saying the token is missing
        from engine.storage import StorageUnavailable, open_store

        try:  # one clear line, never a traceback, when the database cannot be used
            store = open_store(config.database)
        except StorageUnavailable as exc:
            print(f"Cannot open the database: {exc}", file=sys.stderr)
            return 2

    from bot.client import MordheimBot

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
        bot.open_resources(store)
        files = Path(args.files) if args.files else None
        try:
            return asyncio.run(run_console(Harness(bot), actor, command=args.command, as_json=args.json, files_dir=files))
        except KeyboardInterrupt:  # Ctrl-C at the prompt: leave quietly, like Ctrl-D
            print()
            return 0
    if not config.has_token:
        print("DISCORD_TOKEN is not set: `mordheim-bot sync` needs it.", file=sys.stderr)
        return 2
    import discord

    from bot.run import point_at_discord, run_until_stopped

    point_at_discord(config)
    bot = MordheimBot(config)
    bot.open_resources(store)
    if mode == "sync":
        async def do_sync() -> None:
            async with bot:
                await bot.login(config.token)
                await bot.sync_commands(force=True)
        asyncio.run(do_sync())
        print("Commands synced" + (f" to server {config.guild_id}." if config.guild_id else " globally (may take up to an hour to show)."))
        return 0
    try:
        asyncio.run(run_until_stopped(bot, config.token))
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN (Bot > Reset Token in the developer portal).", file=sys.stderr)
        return 1
    return 0


def migrate_db(source: str, target: str) -> int:
    from engine.campaign.service import sheets_agree
    from engine.errors import MordheimError
    from engine.storage import StorageUnavailable
    from engine.storage.migrate import MigrationRefused, copy_database

    try:
        report = copy_database(source, target, check_sheets=sheets_agree)
    except (StorageUnavailable, MigrationRefused, MordheimError) as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    return 0


def backup(config, path: str) -> int:
    """Exit 0 having written the copy, or 1 with the reason on stderr (never a traceback)."""
    from engine.storage import BackupError, backup_database

    if config.database_url:
        print("Backup failed: the database is PostgreSQL (MORDHEIM_DB is a postgresql:// URL); back it up with "
              "pg_dump. `mordheim-bot backup` copies a SQLite file.", file=sys.stderr)
        return 1
    try:
        written, size = backup_database(config.db_path, path)
    except BackupError as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"Backed up {config.db_path} to {written} ({size:,} bytes, integrity checked).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
