"""The tracker's edits after marks are gathered: the marks of a moment make one edit, a mark during an
edit asks for the next one, a failed edit tells the member who marked, and a stop makes the waiting
edits at once."""

from __future__ import annotations

import asyncio

from cogs._ui.tracker_edits import TrackerEdits


async def test_the_marks_of_a_moment_make_one_edit_per_game():
    edits: list[tuple[int, int]] = []

    async def edit(guild_id: int, game_id: int) -> None:
        edits.append((guild_id, game_id))

    async def nobody() -> None:
        raise AssertionError("nothing failed")

    gathered = TrackerEdits(edit, delay=0.01)
    for _ in range(5):
        gathered.ask(1, 7, if_it_fails=nobody)
    gathered.ask(1, 8, if_it_fails=nobody)
    await gathered.settled()
    assert sorted(edits) == [(1, 7), (1, 8)]
    gathered.ask(1, 7, if_it_fails=nobody)  # a later mark: another edit
    await gathered.settled()
    assert edits.count((1, 7)) == 2


async def test_a_mark_during_an_edit_asks_for_the_next_one():
    started, release = asyncio.Event(), asyncio.Event()
    edits = 0

    async def edit(guild_id: int, game_id: int) -> None:
        nonlocal edits
        edits += 1
        started.set()
        await release.wait()

    async def nobody() -> None:
        pass

    gathered = TrackerEdits(edit, delay=0)
    gathered.ask(1, 7, if_it_fails=nobody)
    await started.wait()
    gathered.ask(1, 7, if_it_fails=nobody)  # the edit under way was drawn before this mark
    release.set()
    await gathered.settled()
    assert edits == 2


async def test_a_failed_edit_tells_the_newest_member_and_a_stop_does_not_wait_for_more_marks():
    told: list[str] = []

    async def edit(guild_id: int, game_id: int) -> None:
        raise RuntimeError("Discord said no")

    def tell(who: str):
        async def say() -> None:
            told.append(who)
        return say

    gathered = TrackerEdits(edit, delay=3600)
    gathered.ask(1, 7, if_it_fails=tell("first"))
    gathered.ask(1, 7, if_it_fails=tell("second"))
    await asyncio.wait_for(gathered.hurry(), timeout=60)  # not an hour
    assert told == ["second"]
