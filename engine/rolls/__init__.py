"""Every roll a server makes, kept: the roll record behind /luck, and secret rolls.

- ``facts``: what a dice result was, in the record's terms (the dice rolled, the D6 faces
  of D3, D66, Artillery and Scatter dice included, a test's chance, an injury's odds).
- ``luck``: a member's rolls against what fair dice give, and the charts of it.
- ``model``: the types ``engine.storage`` reads and writes for the record and secret rolls.
- ``record.RollRecord``: the per-server record, written in batches so a roll never waits for
  the disk, with members' opt-outs; ``record.record_for(store)`` gives the one record of a store.
- ``secret.SecretRolls``: secret rolls kept until revealed, and the channel they are copied to.

This package's ``__init__`` brings in only what lies below ``engine.storage`` (facts, luck,
model), because ``engine.storage`` builds these types and importing any module of a package
runs its ``__init__`` first: ``record`` and ``secret``, which use storage, are imported from
their own modules.

Discord-free, like the rest of ``engine``; every query filters on the server (guild id).
"""

from .facts import RollFacts, check_facts, injury_facts, reroll_facts, roll_set_facts
from .luck import MemberLuck, face_chart, luck_board_chart
from .model import HistoryRow, RollEntry, SecretRoll

__all__ = [
    "HistoryRow",
    "MemberLuck",
    "RollEntry",
    "RollFacts",
    "SecretRoll",
    "check_facts",
    "face_chart",
    "injury_facts",
    "luck_board_chart",
    "reroll_facts",
    "roll_set_facts",
]
