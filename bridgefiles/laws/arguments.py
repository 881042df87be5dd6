"""The referee's arguments checked where they come in: a value of the wrong type is the
caller's mistake, told as a :class:`UsageError` (DESIGN invariant 3), never an
AttributeError from deep inside, nor a wrong value quietly taken (``Referee(None)``,
``legal_calls("Q")``).

Seats, calls and options are str enums or models: ``"N"`` equals ``Seat.N`` but is not
one, and a referee that took it would answer from a seat it cannot turn (``.lho``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from bridgefiles.errors import UsageError
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Strain
from bridgefiles.model.seats import Seat

T = TypeVar("T")


def _named(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def instance(value: object, kind: type[T], name: str, hint: str) -> T:
    """``value`` if it is a ``kind``; a UsageError naming the argument otherwise."""
    if isinstance(value, kind):
        return value
    raise UsageError(
        f"{name} must be a {kind.__name__} ({hint}), not {type(value).__name__} {_named(value)}"
    )


def seat(value: object, name: str = "seat") -> Seat:
    return instance(value, Seat, name, "Seat.N, Seat.E, Seat.S, Seat.W; Seat.parse('N')")


def call(value: object, name: str = "call") -> Call:
    return instance(value, Call, name, "Call.parse('1S'), PASS, DOUBLE, REDOUBLE")


def flag(value: object, name: str) -> bool:
    return instance(value, bool, name, "True or False")


def decision(value: object) -> bool | None:
    """The Director's ``comparable=``: True, False, or None (not decided)."""
    if value is None or isinstance(value, bool):
        return value
    raise UsageError(
        f"comparable must be True, False or None, not {type(value).__name__} {_named(value)}"
    )


def strains(value: object) -> frozenset[Strain]:
    """``shows=``: the denominations an artificial call showed, each a Strain."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise UsageError(
            "shows must be an iterable of Strain (e.g. [Strain.S]), not "
            f"{type(value).__name__} {_named(value)}"
        )
    items: list[Any] = []
    try:
        items.extend(value)
    except Exception as exc:  # a caller's iterable that fails: still his mistake
        raise UsageError(f"shows could not be read: {type(exc).__name__}: {exc}") from exc
    for item in items:
        instance(item, Strain, "each of shows", "Strain.C, D, H, S or NT")
    return frozenset(items)
