"""What a format keeps that the board model has no field for: :class:`Extra`, and
:class:`Extras`, the row a kept board holds them in.

A vugraph LIN board keeps a command or two of its own for every call and card (``nt``
commentary, ``at`` texts, ``hc`` and ``pg`` marks): as a model each costs some 400 bytes,
more than the rest of the board. A row keeps their strings in one tuple and their places
packed in one array, and builds an Extra when one is asked for.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.fast import make
from bridgefiles.model.shared import Row


class Extra(BaseModel):
    """Something of a format that the board model has no field for, kept to write back.

    LIN movie and display commands (``at``, ``nt``, ``hc``, ...) and anything not
    understood are kept here in order, with the position among the other commands.
    """

    model_config = ConfigDict(frozen=True)

    format: str
    key: str
    value: str
    position: int | None = None
    line: int | None = None
    column: int | None = None


ExtraRow = tuple[str, str, str, int | None, int | None, int | None]
"""An extra as its fields in order (format, key, value, position, line, column): what a
reader gathers, with no model made."""

_NONE = -(2**63)  # a place not given (None), packed: no int64 a file gives is this
_LOW, _HIGH = _NONE + 1, 2**63 - 1  # what a place packs as (any other stays a tuple)


def _fits(place: int | None) -> bool:
    return place is None or (type(place) is int and _LOW <= place <= _HIGH)


class Extras(Row[Extra]):
    """A board's extras as a compact, immutable row: the format, key and value of each,
    flat in one tuple, and its position, line and column packed in one array.

    It reads as the tuple of its Extras: indexing and iterating build them, it equals and
    hashes as that tuple, and slices and ``+`` give tuples. Build one with :meth:`of` or
    :meth:`of_rows`, which give a plain tuple where a row cannot hold the extras.
    """

    __slots__ = ("_places", "_texts")

    def __init__(self, texts: tuple[str, ...], places: array[int]) -> None:
        """``texts``: format, key and value of each extra, flat; ``places``: position,
        line and column of each, flat, with ``None`` packed as -2**63."""
        if len(texts) != len(places) or len(texts) % 3:
            raise ValueError("an extras row needs three texts and three places an extra")
        self._texts = texts
        self._places = places

    @classmethod
    def of(cls, extras: Iterable[Extra]) -> Extras | tuple[Extra, ...]:
        """The row of ``extras``; a tuple of them if one cannot be kept in a row (a
        subclass, or a place outside 64 bits). A row itself is returned as it is."""
        if isinstance(extras, Extras):
            return extras
        kept = tuple(extras)
        if not all(type(e) is Extra for e in kept):
            return kept
        rows = [(e.format, e.key, e.value, e.position, e.line, e.column) for e in kept]
        made = cls._of(rows)
        return kept if made is None else made

    @classmethod
    def of_rows(cls, rows: Sequence[ExtraRow]) -> Extras | tuple[Extra, ...]:
        """The row of extras given as their fields (:data:`ExtraRow`); a tuple of Extras
        where a place cannot be packed."""
        made = cls._of(rows)
        if made is not None:
            return made
        return tuple(_extra(*row) for row in rows)

    @classmethod
    def _of(cls, rows: Sequence[ExtraRow]) -> Extras | None:
        texts: list[str] = []
        places: list[int] = []
        for fmt, key, value, position, line, column in rows:
            if not (_fits(position) and _fits(line) and _fits(column)):
                return None
            texts += (fmt, key, value)
            places += (
                _NONE if position is None else position,
                _NONE if line is None else line,
                _NONE if column is None else column,
            )
        return cls(tuple(texts), array("q", places))

    def at_position(self, fmt: str, position: int) -> tuple[Extra, ...]:
        """The extras of format ``fmt`` at ``position``, in order, without building the
        others (a writer asks for the header's few among a movie's many)."""
        if not _LOW <= position <= _HIGH:
            return ()
        places, texts = self._places, self._texts
        return tuple(
            self[i]
            for i in range(len(self))
            if places[3 * i] == position and texts[3 * i] == fmt
        )

    # -- the sequence of Extras --------------------------------------------------------
    def __len__(self) -> int:
        return len(self._texts) // 3

    @overload
    def __getitem__(self, i: int) -> Extra: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Extra, ...]: ...
    def __getitem__(self, i: int | slice) -> Extra | tuple[Extra, ...]:
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("extra index out of range")
        t, p = self._texts, self._places
        at = 3 * i
        return _extra(t[at], t[at + 1], t[at + 2], *(_unpacked(x) for x in p[at : at + 3]))

    def __iter__(self) -> Iterator[Extra]:
        for i in range(len(self)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Extras):  # (no Extra built)
            return self._texts == other._texts and self._places == other._places
        return super().__eq__(other)

    __hash__ = Row.__hash__

    def __reduce__(self) -> tuple[Any, ...]:
        return (Extras, (self._texts, self._places))


def extras_at(extras: Sequence[Extra], fmt: str, position: int) -> tuple[Extra, ...]:
    """The extras of format ``fmt`` at ``position``, in order: off a row's packed places
    (no other extra built), or a filter of any other sequence."""
    if isinstance(extras, Extras):
        return extras.at_position(fmt, position)
    return tuple(e for e in extras if e.position == position and e.format == fmt)


def _unpacked(place: int) -> int | None:
    return None if place == _NONE else place


def _extra(
    fmt: str, key: str, value: str, position: int | None, line: int | None, column: int | None
) -> Extra:
    """An Extra of well-typed fields (a row's), not validated again."""
    return make(
        Extra, format=fmt, key=key, value=value, position=position, line=line, column=column
    )
