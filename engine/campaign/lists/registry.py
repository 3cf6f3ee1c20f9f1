"""Every special-rule id the warband data uses, and where the engine applies it (or that it is shown only).

The lists, hired swords and Dramatis Personae (rules_data/warbands/) name their special rules by
id. An id means the same thing everywhere: in hiring checks, in fights and in the post-battle
sequence. This registry says, for every id the bundled data uses, which part of the engine
applies it; the rest are shown only (``/rule``, the rules of a warrior on his card, and named
as "not modelled" when a fight meets them). ``tests/engine/test_rule_registry.py`` fails when
the data uses an id that is in none of these, so a new or misspelt id is seen at once.

It also lists the skills the data names (a character's or hired sword's skills) that no skill
list holds: supplement skills given to one character only. The loader's checks accept those
names and no other unknown one (checks.py ``_check_skill_names``).
"""

from __future__ import annotations

#: Rules a fight applies when it meets a warband's warrior (cogs/_ui/combat_options.py reads the
#: warrior's rule ids): each id -> the combat trait it fights as. The same as LIST_RULES and
#: TARGETED_LIST_RULES of engine/combat/special_rules.py (a test keeps them equal; importing
#: the combat package here would tie the warband lists to it in a circle through the rules library).
COMBAT: dict[str, str] = {
    "fear": "causes-fear", "frenzy": "frenzy", "hatred": "hates", "stupidity": "stupidity",
    "immune-to-fear": "immune-to-fear", "immune-to-psychology": "immune-to-psychology",
    "crazed": "immune-to-psychology", "no-pain": "no-pain", "large-target": "large-target", "animal": "animal",
    "no-weapons-or-armour": "no-weapons", "regeneration": "regeneration", "expert-swordsmen": "expert-swordsman",
    "pack-charge": "charge-attack", "unnatural-strength": "strongman", "hard-to-kill": "hard-to-kill",
    "hard-head": "hard-head", "perfect-killer": "perfect-killer", "kindred-hatred": "hates", "hate-chaos": "hates",
    "hate-dark-elves": "hates", "hate-greenskins": "hates", "hates-greenskins": "hates", "burn-the-witch": "hates",
    "rat-ogre-stupidity": "stupidity",
}

#: Rules the campaign engine applies, each with where.
CAMPAIGN: dict[str, str] = {
    "traders": "trading.search_modifiers: +1 to every hero's rare-item roll (effects.rare_item_search)",
    "desert-trader": "trading.search_modifiers: +1 to every hero's rare-item roll (effects.rare_item_search)",
    "plague-cart": "roster.size_limit: the warband's maximum size grows by the cart's effects.max_warriors",
    "gains-no-experience": "postbattle.apply_experience: the warrior gains no experience after a battle",
    # Rules whose numbers the lists now hold as data (issue 16): the id names the rule, the data applies it.
    "bear-handler": "list_limits: a Trained Bear only with a Bear Tamer (the Kislevites' only-with limit); his 6\" is shown only",
    "beasthound-handler": "list_limits: Beasthounds only with a Beastmaster (the Dark Elves' only-with limit); "
                          "leaving with him is shown only",
    "bow-duty": "list_limits: every outlaw but the Cleric carries a bow (must-carry); 'no other missile weapon' is shown only",
    "fighting-styles": "buying and prices: a style is a package that gives its items (the items' contents and choices)",
    "mutations": "prices.later_multiple: each mutation after the first at double; list_limits: a Mutant's first (must-carry); "
                 "'only at recruitment' is shown only",
    "nurgles-blessings": "prices.later_multiple and list_limits: as the Cult's mutations, for the Tainted Ones' blessings",
    # Rules that forbid kinds of kit (their ``forbids``; no-weapons-or-armour, under COMBAT, forbids all four the same way):
    # /trade buy, /trade give, the buy menu and /warband check refuse those kinds and the items that count as them.
    "no-armour": "roster.carry_refusal: never armour (forbids)",
    "no-armour-shaman": "roster.carry_refusal: never armour (forbids)",
    "taal-no-armour": "roster.carry_refusal: never armour (forbids)",
    "no-missiles-for-saurus": "roster.carry_refusal: never missile or blackpowder weapons (forbids); 'no Academic skills' is shown only",
    "no-armour-no-missiles": "roster.carry_refusal: never armour, missile or blackpowder weapons (forbids)",
    "slayer-gear": "roster.carry_refusal: never armour, missile or blackpowder weapons (forbids)",
}

