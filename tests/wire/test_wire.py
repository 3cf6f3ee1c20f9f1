"""The real `mordheim-bot` process against a loopback stand-in for Discord (tests/wire/fake_discord.py).

One story, two processes: log in, sync the commands, answer a slash command and a button,
drop three frames it cannot read and go on, refuse an option of the wrong type, resume after the connection drops (answering what was sent meanwhile), stop on SIGTERM while
an answer is in flight (finished, gateway closed with 1000, database closed and intact), then
start again without re-syncing and turn the pages of an answer sent before the restart.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.tree import STOPPING
from tests.wire.bot_process import BOT_TOKEN, seed, start_bot, stopped
from tests.wire.fake_discord import EPHEMERAL, USER_ID, FakeDiscord

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="needs POSIX signals")


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

        # ---- frames the bot cannot read (a press without data, without token, without id) are
        # logged and dropped; the process goes on and answers the next one
        for spoilt in ("data", "token", "id"):
            frame = fake._interaction(3, {"custom_id": reroll, "component_type": 2}, fake.messages[rolled.message_id])
            del frame[spoilt]
            await fake.send(frame)
        next_one = await fake.answered(await fake.slash("roll", expression="d6"))
        assert next_one.type == 4 and bot.poll() is None

        # ---- an option of the wrong type is refused clearly, privately
        wrong = await fake.answered(await fake.slash("roll", expression=12))
        assert wrong.data["flags"] & EPHEMERAL and "`expression` takes text" in str(wrong.data["embeds"])

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
    assert log_text.count("Dropped an interaction frame the bot cannot read") == 3 and "Traceback" not in log_text
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
