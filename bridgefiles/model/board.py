"""A board (a PBN game, a LIN board): tags, deal, auction, play, tables, commentary.

The board is format-neutral and uses PBN's tag vocabulary for its metadata:
``tags`` keeps every identification tag in file order, known or not, with the
value as written; the structured views (``deal``, ``dealer``, ``contract``, ...)
are parsed from them on demand. The auction and play sections and the tables
are structured fields. ``source`` keeps the text as read so a board that was
not changed can be written back byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Generic, TypeVar, overload

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    WrapSerializer,
    model_serializer,
)
from pydantic.json_schema import SkipJsonSchema

from bridgefiles.model.annotations import Comment
from bridgefiles.model.auction import Auction
from bridgefiles.model.calls import Contract
from bridgefiles.model.deal import Deal, DealMasks, whole_deal_masks
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.extras import Extra as Extra
from bridgefiles.model.extras import Extras as Extras
from bridgefiles.model.fast import make
from bridgefiles.model.outcome import AuctionOutcome, auction_outcome
from bridgefiles.model.play import Play
from bridgefiles.model.positions import NO_POSITIONS, count, pack, placed, unpack, where
from bridgefiles.model.seats import Seat, Side, Vulnerability
from bridgefiles.model.tags import TagPair as TagPair
from bridgefiles.model.tags import Tags as Tags
from bridgefiles.model.tags import shared_tag as shared_tag
from bridgefiles.model.tags import tag_index as tag_index


class Column(BaseModel):
    """A table column: ``[+|-]name[\\width[L|R]]`` (PBN 11.1)."""

    model_config = ConfigDict(frozen=True)

    name: str
    order: str = ""  # "+" descending, "-" ascending, "" none claimed
    width: int | None = None
    align: str | None = None  # "L", "R" or None

    @property
    def spec(self) -> str:
        text = f"{self.order}{self.name}"
        if self.width is not None:
            text += f"\\{self.width}{self.align or ''}"
        return text


class Table(BaseModel):
    """A supplemental section whose tag value declares its columns (ScoreTable, ...)."""

    model_config = ConfigDict(frozen=True)

    name: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...] = ()
    raw: str | None = None  # the tag value as written, when it differs from the specs
    comments: tuple[Comment, ...] = ()
    line: int | None = None
    column: int | None = None

    @property
    def header(self) -> str:
        return ";".join(c.spec for c in self.columns)

    def column_index(self, name: str) -> int | None:
        for i, c in enumerate(self.columns):
            if c.name == name:
                return i
        return None

    def records(self) -> list[dict[str, str]]:
        names = [c.name for c in self.columns]
        return [dict(zip(names, row, strict=False)) for row in self.rows]


class EscapeLine(BaseModel):
    """A ``%`` line, kept verbatim where it stood."""

    model_config = ConfigDict(frozen=True)

    text: str  # without the leading '%'
    line: int | None = None


_SIDES_RESULT = re.compile(r"(NS|EW)\s+(\d{1,2})(?:\s+(NS|EW)\s+(\d{1,2}))?", re.IGNORECASE)


class Result(BaseModel):
    """A PBN ``Result`` value: declarer's tricks, or a side's, with the ``^`` mark."""

    model_config = ConfigDict(frozen=True)

    tricks: int | None = None  # declarer's tricks (bare form)
    ns: int | None = None
    ew: int | None = None
    disputed: bool = False  # '^': the agreed result differs from the tricks won

    @classmethod
    def parse(cls, text: str) -> Result:
        found = _RESULT_TEXTS.get(text)
        if found is not None:
            return found
        t = text.strip()
        disputed = t.startswith("^")
        if disputed:
            t = t[1:].strip()
        if 0 < len(t) <= 2 and t.isdecimal():  # (what \d{1,2} matches)
            n = int(t)
            if n > 13:
                raise ValueError(f"more than 13 tricks: {text!r}")
            return make(cls, tricks=n, disputed=disputed)  # well-typed: not validated again
        m = _SIDES_RESULT.fullmatch(t)
        if not m:
            raise ValueError(f"not a result: {text!r}")
        values: dict[str, int] = {m.group(1).upper(): int(m.group(2))}
        if m.group(3):
            if m.group(3).upper() == m.group(1).upper():
                raise ValueError(f"a side is given twice: {text!r}")
            values[m.group(3).upper()] = int(m.group(4))
        if any(v > 13 for v in values.values()) or sum(values.values()) > 13:
            raise ValueError(f"more than 13 tricks: {text!r}")
        return cls(ns=values.get("NS"), ew=values.get("EW"), disputed=disputed)

    def declarer_tricks(self, declarer: Seat | None) -> int | None:
        """Declarer's tricks; a single side's count implies the other side has the rest."""
        if self.tricks is not None:
            return self.tricks
        if declarer is None:
            return None
        side = declarer.side
        mine = self.ns if side is Side.NS else self.ew
        theirs = self.ew if side is Side.NS else self.ns
        if mine is not None:
            return mine
        if theirs is not None:
            return 13 - theirs
        return None


_UNKNOWN = ("", "?")
_NO_VALUE = (None, *_UNKNOWN)  # a tag absent or unknown: no view


T = TypeVar("T")


# The usual Result values, a bare trick count ("0" to "13"): one shared value each
# (frozen), as Contract.parse gives, instead of a model built every board.
_RESULT_TEXTS: dict[str, Result] = {}
_RESULT_TEXTS.update({str(n): Result.parse(str(n)) for n in range(14)})


class view(Generic[T]):  # lower case: a decorator, like property
    """A view of a board's tags computed on first use and kept on the instance.

    functools.cached_property does the same, but under a lock shared by every board
    (Python 3.11), which costs more than the small parses it guards, and serialises
    threads reading different boards. Boards are immutable, so computing a view twice
    in a race gives the same value: no lock is needed.
    """

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func  # the computation itself, uncached (as cached_property names it)
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, board: None, owner: type | None = None) -> view[T]: ...
    @overload
    def __get__(self, board: object, owner: type | None = None) -> T: ...
    def __get__(self, board: object | None, owner: type | None = None) -> T | view[T]:
        if board is None:
            return self
        value = self.func(board)
        board.__dict__[self.name] = value  # found there from now on: no call at all
        return value


def _as_tuple(row: Sequence[Any], handler: SerializerFunctionWrapHandler) -> Any:
    return handler(tuple(row))  # (a row dumps as the tuple it reads as)


def _extras_row(extras: Sequence[Extra]) -> Sequence[Extra]:
    return Extras.of(extras) if extras else ()


def _items(given: Any) -> Any:
    """What a tuple field takes (any iterable, a row too) as a tuple, for the Sequence
    check (which would rebuild a sequence of another type from a list, or refuse it)."""
    if isinstance(given, (str, bytes, list, tuple, Mapping)) or not isinstance(given, Iterable):
        return given
    return tuple(given)


# A board's tags and extras: any iterable validated, held as a row (model/tags.py,
# model/extras.py), dumped as a tuple; so the JSON and its schema are a tuple's.
_TagRow = Annotated[
    Sequence[TagPair],
    BeforeValidator(_items),
    AfterValidator(Tags.of),
    WrapSerializer(_as_tuple),
]
_ExtraRow = Annotated[
    Sequence[Extra],
    BeforeValidator(_items),
    AfterValidator(_extras_row),
    WrapSerializer(_as_tuple),
]


class Board(BaseModel):
    """One board of a file, lenient: any field may be missing or unreadable.

    Values that could not be read are ``None`` on the structured views, and the
    reader has put a diagnostic in ``diagnostics`` saying why.
    """

    model_config = ConfigDict(frozen=True, ignored_types=(view,))

    # Rows (model/tags.py, model/extras.py) once validated, and as the readers hand them
    # over: they read as tuples of TagPairs and Extras, and dump as tuples.
    tags: _TagRow = ()
    auction: Auction | None = None
    play: Play | None = None
    tables: tuple[Table, ...] = ()
    comments: tuple[Comment, ...] = ()  # commentary before the first tag: the game's own
    escapes: tuple[EscapeLine, ...] = ()  # % lines inside the game
    extras: _ExtraRow = ()
    format: str | None = None  # "pbn" or "lin": where it was read from
    index: int = 0  # position in its file, from 0
    line: int | None = None  # first line of the board in its file
    source: str | None = None  # the text as read (layout="preserve"); None once changed
    diagnostics: tuple[Diagnostic, ...] = ()
    # Where each tag stood (model/positions.py), kept by the readers; not a part of the
    # data: JSON gives each tag its line and column instead (see _with_positions).
    tag_positions: SkipJsonSchema[bytes] = Field(default=NO_POSITIONS, exclude=True, repr=False)

    @model_serializer(mode="wrap")
    def _with_positions(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        return placed(self.tag_positions, handler(self), "tags")

    def tag_where(self, tag: int | str) -> tuple[int | None, int | None]:
        """The line and column of a tag: the ``tag``-th, or the first named ``tag`` (the
        one :meth:`tag` reads); its own, else the packed positions its reader kept (when
        they still describe these tags). (None, None) where not known or not there."""
        if isinstance(tag, str):
            index = _index(self).get(tag)
            if index is None:
                return None, None
            tag = index
        return where(self.tags, self.tag_positions, tag)

    # -- tags -----------------------------------------------------------------
    def tag(self, name: str) -> str | None:
        """The value in use of tag ``name`` (first one wins, PBN 2.6), or None."""
        tags = self.__dict__["tags"]
        if type(tags) is Tags:
            return tags.get(name)  # (no TagPair built)
        at = _index(self).get(name)
        return None if at is None else tags[at].value

    def tag_pair(self, name: str) -> TagPair | None:
        at = _index(self).get(name)
        return None if at is None else self.tags[at]

    def with_tag(self, name: str, value: str) -> Board:
        """A copy with tag ``name`` set (replaced in place, or appended)."""
        tags = list(self.tags)
        packed = self.tag_positions
        for i, t in enumerate(tags):
            if t.name == name:
                tags[i] = t.model_copy(update={"value": value, "raw": None, "implied": False})
                break
        else:
            tags.append(TagPair(name=name, value=value))
            known = count(packed) == len(self.tags)
            packed = pack([*unpack(packed), 0, 0]) if known else NO_POSITIONS
        return self.replace(tags=tags, tag_positions=packed)

    def replace(self, **changes: Any) -> Board:
        """A changed copy. The text as read no longer describes it, so ``source`` is dropped.
        Tags kept from this board keep where they stood."""
        changes.setdefault("source", None)
        if "tags" in changes:  # (model_copy validates nothing: the rows are made here)
            changes["tags"] = Tags.of(changes["tags"])
        if "extras" in changes:
            changes["extras"] = Extras.of(changes["extras"]) if changes["extras"] else ()
        if "tags" in changes and "tag_positions" not in changes and self.tag_positions:
            changes["tag_positions"] = _positions_of(self, changes["tags"])
        copy = self.model_copy(update=changes)
        for name in _CACHED_VIEWS:  # model_copy copies cached views: they would be stale
            copy.__dict__.pop(name, None)
        return copy

    # -- structured views of the tags ------------------------------------------
    @property
    def board_number(self) -> str | None:
        v = self.tag("Board")
        return v if v not in (None, "", "?") else None

    @view
    def dealer(self) -> Seat | None:
        v = self.tag("Dealer")
        try:
            return Seat.parse(v) if v not in _NO_VALUE else None
        except ValueError:
            return None

    @view
    def vulnerable(self) -> Vulnerability | None:
        v = self.tag("Vulnerable")
        try:
            return Vulnerability.parse(v) if v not in _NO_VALUE else None
        except ValueError:
            return None

    @property
    def deal(self) -> Deal | None:
        """The Deal tag parsed each time it is asked, not kept: a parsed deal is a few
        times the rest of a kept board (the Laws read ``deal_masks``)."""
        v = self.tag("Deal")
        try:
            return Deal.parse(v) if v not in _NO_VALUE else None
        except ValueError:
            return None

    @property
    def deal_masks(self) -> DealMasks | None:
        """The hands of a whole, sound deal as card masks (``whole_deal_masks`` of the
        Deal tag), None for any other deal: what the Laws' replay of the play needs.
        Worked out each time it is asked (once a validation), not kept."""
        text = self.tag("Deal")
        return whole_deal_masks(text) if text else None

    @view
    def contract(self) -> Contract | None:
        v = self.tag("Contract")
        try:
            return Contract.parse(v) if v not in _NO_VALUE else None
        except ValueError:
            return None

    @view
    def declarer(self) -> Seat | None:
        """The seat that played the hand; for ``^X`` that is X (the irregular declarer)."""
        v = self.tag("Declarer")
        if v is None:
            return None
        v = v.strip().lstrip("^")
        try:
            return Seat.parse(v) if v not in _UNKNOWN else None
        except ValueError:
            return None

    @property
    def declarer_swapped(self) -> bool:
        """PBN ``Declarer "^X"``: declarer and dummy swapped (PBN 8E)."""
        v = self.tag("Declarer")
        return v is not None and v.strip().startswith("^")

    @view
    def result(self) -> Result | None:
        v = self.tag("Result")
        try:
            return Result.parse(v) if v not in _NO_VALUE else None
        except ValueError:
            return None

    @property
    def declarer_tricks(self) -> int | None:
        """Declarer's tricks according to the Result tag."""
        r = self.result
        return r.declarer_tricks(self.declarer) if r is not None else None

    @view
    def outcome(self) -> AuctionOutcome | None:
        """What the recorded auction comes to (contract, declarer), None without one.

        Worked out from the calls, not read from the Contract and Declarer tags, so it
        holds for a board built from scratch too.
        """
        if self.auction is None:
            return None
        return auction_outcome(self.auction, self.dealer)

    @property
    def room(self) -> str | None:
        return self.tag("Room")

    def player(self, seat: Seat) -> str | None:
        return self.tag(seat.full_name)

    def table(self, name: str) -> Table | None:
        for t in self.tables:
            if t.name == name:
                return t
        return None

    def __str__(self) -> str:
        """The board as text: a PBN game once the formats are loaded (they install the
        writer with :func:`set_text_writer`; a model never imports a format)."""
        if _TEXT_WRITER is not None:
            return _TEXT_WRITER(self)
        return f"<{self.label}>"

    @property
    def label(self) -> str:
        """How to name the board in messages: ``board 4 (Open)``."""
        text = f"board {self.board_number}" if self.board_number else f"game {self.index + 1}"
        return f"{text} ({self.room})" if self.room else text


