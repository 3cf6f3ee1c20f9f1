"""Configuration from the environment and an optional ``.env`` file.

Importing this module reads nothing and needs no token: call ``load_config()``.
The token is never printed, logged or shown in a repr.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

# Every setting the bot reads: key -> (default, what it does). The README's configuration
# table is written from this, and a test checks they agree.
SETTINGS: dict[str, tuple[str, str]] = {
    "DISCORD_TOKEN": ("", "Bot token from the Discord developer portal. Empty: the offline console opens instead."),
    "DISCORD_GUILD_ID": ("", "A test server's id: commands sync there instantly instead of globally."),
    "MORDHEIM_DB": ("./data/mordheim.db", "The SQLite file holding settings and warbands (created if missing)."),
    "MORDHEIM_SYNC_ON_START": ("auto", "`auto` syncs commands on start only when their definitions changed; `never` leaves it to `mordheim-bot sync`."),
    "LOG_LEVEL": ("INFO", "Python logging level: DEBUG, INFO, WARNING or ERROR."),
}


class _Secret(str):
    """A string that hides itself in repr and str formatting of containers."""

    def __repr__(self) -> str:  # pragma: no cover - trivial
        return "'***'" if self else "''"


@dataclass(frozen=True)
class Config:
    token: str = field(default="", repr=False)
    guild_id: int | None = None
    db_path: Path = Path("./data/mordheim.db")
    sync_on_start: str = "auto"
    log_level: str = "INFO"

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())

    def __repr__(self) -> str:
        return (
            f"Config(token={'***' if self.has_token else 'unset'}, guild_id={self.guild_id}, "
            f"db_path={str(self.db_path)!r}, sync_on_start={self.sync_on_start!r}, log_level={self.log_level!r})"
        )


class ConfigError(Exception):
    """A setting has a value the bot cannot use; the message names the key."""


def load_config(env: dict[str, str] | None = None, *, dotenv_path: str | os.PathLike | None = ".env") -> Config:
    """Read the settings from ``env`` (default: ``os.environ`` after loading ``.env``)."""
    if env is None:
        if dotenv_path is not None and Path(dotenv_path).is_file():
            from dotenv import load_dotenv

            load_dotenv(dotenv_path, override=False)
        env = dict(os.environ)

    def get(key: str) -> str:
        return (env.get(key) or SETTINGS[key][0]).strip()

    guild_raw = get("DISCORD_GUILD_ID")
    guild_id: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError("DISCORD_GUILD_ID must be a server id (digits only); leave it empty to sync globally.")
        guild_id = int(guild_raw)
    sync = get("MORDHEIM_SYNC_ON_START").lower()
    if sync not in ("auto", "never"):
        raise ConfigError("MORDHEIM_SYNC_ON_START must be `auto` or `never`.")
    level = get("LOG_LEVEL").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR.")
    return Config(
        token=_Secret(get("DISCORD_TOKEN")),
        guild_id=guild_id,
        db_path=Path(get("MORDHEIM_DB")),
        sync_on_start=sync,
        log_level=level,
    )
