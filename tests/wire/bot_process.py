"""The real `mordheim-bot` process, started against a FakeDiscord, for the wire tests and
bench/bench_overload.py."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from engine.storage import Store
from engine.campaign.service import Campaigns
from tests.wire.fake_discord import GUILD_ID, USER_ID, FakeDiscord

REPO = Path(__file__).resolve().parents[2]
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAx.Gwire1.the-wire-test-bot-token"


def seed(db: Path) -> None:
    """A warband long enough for /warband show to have pages."""
    with Store.open(db) as store:
        campaigns = Campaigns(store)
        campaigns.create_warband(GUILD_ID, USER_ID, "Thirty Strong", "Skaven")
        for n in range(30):
            role = "leader" if n == 0 else "hero" if n < 6 else "henchmen"
            campaigns.add_warrior(GUILD_ID, USER_ID, False, "Thirty Strong", f"Warrior {n}", role=role,
                                  warrior_type="Verminkin", profile=dict(M=5, WS=3, BS=3, S=3, T=3, W=1, I=4, A=1, Ld=5),
                                  equipment=["Sword", "Dagger"])
            if n >= 19:
                campaigns.edit_warrior(GUILD_ID, USER_ID, False, "Thirty Strong", f"Warrior {n}", status="dead")


def start_bot(fake: FakeDiscord, db: Path, log: Path, *, log_level: str = "DEBUG",
              settings: dict[str, str] | None = None) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MORDHEIM_"))}
    env.update({
        "PYTHONPATH": str(REPO), "DISCORD_TOKEN": BOT_TOKEN, "DISCORD_API_URL": fake.api_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url, "MORDHEIM_DB": str(db), "LOG_LEVEL": log_level,
        "MORDHEIM_STOP_TIMEOUT": "8", **(settings or {}),
    })
    if os.environ.get("PROBE"):
        env["PROBE"] = os.environ["PROBE"]
    return subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=db.parent, env=env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT)


async def stopped(process: subprocess.Popen, timeout: float = 20) -> int:
    return await asyncio.to_thread(process.wait, timeout)
