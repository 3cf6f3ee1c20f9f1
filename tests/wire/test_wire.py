"""The real `mordheim-bot` process against a loopback stand-in for Discord (tests/wire/fake_discord.py).

One story, two processes: log in, sync the commands, answer a slash command and a button,
resume after the connection drops (answering what was sent meanwhile), stop on SIGTERM while
an answer is in flight (finished, gateway closed with 1000, database closed and intact), then
start again without re-syncing and turn the pages of an answer sent before the restart.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.tree import STOPPING
from engine.storage import Store
from engine.campaign.service import Campaigns
from tests.wire.fake_discord import EPHEMERAL, GUILD_ID, USER_ID, FakeDiscord

REPO = Path(__file__).resolve().parents[2]
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAx.Gwire1.the-wire-test-bot-token"

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="needs POSIX signals")


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


def start_bot(fake: FakeDiscord, db: Path, log: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MORDHEIM_"))}
    env.update({
        "PYTHONPATH": str(REPO), "DISCORD_TOKEN": BOT_TOKEN, "DISCORD_API_URL": fake.api_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url, "MORDHEIM_DB": str(db), "LOG_LEVEL": "DEBUG",
        "MORDHEIM_STOP_TIMEOUT": "8",
    })
    return subprocess.Popen([sys.executable, "-m", "bot", "run"], cwd=db.parent, env=env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT)


async def stopped(process: subprocess.Popen, timeout: float = 20) -> int:
    return await asyncio.to_thread(process.wait, timeout)


async def test_the_bot_over_the_wire(tmp_path):
    fake = FakeDiscord(BOT_TOKEN)
    await fake.start()
    db = tmp_path / "data" / "mordheim.db"
    seed(db)
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    fake.sync_faults = [429, 502]  # Discord's REST API has a bad moment: the bot waits and retries
    bot = start_bot(fake, db, first_log)
    try:
        # ---- login and command sync
        await fake.wait_for(lambda: fake.identifies, timeout=20)
        assert fake.identifies[0]["intents"] == 1  # guilds only: no privileged intents
        assert len(fake.command_syncs) == 1 and [m for m, p in fake.rest if p.endswith("/commands")] == ["PUT"] * 3
        synced = {c["name"]: c for c in fake.command_syncs[0]}
        assert "echo" not in synced and {"roll", "rule", "warband", "admin", "preferences"} <= set(synced)
        assert synced["roll"]["integration_types"] == [0, 1] and synced["warrior"]["contexts"] == [0]
        assert synced["warband"]["contexts"] == [0, 1]  # servers, and the bot's DMs for /warband sheet
        first_session = fake.session.id

        # ---- one slash command, and its button
        rolled = await fake.answered(await fake.slash("roll", expression="2d6"))
        assert rolled.type == 4 and "Total" in rolled.data["embeds"][0]["description"]
        reroll = rolled.data["components"][0]["components"][0]["custom_id"]
        again = await fake.answered(await fake.press(rolled.message_id, reroll))
        assert again.type == 7 and "Original roll" in str(again.data["embeds"])

        shown = await fake.answered(await fake.slash("warband", sub="show", name="Thirty Strong"))
        pages_message = shown.message_id
        assert [c["custom_id"] for c in shown.data["components"][0]["components"]] == ["page:prev", "page:count", "page:next"]

        # ---- the connection drops; what was sent meanwhile is replayed on RESUME and answered
        seq_before = fake.session.seq
        await fake.drop_connection()
        missed = await fake.slash("roll", expression="d6")
        await fake.wait_for(lambda: fake.resumes, timeout=20)
        assert fake.resumes == [{"session_id": first_session, "seq": seq_before}]
        assert (await fake.answered(missed)).type == 4
        assert len(fake.identifies) == 1  # resumed, not a new session

        # ---- SIGTERM while an answer is in flight: it finishes, new work is turned away
        fake.callback_delay = 1.5
        fake.callback_started.clear()
        late = await fake.slash("warband", sub="create", name="Late Arrivals", warband_type="Reiklanders")
        await asyncio.wait_for(fake.callback_started.wait(), 10)
        bot.send_signal(signal.SIGTERM)
        await asyncio.sleep(0.3)
        turned_away = await fake.slash("roll", expression="2d6")
        assert await stopped(bot) == 0
        assert (await fake.answered(late, timeout=1)).data["embeds"][0]["title"] == "Late Arrivals is ready"
        refusal = await fake.answered(turned_away, timeout=1)
        assert refusal.data["flags"] & EPHEMERAL and STOPPING in str(refusal.data["embeds"])
        await fake.wait_for(lambda: len(fake.client_close_codes) >= 2, timeout=5)
        assert fake.client_close_codes[-1] == 1000
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()

    # ---- the database was closed cleanly, with the in-flight write in it
    assert not Path(str(db) + "-wal").exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM warbands WHERE name = 'Late Arrivals'").fetchone()[0] == 1
    log_text = first_log.read_text()
    assert "Stopping: waiting up to 8 s for 1 answers in progress." in log_text and "Stopped cleanly." in log_text
    assert "were cancelled" not in log_text
    assert "DEBUG" in log_text and "INTERACTION_CREATE" in log_text  # DEBUG logging was really on
    for token in [BOT_TOKEN, *fake.tokens]:
        assert token not in log_text

    # ---- a second process: no re-sync, and the pages from before the restart still turn
    fake.callback_delay = 0
    bot = start_bot(fake, db, second_log)
    try:
        await fake.wait_for(lambda: len(fake.identifies) == 2, timeout=20)
        assert len(fake.command_syncs) == 1  # definitions unchanged: nothing sent
        turned = await fake.answered(await fake.press(pages_message, "page:next"))
        assert turned.type == 7 and "2/" in str(turned.data["components"])
        stranger = await fake.answered(await fake.press(pages_message, "page:next", user_id=USER_ID + 1))
        assert stranger.data["flags"] & EPHEMERAL and "Only <@" in str(stranger.data["embeds"])
        bot.send_signal(signal.SIGTERM)
        assert await stopped(bot) == 0
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        await fake.stop()
    assert fake.unknown == []  # the bot asked for nothing the stand-in does not know
    for token in [BOT_TOKEN, *fake.tokens]:
        assert token not in second_log.read_text()
