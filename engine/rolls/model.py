"""The roll record's and secret rolls' types: what ``engine.storage`` reads and writes for them.

Nothing here imports ``engine.storage``, so storage builds these without importing anything
above itself (ARCHITECTURE.md "Storage: one boundary"). A member's luck record is
``engine.rolls.luck.MemberLuck``, which imports nothing of storage either.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .facts import RollFacts

#: Who saw a roll: everyone, its roller only, or its roller and the members with Manage Server.
VISIBILITIES = ("public", "private", "secret")
MAX_SHOWN_BYTES = 64_000  # a Discord message with embeds is far smaller; this is a backstop


class RollEntry:
    """One roll to be written: who, in which server, what (``facts``) and when (``rolled_at``)."""

    __slots__ = ("guild_id", "member_id", "member_name", "facts", "visibility", "rolled_at")

    def __init__(self, guild_id: int, member_id: int, member_name: str, facts: RollFacts, visibility: str,
                 rolled_at: str) -> None:
        self.guild_id = guild_id
        self.member_id = member_id
        self.member_name = member_name
        self.facts = facts
        self.visibility = visibility
        self.rolled_at = rolled_at


class RollTally:
    """What one batch of rolls adds to one member's running sums in one server (the sums /luck reads)."""

    __slots__ = ("name", "rolls", "faces", "other_dice", "other_sum", "other_expected", "other_variance",
                 "tests", "tests_passed", "tests_expected", "tests_variance", "injuries", "injury_results",
                 "injuries_expected_out", "injuries_variance_out", "first_at", "last_at")

    def __init__(self, first: RollEntry) -> None:
        self.name = first.member_name
        self.rolls = 0
        self.faces = [0] * 6  # how often each D6 face came up
        self.other_dice = self.other_sum = 0  # dice of other sizes: count, sum, and what fair dice give
        self.other_expected = self.other_variance = 0.0
        self.tests = self.tests_passed = 0  # characteristic and Leadership tests
        self.tests_expected = self.tests_variance = 0.0
        self.injuries = 0
        self.injury_results = [0, 0, 0]  # knocked down, stunned, out of action
        self.injuries_expected_out = self.injuries_variance_out = 0.0
        self.first_at = self.last_at = first.rolled_at

    def add(self, entry: RollEntry) -> None:
        facts = entry.facts
        self.name = entry.member_name or self.name
        self.rolls += 1
        self.last_at = entry.rolled_at
        for sides, face in facts.dice:
            if sides == 6:
                self.faces[face - 1] += 1
            else:
                self.other_dice += 1
                self.other_sum += face
                self.other_expected += (sides + 1) / 2
                self.other_variance += (sides * sides - 1) / 12
        if facts.test is not None:
            p = facts.test.chance
            self.tests += 1
            self.tests_passed += facts.test.passed
            self.tests_expected += p
            self.tests_variance += p * (1 - p)
        if facts.injury is not None:
            p = facts.injury.chance_out
            self.injuries += 1
            self.injury_results[facts.injury.outcome - 1] += 1
            self.injuries_expected_out += p
            self.injuries_variance_out += p * (1 - p)


@dataclass(frozen=True)
class HistoryRow:
    """A stored roll as a listing shows it."""

    id: int
    member_id: int
    kind: str
    what: str
    result: str
    rerolled: bool
    visibility: str  # public, private or secret
    rolled_at: str

    def visible_to(self, member_id: int, manages_server: bool) -> bool:
        """Whether this member may read what was rolled: a private roll its roller only, a
        secret one its roller and the members with Manage Server."""
        if self.visibility == "public" or member_id == self.member_id:
            return True
        return self.visibility == "secret" and manages_server


@dataclass(frozen=True)
class SecretRoll:
    """A secret roll kept until revealed: ``shown`` is what the bot showed its roller."""

    id: int
    guild_id: int
    channel_id: int
    member_id: int
    shown: dict[str, Any]
    rolled_at: str
    revealed_at: str | None

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None


def shown_text(shown: dict[str, Any]) -> str:
    """What a secret roll shows, as the JSON kept; ValueError past ``MAX_SHOWN_BYTES``."""
    text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) > MAX_SHOWN_BYTES:
        raise ValueError("a secret roll's message is too large to keep")
    return text
