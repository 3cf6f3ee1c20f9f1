"""Writes under way elsewhere, for tests of what must not wait for them: a thread of this
process in the middle of a write transaction, or another process holding the database file."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.storage import Store


@contextmanager
def write_held_by_a_thread(store: Store) -> Iterator[None]:
    """Inside the block, another thread of this process holds ``store``'s write lock, in a write transaction."""
    holding, release = threading.Event(), threading.Event()

    def long_write() -> None:
        with store.write():
            holding.set()
            release.wait(10)

    writer = threading.Thread(target=long_write)
    writer.start()
    try:
        assert holding.wait(10)
        yield
    finally:
        release.set()
        writer.join()


@contextmanager
def file_held_by_another_process(path: Path) -> Iterator[None]:
    """Inside the block, another process has begun a write transaction on the database at ``path``."""
    other = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
         "c.execute('BEGIN IMMEDIATE'); print('holding', flush=True); time.sleep(30)", str(path)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "holding"
        yield
    finally:
        other.kill()
        other.wait()
