"""Where randomness comes from.

The engine never calls the module-level ``random`` functions: every roll takes a
``random.Random``. Production uses an operating-system entropy source; tests and the
console's ``--seed`` pass a seeded ``random.Random``.
"""

from __future__ import annotations

import random


def system_rng() -> random.Random:
    """A generator backed by the operating system's entropy source (``os.urandom``)."""
    return random.SystemRandom()


def seeded_rng(seed: int) -> random.Random:
    """A deterministic generator for tests and ``--seed``."""
    return random.Random(seed)
