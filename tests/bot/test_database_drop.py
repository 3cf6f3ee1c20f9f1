"""When the PostgreSQL connection drops in the middle of an action, the member is told privately to
try again, nothing is half-written, and the next command works on a fresh connection."""

from __future__ import annotations

import psycopg

from bot.harness import Actor
from engine.campaign.actions import hiring

OWNER = Actor(user_id=42, guild_id=5150)


async def test_a_dropped_connection_mid_hire_asks_to_try_again_and_writes_nothing(harness_on_postgres, pg_db_url, monkeypatch):
    h = harness_on_postgres
    await h.command("warband create", OWNER, name="Reavers", warband_type="Reikland")
    real = hiring.hire_fighter

    def dropped(uow, actor, *args, **kwargs):
        result = real(uow, actor, *args, **kwargs)  # the warrior and the gold are written in this transaction...
        with psycopg.connect(pg_db_url, autocommit=True) as admin:  # ...then the server drops the connection
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                          "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'")
        return result

    monkeypatch.setattr(hiring, "hire_fighter", dropped)
    res = await h.command("hire fighter", OWNER, warband="Reavers", type="Mercenary Captain")
    assert res.is_error and res.ephemeral and "Try again" in res.text and "nothing was changed" in res.text
    monkeypatch.undo()
    res = await h.command("warband show", OWNER, name="Reavers")
    assert "500 gc" in res.text and "Mercenary Captain (leader)" not in res.text
    res = await h.command("hire fighter", OWNER, warband="Reavers", type="Mercenary Captain")
    assert not res.is_error and "440 gc" in res.text
