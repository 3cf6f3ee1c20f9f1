"""Ledger batches on a real SQLite file: one member action is one batch, undone as a whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.campaign.actions.changes import change_warband, store_warrior
from engine.campaign.actions.common import changeable_warband, warrior_named
from engine.campaign.model import Actor
from engine.campaign.service import Campaigns
from engine.errors import MordheimError
from engine.storage import Store

from tests.conftest import both_backends

pytestmark = both_backends

REPO = Path(__file__).resolve().parents[2]
G, OWNER = 1, 10
HUMAN = dict(M=4, WS=3, BS=3, S=3, T=3, W=1, I=3, A=1, Ld=7)


@pytest.fixture
def campaigns(store):
    c = Campaigns(store)
    c.create_warband(G, OWNER, "Reavers", "Goblin Pirates", gold_crowns=200)
    return c


def _hire_and_arm_otto(uow, actor) -> None:
    """Three changes made as one action."""
    band = changeable_warband(uow, actor, "reavers")
    store_warrior(uow, band, None, {"name": "Otto", "role": "leader", "type": "Captain", "group_size": 1, "profile": HUMAN,
                                    "equipment": [], "skills": [], "injuries": [], "experience": 20, "status": "active",
                                    "large": False}, what="warrior.add", reason="hired")
    change_warband(uow, band, {"gold_crowns": band.gold_crowns - 60}, what="treasury", reason="hired Otto")
    otto = warrior_named(uow, band, "Otto")
    store_warrior(uow, band, otto, {"equipment": ["Sword"]}, what="warrior.equip", reason="sword")


def _several_changes_as_one_action(c: Campaigns) -> None:
    c.act(Actor(G, OWNER), _hire_and_arm_otto)


def test_an_action_is_one_batch_and_undo_takes_it_back_whole(campaigns):
    campaigns.change_treasury(G, OWNER, False, "Reavers", gold=5, reason="found a purse")
    _several_changes_as_one_action(campaigns)
    entries = campaigns.ledger(G, "Reavers")
    action = entries[:3]
    assert [e.what for e in action] == ["warrior.equip", "treasury", "warrior.add"]
    assert len({e.batch_id for e in action}) == 1 and action[-1].batch_id == action[-1].id
    assert entries[3].batch_id not in {e.batch_id for e in action}

    undone = campaigns.undo_last_batch(G, OWNER, False, "Reavers")
    assert [e.what for e in undone] == ["undo warrior.equip", "undo treasury", "undo warrior.add"]
    assert len({e.batch_id for e in undone}) == 1
    wb = campaigns.get_warband(G, "Reavers")
    assert wb.gold_crowns == 205 and wb.warriors == ()
    assert campaigns.audit_treasury(G, "Reavers").balanced
    # the next undo takes back the action before it, and only that one
    assert campaigns.undo_last(G, OWNER, False, "Reavers").what == "undo treasury"
    assert campaigns.get_warband(G, "Reavers").gold_crowns == 200


def test_a_failure_inside_a_batch_writes_nothing(campaigns):
    def spend_then_fail(uow, actor):
        change_warband(uow, changeable_warband(uow, actor, "Reavers"), {"gold_crowns": 0}, what="treasury", reason="spent")
        raise RuntimeError("the post-battle sequence failed half-way")

    with pytest.raises(RuntimeError):
        campaigns.act(Actor(G, OWNER), spend_then_fail)
    assert campaigns.get_warband(G, "Reavers").gold_crowns == 200
    assert [e.what for e in campaigns.ledger(G, "Reavers")] == ["warband.create"]


def test_rows_written_before_batches_existed_undo_one_by_one(campaigns):
    campaigns.change_treasury(G, OWNER, False, "Reavers", gold=1, reason="a")
    campaigns.change_treasury(G, OWNER, False, "Reavers", gold=2, reason="b")
    with campaigns.store.write() as c:  # as rows loaded in bulk, or written before migration 0003
        c.execute("UPDATE ledger SET batch_id = NULL WHERE guild_id = ?", (G,))
    campaigns.undo_last(G, OWNER, False, "Reavers")
    assert campaigns.get_warband(G, "Reavers").gold_crowns == 201
    campaigns.undo_last(G, OWNER, False, "Reavers")
    assert campaigns.get_warband(G, "Reavers").gold_crowns == 200
    with pytest.raises(MordheimError, match="cannot be undone"):
        campaigns.undo_last(G, OWNER, False, "Reavers")


def test_the_migration_makes_every_older_row_a_batch_of_its_own(tmp_path):
    from engine.storage.schema import MIGRATIONS

    path = tmp_path / "old.db"
    with Store.open(path) as store:
        c = Campaigns(store)
        c.create_warband(G, OWNER, "Old", "Reikland", gold_crowns=3)
        c.change_treasury(G, OWNER, False, "Old", gold=4, reason="x")
        with store.write() as conn:  # back to the schema before batches
            conn.execute("ALTER TABLE ledger DROP COLUMN batch_id")
            conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0005_ledger_batches'")
        assert "0005_ledger_batches" in [m.name for m in MIGRATIONS.pending(store.db)]
    with Store.open(path) as store:
        with store.read() as conn:
            assert conn.all("SELECT id, batch_id FROM ledger ORDER BY id") == [
                {"id": 1, "batch_id": 1}, {"id": 2, "batch_id": 2}]


def test_settings_import_nothing_from_the_campaign():
    """Which tables and lists a server uses belongs with the campaign; the import runs one way (storage
    builds the campaign's types, ``engine.campaign.model``, which imports nothing of the campaign)."""
    code = "import sys, engine.settings; print(sorted(m for m in sys.modules if m.startswith('engine.campaign.')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['engine.campaign.model']"
