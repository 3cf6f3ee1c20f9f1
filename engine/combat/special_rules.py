"""Every special-rule id the combat engine knows, so a misspelt id fails loudly.

Three families share one registry:

* weapon and armour rules (the ``special`` lists of rules_data/stats/weapons.json, armour.json and
  warband_kit.json),
* equipment effects (the ``effects`` lists of equipment.json and warband_kit.json),
* fighter traits: psychology, creature rules and skills a fighter can have (``Fighter.traits``),
  with the names players type for them.

``require(rule_id)`` is how code names a rule (``Weapon.has`` and the fighter's trait checks go
through it): an id not listed here raises ``UnknownRule`` at once, instead of quietly being
"not present". Loading the stats files checks every id in them the same way.

Traits say where their rule comes from: a seed line (a citation id), or the published game for
creature rules and skills the seeds do not have (INVENTORY §1: no seed has warband lists or
skills). ``modelled`` says in which editions the engine applies the trait; where it does not,
the fight's answer names the trait as not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

ALL_EDITIONS = ("lrb", "core", "core2")


class UnknownRule(KeyError):
    """A special-rule id that is not in the registry: a typo in code or data."""


@dataclass(frozen=True)
class SpecialRule:
    id: str
    family: str  # "weapon" (weapons and armour), "equipment" or "trait"
    what: str  # in our words
    source: str  # a citation id of engine/combat/citations.py, or the published source
    names: tuple[str, ...] = ()  # traits: what players type (the first is shown)
    modelled: tuple[str, ...] = ALL_EDITIONS  # editions whose fights apply it
    not_modelled_why: str = ""  # said in the answer when a fight cannot apply it


def _weapon(rule_id: str, what: str, source: str) -> SpecialRule:
    return SpecialRule(rule_id, "weapon", what, source)


def _effect(rule_id: str, what: str, source: str) -> SpecialRule:
    return SpecialRule(rule_id, "equipment", what, source)


SKILLS_SOURCE = "Mordheim rulebook (Games Workshop 1999, and the 2005 Living Rulebook), Skills chapter"
UNDEAD_SOURCE = "Mordheim rulebook (1999), Undead warband list"
ORC_SOURCE = "Orc Mob warband list (Mordheim Annual 2002)"
SKAVEN_SOURCE = "Mordheim rulebook (2000), Skaven: Clan Eshin's weapons"
SISTERS_SOURCE = "Mordheim rulebook (2000), Sisters of Sigmar: special weapons"
CULT_SOURCE = "Mordheim rulebook (2000), Cult of the Possessed: mutations"
NURGLE_SOURCE = "Empire in Flames, Carnival of Chaos: Blessings of Nurgle"

_RULES = [
    # --- weapons and armour (rules_data/stats/weapons.json, armour.json) ------------------------
    _weapon("parry", "may parry blows", "sword-parry"),
    _weapon("concussion", "an injury roll of 2-4 is stunned", "concussion"),
    _weapon("cutting-edge", "an extra -1 save modifier", "cutting-edge"),
    _weapon("heavy", "the Strength bonus only in the first turn of a combat", "heavy"),
    _weapon("two-handed", "needs both hands in close combat", "two-handed"),
    _weapon("difficult-to-use", "no second weapon or buckler", "difficult-to-use"),
    _weapon("strike-first", "strikes first in the first turn of a combat", "spear-strike-first"),
    _weapon("unwieldy", "only a shield or buckler in the other hand", "unwieldy"),
    _weapon("cavalry-bonus", "extra Strength when charging on horseback", "lance-charge"),
    _weapon("cavalry-weapon", "usable only on a warhorse", "lance-warhorse"),
    _weapon("strike-last", "strikes last, even when charging", "strike-last"),
    _weapon("enemy-armour-save-bonus", "+1 to the enemy's armour save, 6+ if none", "dagger"),
    _weapon("one-attack", "only ever 1 attack", "fist"),
    _weapon("move-or-fire", "no moving and firing in one turn", "move-or-fire"),
    _weapon("fire-twice-at-half-range", "twice if it did not move, within half range", "sling-twice"),
    _weapon("thrown-weapon", "no range or moving penalties; not in close combat", "thrown-no-penalties"),
    _weapon("fire-twice", "may fire twice at an extra -1", "repeater-twice"),
    _weapon("shoot-in-close-combat", "one shot in the first round of a combat", "crossbow-pistol-cc"),
    _weapon("prepare-shot", "fires every other turn (a brace every turn)", "pistol-cc"),
    _weapon("blackpowder-save", "a -2 save modifier", "pistol-save"),
    _weapon("hand-to-hand", "usable in close combat once per combat", "pistol-cc"),
    _weapon("accuracy", "+1 to hit", "duelling-pistol-accuracy"),
    _weapon("shot", "hits every model in a 16\" line automatically", "blunderbuss"),
    _weapon("fire-once", "fires once per battle", "blunderbuss-once"),
    _weapon("pick-target", "may pick any target in sight", "bs-chart"),
    _weapon("save-modifier", "an extra save modifier", "weapon-save-modifiers"),
    _weapon("natural-weapons", "teeth, claws or fists of a creature that ignores the fist rules", "animals-ignore-fist"),
    _weapon("avoid-stun", "helmet: 4+ against being stunned", "helmet"),
    _weapon("slow-with-shield", "-1 Movement with a shield", "shield"),
    # --- what the warband lists' own weapons and armour add (rules_data/stats/warband_kit.json) -----
    _weapon("pair", "used in pairs, one in each hand: +1 Attack, and nothing else in his hands", SKAVEN_SOURCE),
    _weapon("cumbersome", "no other weapon in the whole battle", SKAVEN_SOURCE),
    _weapon("parry-reroll", "parries, re-rolling a failed parry once as with a sword and buckler", SKAVEN_SOURCE),
    _weapon("counts-as-sword", "a sword for the skills that name swords (Expert Swordsman)", SKILLS_SOURCE),
    _weapon("venomous", "counts as coated in Black Lotus: a 6 to hit wounds automatically", "black-lotus"),
    _weapon("holy", "+1 to wound Possessed and Undead", SISTERS_SOURCE),
    _weapon("cannot-be-parried", "swords and bucklers cannot parry it", SISTERS_SOURCE),
    _weapon("whipcrack", "+1 Attack when he charges; when charged, +1 Attack against the charger that strikes first", SISTERS_SOURCE),
    _weapon("no-armour-save", "no armour save against its wounds", "Town Cryer 6 (the ball and chain), Town Cryer 15 (star weapons)"),
    _weapon("shield-save-only", "only a shield saves against it", "Citadel Journal 36 (the Mootlanders' ladle)"),
    _weapon("d3-wounds", "each wound it causes is D3 wounds (a critical's, if more)", "Town Cryer 6 (the ball and chain)"),
    _weapon("fog-of-death", "each hit: a Toughness test (a 6 always fails) or a wound more; Undead and Possessed are immune",
            "Town Cryer 29 (the censer)"),
    _weapon("needs-mad-cap", "only a model under Mad Cap Mushrooms can wield it", "Town Cryer 6 (the ball and chain)"),
    _weapon("strikes-before-spears", "strikes first in the first turn of a combat, before chargers and spears", "Town Cryer 14 (the pike)"),
    _weapon("off-hand", "held in (or is) his other hand: +1 Attack beside his weapon, never his main weapon", CULT_SOURCE),
    _weapon("buckler-parry", "also a buckler: it parries, and beside a sword a failed parry is re-rolled", "Town Cryer 14 (Pit Fighters)"),
    _weapon("no-two-handed", "he cannot use a two-handed weapon", "Town Cryer 9 (the hook hand)"),
    _weapon("extra-attack", "one attack of its own every round, besides his hands", CULT_SOURCE),
    _weapon("body-part", "part of his body: even a creature that uses no weapons fights with it", CULT_SOURCE),
    _weapon("no-criticals", "causes no critical hits", SKAVEN_SOURCE),
    _weapon("no-long-range-penalty", "no -1 to hit for long range", "Town Cryer 15 (the sunstaff)"),
    _weapon("no-range-penalty", "no -1 to hit for long range (moving still counts)", "Town Cryer 9 (belaying pins)"),
    _weapon("no-shield-bonus", "a shield adds nothing to this armour's save", "Town Cryer 9 (toughened leathers)"),
    # --- equipment effects (rules_data/stats/equipment.json) --------------------------------------
    _effect("poison", "a poison (not on blackpowder weapons)", "poison-not-blackpowder"),
    _effect("hit-6-wounds", "a 6 to hit wounds automatically", "black-lotus"),
    _effect("strength+1", "+1 Strength", "dark-venom"),
    _effect("poison-immunity", "immune to poison", "black-lotus"),
    _effect("gives-frenzy", "makes the user frenzied", "mad-cap"),
    _effect("initiative+d3", "+D3 Initiative", "crimson-shade"),
    _effect("movement+1", "+1 Movement", "crimson-shade"),
    _effect("toughness+1", "+1 Toughness", "mandrake-root"),
    _effect("stunned-is-knocked-down", "stunned counts as knocked down", "mandrake-root"),
    _effect("discard-first-hit-4+", "the first hit in a battle is discarded on 4+", "lucky-charm"),
    _effect("thrown-2xS", "thrown twice the thrower's Strength in inches", "blessed-water"),
    _effect("auto-wound-undead", "1 wound on Undead, Daemons and Possessed, no save", "blessed-water"),
    _effect("shoot-at-1", "-1 to be hit by missiles", "elven-cloak"),
    _effect("injury+1-bows", "+1 on injury rolls from bows", "hunting-arrows"),
    _effect("thrown-8", "thrown 8\"", "net"),
    _effect("entangle", "the target may lose his next turn", "net"),
    _effect("blackpowder-strength+1", "+1 Strength for blackpowder weapons", "superior-blackpowder"),
    _effect("fear-immunity", "makes the drinker immune to fear", "bugmans-ale"),
    _effect("vampire-ld-test", "a Vampire tests to charge its carrier", "ld-test"),
    _effect("pass-first-ld", "passes the first Leadership test", "ld-test"),
    _effect("reroll-climb", "re-rolls climbing tests", "characteristic-test"),
    _effect("detect+4", "+4\" to spot hidden enemies", "characteristic-test"),
    _effect("mount", "a horse or warhorse", "horses"),
    _effect("animal-companion", "an animal fighting beside its owner", "wardog"),
    _effect("gives-fear", "makes him cause fear", CULT_SOURCE),
    _effect("wounds+1", "+1 Wound", NURGLE_SOURCE),
    _effect("strength+1-no-save", "+1 Strength to his hits, without the save modifier it would bring", "Town Cryer 11 (reptile venom)"),
    _effect("enemies-hit-1", "his close-combat opponents are at -1 to hit", NURGLE_SOURCE),
    _effect("enemy-attack-1", "his close-combat opponent has one Attack fewer, never below 1", CULT_SOURCE),
    _effect("extra-arm", "a third arm: one more one-handed weapon for +1 Attack", CULT_SOURCE),
    _effect("ward-6", "a special 6+ save against every wound, never modified, after any armour", "Town Cryer 9, Town Cryer 15"),
    _effect("ward-5-missiles", "a special 5+ save against missiles, never modified, after any armour", "Town Cryer 15"),
    _effect("bows-hit+1", "+1 to hit with a bow", "Town Cryer 18 (asp arrows)"),
    _effect("dark-elf-blade", "his sword or dagger: +1 on critical rolls, and stuns on an injury roll of 2-4", "Town Cryer 12"),
    _effect("gromril-weapon", "his close-combat weapon: an extra -1 save modifier", "gromril-weapon"),
    _effect("ithilmar-weapon", "his close-combat weapon: +1 Initiative in close combat", "ithilmar-weapon"),
    # --- fighter traits ----------------------------------------------------------------------------
    SpecialRule("frenzy", "trait", "double Attacks (core2: +1), immune to fear; lost when knocked down or stunned", "frenzy-attacks",
                names=("frenzy", "frenzied", "berserk")),
    SpecialRule("hates", "trait", "re-rolls misses in the first turn of each combat", "hatred", names=("hates", "hatred", "hate")),
    SpecialRule("causes-fear", "trait", "causes fear: a warrior it charges tests or needs 6s to hit", "fear-charged",
                names=("causes fear", "fear", "fearsome", "terror")),
    SpecialRule("immune-to-fear", "trait", "takes no fear tests", "fear-immune-causers", names=("immune to fear",)),
    SpecialRule("immune-to-psychology", "trait", "takes no fear, stupidity or all alone tests", "immune-to-psychology",
                names=("immune to psychology", "immune", "unbreakable")),
    SpecialRule("large-target", "trait", "+1 to be shot at; larger than men for core2's critical charts", "large-target",
                names=("large target", "large", "large creature")),
    SpecialRule("animal", "trait", "an animal: fights with teeth and claws, every Attack at its own Strength, none of the fist rules",
                "animals-ignore-fist", names=("animal", "beast", "monster")),
    # not an animal (Zombies, Ghouls, the Possessed, Trolls): the lists' "no weapons or armour"
    SpecialRule("no-weapons", "trait", "uses no weapons: fights with its own body, every Attack at its own Strength, none of "
                "the fist rules", "animals-ignore-fist",
                names=("no weapons", "no weapons or armour", "creature", "unarmed creature", "natural weapons", "fights unarmed")),
    SpecialRule("stupidity", "trait", "tests Leadership at the start of his turn; on a failure does not fight", "stupidity",
                names=("stupidity", "stupid"), modelled=("lrb", "core"),
                not_modelled_why="core2's Stupidity (004:700) depends on friends within 6\", which a fight does not know"),
    SpecialRule("always-strikes-first", "trait", "always strikes first (000:665: equipment, skills and spells)", "charge-strike-first",
                names=("strike first", "strikes first", "always strikes first")),
    SpecialRule("undead", "trait", "Undead: blessed water wounds it", "blessed-water", names=("undead",)),
    SpecialRule("daemon", "trait", "a Daemon: blessed water wounds it", "blessed-water", names=("daemon", "demon")),
    SpecialRule("possessed", "trait", "Possessed: blessed water wounds it", "blessed-water", names=("possessed",)),
    SpecialRule("no-pain", "trait", "treats stunned as knocked down", UNDEAD_SOURCE, names=("no pain",)),
    SpecialRule("regeneration", "trait", "ignores each wound on a 4+ (a fire attack excepted)", ORC_SOURCE, names=("regeneration", "regenerates")),
    SpecialRule("charge-attack", "trait", "+1 Attack in the turn it charges", UNDEAD_SOURCE + " (Dire Wolves, 'Charge')",
                names=("charge", "charge attack", "+1 attack on the charge")),
    # skills (not in the seeds: INVENTORY §1)
    SpecialRule("mighty-blow", "trait", "+1 Strength in close combat", SKILLS_SOURCE, names=("mighty blow",)),
    SpecialRule("resilient", "trait", "-1 Strength to close-combat hits against him (not to save modifiers)", SKILLS_SOURCE,
                names=("resilient",)),
    SpecialRule("strike-to-injure", "trait", "+1 on injury rolls he causes in close combat", SKILLS_SOURCE, names=("strike to injure",)),
    SpecialRule("step-aside", "trait", "an unmodified 5+ save against each close-combat wound, after armour", SKILLS_SOURCE,
                names=("step aside",)),
    SpecialRule("web-of-steel", "trait", "+1 on his close-combat critical rolls", SKILLS_SOURCE, names=("web of steel",)),
    SpecialRule("lightning-reflexes", "trait", "strikes first against those who charged him", SKILLS_SOURCE, names=("lightning reflexes",)),
    SpecialRule("strongman", "trait", "double-handed weapons without striking last", SKILLS_SOURCE, names=("strongman", "strong man")),
    SpecialRule("unstoppable-charge", "trait", "+1 WS in the turn he charges", SKILLS_SOURCE, names=("unstoppable charge",)),
    SpecialRule("expert-swordsman", "trait", "re-rolls missed sword attacks in the turn he charges", SKILLS_SOURCE,
                names=("expert swordsman",)),
    SpecialRule("dodge", "trait", "an unmodified 5+ to avoid each missile hit", SKILLS_SOURCE, names=("dodge",)),
    # rules of warband lists (rules_data/warbands/lists, each naming its source)
    SpecialRule("hard-to-kill", "trait", "injury 1-2 knocked down, 3-5 stunned, only a 6 out of action",
                "Dwarf Treasure Hunters list (Town Cryer 4, Mordheim Annual 2002); Pit Fighters (Town Cryer 14)",
                names=("hard to kill",)),
    SpecialRule("hard-head", "trait", "maces, clubs and hammers get no concussion against him",
                "Dwarf Treasure Hunters list (Town Cryer 4, Mordheim Annual 2002); Pit Fighters (Town Cryer 14)",
                names=("hard head",)),
    SpecialRule("perfect-killer", "trait", "his attacks give an extra -1 to the enemy's armour save", "Mordheim rulebook (2000), Skaven",
                names=("perfect killer",)),
]

# The warband lists' special-rule ids (rules_data/warbands/, issue 8) that a stored warrior's
# type brings, as the trait the combat engine plays. A hatred of particular enemies is played as
# hatred of every enemy in the fight (the bot does not know who is who); the answer says so.
LIST_RULES: dict[str, str] = {
    "fear": "causes-fear", "frenzy": "frenzy", "hatred": "hates", "stupidity": "stupidity",
    "immune-to-fear": "immune-to-fear", "immune-to-psychology": "immune-to-psychology", "crazed": "immune-to-psychology",
    "no-pain": "no-pain", "large-target": "large-target", "animal": "animal", "no-weapons-or-armour": "no-weapons",
    "regeneration": "regeneration", "expert-swordsmen": "expert-swordsman", "pack-charge": "charge-attack",
    "unnatural-strength": "strongman", "hard-to-kill": "hard-to-kill", "hard-head": "hard-head",
    "perfect-killer": "perfect-killer",
}
TARGETED_LIST_RULES: dict[str, str] = {  # hatreds of some enemies, and stupidity unless a master is near
    "kindred-hatred": "hates", "hate-chaos": "hates", "hate-dark-elves": "hates", "hate-greenskins": "hates",
    "hates-greenskins": "hates", "burn-the-witch": "hates", "rat-ogre-stupidity": "stupidity",
}

# What a stored warrior's race makes him for the rules that ask (a holy weapon's +1 to wound, 000:1405's
# blessed water): the races of rules_data/warbands that are Undead, Possessed or Daemons (the
# Undead, Tomb Guardians, Cult of the Possessed and Carnival of Chaos lists). Ghouls are living
# cannibals and a Tomb Scorpion a living beast (Town Cryer 18): neither is here.
RACE_TRAITS: dict[str, str] = {
    "vampire": "undead", "zombie": "undead", "dire-wolf": "undead", "tomb-lord": "undead", "liche-priest": "undead",
    "skeleton": "undead", "possessed": "possessed", "plaguebearer": "daemon", "nurgling": "daemon",
}

REGISTRY: dict[str, SpecialRule] = {r.id: r for r in _RULES}
TRAITS: dict[str, SpecialRule] = {r.id: r for r in _RULES if r.family == "trait"}
TRAIT_NAMES: dict[str, str] = {name: r.id for r in TRAITS.values() for name in r.names}


def require(rule_id: str) -> str:
    """``rule_id`` itself if the engine knows it; ``UnknownRule`` otherwise."""
    if rule_id not in REGISTRY:
        raise UnknownRule(f"unknown special-rule id {rule_id!r}; add it to engine/combat/special_rules.py or fix the spelling")
    return rule_id


def require_all(rule_ids, family: str, where: str) -> frozenset[str]:
    """Check a data file's list of ids: every one known and of ``family``."""
    for rule_id in rule_ids:
        require(rule_id)
        if REGISTRY[rule_id].family != family:
            raise UnknownRule(f"{where}: {rule_id!r} is a {REGISTRY[rule_id].family} rule, not a {family} rule")
    return frozenset(rule_ids)
