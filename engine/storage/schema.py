"""The schema, as sqlite-utils ``Migrations``: each step runs once and is recorded.

Every table that holds a server's data carries ``guild_id``; every index that queries use
starts with it, so one server's rows are found without reading another's.
Append new steps at the end; never edit an applied one.
"""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

MIGRATIONS = Migrations("mordheim")

# Limits the database enforces as a last line of defence; the service checks them first
# and gives friendly messages.
CHARACTERISTIC_CHECK = " ".join(
    f"{c} INTEGER NOT NULL CHECK ({c} BETWEEN 0 AND 10)," for c in ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld")
)


@MIGRATIONS(name="0001_initial")
def initial(db: Database) -> None:
    db.execute(
        """
        CREATE TABLE server_settings (
            guild_id INTEGER PRIMARY KEY,
            edition_id TEXT NOT NULL DEFAULT 'lrb',
            house_rules TEXT NOT NULL DEFAULT '{}',     -- JSON object: toggle name -> bool
            campaign_rules TEXT NOT NULL DEFAULT '{}',  -- JSON object: override of rules_data/campaign
            updated_at TEXT NOT NULL
        )"""
    )
    db.execute(
        """
        CREATE TABLE warbands (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            owner_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,                     -- casefolded name: unique per guild
            warband_type TEXT NOT NULL,
            notes TEXT NOT NULL DEFAULT '',
            gold_crowns INTEGER NOT NULL DEFAULT 0 CHECK (gold_crowns >= 0),
            wyrdstone_shards INTEGER NOT NULL DEFAULT 0 CHECK (wyrdstone_shards >= 0),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (guild_id, id)
        )"""
    )
    db.execute("CREATE UNIQUE INDEX warbands_guild_name ON warbands (guild_id, name_key)")
    db.execute("CREATE INDEX warbands_guild_owner_name ON warbands (guild_id, owner_id, name_key)")
    db.execute(
        f"""
        CREATE TABLE warriors (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('leader', 'hero', 'henchmen')),
            warrior_type TEXT NOT NULL,
            group_size INTEGER NOT NULL DEFAULT 1 CHECK (group_size >= 1),
            {CHARACTERISTIC_CHECK}
            equipment TEXT NOT NULL DEFAULT '[]',
            skills TEXT NOT NULL DEFAULT '[]',
            injuries TEXT NOT NULL DEFAULT '[]',
            experience INTEGER NOT NULL DEFAULT 0 CHECK (experience >= 0),
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dead', 'retired')),
            large INTEGER NOT NULL DEFAULT 0 CHECK (large IN (0, 1)),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    db.execute("CREATE UNIQUE INDEX warriors_warband_name ON warriors (warband_id, name_key)")
    db.execute("CREATE INDEX warriors_guild_name ON warriors (guild_id, name_key)")
    db.execute(
        """
        CREATE TABLE battles (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            fought_on TEXT NOT NULL,
            scenario TEXT NOT NULL DEFAULT '',
            opponents TEXT NOT NULL DEFAULT '',
            result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
            notes TEXT NOT NULL DEFAULT '',
            recorded_by INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    db.execute("CREATE INDEX battles_guild_warband ON battles (guild_id, warband_id, id)")
    # AUTOINCREMENT: ids are never reused, so undo can put a removed row back under its old id.
    # No foreign key: the ledger outlives a deleted warband (its last row holds the export).
    db.execute(
        """
        CREATE TABLE ledger (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER,                          -- NULL for server settings
            warband_name TEXT NOT NULL DEFAULT '',
            what TEXT NOT NULL,
            entity TEXT NOT NULL,                        -- warband | warrior | battle | settings
            entity_id INTEGER,
            before_json TEXT,                            -- NULL when the change created the entity
            after_json TEXT,                             -- NULL when the change deleted it
            reason TEXT NOT NULL DEFAULT '',
            member_id INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            undoes_id INTEGER REFERENCES ledger (id)
        )"""
    )
    db.execute("CREATE INDEX ledger_guild_warband ON ledger (guild_id, warband_id, id)")
    db.execute("CREATE UNIQUE INDEX ledger_undoes ON ledger (undoes_id) WHERE undoes_id IS NOT NULL")


@MIGRATIONS(name="0002_warriors_by_warband")
def warriors_by_warband(db: Database) -> None:
    # Rosters are read by (guild, warband); without this SQLite picked the name index.
    db.execute("CREATE INDEX warriors_guild_warband ON warriors (guild_id, warband_id, id)")


@MIGRATIONS(name="0003_ledger_batches")
def ledger_batches(db: Database) -> None:
    # One member's action is one batch of ledger rows (engine/storage/ledger.py); undo reverses a
    # whole batch. A batch's id is the id of its first row, so every older row is a batch of one.
    db.execute("ALTER TABLE ledger ADD COLUMN batch_id INTEGER")
    db.execute("UPDATE ledger SET batch_id = id")
    db.execute("CREATE INDEX ledger_guild_warband_batch ON ledger (guild_id, warband_id, batch_id)")


@MIGRATIONS(name="0009_postbattle_sequences_and_battle_links")
def postbattle(db: Database) -> None:
    # One post-battle sequence per warband at a time (engine/campaign/postbattle.py). Its state is
    # the engine's JSON; ``version`` grows with every step, so a button pressed twice or from two
    # devices carries an old version and is refused. Every change the sequence makes to warriors
    # and the treasury is a ledger row of one batch (``batch_id``), which /warband undo takes back
    # whole; what the sequence found (shards, missed games, captives) is read only from sequences
    # whose batch is not undone, so undo needs nothing else.
    db.execute(
        """
        CREATE TABLE postbattle_sequences (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            battle_id INTEGER,                           -- the battle it follows
            started_by INTEGER NOT NULL,
            step TEXT NOT NULL,
            state_json TEXT NOT NULL,
            batch_id INTEGER,                            -- the ledger batch of its changes (NULL until one)
            version INTEGER NOT NULL DEFAULT 1,
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'cancelled')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    db.execute("CREATE UNIQUE INDEX postbattle_one_open ON postbattle_sequences (guild_id, warband_id) WHERE status = 'open'")
    db.execute("CREATE INDEX postbattle_guild_warband ON postbattle_sequences (guild_id, warband_id, id)")
    # /battle record against another warband of the server writes a row for each side; both rows
    # carry the first row's id as ``pair_id`` so the campaign log shows the battle once.
    db.execute("ALTER TABLE battles ADD COLUMN opponent_warband_id INTEGER")
    db.execute("ALTER TABLE battles ADD COLUMN pair_id INTEGER")
    db.execute("CREATE INDEX battles_guild_id ON battles (guild_id, id)")
