"""Where the calls or cards of a section stood in their file, packed in one value.

A kept board holds no object per call or card: the plain ones are shared values (one
per call, one per card), so their line and column cannot live on them. A section keeps
them here instead, as (line, column) pairs in one ``bytes`` value: 4 bytes a call or
card most of the time, looked up only when a finding needs to say where.
"""

from __future__ import annotations

import re
import struct
from array import array
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Any, ClassVar, Protocol

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)
from pydantic.json_schema import SkipJsonSchema

from bridgefiles.model.shared import SharedTable

# A packed value: a typecode byte ("H": 16-bit pairs, "I": 32-bit), the first known line
# (32 bits), then each item's pair: its line counted from that one plus 1 (0: not known)
# and its column. A section's lines are near each other and its columns short, so most
# pack at 4 bytes an item.
_HEAD = struct.Struct("=cI")
_H_PAIR = struct.Struct("=HH")
_PAIRS = {ord("H"): _H_PAIR, ord("I"): struct.Struct("=II")}
NO_POSITIONS = b""


def pack(flat: Iterable[int]) -> bytes:
    """``line, column, line, column, ...`` packed (a line 0 for a place not known)."""
    values = list(flat)
    lines = values[0::2]
    if 0 in lines:
        base = min(filter(None, lines), default=1)
        values[0::2] = [n - base + 1 if n else 0 for n in lines]
    elif lines:
        base = min(lines)
        values[0::2] = map((base - 1).__rsub__, lines)
    else:
        base = 1
    code = "H" if not values or max(values) < 1 << 16 else "I"
    return _HEAD.pack(code.encode(), base) + array(code, values).tobytes()


# Each character that is part of a word (ASCII 33-126) as "x", so that rows with their
# words in the same places read as one layout (blanks and line breaks are kept).
_SHAPE = str.maketrans({c: "x" for c in range(33, 127)})
_WORD = re.compile(r"\S+")
_PLUS_ONE = (1).__add__
# The packed pairs of a row's words, by its layout, its column and its first line's
# distance from the section's base line: a file's rows fall in few layouts (a Play
# section of whole tricks is one), so most rows are placed by one look-up.
_ROWS: SharedTable[tuple[str, int, int], bytes] = SharedTable(4096)
_LIMIT = 1 << 16  # what a pair of the "H" code holds
_KEPT = 400  # the longest row whose layout is kept (a key holds the row's length)


class Places:
    """Where each item of a section stands, packed as the section is read: the same
    bytes :func:`pack` gives for the same pairs, without a list of them on the way.

    The section's first line is the base; while every item stands on it or after and
    each pair fits 16 bits (a section read from a file, nearly always), the pairs are
    kept packed, a row of words by its layout; otherwise they are kept as a list for
    :func:`pack`."""

    __slots__ = ("_base", "_flat", "_pairs")

    def __init__(self) -> None:
        self._base = 0
        self._pairs = bytearray()
        self._flat: list[int] | None = None  # (not packed as read: see the docstring)

    def __len__(self) -> int:
        if self._flat is not None:
            return len(self._flat) // 2
        return len(self._pairs) // 4

    def add(self, line: int, column: int) -> None:
        """One item at line:column."""
        if self._flat is None:
            if line > 0:
                if not self._base:
                    self._base = line
                rel = line - self._base + 1
                if 0 < rel < _LIMIT and 0 <= column < _LIMIT:
                    self._pairs += _H_PAIR.pack(rel, column)
                    return
            self._unpacked()
        assert self._flat is not None
        self._flat += (line, column)

    def add_row(self, text: str, line: int, column: int) -> int:
        """Each word of ``text`` (words separated by blanks and line breaks ``\\n``),
        which starts at line:column; how many words it holds."""
        if self._flat is None and line > 0:
            if not self._base:
                self._base = line
            offset = line - self._base
            if offset >= 0:
                key = (text.translate(_SHAPE), column, offset) if len(text) <= _KEPT else None
                pairs = _ROWS.get(key) if key is not None else None
                if pairs is None:
                    flat = _row_pairs(text, offset + 1, column)
                    if max(flat, default=0) < _LIMIT:
                        pairs = array("H", flat).tobytes()
                        if key is not None:
                            pairs = _ROWS.share(key, pairs)
                if pairs is not None:
                    self._pairs += pairs
                    return len(pairs) // 4
        if self._flat is None:
            self._unpacked()
        assert self._flat is not None
        flat = _row_pairs(text, line, column)
        self._flat += flat
        return len(flat) // 2

    def __getitem__(self, index: int) -> tuple[int, int]:
        """The line and column of item ``index`` (as given: a line 0 is not known)."""
        if self._flat is not None:
            return self._flat[2 * index], self._flat[2 * index + 1]
        if index < 0:
            index += len(self)
        line, column = _H_PAIR.unpack_from(self._pairs, 4 * index)
        return self._base + line - 1, column

    def packed(self) -> bytes:
        """The pairs packed, as :func:`pack` packs them."""
        if self._flat is not None:
            return pack(self._flat)
        if not self._pairs:
            return pack(())
        return _HEAD.pack(b"H", self._base) + self._pairs

    def _unpacked(self) -> None:
        """From now on the pairs are kept as a list (see the class's docstring)."""
        base, pairs = self._base, self._pairs
        self._flat = [
            v for line, column in _H_PAIR.iter_unpack(pairs) for v in (base + line - 1, column)
        ]


