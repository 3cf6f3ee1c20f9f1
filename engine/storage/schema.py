"""The schema, as sqlite-utils ``Migrations``: each step runs once and is recorded.

Every table that holds a server's data carries ``guild_id``; every index that queries use
starts with it, so one server's rows are found without reading another's. One index does not:
``warbands_owner_name`` (0013) finds one member's own warbands across servers, for a direct message.
Append new steps at the end; never edit an applied one.
"""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from engine.storage.name_keys import rekey_names

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


@MIGRATIONS(name="0003_pages_kept_for_buttons")
def pages_kept_for_buttons(db: Database) -> None:
    # What the buttons of a paged answer or a confirm question need after a restart, by the
    # message they are on (see engine/storage/kept_answers.py). Rows expire; nothing else
    # points at them.
    db.execute(
        """
        CREATE TABLE kept_answers (
            message_id INTEGER PRIMARY KEY,
            guild_id INTEGER,                            -- NULL in direct messages
            owner_id INTEGER NOT NULL,                   -- the member who may press the buttons
            kind TEXT NOT NULL CHECK (kind IN ('pages', 'confirm')),
            body BLOB NOT NULL,                          -- zlib-compressed JSON
            page INTEGER NOT NULL DEFAULT 0,             -- the page shown now (pages)
            answered INTEGER NOT NULL DEFAULT 0 CHECK (answered IN (0, 1)),  -- confirm: pressed once
            expires_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX kept_answers_expiry ON kept_answers (expires_at)")


@MIGRATIONS(name="0004_plain_text_preferences")
def plain_text_preferences(db: Database) -> None:
    # Answers as plain text instead of embeds: a server's choice (set by Manage Server) and a
    # member's own, which wins wherever they are. No row means "not chosen".
    db.execute(
        """
        CREATE TABLE server_preferences (
            guild_id INTEGER PRIMARY KEY,
            plain_text INTEGER NOT NULL CHECK (plain_text IN (0, 1)),
            updated_at TEXT NOT NULL
        )"""
    )
    db.execute(
        """
        CREATE TABLE member_preferences (
            user_id INTEGER PRIMARY KEY,
            plain_text INTEGER NOT NULL CHECK (plain_text IN (0, 1)),
            updated_at TEXT NOT NULL
        )"""
    )


@MIGRATIONS(name="0005_ledger_batches")
def ledger_batches(db: Database) -> None:
    # One member's action is one batch of ledger rows (engine/storage/ledger.py); undo reverses a
    # whole batch. A batch's id is the id of its first row, so every older row is a batch of one.
    # No index of its own: a batch's rows are the newest of its warband, found through
    # ledger_guild_warband (guild_id, warband_id, id) from the batch id up.
    db.execute("ALTER TABLE ledger ADD COLUMN batch_id INTEGER")
    db.execute("UPDATE ledger SET batch_id = id")


# Warband types that campaign tables sized before the warband lists existed (the old
# ``warband_size_by_type`` of rules_data/campaign/lrb.json), and the list each one is now.
_SIZED_TYPES_BEFORE_LISTS = {
    "reikland": "reikland",
    "middenheim": "middenheim",
    "marienburg": "marienburg",
    "witch hunters": "witch-hunters",
    "sisters of sigmar": "sisters-of-sigmar",
    "cult of the possessed": "cult-of-the-possessed",
    "undead": "undead",
    "skaven": "skaven",
    "orc mob": "orc-mob",
    "dwarf treasure hunters": "dwarf-treasure-hunters",
}


@MIGRATIONS(name="0006_warband_lists")
def warband_lists(db: Database) -> None:
    # A warband built from a warband list (rules_data/warbands/) knows it; NULL is a custom type.
    db.execute("ALTER TABLE warbands ADD COLUMN list_id TEXT")
    db.execute("ALTER TABLE warbands ADD COLUMN stash TEXT NOT NULL DEFAULT '[]'")  # JSON list of item names
    # Warbands whose type already changed their size keep it, now through their list.
    for row in db.execute("SELECT id, warband_type FROM warbands").fetchall():
        list_id = _SIZED_TYPES_BEFORE_LISTS.get(" ".join(row[1].split()).casefold())
        if list_id:
            db.execute("UPDATE warbands SET list_id = ? WHERE id = ?", (list_id, row[0]))
    # Warriors remember the list entry they were hired from, and a role for hired swords: the
    # role CHECK can only change by rebuilding the table. Ids are kept, and so is the
    # AUTOINCREMENT counter, so undo can still put a removed warrior back under its old id.
    db.execute(
        f"""
        CREATE TABLE warriors_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('leader', 'hero', 'henchmen', 'hired_sword')),
            warrior_type TEXT NOT NULL,
            group_size INTEGER NOT NULL DEFAULT 1 CHECK (group_size >= 1),
            {CHARACTERISTIC_CHECK}
            equipment TEXT NOT NULL DEFAULT '[]',
            skills TEXT NOT NULL DEFAULT '[]',
            injuries TEXT NOT NULL DEFAULT '[]',
            experience INTEGER NOT NULL DEFAULT 0 CHECK (experience >= 0),
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dead', 'retired')),
            large INTEGER NOT NULL DEFAULT 0 CHECK (large IN (0, 1)),
            fighter_type TEXT,                           -- the list's fighter id (or hired sword id); NULL: made by hand
            race TEXT,                                   -- race id: its maximum profile caps the characteristics
            skill_lists TEXT NOT NULL DEFAULT '[]',      -- JSON list of skill list ids it may learn from
            special_rules TEXT NOT NULL DEFAULT '[]',    -- JSON list of special rule ids
            hand_edits TEXT NOT NULL DEFAULT '[]',       -- JSON list of fields changed by hand since hiring
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    kept = ("id, guild_id, warband_id, name, name_key, role, warrior_type, group_size, m, ws, bs, s, t, w, i, a, ld, "
            "equipment, skills, injuries, experience, status, large, created_at, updated_at")
    db.execute(f"INSERT INTO warriors_new ({kept}) SELECT {kept} FROM warriors")
    db.execute("DELETE FROM sqlite_sequence WHERE name = 'warriors_new'")
    db.execute("INSERT INTO sqlite_sequence (name, seq) SELECT 'warriors_new', seq FROM sqlite_sequence WHERE name = 'warriors'")
    db.execute("DROP TABLE warriors")
    db.execute("ALTER TABLE warriors_new RENAME TO warriors")
    db.execute("CREATE UNIQUE INDEX warriors_warband_name ON warriors (warband_id, name_key)")
    db.execute("CREATE INDEX warriors_guild_name ON warriors (guild_id, name_key)")
    db.execute("CREATE INDEX warriors_guild_warband ON warriors (guild_id, warband_id, id)")


