"""Name and profile checks: every input is either accepted or refused with the engine's own error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.errors import MordheimError
from engine.campaign.rules.validation import NAME_MAX, clean_name, clean_profile, name_key


@given(st.text(max_size=80))
def test_any_text_is_a_valid_name_or_a_mordheim_error(text):
    try:
        name = clean_name(text)
    except MordheimError as exc:
        assert exc.message
    else:
        assert 1 <= len(name) <= NAME_MAX and name == name.strip()
        assert "@everyone" not in name.lower() and "<@" not in name


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