#: Rules the engine shows but does not apply (their summaries say what they do).
SHOWN_ONLY: frozenset[str] = frozenset({
    "always-hungry", "amazon", "amazon-rituals", "ancient-enemies", "animal-handler", "animosity", "aquatic",
    "armour-is-rare", "armourer", "assassin-skills", "bear-hug",
    "beastmen-no-hirelings", "beastmen-shaman-gear", "beastmen-vengeance", "berserker", "bestial", "bio-machinery",
    "bite", "bitter-enemies", "black-orc-animosity", "black-orc-blood", "black-orc-save", "blessed-sight",
    "blessing-of-the-lady", "bloodgreed", "blunt-weapons", "captains-wardog", "capture",
    "cart-guardian", "chameleon-skin", "chaos-rituals", "cloak-and-dagger", "cloud-of-flies", "cold-blooded",
    "combat-riding-henchmen", "concealment", "conch-shell-horn", "convincing-manner", "cook", "cooking-pot",
    "crack-shot", "cursed", "cutpurse", "daemonic-aura", "daemonic-instability", "dangerous-to-know", "dark-magic",
    "darting-steel", "dead-eye-shot", "deathwish", "decay-of-ages", "devout", "disarm", "disciple-of-sigmar",
    "distaste-for-poison", "distasteful-company", "djinn-master", "djinn-powers", "do-not-drink", "drunk",
    "drunken", "drunken-gang", "dwarf-armour", "dwarf-grudge", "dwarf-hard-head", "dwarf-hard-to-kill",
    "elemental-magic", "elf-grudge", "elven-craft", "elven-skills", "ethereal", "evade", "evil-only",
    "excellent-reflexes", "excellent-sight", "expert-bowmen", "expert-pistolier", "expert-rider", "expert-riggers",
    "expert-weaponsmith", "explorer", "extra-set-of-hands", "fanatical", "fears-snakes", "fey", "fiercely-loyal",
    "finders-keepers", "fistful-of-crowns", "flammable", "free-the-slaves", "funerary-rites",
    "goblin-animosity", "goblin-magic", "good-only", "grudgebearer", "grudgebearers", "gun-rest", "gunnery-hunter",
    "gunnery-leader", "halfling-promotion", "hang-the-bandit", "hardened", "hardy", "hated-by-vampires",
    "hates-dark-elves-remas", "hates-skaven", "hates-undead", "heart-strike", "high-matriarch", "home-ground",
    "horse-handling", "hunter-prayers-of-taal", "hunters-cloak", "ill-take-that", "immune-to-poison",
    "impeccable-care", "in-sigmars-name", "in-the-pit", "incomparable-miners", "infiltrate", "infiltrator",
    "inheritance", "inscribe-runes", "inseparable", "inspired-cooking", "inured-to-pain", "invincible-swordsman",
    "isolationists", "jungle-born", "keen-eyesight", "kislev-hirelings", "kit", "knife-fighter-extraordinaire",
    "knights-virtue", "kroxigor-halberd", "lay-of-the-land", "leader", "lethal-marksman", "life-of-slavery",
    "living-scorpion", "lizardmen-magic", "loner", "looting-the-dead", "lowest-of-the-low",
    "magic-of-the-horned-rat", "man-hater", "mark-of-the-serpent", "marketeer", "master-wizard", "may-not-run",
    "melee-specialist", "merchant-skills", "metal-body", "metallic-body", "military-discipline", "minderz",
    "minotaur-brute", "miraglean-crossbowmen", "mortuary-scrolls", "mounted", "mule-skinner-skills",
    "myths-and-legends", "natives", "natural-stealth", "necromancy", "never-escape-your-past",
    "no-blackpowder", "no-elf-rangers", "no-magic", "no-new-skills", "no-respect", "no-time-for-you", "norse-runes", "not-a-fighter",
    "not-orcs", "nurgle-rituals", "oi-behave", "old-coot", "one-battle", "one-with-the-jungle",
    "outgrow-animosity", "pack-leader", "pathfinder-skill", "pathfinder-skills", "pawnbroker", "payment-in-blood",
    "pestilens-rat-ogre", "pestilens-sorcery", "physical-prowess", "pick-locks", "pirate-hired-swords",
    "pirate-succession", "pit-fighter", "poisoner", "poisonous-bite", "potions", "prayers-of-sigmar",
    "prayers-of-taal", "prayers-of-ulric", "predator", "quick-reload", "ranger-skills", "recluse", "red-toof",
    "reluctant", "remasen-leadership", "renegade", "rivals", "rune-use", "runes", "runts", "savage", "scaly-skin-6",
    "scaly-skin-kroxigor", "scaly-skin-saurus", "scaly-skin-skink", "scorpion-sting", "scout-skills", "scythe",
    "seafaring", "seeker", "self-sufficient", "set-traps", "shadow-magic", "shadows-embrace", "shut-it",
    "sigmars-handmaiden", "sigmars-reward", "skull-rack", "slayer-skills", "slick-operator",
    "slow-witted", "sluggas", "snake-charmer", "snake-hunter", "sneaky", "son-of-the-desert", "songster",
    "spider-rider", "spiked-gauntlet", "squig-movement", "steady-hands", "stern", "stream-of-corruption",
    "stubborn", "swabbie", "swarm", "swivel-gun-crew", "swordmaster", "taal-no-heavy-armour",
    "taal-strictures", "tainted", "tea-leaf", "thief-skills", "thiefs-cloak", "tolerant", "torturers-grapple",
    "trailblazers", "trained", "trample", "trantio-wealth", "treasure-maps", "troll-hungry", "troll-regeneration",
    "troll-vomit", "unblinking-eye", "uneasy-ally", "unforgiving", "unreliable", "unscrupulous", "unstable",
    "venomous", "vomit-attack", "waaagh-magic", "wanderer", "warhorse", "warpfire-thrower", "weak-constitution",
    "weapon-knowledge", "weapons-master", "weapons-of-choice", "wheres-the-money", "whip-swing", "whos-da-man",
    "wizard", "wolf-cloak", "woodcraft", "woodland-dwelling"
})

#: Skills a hired sword or character has that are on no skill list (supplement skills of one
#: character), with whose they are. They are shown by name only.
NAMED_ONLY_SKILLS: dict[str, str] = {
    "Trap Expert": "the Tomb Robber (Town Cryer, Khemri setting)",
    "Tomb Explorer": "Heinrich 'Altdorf' Schmidt (Town Cryer 21)",
    "Whip Master": "Heinrich 'Altdorf' Schmidt (Town Cryer 21); the Mule Skinner's own skills name it too",
    "Luck": "Heinrich 'Altdorf' Schmidt (Town Cryer 21)",
    "Weapon Master": "Penthesilea (Town Cryer 15, Lustria setting)",
}


def where_applied(rule_id: str) -> str | None:
    """Where the engine applies ``rule_id`` ('combat: ...', 'campaign: ...', 'shown only'); None: an id it does not know."""
    if rule_id in COMBAT:
        return f"combat: fights as {COMBAT[rule_id]}"
    if rule_id in CAMPAIGN:
        return f"campaign: {CAMPAIGN[rule_id]}"
    if rule_id in SHOWN_ONLY:
        return "shown only"
    return None
