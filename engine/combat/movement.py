"""Falling and jumping down (000:411-431)."""

from __future__ import annotations

from engine.errors import LimitExceeded


def falling_hits(height_inches: int) -> dict:
    """A fall of ``height_inches``: D3 hits at S = height, no armour saves, no criticals (000:431)."""
    if not 1 <= height_inches <= 10:
        raise LimitExceeded(f"A fall of {height_inches}\" is outside 1-10\".", hint="Give the height fallen in whole inches, 1 to 10.")
    return {"hits": "D3", "strength": height_inches, "armour_save": False, "criticals": False, "source": "000:431"}


def jump_tests(height_inches: float) -> int:
    """Initiative tests for jumping down: one per full 2" (000:415); at most 6" (000:415)."""
    if height_inches < 0 or height_inches > 6:
        raise LimitExceeded(f"A model may jump down at most 6\" (000:415); {height_inches}\" was asked.", hint="Climb down instead, or give 0-6 inches.")
    return int(height_inches // 2)
