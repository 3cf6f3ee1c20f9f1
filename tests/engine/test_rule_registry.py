"""Every special-rule id the bundled warband data uses is known to the engine: applied in fights, applied
by the campaign, or marked shown only (engine/campaign/lists/registry.py). A new or misspelt id fails here."""

from __future__ import annotations

from engine.campaign.lists import registry
from engine.campaign.lists.catalogue import bundled_catalogue
from engine.combat.special_rules import LIST_RULES, TARGETED_LIST_RULES, TRAITS


def used_ids() -> dict[str, set[str]]:
    """Every rule id of the lists, shared rules, hired swords and characters, with where it is used."""
    c = bundled_catalogue()
    used: dict[str, set[str]] = {}
    for w in c.warbands.values():
        for rule in w.special_rules:
            used.setdefault(rule.id, set()).add(w.id)
        for f in w.fighters:
            for rule in f.special_rules:
                used.setdefault(rule.id, set()).add(f"{w.id}/{f.id}")
    for rule_id in c.special_rules:
        used.setdefault(rule_id, set()).add("special_rules.json")
    for hs in (*c.hired_swords.values(), *c.dramatis_personae.values()):
        for rule in hs.special_rules:
            used.setdefault(rule.id, set()).add(hs.id)
    return used


def test_every_rule_id_of_every_list_is_known_to_the_engine():
    unknown = {rule_id: sorted(where)[:3] for rule_id, where in used_ids().items() if registry.where_applied(rule_id) is None}
    assert not unknown, f"add these ids to engine/campaign/lists/registry.py (applied or SHOWN_ONLY): {unknown}"


def test_the_registry_names_no_id_twice_and_none_the_data_does_not_use():
    shown, combat, campaign = registry.SHOWN_ONLY, set(registry.COMBAT), set(registry.CAMPAIGN)
    assert not shown & combat and not shown & campaign and not combat & campaign
    used = set(used_ids())
    assert shown <= used and campaign <= used  # combat's map also serves house lists and hand-made warriors
    assert all(trait in TRAITS for trait in registry.COMBAT.values())  # each fights as a trait the combat engine has
    assert registry.COMBAT == {**LIST_RULES, **TARGETED_LIST_RULES}  # what the fights read, word for word


def test_where_each_id_is_applied_reads_plainly():
    assert registry.where_applied("fear") == "combat: fights as causes-fear"
    assert registry.where_applied("gains-no-experience").startswith("campaign: postbattle.apply_experience")
    assert registry.where_applied("swivel-gun-crew") == "shown only"
    assert registry.where_applied("bow-duty").startswith("campaign: list_limits")  # the Outlaws' limits data (issue 16)
    assert registry.where_applied("no-such-rule") is None
