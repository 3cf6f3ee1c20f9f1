"""Copying a frozen dataclass with some fields changed, as ``dataclasses.replace`` does, at a fraction of its cost."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, TypeVar

_D = TypeVar("_D")


@dataclass(frozen=True)
class _CopyPlan:
    """How ``copied`` copies the instances of one dataclass (worked out once per class)."""

    names: frozenset[str]  # its fields, the names ``changes`` may give
    values_of: Callable[[Any], tuple[Any, ...]]  # an instance's field values, in ``__init__``'s order
    position: dict[str, int]  # each field's place in that order
    plain: bool  # no ``__post_init__``, instances with a ``__dict__``: a copy may start from the original's


_COPY_PLANS: dict[type, _CopyPlan | None] = {}


def _copy_plan(cls: type) -> _CopyPlan | None:
    """``cls``'s plan; None when ``dataclasses.replace`` does something the plan does not (a field
    left out of ``__init__`` or keyword-only, an ``InitVar``, a ``ClassVar``)."""
    if cls not in _COPY_PLANS:
        declared = getattr(cls, "__dataclass_fields__", {})
        found = dataclasses.fields(cls)
        if len(found) != len(declared) or any(not f.init or f.kw_only for f in found):
            _COPY_PLANS[cls] = None
        else:
            names = tuple(f.name for f in found)
            plain = not hasattr(cls, "__post_init__") and getattr(cls, "__dictoffset__", 0) != 0
            # attrgetter of one name gives the value itself, not a tuple of it
            values_of = attrgetter(*names) if len(names) > 1 else lambda obj: tuple(getattr(obj, n) for n in names)
            _COPY_PLANS[cls] = _CopyPlan(frozenset(names), values_of, {n: i for i, n in enumerate(names)}, plain)
    return _COPY_PLANS[cls]


def copied(obj: _D, /, **changes: Any) -> _D:
    """``dataclasses.replace(obj, **changes)`` for a dataclass instance, without working out its
    fields on every call. A plain one (no ``__post_init__``, a ``__dict__`` holding exactly its
    fields, an ``__init__`` the dataclass wrote, which only stores them) is copied from its
    ``__dict__`` with ``changes`` on top, as ``Fighter.from_stored`` makes a fighter; any other
    goes through ``__init__`` with every field's value, as ``replace`` does; anything the plan
    does not cover (and a name that is not a field: the same ``TypeError``) is ``replace``'s.
    tests/engine/test_copied.py compares the two for the classes the engine copies this way."""
    plan = _copy_plan(type(obj))
    if plan is None or not changes.keys() <= plan.names:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if plan.plain and obj.__dict__.keys() == plan.names:
        copy = object.__new__(type(obj))
        copy.__dict__.update(obj.__dict__)
        copy.__dict__.update(changes)
        return copy
    values = list(plan.values_of(obj))
    for name, value in changes.items():
        values[plan.position[name]] = value
    return type(obj)(*values)
