"""Decoded lines handed from the decode layer to a format's reader: one at a time, or a
batch at a time for a reader that can take them so (formats/pbn/split.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, islice


class Lines(Iterator[str]):
    """Decoded lines, read one at a time, or (by a reader that can take them so) a
    batch at a time: :meth:`batches` gives the same lines as lists, which spares the
    reader a step of Python per line. A reader uses one way or the other."""

    def __init__(self, batches: Iterator[list[str]]) -> None:
        self._batches = batches
        self._lines = chain.from_iterable(batches)

    def __next__(self) -> str:
        return next(self._lines)

    def batches(self) -> Iterator[list[str]]:
        return self._batches


_BATCH = 512


def line_batches(lines: Iterable[str]) -> Iterator[list[str]]:
    """The lines of ``lines`` as lists: its own batches for :class:`Lines`, else runs of
    up to 512 lines."""
    if isinstance(lines, Lines):
        return lines.batches()
    it = iter(lines)
    return iter(lambda: list(islice(it, _BATCH)), [])