def _row_pairs(text: str, line: int, column: int) -> list[int]:
    """``line, column, ...`` of each word of a row (see :meth:`Places.add_row`): a line
    of words one space apart (the usual layout) from their lengths, others by search."""
    flat: list[int] = []
    for i, row in enumerate(text.split("\n")):
        start = column if i == 0 else 1
        words = row.split()
        if not words:
            continue
        if " ".join(words) == row:
            columns = list(accumulate(map(_PLUS_ONE, map(len, words[:-1])), initial=start))
        else:
            columns = [start + m.start() for m in _WORD.finditer(row)]
        pairs = [line + i] * (2 * len(columns))
        pairs[1::2] = columns
        flat += pairs
    return flat


def position(packed: bytes, index: int) -> tuple[int, int] | None:
    """The (line, column) of item ``index``, or None when not known."""
    if index < 0 or len(packed) < _HEAD.size:
        return None
    pair = _PAIRS[packed[0]]
    start = _HEAD.size + pair.size * index
    if start + pair.size > len(packed):
        return None
    line, column = pair.unpack_from(packed, start)
    if not line:
        return None
    return _HEAD.unpack_from(packed)[1] + line - 1, column


def unpack(packed: bytes) -> list[int]:
    """``line, column, ...`` of every item (a line 0 where not known): :func:`pack` undone."""
    out: list[int] = []
    for i in range(count(packed)):
        out += position(packed, i) or (0, 0)
    return out


def count(packed: bytes) -> int:
    """How many items ``packed`` places."""
    if len(packed) < _HEAD.size:
        return 0
    return (len(packed) - _HEAD.size) // _PAIRS[packed[0]].size


class _Item(Protocol):
    @property
    def line(self) -> int | None: ...
    @property
    def column(self) -> int | None: ...


def where(items: Sequence[_Item], packed: bytes, index: int) -> tuple[int | None, int | None]:
    """Where item ``index`` of ``items`` stood: its own line and column, else the ones
    ``packed`` holds while it still describes these items (as many), else (None, None)."""
    item = items[index]
    if item.line is not None:
        return item.line, item.column
    if count(packed) == len(items):
        found = position(packed, index)
        if found is not None:
            return found
    return None, None


class Placed(BaseModel):
    """A section whose items (the field named ``ITEMS``) may be shared values: it keeps
    where each stood (``positions``, not a part of the data: the JSON gives each item its
    line and column instead, and the schema does not show it)."""

    model_config = ConfigDict(frozen=True)
    ITEMS: ClassVar[str] = ""
    NOTES: ClassVar[str] = "notes"  # the section's notes (placed by ``note_positions``)

    positions: SkipJsonSchema[bytes] = Field(default=NO_POSITIONS, exclude=True, repr=False)
    # where each of the section's notes stood (its Note tag), packed the same way
    note_positions: SkipJsonSchema[bytes] = Field(default=NO_POSITIONS, exclude=True, repr=False)

    def where(self, index: int) -> tuple[int | None, int | None]:
        """The line and column of item ``index`` (see :func:`where`)."""
        items: Sequence[_Item] = getattr(self, self.ITEMS)
        return where(items, self.positions, index)

    def note_where(self, index: int) -> tuple[int | None, int | None]:
        """The line and column of the Note tag of note ``index`` of the section's
        ``notes`` (its place in the tuple, not its number)."""
        notes: Sequence[_Item] = getattr(self, self.NOTES)
        return where(notes, self.note_positions, index)

    @model_serializer(mode="wrap")
    def _with_positions(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        data = placed(self.positions, handler(self), self.ITEMS)
        return placed(self.note_positions, data, self.NOTES)


def placed(packed: bytes, data: Any, items: str) -> Any:
    """``data`` (a section dumped) with each of its ``items`` given the line and column
    ``packed`` holds for it where it has none of its own: the JSON of a board read from a
    file says where each call and card stood, shared values or not."""
    if not packed or not isinstance(data, dict):
        return data
    dumped = data.get(items)
    if dumped is None or count(packed) != len(dumped):
        return data
    for i, item in enumerate(dumped):
        if isinstance(item, dict) and item.get("line") is None:
            found = position(packed, i)
            if found is not None:
                item["line"], item["column"] = found
    return data


# (array's H and I are 2 and 4 bytes on every platform we run on, as the pairs read them)
assert array("H").itemsize * 2 == _PAIRS[ord("H")].size
assert array("I").itemsize * 2 == _PAIRS[ord("I")].size
