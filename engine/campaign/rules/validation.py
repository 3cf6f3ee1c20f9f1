"""Checks on what members type: names, profiles, amounts. Each failure says how to fix it."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from collections.abc import Iterable, Mapping
from typing import Any

from engine.campaign.model import NAME_MAX, RESULTS, ROLES, STATUSES, name_key  # noqa: F401 - part of this module's checks
from engine.errors import LimitExceeded, MordheimError
from engine.profile import CHARACTERISTICS, MAX_CHARACTERISTIC, MIN_CHARACTERISTIC

NOTES_MAX = 1000
LIST_MAX = 40  # equipment, skills or injuries on one warrior
CHARACTERISTIC_MIN, CHARACTERISTIC_MAX = MIN_CHARACTERISTIC, MAX_CHARACTERISTIC
MAX_GOLD = 1_000_000
MAX_WYRDSTONE = 10_000
MAX_EXPERIENCE = 999
# Discord would turn these into pings or mentions; the bot also sends with mentions disabled.
FORBIDDEN_IN_NAMES = ("@everyone", "@here", "<@", "<#")
# Characters that reorder the text around them (right-to-left overrides, isolates, marks): a
# name holding one displays differently from what it is.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_NOT_IN_NAMES = ("Cc", "Cf", "Cs", "Zl", "Zp")  # control, format, lone surrogate, line and paragraph separators
SAME_NAME_HINT = ("Names are compared as they look: case, spacing and full-width letters make no difference. "
                  "Choose another name.")
TYPE_IT_AGAIN = ("Type it again without that character: text copied from a web page or a chat often "
                 "carries invisible ones.")


def unwanted_character(ch: str) -> str | None:
    """What ``ch`` is, in words, if a name may not hold it (an invisible or reordering character);
    ``None`` if it may."""
    category = unicodedata.category(ch)
    if ch in _BIDI_CONTROLS:
        return "an invisible control character that changes the direction of the text around it"
    if category == "Cc":
        return "a control character"
    if category == "Cf":
        return "an invisible formatting character, which would make the name look like another one"
    if category == "Cs":
        return "half of a character pair (a lone surrogate), which is not text"
    if category in ("Zl", "Zp"):
        return "a line break"
    return None


def character_code(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character as the Unicode standard names it."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def clean_name(value: Any, what: str = "Name", *, forbid: str = "") -> str:
    """A stripped name of 1-64 characters, in Unicode's NFKC form (full-width ``Ａ`` is ``A``), with no
    control, formatting or reordering characters and no mentions."""
    if not isinstance(value, str):
        raise MordheimError(f"{what} must be text, not {type(value).__name__}.")
    return _clean_text_name(value, what, forbid)


# Every warrior written is checked whole, and the same names come back again and again (his
# own, his kit's: Sword, Dagger...); a name that passed is remembered instead of being read
# again letter by letter. A refusal raises, so it is never remembered.
@lru_cache(maxsize=4096)
def _clean_text_name(value: str, what: str, forbid: str) -> str:
    if len(value) > 4 * NAME_MAX:  # far past the limit: not worth normalising
        name = value.strip()
    else:
        name = value if value.isascii() else unicodedata.normalize("NFKC", value)
        name = name.strip()
    if not name:
        raise MordheimError(f"{what} is empty or only spaces.", hint=f"Give 1 to {NAME_MAX} characters.")
    if len(name) > NAME_MAX:
        raise LimitExceeded(
            f"{what} is {len(name)} characters long; the limit is {NAME_MAX}.",
            hint=f"Shorten it to {NAME_MAX} characters or fewer.",
        )
    if not name.isascii() or not name.isprintable():
        for ch in name:
            if unicodedata.category(ch) in _NOT_IN_NAMES or ch in _BIDI_CONTROLS:
                raise MordheimError(f"{what} contains {character_code(ch)}, {unwanted_character(ch)}.",
                                    hint=TYPE_IT_AGAIN)
    if not any(unicodedata.category(ch) not in ("Zs", "Mn", "Me") for ch in name):
        raise MordheimError(f"{what} has no visible characters.", hint="Use letters or numbers.")
    lowered = name.lower()
    for bad in FORBIDDEN_IN_NAMES:
        if bad in lowered:
            raise MordheimError(
                f"{what} may not contain `{bad}` (it looks like a Discord mention).",
                hint="Remove the mention from the name.",
            )
    for ch in forbid:
        if ch in name:
            raise MordheimError(f"{what} may not contain `{ch}`.", hint=f"`{ch}` separates names in lookups.")
    return name


def clean_notes(value: Any, what: str = "Notes") -> str:
    """Stripped free text of at most 1,000 characters: lines and tabs allowed, but no other control
    character, nothing that reorders the text around it, and no @everyone or @here."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise MordheimError(f"{what} must be text.")
    notes = value.strip()
    if len(notes) > NOTES_MAX:
        raise LimitExceeded(f"{what} are {len(notes)} characters long; the limit is {NOTES_MAX}.")
    if not notes.isascii() or not notes.isprintable():
        for ch in notes:
            category = unicodedata.category(ch)
            if (category == "Cc" and ch not in "\n\t") or category == "Cs" or ch in _BIDI_CONTROLS:
                raise MordheimError(f"{what} contain {character_code(ch)}, {unwanted_character(ch)}.",
                                    hint=TYPE_IT_AGAIN)
    if "@everyone" in notes.lower() or "@here" in notes.lower():
        raise MordheimError(f"{what} may not contain @everyone or @here.", hint="Remove the mention.")
    return notes


