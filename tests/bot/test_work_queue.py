"""The bounded queue for heavy work (bot/work_queue.py), alone and behind /odds."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.work_queue import BUSY, Busy, WorkQueue


async def test_at_most_workers_run_and_waiting_wait_then_busy():
    queue = WorkQueue(workers=2, waiting=1)
    gate = threading.Event()
    running: list[int] = []
    lock = threading.Lock()

    def work(n: int) -> int:
        with lock:
            running.append(n)
        gate.wait(5)
        return n * 10

    try:
        first = [asyncio.create_task(queue.run(work, n)) for n in range(3)]
        await asyncio.sleep(0.1)
        assert sorted(running) == [0, 1]  # two threads; the third waits for one
        assert queue.full and queue.in_flight == 3
        with pytest.raises(Busy) as refused:
            await queue.run(work, 3)
        assert str(refused.value) == BUSY
        with pytest.raises(Busy):
            queue.check_room()
        gate.set()
        assert await asyncio.gather(*first) == [0, 10, 20]
        assert not queue.full and queue.in_flight == 0
        assert await queue.run(work, 4) == 40  # room again
    finally:
        gate.set()
        queue.close()


async def test_an_error_in_the_work_frees_its_place():
    queue = WorkQueue(workers=1, waiting=0)

    def broken():
        raise ValueError("bug")

    try:
        with pytest.raises(ValueError):
            await queue.run(broken)
        assert queue.in_flight == 0 and not queue.full
    finally:
        queue.close()


def test_a_queue_needs_a_worker():
    with pytest.raises(ValueError):
        WorkQueue(workers=0, waiting=3)


async def test_odds_when_the_queue_is_full_are_refused_privately(harness):
    gate = threading.Event()
    queue = harness.bot.heavy_work
    blockers = [asyncio.create_task(queue.run(gate.wait, 5)) for _ in range(queue.workers + queue.waiting)]
    try:
        await asyncio.sleep(0.05)
        res = await harness.command("odds", attacker="human", defender="human", mode="round")
        assert res.ephemeral and res.is_error and BUSY in res.text
        assert [s.callback_type for s in res.sent] == [4]  # refused as the first answer: no public "thinking..."
    finally:
        gate.set()
        await asyncio.gather(*blockers)
    res = await harness.command("odds", attacker="human", defender="human", mode="round")
    assert not res.is_error and res.sent[0].callback_type == 5
