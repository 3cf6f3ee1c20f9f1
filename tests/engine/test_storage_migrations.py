"""Migrations of a database made before the warband lists: nothing stored is lost or renumbered."""

from __future__ import annotations

import json

from sqlite_utils import Database

from engine.storage import Store
from engine.storage.schema import MIGRATIONS
from engine.campaign.service import Campaigns

G, OWNER = 7, 70
AT = "2025-01-01T00:00:00+00:00"
PROFILE = dict(m=5, ws=3, bs=3, s=3, t=3, w=1, i=4, a=1, ld=5)


def _database_before_lists(path) -> None:
    db = Database(path)
    MIGRATIONS.apply(db, stop_before="0006_warband_lists")
    for wid, name, wtype in ((1, "Rats", "Skaven"), (2, "Lads", "Reiklanders"), (3, "Pirates", "goblin   PIRATES")):
        db.execute("INSERT INTO warbands (id, guild_id, owner_id, name, name_key, warband_type, created_at, updated_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (wid, G, OWNER, name, name.lower(), wtype, AT, AT))
    for n in range(3):
        db.execute("INSERT INTO warriors (guild_id, warband_id, name, name_key, role, warrior_type, group_size, "
                   "m, ws, bs, s, t, w, i, a, ld, equipment, created_at, updated_at) "
                   "VALUES (?, 1, ?, ?, 'henchmen', 'Verminkin', 2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (G, f"Pack {n}", f"pack {n}", *PROFILE.values(), json.dumps(["Sword"]), AT, AT))
    db.execute("DELETE FROM warriors WHERE name = 'Pack 2'")  # the newest id is gone, and must stay unused
    db.conn.commit()
    db.conn.close()


def test_warriors_keep_their_ids_and_the_counter(tmp_path):
    path = tmp_path / "old.db"
    _database_before_lists(path)
    with Store.open(path) as store:
        c = Campaigns(store)
        rats = c.get_warband(G, "Rats")
        assert [(w.id, w.name, w.equipment, w.group_size) for w in rats.warriors] == [
            (1, "Pack 0", ("Sword",), 2), (2, "Pack 1", ("Sword",), 2)]
        assert all(w.fighter_type is None and w.hand_edits == () for w in rats.warriors)
        w = c.add_warrior(G, OWNER, False, "Rats", "Pack 3", role="henchmen", warrior_type="Verminkin",
                          profile={k.upper() if k != "ld" else "Ld": v for k, v in PROFILE.items()})
        assert w.id == 4  # never 3: a removed warrior's id stays his, for undo


def test_types_the_campaign_tables_sized_become_their_lists(tmp_path):
    path = tmp_path / "old.db"
    _database_before_lists(path)
    with Store.open(path) as store:
        with store.read() as c:
            rows = c.all("SELECT name, warband_type, list_id, stash FROM warbands ORDER BY id")
    # 'Skaven' was sized by the old tables; 'Reiklanders' never was (the tables knew 'reikland');
    # the type is kept as typed either way
    assert rows == [
        {"name": "Rats", "warband_type": "Skaven", "list_id": "skaven", "stash": "[]"},
        {"name": "Lads", "warband_type": "Reiklanders", "list_id": None, "stash": "[]"},
        {"name": "Pirates", "warband_type": "goblin   PIRATES", "list_id": None, "stash": "[]"},
    ]
