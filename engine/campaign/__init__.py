"""Warbands and the campaign, in one package (ARCHITECTURE.md, "Campaigns").

- ``model``: the types (warriors, warbands, battles, ledger entries; ``StrEnum`` roles, statuses,
  results and steps) that storage builds and everything else hands around;
- ``lists``: warband lists, hired swords and the trading post as data (rules_data/warbands/);
- ``rules``: pure functions over the lists and the campaign tables (rules_data/campaign/);
- ``ports``: what actions need from storage;
- ``actions``: one function per verb, taking a unit of work and an actor;
- ``service``: the verbs the cogs call, each opening one unit of work for one action.

Nothing here imports in a circle, and nothing here holds SQL (engine/storage does).
This module imports nothing, so storage may import ``engine.campaign.model`` alone.
"""
