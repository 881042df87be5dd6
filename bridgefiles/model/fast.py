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
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# The one set for each collection of field names (see the module's docstring).
_SHARED_SETS: dict[frozenset[str], set[str]] = {}


def shared_fields(names: Iterable[str]) -> set[str]:
    """The one shared set holding ``names``, for ``construct``'s ``fields_set``."""
    key = frozenset(names)
    found = _SHARED_SETS.get(key)
    if found is None:
        found = _SHARED_SETS[key] = set(key)
    return found


# For each class and the names a caller of make() gives, in the order given (its callers
# name the same fields the same way each time, so a tuple finds them): the shared
# fields-set, and the defaults of the fields not given, handed over as they are.
_BY_CALL: dict[tuple[type[BaseModel], tuple[str, ...]], tuple[set[str], dict[str, Any]]] = {}

# Defaults model_construct would hand over unchanged anyway (pydantic's smart_deepcopy
# keeps these types and empty tuples as they are)
_IMMUTABLE = (type(None), bool, int, float, str, bytes, frozenset)


def _kept_defaults(cls: type[BaseModel], names: tuple[str, ...]) -> dict[str, Any]:
    """The defaults of ``cls`` not among ``names`` that are immutable: plain values, empty
    tuples, enum members and frozen models. model_construct would look each up through
    ``get_default`` a call (a third of its time for a model of a few fields given), and
    deep-copy the last two: a board would hold a copy of ``NO_ANNOTATIONS`` of its own."""
    kept: dict[str, Any] = {}
    for name, field in cls.model_fields.items():
        default = field.default
        if name in names or field.default_factory is not None or field.is_required():
            continue
        if (
            isinstance(default, (*_IMMUTABLE, Enum))
            or default == ()
            or (isinstance(default, BaseModel) and default.model_config.get("frozen"))
        ):
            kept[name] = default
    return kept


def make(cls: type[M], **values: Any) -> M:
    """An instance of ``cls`` with ``values`` and the defaults, not validated; an immutable
    default (a frozen model, an enum member, a plain value) is the default itself, not a
    copy, and not looked up again.

    Callers pass only field names of ``cls`` (unknown names are a bug of ours).
    """
    names = tuple(values)
    found = _BY_CALL.get((cls, names))
    if found is None:
        found = _BY_CALL[(cls, names)] = (shared_fields(names), _kept_defaults(cls, names))
    fields, defaults = found
    if defaults:
        return cls.model_construct(fields, **defaults, **values)
    return cls.model_construct(fields, **values)


def construct(cls: type[M], data: dict[str, Any], fields_set: set[str]) -> M:
    """An instance of ``cls`` with ``data`` (the defaults fill in what it lacks), not
    validated; ``fields_set`` is what the caller set, a set from :func:`shared_fields`.
    """
    return cls.model_construct(fields_set, **data)
