"""Frozen values built without ``__init__``, for the hottest transitions.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``: some
1.5 thousand instructions a field, which made building the states and events of a hand
about a fifth of a random hand. ``build`` and ``evolve`` fill a new instance's
``__dict__`` in one step instead (a third of the cost), so the classes built here have no
slots. What they build is the value the constructor builds (==, hash, pickle:
tests/engine/test_fast_values.py) and stays frozen for everybody else. Nothing checks the
fields here: the caller owes every field (``build``) or only field names (``evolve``).
The hottest callers spell ``evolve`` out as ``build(cls, {**old.__dict__, "field": value})``:
packing the keyword arguments is some 40% of an ``evolve``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

V = TypeVar("V")
K = TypeVar("K")

_new = object.__new__
_set = object.__setattr__


def build(cls: type[V], fields: dict[str, Any]) -> V:
    """``cls(**fields)`` without ``__init__`` (``fields``: every field, no other key)."""
    made = _new(cls)
    _set(made, "__dict__", fields)
    return made


def evolve(old: V, **changes: Any) -> V:
    """``dataclasses.replace(old, **changes)`` without ``__init__``."""
    made = _new(type(old))
    _set(made, "__dict__", {**old.__dict__, **changes})
    return made


def derived(owner: K, table: dict[int, tuple[K, V]], make: Callable[[K], V]) -> V:
    """``make(owner)`` for an immutable ``owner`` (a trump context, a ruleset), made once
    and kept in ``table`` by the owner's identity: a look-up by id, not by a hash of its
    fields. The entry holds the owner, so that its id stays its own; the table is emptied
    past 64 owners."""
    entry = table.get(id(owner))
    if entry is None or entry[0] is not owner:
        if len(table) >= 64:
            table.clear()
        entry = table[id(owner)] = (owner, make(owner))
    return entry[1]
