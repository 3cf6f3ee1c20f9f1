"""Every seed line the combat engine cites says what the engine claims it says.

The citations live in one table (engine/combat/citations.py); each names the words its line
must contain. A log line may only cite lines of that table.
"""

import random
import re
from pathlib import Path

import pytest

from engine.combat import make_fighter, resolve_round, resolve_shot
from engine.combat.citations import RULES, SEED_FILES, cite
from engine.combat.special_rules import REGISTRY, TRAITS, UnknownRule, require

REPO = Path(__file__).resolve().parents[2]
# the seed rulebooks sit in shared/seeds beside the repository (or beside the worktrees' folder)
SEEDS = next((p / "shared" / "seeds" for p in REPO.parents if (p / "shared" / "seeds").is_dir()), REPO / ".." / "shared" / "seeds")
CITED = re.compile(r"\b(00[0-4]:\d+(?:-\d+)?)\b")


def seed_text(line: str) -> str:
    file, _, lines = line.partition(":")
    first, _, last = lines.partition("-")
    text = (SEEDS / SEED_FILES[file]).read_text(encoding="utf-8").splitlines()
    assert 1 <= int(first) <= int(last or first) <= len(text), line
    return " ".join(" ".join(text[int(first) - 1:int(last or first)]).lower().split())


def every_source():
    for rule_id, rule in RULES.items():
        for edition in ("lrb", "core", "core2"):
            source = getattr(rule, edition)
            if source is not None:
                yield pytest.param(rule_id, edition, source, id=f"{rule_id}-{edition}")


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed rulebooks are not beside the project")
@pytest.mark.parametrize("rule_id,edition,source", list(every_source()))
def test_each_cited_line_contains_the_rules_key_words(rule_id, edition, source):
    assert source.words, rule_id
    text = seed_text(source.line)
    for word in source.words:
        assert " ".join(word.lower().split()) in text, (rule_id, edition, source.line, word)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed rulebooks are not beside the project")
def test_a_line_of_the_wrong_edition_or_a_wrong_line_would_be_caught():
    # the check above really reads the seeds: the parry rule is not on the cover modifier's line
    assert "impossible to parry" in seed_text(cite("parry"))
    assert "impossible to parry" not in seed_text(cite("cover"))
    assert cite("crit-hammered", "core2") == "004:408" and cite("crit-hammered", "core") == "002:680"
    assert cite("knocked-down-auto-hit") == "000:779" and cite("parry-double-strength") == "000:775"
    assert cite("cover") == "000:543" and cite("long-range") == "000:544" and cite("bs-chart", "core2") == "004:343-345"
    assert cite("crit-exposed-spot") == "000:571" and cite("crit-master-strike") == "000:572"


FIGHTS = [  # between them they reach the steps that cite something
    ("lrb", dict(profile="WS4 S4 A4", weapons="sword", armour="light armour, helmet", traits="hates"),
     dict(profile="WS4 T4 A4 W2", weapons="sword", armour="heavy armour, buckler"), {}),
    ("core", dict(profile="WS4 S4 A3", weapons="hammer", equipment="crimson shade"),
     dict(profile="WS3 A2 W2", weapons="sword, sword", armour="helmet", equipment="lucky charm"), {}),
    ("core2", dict(profile="WS4 S4 A3", weapons="spear, dagger", equipment="black lotus", traits="causes fear"),
     dict(profile="WS3 W2", weapons="axe, axe", armour="light armour"), {}),
    ("core2", dict(profile="WS4 A2", weapons="sword"), dict(profile="WS3 W3", weapons="sword", state="stunned"), {"charged": False}),
    ("lrb", dict(profile="WS3 A2", weapons="sword"), dict(profile="WS3", weapons="sword", state="stunned"), {"charged": False}),
    ("lrb", dict(profile="WS3 S6 A2", weapons="double-handed sword"), dict(profile="WS3", weapons="sword", state="knocked down"), {}),
    ("core", dict(profile="WS3 A2", weapons="fist"), dict(profile="WS0 W2", weapons="fist"), {"first_round": False}),
    ("lrb", dict(profile="WS3 BS4", weapons="sword, crossbow pistol"), dict(profile="WS3 W2", weapons="sword"), {}),
]


@pytest.mark.parametrize("edition,a,b,kw", FIGHTS)
def test_every_citation_in_a_log_is_in_the_table(edition, a, b, kw):
    known = {source.line for rule in RULES.values() for source in (rule.lrb, rule.core, rule.core2) if source}
    seen = set()
    for seed in range(60):
        result = resolve_round(make_fighter("A", **a), make_fighter("B", **b), random.Random(seed), edition=edition, **kw)
        for line in result.lines + [n for notes in result.kit.values() for n in notes]:
            seen |= set(CITED.findall(line))
    assert seen, "these fights cite nothing?"
    assert seen <= known, seen - known


def test_shot_logs_cite_only_the_table():
    known = {source.line for rule in RULES.values() for source in (rule.lrb, rule.core, rule.core2) if source}
    shooter = make_fighter("S", "BS4", equipment="hunting arrows")
    target = make_fighter("T", "T3 W2", armour="light armour", traits="large target", equipment="elven cloak")
    for edition in ("lrb", "core", "core2"):
        for seed in range(20):
            result = resolve_shot(shooter, target, "bow", random.Random(seed), edition=edition, range_inches=20, cover=True, moved=True)
            assert set(CITED.findall(" ".join(result.lines))) <= known


def test_special_rule_ids_are_checked():
    assert require("parry") == "parry"
    with pytest.raises(UnknownRule):
        require("strike-frist")
    sword = make_fighter("A", weapons="sword").weapons[0]
    assert sword.has("parry") and not sword.has("concussion")
    with pytest.raises(UnknownRule):
        sword.has("parri")
    assert set(TRAITS) <= set(REGISTRY)
    for trait in TRAITS.values():
        assert trait.names, trait.id


def test_fall_and_injury_logs_cite_only_the_table():
    from engine.combat import roll_injury
    from engine.combat.falling import roll_fall

    known = {source.line for rule in RULES.values() for source in (rule.lrb, rule.core, rule.core2) if source}
    who = make_fighter("W", "T3 W1 I3", armour="helmet", equipment="mandrake root")
    seen = set()
    for seed in range(30):
        seen |= set(CITED.findall(" ".join(roll_fall(who, 6, random.Random(seed), jump=True).lines)))
        seen |= set(CITED.findall(" ".join(roll_injury(random.Random(seed), concussion=True, helmet=True).steps)))
    assert seen and seen <= known, seen - known