def clean_list(values: Any, what: str) -> list[str]:
    """A list of names (equipment, skills, injuries): each a valid name, at most 40."""
    if values is None:
        return []
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise MordheimError(f"{what} must be a list of names.")
    items = [clean_name(v, f"{what} entry") for v in values]
    if len(items) > LIST_MAX:
        raise LimitExceeded(f"{what} has {len(items)} entries; the limit is {LIST_MAX}.")
    return items


def whole_number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise MordheimError(f"{what} must be a whole number, not `{str(value)[:20]}`.")
    return value


def characteristic(value: Any, what: str) -> int:
    n = whole_number(value, what)
    if not CHARACTERISTIC_MIN <= n <= CHARACTERISTIC_MAX:
        raise MordheimError(
            f"{what} is {n}; characteristics run from {CHARACTERISTIC_MIN} to {CHARACTERISTIC_MAX}.",
            hint=f"Give {what} a value from {CHARACTERISTIC_MIN} to {CHARACTERISTIC_MAX}.",
        )
    return n


def clean_profile(values: Mapping[str, Any], *, partial: bool = False) -> dict[str, int]:
    """M WS BS S T W I A Ld, each 0-10. Keys are case-insensitive. ``partial`` allows a subset."""
    if not isinstance(values, Mapping):
        raise MordheimError("A profile must name its characteristics, e.g. M=4 WS=3 ... Ld=7.")
    by_key = {c.lower(): c for c in CHARACTERISTICS}
    out: dict[str, int] = {}
    for key, value in values.items():
        canon = by_key.get(str(key).strip().lower())
        if canon is None:
            raise MordheimError(f"`{str(key)[:20]}` is not a characteristic.", hint="Use " + " ".join(CHARACTERISTICS) + ".")
        out[canon] = characteristic(value, canon)
    if not partial:
        missing = [c for c in CHARACTERISTICS if c not in out]
        if missing:
            raise MordheimError("The profile is missing " + ", ".join(missing) + ".", hint="Give all of " + " ".join(CHARACTERISTICS) + ".")
    return out


def choice(value: Any, options: tuple[str, ...], what: str) -> str:
    text = str(value).strip().lower() if isinstance(value, str) else None
    if text == "henchman" and "henchmen" in options:
        text = "henchmen"
    if text in ("hired sword", "hired-sword") and "hired_sword" in options:
        text = "hired_sword"
    if text not in options:
        raise MordheimError(f"{what} `{str(value)[:20]}` is not one of: " + ", ".join(options) + ".")
    return text
