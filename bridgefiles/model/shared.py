"""Values shared by every board that has them, kept in bounded tables.

A file repeats most of what its boards hold (the same alerted call, the same event
name, the same tag names in the same order): one value serves them all, so a kept
board costs only what is its own. A table starts over once it holds its bound, so
memory stays flat whatever a file holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class SharedTable(dict[K, V]):
    """A table of shared values, holding at most ``most`` of them: once full it starts
    over (the values it gave stay with the boards that hold them), so a long-running
    process keeps sharing what it reads now, not only what it read first."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most
        TABLES.append(self)

    def share(self, key: K, value: V) -> V:
        """The value kept for ``key``; else ``value``, kept for it from now on."""
        found = self.get(key)
        if found is None:
            if len(self) >= self.most:
                self.clear()
            self[key] = found = value
        return found


TABLES: list[dict[Any, Any]] = []  # every table, for forget()


def forget() -> None:
    """Empty every table (what a test that counts on sharing starts from)."""
    for table in TABLES:
        table.clear()


class Row(Sequence[T]):
    """An immutable sequence a board keeps compact (its tags, its extras) that reads as the
    tuple of its items: it equals and hashes as that tuple, and ``+`` gives a tuple (a
    subclass gives the items and slices of them as tuples)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Row, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other: object) -> tuple[T, ...]:
        if isinstance(other, (Row, tuple)):
            return (*self, *other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[T, ...]:
        if isinstance(other, tuple):
            return (*other, *self)
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({tuple(self)!r})"
