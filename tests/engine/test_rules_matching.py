"""Lookup that forgives real typing (issue 19 §4): words typed apart or together, misspelt
words read in their context, and questions found by what they ask about."""

from __future__ import annotations

import random

import pytest

from engine.rules import load_library
from engine.rules.matching import Speller
from engine.rules.questions import QuestionTopics
from engine.rules.text import QueryRewriter


@pytest.fixture(scope="module")
def lib():
    return load_library()


# ---------------------------------------------------------------- the speller on its own

@pytest.fixture(scope="module")
def speller():
    names = ["Soulfire", "Gnawdoom", "Dark Blood", "Hochland long rifle", "Characteristic profiles",
             "Long bow", "Wings of Darkness"]
    bodies = ["A long bow shoots far.", "The profile of a human.", "Cast with dark blood."]
    return Speller(names, bodies, known=frozenset({"kd", "bs", "of"}))


def test_words_typed_apart_read_as_the_one_word_of_a_name(speller):
    assert speller.mend("soul fire") == "soulfire"
    assert speller.mend("gnaw doom") == "gnawdoom"
    assert speller.mend("gnaw dom") == "gnawdoom"  # joined, then mended
    assert speller.mend("long bow") == "long bow"  # a name as typed stays as it is


def test_words_typed_together_split_where_the_rules_have_them_side_by_side(speller):
    assert speller.mend("darkblood") == "dark blood"
    assert speller.mend("wingsof darkness") == "wings of darkness"
    assert speller.mend("soulfire") == "soulfire"


def test_a_misspelt_word_is_read_in_the_context_of_the_other_words(speller):
    assert speller.mend("hochlnad long rfile") == "hochland long rifle"
    assert speller.mend("kd bs") == "kd bs"  # abbreviations are not mended


def test_corrections_say_what_was_read_as_what(speller):
    assert speller.corrections("soul fire") == [("soul fire", "soulfire")]
    assert speller.corrections("darkblood") == [("darkblood", "dark blood")]
    assert speller.corrections("long bow") == []


def test_question_topic_is_the_first_word_that_names_a_chapter():
    rewriter = QueryRewriter({"fire": "shooting"}, ["can", "i", "at", "in"])
    topics = QuestionTopics({"shooting": ["shoot"], "close-combat": ["fighting", "combat"],
                             "psychology": ["leader"]}, rewriter)
    assert topics.topic(rewriter.content_words("can I shoot at someone fighting in combat")) == "shooting"
    assert topics.topic(rewriter.content_words("fire at someone fighting")) == "shooting"
    assert topics.topic(rewriter.content_words("fighting and shooting")) == "close-combat"
    assert topics.topic(rewriter.content_words("my leader is out of action")) == "psychology"
    assert topics.topic(rewriter.content_words("sword")) is None


# ---------------------------------------------------------------- through the lookup

@pytest.mark.parametrize("typed, expected", [
    ("soul fire", "lrb/magic/soulfire"),
    ("warp fire", "lrb/magic/warpfire"),
    ("gnaw doom", "lrb/magic/gnawdoom"),
    ("darkblood", "lrb/magic/dark-blood"),
    ("crossbowpistol", "lrb/weapons/crossbow-pistol"),
    ("hochlnad long rfile", "lrb/weapons/hochland-long-rifle"),
])
def test_split_joined_and_misspelt_names_are_found(lib, typed, expected):
    result = lib.lookup(typed)
    assert result.entry is not None and result.entry.id == expected, (result.entry, result.suggestions[:3])


def test_question_about_the_leader_out_of_action_finds_the_rout_rules_not_an_item(lib):
    result = lib.lookup("what happens if my leader is out of action")
    assert result.entry.id in {"lrb/psychology/rout-test", "lrb/psychology/leaders"}


def test_question_about_shooting_into_combat_finds_the_shooting_rule_that_forbids_it(lib):
    assert lib.lookup("can I shoot at someone fighting in combat").entry.id == "lrb/shooting/closest-target"


def test_an_item_still_answers_a_question_that_names_it(lib):
    assert lib.lookup("what does a cathayan silk cloak do").entry.id == "lrb/equipment/cathayan-silk-cloak"
    assert lib.lookup("can a necromancer raise a dead hero").entry.id == "lrb/magic/spell-of-awakening"


def test_autocomplete_completes_names_whatever_the_spaces(lib):
    assert ("Soulfire", "lrb/magic/soulfire") in lib.suggest("soul f")
    assert ("Gnawdoom", "lrb/magic/gnawdoom") in lib.suggest("gnaw d")
    assert ("Dark Blood", "lrb/magic/dark-blood") in lib.suggest("darkbl")


def test_every_question_topic_is_a_chapter_of_the_rules(lib):
    chapters = {e.id.split("/")[1] for e in lib.entries() if "/" in e.id}
    assert lib.topics.chapters and lib.topics.chapters <= chapters


# ---------------------------------------------------------------- every name, mistyped

SLIPS = ("swap", "drop", "double", "change")
TYPO_TARGET = 0.95


def mistyped(word: str, rng: random.Random) -> str:
    """``word`` with one slip of the fingers inside it (never its first or last letter)."""
    at = rng.randrange(1, len(word) - 2)
    slip = rng.choice(SLIPS)
    if slip == "swap":
        return word[:at] + word[at + 1] + word[at] + word[at + 2:]
    if slip == "drop":
        return word[:at] + word[at + 1:]
    if slip == "double":
        return word[:at] + word[at] + word[at:]
    return word[:at] + rng.choice("aeiounrst") + word[at + 1:]


def test_every_name_is_found_through_one_slip_a_missing_space_or_an_extra_one(lib):
    """Each rules section and item of the 2005 rulebook, its longest word mistyped, its first two
    words typed together, or a long one-word name typed in two: the lookup answers with it."""
    rng = random.Random(19)
    tried, found, missed = 0, 0, []
    for entry in lib.entries("lrb"):
        if entry.kind == "background" or entry.id.count("/") < 2:
            continue
        words = entry.title.lower().split()
        longest = max(range(len(words)), key=lambda n: len(words[n]))
        variants = []
        if len(words[longest]) >= 5:
            variants.append(" ".join(words[:longest] + [mistyped(words[longest], rng)] + words[longest + 1:]))
        if len(words) >= 2:
            variants.append(" ".join(["".join(words[:2]), *words[2:]]))
        elif len(words[0]) >= 8:
            variants.append(f"{words[0][:len(words[0]) // 2]} {words[0][len(words[0]) // 2:]}")
        same_title = {e.id for e in lib.entries("lrb") if e.title.lower() == entry.title.lower()}
        for typed in variants:
            tried += 1
            result = lib.lookup(typed)
            if result.entry is not None and result.entry.id in same_title:
                found += 1
            else:
                missed.append((typed, entry.id, result.entry and result.entry.id))
    assert tried > 300 and found / tried >= TYPO_TARGET, missed
