"""The one fast way to build the models a board keeps, for readers that have already
checked their values.

DESIGN.md "Performance": pydantic validation belongs at the boundaries; a reader
knows its values are well-typed, and ``model_construct`` itself costs more than
the parse of a tag. ``make`` fills the same slots ``model_construct`` does, with
each model's defaults taken once; ``construct`` is the leanest form. Only this
module writes pydantic's internals: the formats call it, never write them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)
_new = object.__new__
# The setters of the four slots every pydantic model instance has: called directly, they
# skip the attribute lookup ``object.__setattr__`` makes (a third of a build's cost).
_SET_DICT = BaseModel.__dict__["__dict__"].__set__
_SET_FIELDS = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__


@cache
def _defaults(cls: type[BaseModel]) -> tuple[dict[str, Any], bool]:
    # Every field, in field order (required ones hold PydanticUndefined until the caller
    # gives them), so an instance's __dict__ is in the order validation gives it.
    defaults: dict[str, Any] = {}
    factories = False
    for name, info in cls.model_fields.items():
        defaults[name] = info.default
        if info.default is PydanticUndefined and info.default_factory is not None:
            factories = True
    return defaults, factories


# The fields-set pydantic keeps on each instance, shared by every instance with the same
# one: a set of seven names takes about 500 bytes, more than the values it names, and the
# models are frozen (pydantic copies the set before model_copy changes it).
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
    defaults, factories = _defaults(cls)
    if factories:
        return cls.model_construct(**values)
    obj = _new(cls)
    _SET_DICT(obj, {**defaults, **values})
    names = tuple(values)
    fields = _BY_NAMES.get(names)
    if fields is None:
        fields = _BY_NAMES[names] = shared_fields(names)
    _SET_FIELDS(obj, fields)
    _SET_EXTRA(obj, None)
    _SET_PRIVATE(obj, None)
    return obj


@cache
def _shape(cls: type[BaseModel]) -> tuple[int, set[str]]:
    """How many fields ``cls`` has, and the shared set of all their names (asked of
    every section a reader builds: ``model_fields`` itself is a property that costs)."""
    return len(cls.model_fields), shared_fields(frozenset(cls.model_fields))


def construct(cls: type[M], data: dict[str, Any], fields_set: set[str]) -> M:
    """The leanest build: ``data`` (every field of ``cls``, or the defaults fill in what
    it lacks) becomes the instance's ``__dict__``; ``fields_set`` is what the caller set.

    For the models a reader makes by the thousand (played cards, auction entries),
    where even :func:`make`'s merge of defaults shows in a profile.
    """
    if len(data) != _shape(cls)[0]:  # a field added to the model since the caller was written
        data = {**_defaults(cls)[0], **data}
    obj = _new(cls)
    _SET_DICT(obj, data)
    _SET_FIELDS(obj, fields_set)
    _SET_EXTRA(obj, None)
    _SET_PRIVATE(obj, None)
    return obj
