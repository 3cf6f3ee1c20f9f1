"""Every roll a server makes, kept: the roll record behind /luck, and secret rolls.

- ``facts``: what a dice result was, in the record's terms (the dice rolled, the D6 faces
  of D3, D66, Artillery and Scatter dice included, a test's chance, an injury's odds).
- ``RollRecord``: the per-server record, written in batches so a roll never waits for
  the disk, with members' opt-outs; ``record_for(store)`` gives the one record of a store.
- ``luck``: a member's rolls against what fair dice give, and the charts of it.
- ``SecretRolls``: secret rolls kept until revealed, and the channel they are copied to.

Discord-free, like the rest of ``engine``; every query filters on the server (guild id).
"""

from .facts import RollFacts, check_facts, injury_facts, reroll_facts, roll_set_facts
from .luck import MemberLuck, face_chart, luck_board_chart
from .record import HistoryRow, RollEntry, RollRecord, record_for
from .secret import SecretRoll, SecretRolls

__all__ = [
    "HistoryRow",
    "MemberLuck",
    "RollEntry",
    "RollFacts",
    "RollRecord",
    "SecretRoll",
    "SecretRolls",
    "check_facts",
    "face_chart",
    "injury_facts",
    "luck_board_chart",
    "record_for",
    "reroll_facts",
    "roll_set_facts",
]
