"""The battle_scenario_and_ratings migration on both dialects: battles recorded before it under a
rulebook scenario's exact name (any case, spaces around) take its id; any other name stays custom;
ratings start unknown."""

from __future__ import annotations

import psycopg
from sqlite_utils import Database

from engine.campaign.service import Campaigns
from engine.storage import open_store
from engine.storage.schema import MIGRATIONS as SQLITE_MIGRATIONS
from engine.storage.schema_postgres import MIGRATIONS as POSTGRES_MIGRATIONS
from engine.storage.urls import is_postgres_url

from tests.conftest import both_backends

pytestmark = both_backends

G, OWNER = 9, 90
AT = "2025-01-01T00:00:00+00:00"
OURS = "_battle_scenario_and_ratings"  # the step's name without its number (numbers move when branches merge)
WARBAND = ("INSERT INTO warbands (id, guild_id, owner_id, name, name_key, warband_type, created_at, updated_at) "
           "VALUES (1, {g}, {o}, 'Rats', 'rats', 'custom', '{at}', '{at}')").format(g=G, o=OWNER, at=AT)
BATTLE = ("INSERT INTO battles (guild_id, warband_id, fought_on, scenario, result, recorded_by, created_at) "
          "VALUES ({g}, 1, '2025-01-0{n}', '{scenario}', 'win', {o}, '{at}')")
TYPED = ("  wyrdstone HUNT ", "Street Fight", "Bridge of Sighs", "Skirmish 2", "")


def _old_sqlite(path) -> None:
    db = Database(path)
    ours = next(m.name for m in SQLITE_MIGRATIONS.pending(db) if m.name.endswith(OURS))
    SQLITE_MIGRATIONS.apply(db, stop_before=ours)
    db.execute(WARBAND)
    for n, scenario in enumerate(TYPED, start=1):
        db.execute(BATTLE.format(g=G, n=n, scenario=scenario, o=OWNER, at=AT))
    db.conn.commit()
    db.conn.close()


def _old_postgres(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        for migration in POSTGRES_MIGRATIONS:
            if migration.name.endswith(OURS):
                break
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations (name, applied_at) VALUES (%s, %s)", (migration.name, AT))
        conn.execute(WARBAND)
        for n, scenario in enumerate(TYPED, start=1):
            conn.execute(BATTLE.format(g=G, n=n, scenario=scenario, o=OWNER, at=AT))


def test_earlier_battles_take_their_rulebook_scenarios_id(database, tmp_path):
    if is_postgres_url(database):
        _old_postgres(database)
    else:
        _old_sqlite(database)
    store = open_store(database)
    try:
        battles = sorted(Campaigns(store).list_battles(G, "Rats"), key=lambda b: b.fought_on)
    finally:
        store.close()
    assert [(b.scenario, b.scenario_id, b.custom_scenario) for b in battles] == [
        ("  wyrdstone HUNT ", "wyrdstone-hunt", False), ("Street Fight", "street-fight", False),
        ("Bridge of Sighs", None, True), ("Skirmish 2", None, True), ("", None, False)]
    assert {(b.rating, b.opponent_rating) for b in battles} == {(None, None)}
