"""Warband lists, hired swords and the trading post as data (rules_data/warbands/), checked and built."""
