"""Builds models without re-validating what the grammar already guaranteed.

DESIGN.md "Performance": pydantic validation belongs at the boundaries; the reader
knows its values are well-typed, and ``model_construct`` itself costs more than
the parse of a tag. ``make`` fills the same slots ``model_construct`` does, with
each model's defaults taken once.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)
_set = object.__setattr__


@cache
def _defaults(cls: type[BaseModel]) -> tuple[dict[str, Any], bool]:
    defaults: dict[str, Any] = {}
    factories = False
    for name, info in cls.model_fields.items():
        if info.default is not PydanticUndefined:
            defaults[name] = info.default
        elif info.default_factory is not None:
            factories = True
    return defaults, factories


def make(cls: type[M], **values: Any) -> M:
    """An instance of ``cls`` with ``values`` and the defaults, not validated.

    Callers pass only field names of ``cls`` (unknown names are a bug of ours).
    """
    defaults, factories = _defaults(cls)
    if factories:
        return cls.model_construct(**values)
    obj = cls.__new__(cls)
    _set(obj, "__dict__", {**defaults, **values})
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj
