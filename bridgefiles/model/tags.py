"""A board's tags: :class:`TagPair`, and :class:`Tags`, the row a kept board holds them in.

Most tags of a file are plain: a known name and a value as written, with no comment,
escape or inheritance mark, standing where the board's packed positions say. A row keeps
such a tag as its value alone, beside one tuple of names shared by every board whose tags
have the same names in the same order (most boards of a file), so a kept board holds no
model per tag; a TagPair is built when one is asked for. Any other tag is kept as its
TagPair.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.annotations import Comment
from bridgefiles.model.fast import make
from bridgefiles.model.shared import Row, SharedTable


class TagPair(BaseModel):
    """``[Name "value"]``. ``value`` is the value in use (escapes undone, ``#``/``##``
    resolved); ``raw`` is the string as written between the quotes when it differs.

    A plain tag read from a file (no comment, nothing escaped or inherited) is shared by
    every board with the same name and value (:func:`shared_tag`), with no line or column
    of its own: :meth:`Board.tag_where` says where each tag stood."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: str
    raw: str | None = None
    comments: tuple[Comment, ...] = ()
    section: tuple[str, ...] = ()  # section data after a tag we do not know (kept verbatim)
    line: int | None = None
    column: int | None = None
    # A value this game did not write but inherits from an earlier game's "##" tag
    # (PBN 2.9); writers leave it out, since the earlier tag already says it.
    implied: bool = False

    @property
    def written(self) -> str:
        """The value as it stood in the file (``#``, ``##x`` or escaped text)."""
        return self.raw if self.raw is not None else self.value

    @property
    def inherited(self) -> bool:
        return self.raw is not None and self.raw.startswith("#")

    @property
    def plain(self) -> bool:
        """A name and a value and nothing else: what a :class:`Tags` row keeps as its
        value alone (and :func:`shared_tag` gives back)."""
        return not self.comments and self._value_alone()

    @property
    def commented(self) -> bool:
        """A name, a value and the commentary after it, nothing else: what a :class:`Tags`
        row keeps as a :data:`CommentedValue`."""
        return bool(self.comments) and self._value_alone()

    def _value_alone(self) -> bool:
        """Nothing of its own but its name, value and comments: no raw form, section
        data, place or inheritance."""
        return (
            self.raw is None
            and not self.section
            and self.line is None
            and self.column is None
            and not self.implied
        )


CommentedValue = tuple[str, tuple[Comment, ...]]
"""A tag with commentary after it and nothing else of its own (:attr:`TagPair.commented`),
as a :class:`Tags` row keeps it: its value and its comments (a result or a contract
commented on, in a teaching file: no model kept for the tag)."""

TagItem = TagPair | str | CommentedValue
"""What a :class:`Tags` row keeps of a tag: its value (plain), its value and comments
(commented), else its TagPair."""


def tag_item(pair: TagPair) -> TagItem:
    """What a row keeps of ``pair`` (see :data:`TagItem`)."""
    if type(pair) is not TagPair:
        return pair  # (a subclass stays itself)
    if pair.plain:
        return pair.value
    if pair.commented:
        return (pair.value, pair.comments)
    return pair


def item_value(item: TagItem) -> str:
    """The value in use of a tag kept as ``item`` (see :data:`TagItem`)."""
    if isinstance(item, str):
        return item
    return item[0] if isinstance(item, tuple) else item.value


def _pair(name: str, item: TagItem) -> TagPair:
    """The TagPair of a row's item: a plain one shared, a commented one made."""
    if isinstance(item, str):
        return shared_tag(name, item)
    if isinstance(item, tuple):
        return make(TagPair, name=name, value=item[0], comments=item[1])
    return item


# Plain tags shared by every board with the same name and value: a file repeats most of
# its tag values (event, site, dealer, vulnerability, scoring, players, contracts), and a
# TagPair costs some 350 bytes. A deal, which seldom repeats, is never kept.
_SHARED_TAGS: SharedTable[tuple[str, str], TagPair] = SharedTable(4096)
_NOT_SHARED = frozenset({"Deal"})


def shared_tag(name: str, value: str) -> TagPair:
    """The shared plain tag ``[name "value"]`` (no raw form, comment or position)."""
    found = _SHARED_TAGS.get((name, value))
    if found is None:
        # the name interned, as a Deal's or a Board number's tag is seldom shared
        found = make(TagPair, name=sys.intern(name), value=value)
        if name not in _NOT_SHARED:
            found = _SHARED_TAGS.share((name, value), found)
    return found


