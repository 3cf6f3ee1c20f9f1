"""The warband-list schema (rules_data/schema/warbands.schema.json) with messages an admin can act on.

jsonschema reports where a file breaks the schema in its own terms ("-5 is less than the
minimum of 0" at a path of keys); a server admin uploading a list needs the field named the
way the file names it (``fighters[1] (watchman).cost``) and what to do about it. jsonschema is
imported on first use: the bot's start does not need it (lists.py explains why).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from engine.editions import RULES_DATA

SCHEMA_PATH = RULES_DATA / "schema" / "warbands.schema.json"


@cache
def _schema_validator(kind: str) -> Any:
    import jsonschema  # only house lists and tests need it; the bundled lists load without

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"})


def schema_problems(data: Any, kind: str = "warband") -> list[str]:
    """Every place ``data`` breaks the schema kind, as 'path: what is wrong, how to fix'."""
    errors = sorted(_schema_validator(kind).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [_schema_message(e, data) for e in errors]


def _where(path: Iterable[Any], data: Any) -> str:
    """'fighters[3] (marksman).cost': the JSON path, naming each list entry that has an id."""
    text, node = "", data
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
        if isinstance(part, int) and isinstance(node, dict) and isinstance(node.get("id"), str):
            text += f" ({node['id'][:40]})"
    return text or "(the whole file)"


def _schema_message(error: Any, data: Any) -> str:
    where = _where(error.absolute_path, data)
    validator, value = error.validator, error.validator_value
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "a field"
        return f"{where}: '{missing}' is missing; add it"
    if validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        known = ", ".join(error.schema.get("properties", {}))
        return f"{where}: unknown field {', '.join(repr(u[:40]) for u in unknown)}; remove or rename it (known fields: {known})"
    if validator == "pattern":
        return f"{where}: {error.instance!r} is not an id; use lowercase words joined by '-', e.g. 'mercenary-captain'"
    if validator == "enum":
        return f"{where}: {error.instance!r} is not allowed; use one of: {', '.join(map(str, value))}"
    if validator in ("minimum", "maximum"):
        return f"{where}: {error.instance!r} is {'below the minimum' if validator == 'minimum' else 'above the maximum'} of {value}"
    if validator == "type":
        return f"{where}: must be {' or '.join(value) if isinstance(value, list) else value}, not {type(error.instance).__name__}"
    if validator in ("minItems", "minLength"):
        return f"{where}: must not be empty"
    if validator == "maxLength":
        return f"{where}: too long (at most {value} characters)"
    if validator == "oneOf":
        return f"{where}: {str(error.instance)[:40]!r} is not valid here; check the schema's description of this field"
    return f"{where}: {error.message[:200]}"
