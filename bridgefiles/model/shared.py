"""Values shared by every board that has them, kept in bounded tables.

A file repeats most of what its boards hold (the same alerted call, the same event
name, the same tag names in the same order): one value serves them all, so a kept
board costs only what is its own. A table stops taking new values once it holds its
bound, so memory stays flat whatever a file holds: a value not kept is simply not
shared.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class SharedTable(dict[K, V]):
    """A table of shared values, taking at most ``most`` of them."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def share(self, key: K, value: V) -> V:
        """The value kept for ``key``; else ``value``, kept for it if there is room."""
        found = self.get(key)
        if found is None:
            found = value
            if len(self) < self.most:
                self[key] = value
        return found