@MIGRATIONS(name="0007_house_lists")
def house_lists(db: Database) -> None:
    # A server's own warband lists (house warbands), validated before they are stored.
    db.execute(
        """
        CREATE TABLE house_lists (
            guild_id INTEGER NOT NULL,
            list_id TEXT NOT NULL,
            name TEXT NOT NULL,
            data TEXT NOT NULL,                          -- the list's JSON, as the server sent it
            added_by INTEGER NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, list_id)
        )"""
    )


@MIGRATIONS(name="0008_rare_item_searches")
def rare_item_searches(db: Database) -> None:
    # Heroes' searches for rare items, kept so that a found item can be bought later (after a
    # restart too) and each hero searches once per battle.
    db.execute(
        """
        CREATE TABLE rare_item_searches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            warrior_id INTEGER,                          -- the hero who searched (no foreign key: the find outlives him)
            searcher TEXT NOT NULL,
            item_id TEXT NOT NULL,
            item_name TEXT NOT NULL,
            rarity INTEGER NOT NULL,
            roll TEXT NOT NULL,                          -- the dice as shown, e.g. '2d6 (5, 4) = 9'
            modifier INTEGER NOT NULL DEFAULT 0,
            total INTEGER NOT NULL,
            found INTEGER NOT NULL CHECK (found IN (0, 1)),
            price INTEGER,                               -- what the found item costs; NULL when not found
            price_roll TEXT NOT NULL DEFAULT '',         -- a variable price's dice as shown
            battles INTEGER NOT NULL,                    -- battles the warband had recorded when searching
            bought INTEGER NOT NULL DEFAULT 0 CHECK (bought IN (0, 1)),
            created_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    db.execute("CREATE INDEX rare_item_searches_warband ON rare_item_searches (guild_id, warband_id, id)")


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


@MIGRATIONS(name="0010_rolls_record_and_secret_rolls")
def rolls_record_and_secret_rolls(db: Database) -> None:
    """The roll record behind /luck, members' opt-outs, and secret rolls waiting to be revealed.

    ``rolls`` keeps every roll (who, what, result, when); ``roll_stats`` is the running sum of a
    member's rolls, kept in the same transaction as the rows it sums, so /luck reads one row per
    member however many rolls there are. ``secret_rolls`` holds what a Reveal button shows, so
    it works after a restart. ``roll_settings`` is the channel where secret rolls go.
    """
    db.execute(
        """
        CREATE TABLE rolls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            member_id INTEGER NOT NULL,
            kind TEXT NOT NULL,                          -- roll | characteristic | leadership | injury | artillery | scatter
            what TEXT NOT NULL,                          -- the expression or test, e.g. '2d6 <=7', 'Leadership 7'
            result TEXT NOT NULL,                        -- what it came to, e.g. '8, failed'
            dice TEXT NOT NULL DEFAULT '[]',             -- JSON [[sides, face], ...]: every die rolled, D6es of D3/D66 too
            rerolled INTEGER NOT NULL DEFAULT 0 CHECK (rerolled IN (0, 1)),
            visibility TEXT NOT NULL DEFAULT 'public'    -- who saw it: public, private (the roller) or secret (and Manage Server)
                CHECK (visibility IN ('public', 'private', 'secret')),
            rolled_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX rolls_guild_member ON rolls (guild_id, member_id, id)")
    db.execute(
        """
        CREATE TABLE roll_stats (
            guild_id INTEGER NOT NULL,
            member_id INTEGER NOT NULL,
            member_name TEXT NOT NULL DEFAULT '',
            rolls INTEGER NOT NULL DEFAULT 0,
            d6 INTEGER NOT NULL DEFAULT 0,               -- D6es rolled, and how often each face came up
            d6_1 INTEGER NOT NULL DEFAULT 0, d6_2 INTEGER NOT NULL DEFAULT 0, d6_3 INTEGER NOT NULL DEFAULT 0,
            d6_4 INTEGER NOT NULL DEFAULT 0, d6_5 INTEGER NOT NULL DEFAULT 0, d6_6 INTEGER NOT NULL DEFAULT 0,
            other_dice INTEGER NOT NULL DEFAULT 0,       -- dice of other sizes: count, sum, expected sum, variance
            other_sum INTEGER NOT NULL DEFAULT 0,
            other_expected REAL NOT NULL DEFAULT 0,
            other_variance REAL NOT NULL DEFAULT 0,
            tests INTEGER NOT NULL DEFAULT 0,            -- characteristic and Leadership tests
            tests_passed INTEGER NOT NULL DEFAULT 0,
            tests_expected REAL NOT NULL DEFAULT 0,
            tests_variance REAL NOT NULL DEFAULT 0,
            injuries INTEGER NOT NULL DEFAULT 0,         -- injury rolls and their results
            injuries_knocked_down INTEGER NOT NULL DEFAULT 0,
            injuries_stunned INTEGER NOT NULL DEFAULT 0,
            injuries_out_of_action INTEGER NOT NULL DEFAULT 0,
            injuries_expected_out REAL NOT NULL DEFAULT 0,
            injuries_variance_out REAL NOT NULL DEFAULT 0,
            first_at TEXT NOT NULL,
            last_at TEXT NOT NULL,
            PRIMARY KEY (guild_id, member_id)
        )"""
    )
    # /luck lists a server's members with the most rolls first: read in that order, no sorting
    db.execute("CREATE INDEX roll_stats_guild_rolls ON roll_stats (guild_id, rolls DESC, member_id)")
    db.execute(
        """
        CREATE TABLE roll_optouts (
            guild_id INTEGER NOT NULL,
            member_id INTEGER NOT NULL,
            since TEXT NOT NULL,
            PRIMARY KEY (guild_id, member_id)
        )"""
    )
    db.execute(
        """
        CREATE TABLE secret_rolls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            member_id INTEGER NOT NULL,
            shown TEXT NOT NULL,                         -- JSON: what Reveal shows (the result as sent to the roller)
            rolled_at TEXT NOT NULL,
            revealed_at TEXT
        )"""
    )
    db.execute("CREATE INDEX secret_rolls_guild ON secret_rolls (guild_id, id)")
    db.execute(
        """
        CREATE TABLE roll_settings (
            guild_id INTEGER PRIMARY KEY,
            secret_channel_id INTEGER,                   -- where secret rolls are copied for Manage Server members
            updated_at TEXT NOT NULL
        )"""
    )


@MIGRATIONS(name="0011_ledger_by_server")
def ledger_by_server(db: Database) -> None:
    # The newest ledger row of a whole server (``Campaign.standings``' version of what it
    # remembers, asked on every /campaign standings): ledger_guild_warband orders a server's rows
    # by warband first, so max(id) over the server read every one of them (55 µs for 1,300
    # rows, growing with the campaign); with this index it is one step down the tree.
    db.execute("CREATE INDEX ledger_guild_id ON ledger (guild_id, id)")


@MIGRATIONS(name="0012_version_stamps")
def version_stamps(db: Database) -> None:
    # What rarely changes and is read on every interaction (a member's reply style) is kept in
    # memory; every change bumps its stamp in the same transaction, and each process compares
    # the stamp now and then to know when what it remembers is out of date (another process of
    # the host wrote). engine/storage/stamps.py. No row means version 0.
    db.execute(
        """
        CREATE TABLE version_stamps (
            name TEXT PRIMARY KEY,                       -- what the stamp covers, e.g. 'reply_style'
            version INTEGER NOT NULL
        )"""
    )


@MIGRATIONS(name="0013_warbands_by_owner")
def warbands_by_owner(db: Database) -> None:
    # The one index that does not start with the server: a member's own warbands across servers
    # (``OwnedWarbandRepository``, for /warband sheet in a direct message, where there is no
    # server). Every query through it filters on the owner.
    db.execute("CREATE INDEX warbands_owner_name ON warbands (owner_id, name_key)")


@MIGRATIONS(name="0014_captives_upkeep_and_sequence_messages")
def captives_upkeep_and_sequence_messages(db: Database) -> None:
    # Issue 16. A hero captured (serious injury 61) is away from his warband: status 'captured'
    # leaves him out of its size, income and rating as 'dead' and 'retired' do. The status CHECK
    # can only change by rebuilding the table (as 0006 did); ids and the AUTOINCREMENT counter
    # are kept, so undo can still put a removed warrior back under its old id.
    db.execute(
        f"""
        CREATE TABLE warriors_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('leader', 'hero', 'henchmen', 'hired_sword')),
            warrior_type TEXT NOT NULL,
            group_size INTEGER NOT NULL DEFAULT 1 CHECK (group_size >= 1),
            {CHARACTERISTIC_CHECK}
            equipment TEXT NOT NULL DEFAULT '[]',
            skills TEXT NOT NULL DEFAULT '[]',
            injuries TEXT NOT NULL DEFAULT '[]',
            experience INTEGER NOT NULL DEFAULT 0 CHECK (experience >= 0),
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dead', 'retired', 'captured')),
            large INTEGER NOT NULL DEFAULT 0 CHECK (large IN (0, 1)),
            fighter_type TEXT,
            race TEXT,
            skill_lists TEXT NOT NULL DEFAULT '[]',
            special_rules TEXT NOT NULL DEFAULT '[]',
            hand_edits TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    every = ("id, guild_id, warband_id, name, name_key, role, warrior_type, group_size, m, ws, bs, s, t, w, i, a, ld, "
             "equipment, skills, injuries, experience, status, large, fighter_type, race, skill_lists, special_rules, hand_edits, "
             "created_at, updated_at")
    db.execute(f"INSERT INTO warriors_new ({every}) SELECT {every} FROM warriors")
    db.execute("DELETE FROM sqlite_sequence WHERE name = 'warriors_new'")
    db.execute("INSERT INTO sqlite_sequence (name, seq) SELECT 'warriors_new', seq FROM sqlite_sequence WHERE name = 'warriors'")
    db.execute("DROP TABLE warriors")
    db.execute("ALTER TABLE warriors_new RENAME TO warriors")
    db.execute("CREATE UNIQUE INDEX warriors_warband_name ON warriors (warband_id, name_key)")
    db.execute("CREATE INDEX warriors_guild_name ON warriors (guild_id, name_key)")
    db.execute("CREATE INDEX warriors_guild_warband ON warriors (guild_id, warband_id, id)")
    # A captive: who holds him (a warband of the server, or NULL for one outside the bot) and
    # what became of him. He counts as held while his status is 'captured' and the batch that
    # captured him is not undone (the warrior's status is the truth undo keeps).
    db.execute(
        """
        CREATE TABLE captives (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,                 -- the captive's warband
            warrior_id INTEGER NOT NULL,
            captor_id INTEGER,                           -- the warband holding him; NULL: not a warband of this server
            battle_id INTEGER,                           -- the battle he was taken in
            batch_id INTEGER,                            -- the ledger batch that captured him
            ransom INTEGER,                              -- the ransom his captor asks (NULL: none offered)
            outcome TEXT NOT NULL DEFAULT '',            -- '', ransomed, exchanged, sold
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    db.execute("CREATE INDEX captives_warband ON captives (guild_id, warband_id, id)")
    db.execute("CREATE INDEX captives_captor ON captives (guild_id, captor_id, id)")
    # Hired swords' upkeep, per battle and sword: a second payment for the same battle is
    # refused. A row counts while its ledger batch is not undone.
    db.execute(
        """
        CREATE TABLE upkeep_paid (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            warband_id INTEGER NOT NULL,
            battle_id INTEGER NOT NULL,
            warrior_id INTEGER NOT NULL,
            gold INTEGER NOT NULL,
            batch_id INTEGER,
            paid_at TEXT NOT NULL,
            FOREIGN KEY (guild_id, warband_id) REFERENCES warbands (guild_id, id) ON DELETE CASCADE
        )"""
    )
    db.execute("CREATE INDEX upkeep_paid_battle ON upkeep_paid (guild_id, warband_id, battle_id)")
    # Where a sequence is shown ('channel id:message id'): /postbattle resume takes the buttons
    # off the message it replaces.
    db.execute("ALTER TABLE postbattle_sequences ADD COLUMN message_ref TEXT NOT NULL DEFAULT ''")


@MIGRATIONS(name="0015_warband_grades")
def warband_grades(db: Database) -> None:
    # The grades of warband lists and hired swords a server does not play (issue 17): 1a official,
    # 1b widely used. A JSON list; '[]', the default, plays every grade. Warbands of a grade turned
    # off keep playing; no new ones are made (engine/campaign/actions/server_tables.py).
    db.execute("ALTER TABLE server_settings ADD COLUMN grades_off TEXT NOT NULL DEFAULT '[]'")


@MIGRATIONS(name="0016_battle_scenario_and_ratings")
def battle_scenario_and_ratings(db: Database) -> None:
    # The rulebook scenario a battle was fought (rules_data/campaign/scenarios.json id; NULL for a
    # custom scenario or none: the name stays in ``scenario``), and both warbands' ratings when a
    # battle between two of the server's warbands was recorded (the underdog experience; NULL when
    # the opponent is not a warband of the server, and for battles recorded before this step).
    db.execute("ALTER TABLE battles ADD COLUMN scenario_id TEXT")
    db.execute("ALTER TABLE battles ADD COLUMN rating INTEGER")
    db.execute("ALTER TABLE battles ADD COLUMN opponent_rating INTEGER")
    # Battles recorded before this step under a rulebook scenario's exact name take its id (the
    # names and ids as the data file had them when this step was written; never edited since).
    db.execute("""
        UPDATE battles SET scenario_id = CASE lower(trim(scenario))
            WHEN 'defend the find' THEN 'defend-the-find' WHEN 'skirmish' THEN 'skirmish'
            WHEN 'wyrdstone hunt' THEN 'wyrdstone-hunt' WHEN 'breakthrough' THEN 'breakthrough'
            WHEN 'street fight' THEN 'street-fight' WHEN 'chance encounter' THEN 'chance-encounter'
            WHEN 'hidden treasure' THEN 'hidden-treasure' WHEN 'occupy' THEN 'occupy'
            WHEN 'surprise attack' THEN 'surprise-attack' END
        WHERE lower(trim(scenario)) IN ('defend the find', 'skirmish', 'wyrdstone hunt', 'breakthrough', 'street fight',
                                        'chance encounter', 'hidden treasure', 'occupy', 'surprise attack')""")


NAMES_COMPARED_AS_THEY_LOOK = "0017_names_compared_as_they_look"  # its tests read the name here


@MIGRATIONS(name=NAMES_COMPARED_AS_THEY_LOOK)
def names_compared_as_they_look(db: Database) -> None:
    # name_key now folds what only looks different (full-width letters, ligatures, zero-width
    # spaces): every stored key recomputed, and a later warband or warrior whose name now equals an
    # older one's in its server or warband renamed "... (2)" (engine/storage/name_keys.py). Data
    # only; PostgreSQL's 0007 does the same.
    rekey_names(db.conn)


@MIGRATIONS(name="0018_live_battle_tracker_games")
def live_battle_tracker_games(db: Database) -> None:
    # A game followed on the live battle tracker (/game, engine/campaign/actions/games.py). Its state
    # is the engine's JSON: the warbands, each model's state, whose turn it is. ``version`` grows with
    # every change, so a press drawn at an older version is refused (or, for a mark, checked against
    # the warrior it marks). Everything the game records is a ledger row of one batch (``batch_id``).
    # A warband deleted mid-game leaves the game's row: the game says that warband is gone.
    db.execute(
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            started_by INTEGER NOT NULL,
            channel_id INTEGER,                          -- where its tracker message is
            message_id INTEGER,                          -- the tracker message (NULL until sent)
            state_json TEXT NOT NULL,
            batch_id INTEGER,                            -- the ledger batch of the game's record
            version INTEGER NOT NULL DEFAULT 1,
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended', 'cancelled')),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX games_guild_status ON games (guild_id, status, id)")
    # Who may mark a game's warriors: each warband's owner and Manage Server, or (``any_player_marks``,
    # /admin tracker) any player of the game. No row: the default, owners only.
    db.execute(
        """
        CREATE TABLE game_settings (
            guild_id INTEGER PRIMARY KEY,
            any_player_marks INTEGER NOT NULL DEFAULT 0 CHECK (any_player_marks IN (0, 1)),
            updated_at TEXT NOT NULL
        )"""
    )