# Tag values shared by every board that has them (LIN's readers make each value anew from
# its command): the same event, scoring, players and vulnerabilities stand on most boards.
_SHARED_VALUES: SharedTable[tuple[str, str], str] = SharedTable(4096)


def shared_value(name: str, value: str) -> str:
    """The one string for ``value`` of tag ``name`` (a Deal's, seldom repeated, is not
    kept): what a reader puts in a :class:`Tags` row."""
    if name in _NOT_SHARED:
        return value
    return _SHARED_VALUES.share((name, value), value)


# The index of a tag sequence (each name to the place of its first tag, PBN 2.6), shared
# by every board whose tags have the same names in the same order (most boards of a file):
# the Laws and the scorer ask a dozen tags of every board. The names tuple is shared too.
_INDEXES: SharedTable[tuple[str, ...], tuple[tuple[str, ...], dict[str, int]]] = SharedTable(1024)


def _shared_names(names: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, int]]:
    """The one tuple of ``names`` and its index (see :func:`tag_index`)."""
    found = _INDEXES.get(names)
    if found is None:
        index: dict[str, int] = {}
        for i, name in enumerate(names):
            index.setdefault(name, i)
        found = _INDEXES.share(names, (names, index))
    return found


def tag_index(names: tuple[str, ...]) -> dict[str, int]:
    """Each name of a tag sequence to the place of its first tag (PBN 2.6), one dict
    shared by every sequence of the same names (do not change it): what a board and its
    reader look tags up by."""
    return _shared_names(names)[1]


class Tags(Row[TagPair]):
    """A board's tags as a compact, immutable row: a shared tuple of names and, for each
    tag, its value (a plain tag, see :attr:`TagPair.plain`), its value and comments (a
    commented one, :attr:`TagPair.commented`) or its TagPair (any other).

    It reads as the tuple of its TagPairs: indexing and iterating give TagPairs (a plain
    one is :func:`shared_tag`'s), it equals and hashes as that tuple, and slices and ``+``
    give tuples. :meth:`get` and :meth:`value` read a value without building a TagPair.
    """

    __slots__ = ("_index", "_items", "_names")

    def __init__(self, names: tuple[str, ...], items: Sequence[TagItem]) -> None:
        """``names`` the name of each tag; ``items`` what the row keeps of each (a
        :data:`TagItem`, see :func:`tag_item`). Readers hand these over; :meth:`of` makes a
        row of pairs."""
        if len(names) != len(items):
            raise ValueError(f"{len(names)} tag names for {len(items)} tags")
        self._names, self._index = _shared_names(names)
        self._items: tuple[TagItem, ...] = tuple(items)

    @classmethod
    def of(cls, pairs: Iterable[TagPair]) -> Tags:
        """The row of ``pairs`` (a row itself is returned as it is)."""
        if isinstance(pairs, Tags):
            return pairs
        kept = tuple(pairs)
        return cls(
            tuple(p.name for p in kept),
            tuple(map(tag_item, kept)),
        )

    # -- reading without a model --------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        """The name of each tag, in order (one tuple shared by the rows of these names)."""
        return self._names

    @property
    def name_index(self) -> dict[str, int]:
        """Each name to the place of its first tag (PBN 2.6): shared, do not change it."""
        return self._index

    def value(self, i: int) -> str:
        """The value in use of the ``i``-th tag."""
        return item_value(self._items[i])

    def get(self, name: str) -> str | None:
        """The value in use of the first tag ``name`` (PBN 2.6), or None."""
        at = self._index.get(name)
        return None if at is None else self.value(at)

    # -- the sequence of TagPairs -------------------------------------------------------
    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> TagPair: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[TagPair, ...]: ...
    def __getitem__(self, i: int | slice) -> TagPair | tuple[TagPair, ...]:
        if isinstance(i, slice):
            return tuple(self)[i]
        return _pair(self._names[i], self._items[i])

    def __iter__(self) -> Iterator[TagPair]:
        return map(_pair, self._names, self._items)  # (the same length: __init__ says)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tags) and self._names is other._names and self._items == other._items:
            return True  # (the usual case, with no TagPair built)
        return super().__eq__(other)

    __hash__ = Row.__hash__

    def __reduce__(self) -> tuple[Any, ...]:
        return (Tags, (self._names, self._items))
