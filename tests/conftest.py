"""Shared fixtures: a real bot on a real SQLite file, driven through the interaction harness."""

from __future__ import annotations

import random

import pytest

from bot.client import MordheimBot
from bot.config import Config
from bot.harness import Actor, Harness
from tests.pg import _pg_admin, _pg_session_database, pg_db_url, pg_new_database, pg_url  # noqa: F401  (PostgreSQL)


def make_bot(tmp_path, seed: int = 1234) -> MordheimBot:
    config = Config(db_path=tmp_path / "mordheim.db")
    return MordheimBot(config, rng=random.Random(seed))


@pytest.fixture
async def harness(tmp_path):
    async with Harness(make_bot(tmp_path)) as h:
        yield h


@pytest.fixture
def actor() -> Actor:
    return Actor()
