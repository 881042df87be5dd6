"""Values shared by every board that has them, kept in bounded tables.

A file repeats most of what its boards hold (the same alerted call, the same event
name, the same tag names in the same order): one value serves them all, so a kept
board costs only what is its own. A table starts over once it holds its bound, so
memory stays flat whatever a file holds.
"""

from __future__ import annotations

from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


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
