"""The roll record on a real SQLite file: batches, running sums, opt-outs, servers kept apart."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from engine.dice import RerollChoice, characteristic_test, leadership_test, reroll_choice, roll_set
from engine.errors import NotFoundError, PermissionDenied
from engine.rolls import check_facts, injury_facts, reroll_facts, roll_set_facts
from engine.rolls.facts import pass_chance
from engine.rolls.record import RollRecord, record_for
from engine.rolls.secret import SecretRolls
from engine.storage import Store
from tests.engine.scripted_dice import Scripted

G1, G2 = 11, 22
ANNA, BORIS = 1, 2


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "rolls.db") as s:
        yield s


def fixed_now():
    return dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.timezone.utc)


# ----- facts: which dice count -------------------------------------------------------------


def test_every_die_rolled_counts_as_the_table_saw_it():
    facts = roll_set_facts(roll_set("2d6 + d3, d66, 4d6kh1, 2d6r1, d10", Scripted(1, 2, 5, 3, 4, 6, 1, 2, 3, 1, 6, 4, 7)))
    assert facts.dice == (
        (6, 1), (6, 2), (6, 5),  # 2d6 and the D6 behind the D3 (000:188)
        (6, 3), (6, 4),  # a D66 is a tens D6 and a units D6
        (6, 6), (6, 1), (6, 2), (6, 3),  # dropped dice were rolled too
        (6, 1), (6, 4), (6, 6),  # the 1 the r modifier re-rolled into a 4, and the 6
        (10, 7),
    )
    assert facts.kind == "roll" and facts.what == "2d6 + d3, d66, 4d6kh1, 2d6r1, d10"


def test_a_reroll_adds_only_the_dice_it_rolled():
    first = roll_set("5d6 4+", Scripted(1, 4, 6, 3, 5))
    second = reroll_choice(first, Scripted(6, 2), RerollChoice.FAILED)
    facts = reroll_facts(first, second)
    assert facts.dice == ((6, 6), (6, 2)) and facts.rerolled and facts.test is None
    assert facts.result == "4 successes"


def test_tests_carry_their_chance():
    assert pass_chance(characteristic_test(3, Scripted(1))) == pytest.approx(3 / 6)
    assert pass_chance(characteristic_test(7, Scripted(1))) == pytest.approx(5 / 6)  # a 6 always fails (000:251)
    assert pass_chance(characteristic_test(0, Scripted(1))) == 0
    assert pass_chance(leadership_test(7, Scripted(1, 1))) == pytest.approx(21 / 36)  # 2D6 <= 7 (000:257)
    facts = check_facts(leadership_test(7, Scripted(6, 5)))
    assert facts.what == "Leadership 7 test" and facts.result == "11, failed"
    assert facts.test.passed is False and facts.dice == ((6, 6), (6, 5))


# ----- the record ---------------------------------------------------------------------------


def test_rolls_wait_in_memory_until_flushed_then_are_written_with_running_sums(store):
    record = RollRecord(store, now=fixed_now)
    assert record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("3d6", Scripted(6, 6, 1))))
    assert record.add(G1, ANNA, "Anna", check_facts(leadership_test(7, Scripted(3, 3))))
    with store.read() as c:
        assert c.scalar("SELECT COUNT(*) FROM rolls") == 0  # nothing waited for the disk
    assert record.pending == 2 and record.flush() == 2 and record.pending == 0
    with store.read() as c:
        rows = c.all("SELECT * FROM rolls ORDER BY id")
    assert [(r["guild_id"], r["member_id"], r["what"], r["result"]) for r in rows] == [
        (G1, ANNA, "3d6", "13"), (G1, ANNA, "Leadership 7 test", "6, passed")]
    assert rows[0]["rolled_at"] == "2024-05-01T12:00:00+00:00"
    luck = record.member(G1, ANNA)
    assert luck.rolls == 2 and luck.faces == (1, 0, 2, 0, 0, 2) and luck.d6 == 5
    assert luck.tests == 1 and luck.tests_passed == 1 and luck.tests_expected == pytest.approx(21 / 36)
    # a second batch adds to the same row
    record.add(G1, ANNA, "Anna B.", roll_set_facts(roll_set("d6", Scripted(6))))
    luck = record.member(G1, ANNA)  # readers flush first
    assert luck.rolls == 3 and luck.faces[5] == 3 and luck.member_name == "Anna B."


def test_injuries_and_other_dice(store):
    record = RollRecord(store)
    record.add(G1, ANNA, "Anna", injury_facts(3, "out of action", [6], 1 / 3))
    record.add(G1, ANNA, "Anna", injury_facts(2, "stunned", [3, 2], 1 / 3))
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d10, d20", Scripted(10, 1))))
    luck = record.member(G1, ANNA)
    assert (luck.injuries, luck.injuries_out_of_action, luck.injuries_stunned) == (2, 1, 1)
    assert luck.injuries_expected_out == pytest.approx(2 / 3)
    assert luck.faces == (0, 1, 1, 0, 0, 1)
    assert (luck.other_dice, luck.other_sum, luck.other_expected) == (2, 11, pytest.approx(5.5 + 10.5))


def test_servers_never_see_each_other(store):
    record = RollRecord(store)
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(6))))
    record.add(G2, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(1))))
    record.add(G2, BORIS, "Boris", roll_set_facts(roll_set("2d6", Scripted(1, 1))))
    assert [m.member_id for m in record.board(G1)[0]] == [ANNA]
    assert record.member(G1, ANNA).faces == (0, 0, 0, 0, 0, 1)
    assert record.member(G1, BORIS) is None
    members, totals = record.board(G2)
    assert [m.member_id for m in members] == [ANNA, BORIS]  # most rolls first; a tie by member id
    assert {h.member_id for h in record.history(G1)} == {ANNA}
    assert totals == {"members": 2, "rolls": 2, "d6": 3}


def test_luck_read_again_with_no_roll_between_is_kept_and_a_roll_or_forgetting_reads_anew(store, monkeypatch):
    record = RollRecord(store)
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(6))))
    record.add(G2, BORIS, "Boris", roll_set_facts(roll_set("d6", Scripted(1))))
    board, anna = record.board(G1), record.member(G1, ANNA)
    reads = []
    real_read = store.read
    monkeypatch.setattr(store, "read", lambda: reads.append(1) or real_read())
    assert record.board(G1) == board and record.member(G1, ANNA) == anna and reads == []  # kept: no read
    record.add(G2, BORIS, "Boris", roll_set_facts(roll_set("d6", Scripted(2))))  # another server's roll
    assert record.board(G1) == board and record.member(G1, ANNA) == anna and reads == []
    assert record.member(G2, BORIS).rolls == 2 and len(reads) == 1
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(3))))
    members, totals = record.board(G1)
    assert members[0].faces == (0, 0, 1, 0, 0, 1) and totals["rolls"] == 2 and record.member(G1, ANNA).rolls == 2
    record.opt_out(G1, ANNA, forget=True)
    assert record.board(G1) == ([], {"members": 0, "rolls": 0, "d6": 0}) and record.member(G1, ANNA) is None


def test_no_record_in_direct_messages(store):
    record = RollRecord(store)
    assert not record.add(None, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(6))))
    assert record.pending == 0


def test_opt_out_stops_recording_and_forget_deletes(store):
    record = RollRecord(store)
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(6))))
    record.flush()
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(5))))  # made before she opts out
    assert record.opt_out(G1, ANNA) == 0
    assert not record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(4))))
    assert record.member(G1, ANNA).rolls == 2  # kept, the waiting roll too, but nothing new
    assert record.add(G2, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(4))))  # another server: still recorded
    assert record.opt_out(G1, ANNA, forget=True) == 2
    assert record.member(G1, ANNA) is None and record.history(G1, ANNA) == []
    assert record.member(G2, ANNA).rolls == 1
    # a new process reads the opt-out back
    assert not RollRecord(store).records(G1, ANNA)
    assert record.opt_in(G1, ANNA) and not record.opt_in(G1, ANNA)
    assert record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(4))))


def test_a_failed_write_keeps_the_rolls_for_the_next_flush(store, monkeypatch):
    record = RollRecord(store)
    record.add(G1, ANNA, "Anna", roll_set_facts(roll_set("d6", Scripted(6))))

    def broken(batch):
        raise OSError("disk full")

    monkeypatch.setattr(record, "_write", broken)
    with pytest.raises(OSError):
        record.flush()
    assert record.pending == 1
    monkeypatch.undo()
    assert record.flush() == 1 and record.member(G1, ANNA).rolls == 1


def test_history_newest_first_and_limited(store):
    record = RollRecord(store)
    rng = random.Random(3)
    for n in range(1, 8):
        record.add(G1, ANNA if n % 2 else BORIS, "x", roll_set_facts(roll_set(f"{n}d6", rng)),
                   visibility={7: "secret", 6: "private"}.get(n, "public"))
    rows = record.history(G1, limit=3)
    assert [(r.what, r.visibility) for r in rows] == [("7d6", "secret"), ("6d6", "private"), ("5d6", "public")]
    secret, private, public = rows
    assert public.visible_to(BORIS, False) and private.visible_to(BORIS, False)  # 6d6 is Boris's own
    assert not private.visible_to(ANNA, True)  # a private roll: not even Manage Server
    assert secret.visible_to(ANNA, False) and secret.visible_to(BORIS, True) and not secret.visible_to(BORIS, False)
    with pytest.raises(ValueError):
        record.add(G1, ANNA, "x", roll_set_facts(roll_set("d6", rng)), visibility="shown")
    assert [r.what for r in record.history(G1, BORIS)] == ["6d6", "4d6", "2d6"]


def test_one_record_per_store(store, tmp_path):
    assert record_for(store) is record_for(store)
    with Store.open(tmp_path / "other.db") as other:
        assert record_for(other) is not record_for(store)


# ----- secret rolls -------------------------------------------------------------------------


def test_secret_rolls_are_kept_and_revealed_by_their_roller_only(store):
    secrets = SecretRolls(store, now=fixed_now)
    sid = secrets.keep(G1, 555, ANNA, {"embeds": [{"title": "🎲 2d6"}]})
    kept = secrets.get(G1, sid)
    assert kept.shown == {"embeds": [{"title": "🎲 2d6"}]} and not kept.revealed
    with pytest.raises(PermissionDenied):
        secrets.reveal(G1, sid, BORIS)
    assert secrets.reveal(G1, sid, ANNA).revealed_at == "2024-05-01T12:00:00+00:00"
    with pytest.raises(NotFoundError):
        secrets.get(G2, sid)  # another server cannot reach it


def test_secret_channel_is_an_admin_setting_with_a_ledger_row(store):
    secrets = SecretRolls(store)
    assert secrets.channel(G1) is None
    with pytest.raises(PermissionDenied):
        secrets.set_channel(G1, ANNA, False, 999)
    secrets.set_channel(G1, ANNA, True, 999)
    assert secrets.channel(G1) == 999 and secrets.channel(G2) is None
    with store.read() as c:
        row = c.one("SELECT * FROM ledger WHERE guild_id = ?", (G1,))
    assert row["what"] == "settings.secret_channel" and row["member_id"] == ANNA
    secrets.set_channel(G1, ANNA, True, None)
    assert secrets.channel(G1) is None
