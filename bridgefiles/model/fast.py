"""The one way to build the models a board keeps without validating them again, for
readers that have already checked their values.

DESIGN.md "Performance": pydantic validation belongs at the boundaries; a reader
knows its values are well-typed. Both builds go through pydantic's public
``model_construct``, giving it a fields-set shared by every instance that sets the same
fields (pydantic keeps the set it is given): a set of seven names takes about 500
bytes, more than the values it names, and the models are frozen (pydantic copies the
set before ``model_copy`` changes it). Nothing here writes pydantic's internals.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# The one set for each collection of field names (see the module's docstring).
_SHARED_SETS: dict[frozenset[str], set[str]] = {}


# The shared set for the names a caller of make() gives, in the order given: make()'s
# callers name the same fields the same way each time, so a tuple finds the set.
_BY_NAMES: dict[tuple[str, ...], set[str]] = {}


def shared_fields(names: Iterable[str]) -> set[str]:
    """The one shared set holding ``names``, for ``construct``'s ``fields_set``."""
    key = frozenset(names)
    found = _SHARED_SETS.get(key)
    if found is None:
        found = _SHARED_SETS[key] = set(key)
    return found


def make(cls: type[M], **values: Any) -> M:
    """An instance of ``cls`` with ``values`` and the defaults, not validated.

    Callers pass only field names of ``cls`` (unknown names are a bug of ours).
    """
    names = tuple(values)
    fields = _BY_NAMES.get(names)
    if fields is None:
        fields = _BY_NAMES[names] = shared_fields(names)
    return cls.model_construct(fields, **values)


def construct(cls: type[M], data: dict[str, Any], fields_set: set[str]) -> M:
    """An instance of ``cls`` with ``data`` (the defaults fill in what it lacks), not
    validated; ``fields_set`` is what the caller set, a set from :func:`shared_fields`.
    """
    return cls.model_construct(fields_set, **data)
