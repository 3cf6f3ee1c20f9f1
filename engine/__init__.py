"""The Mordheim engine: dice, rules, combat, warbands and storage.

Pure Python. Nothing in this package imports discord, ``bot`` or ``cogs``; another
program could use it as a library.
"""
