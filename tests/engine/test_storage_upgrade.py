"""A SQLite file written by an earlier version upgrades in place; one from a newer version is refused.

tests/data/main-3f9f783.db was made by the code on main at 3f9f783 (before the campaign engine
moved behind the storage boundary): three warbands of one server (Reiklanders with a hired Ogre,
a Skaven band, a custom band), a battle between two of them, a post-battle sequence stopped at
its experience step with a choice waiting, a rare-item search, a campaign-table override, a
member's reply style, and a warband of another server.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.campaign.service import Campaigns, PostBattle
from engine.storage import Store, StorageUnavailable

OLD = Path(__file__).resolve().parents[1] / "data" / "main-3f9f783.db"
G, OWNER = 4242, 11


@pytest.fixture
def upgraded(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(OLD, path)
    with Store.open(path) as store:
        yield store


def test_the_old_file_upgrades_in_place_and_reads_as_it_did(upgraded):
    assert "0012_version_stamps" in upgraded.applied_migrations()
    c = Campaigns(upgraded)
    # what the old code showed for each warband (its sheets, printed when the file was made)
    for name, rating, gold, rows in (("Reikland Raiders", 87, 242, 4), ("Rats", 45, 380, 2), ("Odd Lot", 5, 0, 1)):
        sheet = c.show_warband(G, name)
        assert (sheet.rating.total, sheet.warband.gold_crowns, len(sheet.warband.warriors)) == (rating, gold, rows), name
        assert c.audit_treasury(G, name).balanced
    assert [w.name for w in c.list_warbands(777)] == ["Elsewhere"]
    assert c.campaign_rules(G).max_heroes == 6
    log = c.campaign_log(G)
    assert len(log) == 1 and log[0].both_sides


def test_the_old_files_sequence_and_ledger_go_on_under_the_new_engine(upgraded):
    c, pb = Campaigns(upgraded), PostBattle(upgraded)
    view = pb.open_sequence(G, "Reikland Raiders")
    assert view is not None and view.state.step == "experience"
    waiting = view.state.pending[0]
    view = pb.choose(G, OWNER, False, view.id, view.version, waiting.warrior_id, waiting.kind, waiting.options[0])
    assert view.state.step == "exploration"
    hired = c.hire_fighter(G, OWNER, False, "Reikland Raiders", "Warrior", name="More", count=1)
    assert hired.gold_left == 242 - 25
    assert c.undo_last_batch(G, OWNER, False, "Reikland Raiders")[0].what.startswith("undo ")
    assert c.get_warband(G, "Reikland Raiders").gold_crowns == 242
    # the whole sequence, steps taken by the old code and by the new, is still one batch
    undone = c.undo_last_batch(G, OWNER, False, "Reikland Raiders")
    assert {e.what for e in undone} >= {"undo postbattle.advance"}
    assert c.audit_treasury(G, "Reikland Raiders").balanced


def test_a_file_from_a_newer_bot_is_refused(tmp_path):
    path = tmp_path / "newer.db"
    shutil.copy(OLD, path)
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('mordheim', '0099_from_the_future', 'x')")
    with pytest.raises(StorageUnavailable, match="newer version of the bot.*0099_from_the_future"):
        Store.open(path)
    with sqlite3.connect(path) as raw:  # refused before anything was written
        assert raw.execute("SELECT count(*) FROM _sqlite_migrations WHERE name = '0012_version_stamps'").fetchone() == (0,)


def test_the_old_files_battles_take_their_rulebook_scenarios_id(upgraded):
    c = Campaigns(upgraded)
    battles = c.list_battles(G, "Reikland Raiders") + c.list_battles(G, "Rats")
    assert [(b.scenario, b.scenario_id, b.custom_scenario, b.rating) for b in battles] == [
        ("Skirmish", "skirmish", False, None), ("Skirmish", "skirmish", False, None)]
