"""The numbers printed in the seed rulebooks' charts, as functions (000 unless said)."""

from __future__ import annotations


def bs_to_hit(bs: int) -> int:
    # 000:518-519 BS chart: D6 needed = 7 - BS (BS7 needs 0 ... BS10 needs -3)
    return 7 - bs


def cc_to_hit_chart(attacker_ws: int, defender_ws: int) -> int:
    # 000:699-715 close-combat to-hit chart: 3+ if attacker's WS is higher,
    # 5+ if the defender's WS is more than double the attacker's, otherwise 4+
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


def cc_to_hit_formula(attacker_ws: int, defender_ws: int) -> int:
    # 004:541 4+ if equal, 5+ if the defender's WS is higher, 3+ if the attacker's is
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > attacker_ws:
        return 5
    return 4


def to_wound_chart(strength: int, toughness: int) -> int | None:
    """000:521-533 wound chart; ``None`` is the chart's dash (no chance)."""
    # 000:521-533 (the close-combat copy 000:721-731 lacks the T10 column; this is the full one)
    diff = strength - toughness
    if diff >= 2:
        return 2
    if diff == 1:
        return 3
    if diff == 0:
        return 4
    if diff == -1:
        return 5
    if diff in (-2, -3):
        return 6
    return None


def to_wound_formula(strength: int, toughness: int) -> int:
    # 004:377 4+, +1 per point S exceeds T, -1 per point T exceeds S; a 1 always fails,
    # a 6 always wounds
    return min(6, max(2, 4 - (strength - toughness)))


def strength_save_modifier(strength: int) -> int:
    # 000:598-605 (= 004:469-477): S1-3 none, S4 -1 ... S9+ -6
    if strength <= 3:
        return 0
    return -min(6, strength - 3)
