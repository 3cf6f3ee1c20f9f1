"""Characteristic profiles: parsed from text, or a named template (rules_data/stats/creatures.json)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cache

from engine.errors import LimitExceeded, MordheimError, NotFoundError
from engine.profile import Profile


@dataclass(frozen=True)
class Template:
    """A named profile with the traits that come with it (a Troll causes fear...)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    profile: Profile
    traits: frozenset[str]  # ids of engine.combat.special_rules.TRAITS
    source: str
    summary: str
    not_modelled: tuple[str, ...] = ()  # its rules the engine does not apply


def _key(text: str) -> str:
    return " ".join(str(text).lower().replace("-", " ").replace("_", " ").split())


@cache
def templates() -> dict[str, Template]:
    """Every template by every name it answers to (id, name, aliases), normalised."""
    from engine.combat.special_rules import require_all
    from engine.editions import RULES_DATA

    doc = json.loads((RULES_DATA / "stats" / "creatures.json").read_text(encoding="utf-8"))
    out: dict[str, Template] = {}
    for c in doc["creatures"]:
        t = Template(id=c["id"], name=c["name"], aliases=tuple(c["aliases"]), profile=Profile(**c["profile"]),
                     traits=require_all(c["traits"], "trait", c["id"]), source=c["source"], summary=c["summary"],
                     not_modelled=tuple(c.get("not_modelled", ())))
        for name in (t.id, t.name, *t.aliases):
            out.setdefault(_key(name), t)
    return out


def find_template(text: str) -> Template | None:
    return templates().get(_key(text))


def template_names() -> list[str]:
    """Each template's name once, in file order (Human first)."""
    return list(dict.fromkeys(t.name for t in templates().values()))


_NAMED = re.compile(r"^(M|WS|BS|S|T|W|I|A|LD)[=:]?(-?\d+)$", re.I)
_SPACED = re.compile(r"\b(M|WS|BS|S|T|W|I|A|LD)\s*[=:]?\s+(-?\d+)\b", re.I)  # a name and its value typed apart


def _how() -> str:
    return ('Write nine numbers in the order M WS BS S T W I A Ld (e.g. "4 3 3 3 3 1 3 1 7"), named values '
            '(e.g. "WS4 S4 T3") or a template: ' + ", ".join(template_names()))


def parse_profile(text: str | Profile | None) -> Profile:
    """A profile from ``"4 3 3 3 3 1 3 1 7"``, ``"WS4 S4 T3"`` (rest Human, 000:243) or a template name."""
    if isinstance(text, Profile):
        return text
    human = templates()["human"].profile  # 000:243
    if text is None or not str(text).strip():
        return human
    raw = str(text).strip()
    if len(raw) > 200:
        raise LimitExceeded("That profile is too long (200 characters at most).", hint=_how())
    template = find_template(raw)
    if template is not None:
        return template.profile
    tokens = raw.replace(",", " ").replace("/", " ").split()
    if all(re.fullmatch(r"-?\d+", t) for t in tokens):
        if len(tokens) != 9:
            raise MordheimError(f"A profile needs 9 values (M WS BS S T W I A Ld); you gave {len(tokens)}.", hint=_how())
        return Profile(*(int(t) for t in tokens))
    values: dict[str, int] = {}
    tokens = _SPACED.sub(r"\1\2", " ".join(tokens)).split()  # "WS 4 S 4" as "WS4 S4"
    for t in tokens:
        m = _NAMED.match(t)
        if not m:
            if t.isalpha():
                from rapidfuzz import process

                names = [n.lower() for n in template_names()]
                close = [c[0] for c in process.extract(t.lower(), names, limit=3, score_cutoff=50)]
                raise NotFoundError(f"'{t[:30]}' is not a characteristic or a profile template.", suggestions=close, hint=None if close else _how())
            raise MordheimError(f"I could not read '{t[:30]}' in the profile.", hint=_how())
        name = m.group(1).upper()
        name = "Ld" if name == "LD" else name
        if name in values:
            raise MordheimError(f"{name} is given twice in the profile.", hint=_how())
        values[name] = int(m.group(2))
    return replace(human, **values)
