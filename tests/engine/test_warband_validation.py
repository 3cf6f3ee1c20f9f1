"""Name and profile checks: every input is either accepted or refused with the engine's own error."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MordheimError
from engine.campaign.rules.validation import NAME_MAX, clean_name, clean_notes, clean_profile, name_key


ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=80)  # lone surrogates too


@settings(deadline=None)  # the first normal forms of a run fill Python's tables: slow on a busy machine
@given(ANY_TEXT)
def test_any_text_is_a_valid_name_or_a_mordheim_error(text):
    try:
        name = clean_name(text)
    except MordheimError as exc:
        assert exc.message
    else:
        assert 1 <= len(name) <= NAME_MAX and name == name.strip()
        assert "@everyone" not in name.lower() and "<@" not in name
        assert unicodedata.is_normalized("NFKC", name)
        assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in name)
        name.encode("utf-8")  # storable: no lone surrogate


@settings(deadline=None)
@given(ANY_TEXT)
def test_a_name_accepted_is_its_own_lookalike(text):
    """The name stored compares equal to what was typed: a member finds it by typing it again."""
    try:
        name = clean_name(text)
    except MordheimError:
        return
    assert name_key(name) == name_key(text) == name_key(name_key(name))


@settings(deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=200))
def test_any_text_is_valid_notes_or_a_mordheim_error(text):
    try:
        notes = clean_notes(text)
    except MordheimError as exc:
        assert exc.message
    else:
        notes.encode("utf-8")  # storable: no lone surrogate
        assert "\u202e" not in notes and "\x00" not in notes


@given(st.dictionaries(st.sampled_from(["M", "ws", "BS", "s", "T", "w", "I", "a", "LD", "X"]),
                       st.one_of(st.integers(-5, 15), st.text(max_size=3), st.none())))
def test_any_profile_is_checked_or_refused(values):
    try:
        profile = clean_profile(values, partial=True)
    except MordheimError:
        return
    assert all(0 <= v <= 10 for v in profile.values())


def test_name_key_ignores_case_and_spacing():
    assert name_key("  The   IRON wolves ") == name_key("the iron Wolves")


@pytest.mark.parametrize("lookalike", [
    "Ａｌｐｈａ",            # full-width letters
    "ALPHA", "alpha", " Alpha ",
    "Al\u200bpha",         # a zero-width space
    "Al\u200dpha",         # a zero-width joiner
    "\ufeffAlpha",         # a byte-order mark
    "Ａｌｐｈａ\u00ad",      # a soft hyphen
])
def test_names_that_look_the_same_have_one_key(lookalike):
    assert name_key(lookalike) == name_key("Alpha") == "alpha"


@pytest.mark.parametrize("a, b", [("ﬁre", "FIRE"), ("Straße", "STRASSE"), ("Ⅻ Lords", "xii lords"),
                                  ("Cafe\u0301", "CAFÉ"), ("Vé\u3000Band", "ve\u0301 band")])
def test_compatibility_forms_case_and_accents_written_two_ways_compare_equal(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("a, b", [("Alpha", "Alpha 2"), ("Café", "Cafe"), ("Ålborg", "Alborg")])
def test_names_that_look_different_stay_different(a, b):
    assert name_key(a) != name_key(b)


def test_names_are_kept_in_their_normal_form():
    assert clean_name("  Ａｌｐｈａ  ") == "Alpha"
    assert clean_name("Cafe\u0301") == "Café" and len(clean_name("Cafe\u0301")) == 4


@pytest.mark.parametrize("text, said", [
    ("Al\u200bpha", "U+200B ZERO WIDTH SPACE"),
    ("Al\u202epha", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Al\x00pha", "U+0000, a control character"),
    ("Al\ud800pha", "U+D800"),
])
def test_a_refused_character_is_named_with_how_to_fix_it(text, said):
    with pytest.raises(MordheimError) as err:
        clean_name(text, "The warband name")
    assert said in err.value.message and "Type it again without that character" in str(err.value)


@pytest.mark.parametrize("text, said", [("see \u202eevil", "U+202E"), ("a\x00b", "U+0000"), ("half \udc00", "U+DC00")])
def test_notes_refuse_reordering_control_and_half_characters(text, said):
    with pytest.raises(MordheimError) as err:
        clean_notes(text)
    assert said in err.value.message


def test_notes_keep_lines_tabs_and_emoji():
    assert clean_notes(" line one\n\tline two 👨\u200d👩\u200d👧 ") == "line one\n\tline two 👨\u200d👩\u200d👧"
