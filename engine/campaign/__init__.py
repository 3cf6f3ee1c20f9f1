"""The campaign between battles: the post-battle sequence over the tables in rules_data/campaign/.

Discord-free and storage-free. Every function takes plain frozen dataclasses and a ``Dice``
(the bot's injected ``random.Random``, or dice a player rolled at the table) and returns new
frozen dataclasses with every effect applied and every die named:

- ``tables``: the post-battle tables as validated data (serious injuries with their effects,
  advances, exploration, income, experience awards);
- ``dice``: where the dice come from, and the record of every die rolled;
- ``injuries``: serious injuries (heroes) and the out-of-action roll (henchmen);
- ``experience`` and ``advances``: awards, thresholds, advance rolls respecting racial maxima;
- ``exploration`` and ``income``: wyrdstone found, places found by multiples, selling shards;
- ``sequence``: the five steps in the rulebook's order, as a state a service can store.
"""