_TEXT_WRITER: Callable[[Board], str] | None = None


def _positions_of(board: Board, tags: Sequence[TagPair]) -> bytes:
    """The packed positions of ``tags``: where each stood in ``board``, if it is one of
    its tags (the first unused place of an equal tag), else not known."""
    places: dict[TagPair, list[int]] = {}
    mine = tuple(board.tags)
    for i in range(len(mine) - 1, -1, -1):
        places.setdefault(mine[i], []).append(i)
    flat: list[int] = []
    for t in tags:
        free = places.get(t)
        if free:
            line, column = board.tag_where(free.pop())
            flat += (line or 0, column or 0)
        else:
            flat += (0, 0)
    return pack(flat)


def _index(board: Board) -> dict[str, int]:
    """The board's tag index: its row's, or (tags a caller handed over unvalidated) that of
    their names, kept beside the tags it indexes (a copy with other tags never uses a stale
    one)."""
    fields = board.__dict__  # (one look-up: a model's attributes cost more than a dict's)
    tags = fields["tags"]
    if type(tags) is Tags:
        return tags.name_index
    kept = fields.get("_tag_index")
    if kept is not None and kept[0] is tags:
        found: dict[str, int] = kept[1]
        return found
    index = tag_index(tuple(t.name for t in tags))
    fields["_tag_index"] = (tags, index)
    return index


def set_text_writer(writer: Callable[[Board], str]) -> None:
    """What ``str(board)`` gives: installed by ``bridgefiles.formats.pbn``."""
    global _TEXT_WRITER
    _TEXT_WRITER = writer


# The cached views of Board, dropped by replace() so a changed copy re-reads its tags.
_CACHED_VIEWS: tuple[str, ...] = tuple(
    name for name, value in vars(Board).items() if isinstance(value, view)
)
