"""What scoring reads of a board, held small: the record a file keeps of every board.

Scoring a file compares its boards, so a record of each must stay while the file
streams past. It needs a board's tag values (where each stood, to place a finding),
its tables and its place in the file; not its auction, play, commentary or text,
which only the Laws' ruling reads (on the whole board, before the record is made).
A :class:`ScoringView` is a :class:`~bridgefiles.model.board.Board` without those,
its tags kept as plain tuples rather than a model each (a tenth of the memory), and
its deal parsed when asked rather than kept. It answers what scoring asks of a
board (``tag``, ``tag_pair``, ``table``, the tag views) as the board would, and
``with_tag`` changes it as it would change the board.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pydantic import PrivateAttr

from bridgefiles.model.board import Board, Table, TagPair

Compact = tuple[tuple[str, ...], tuple[str, ...], tuple[int | None, ...]]
"""Tag names (one tuple shared by the boards that have the same tags), values, and
each tag's line and column (any int a file gives, or None: not known)."""


_NO_TAGS: Compact = ((), (), ())


@lru_cache(maxsize=256)
def _shared(names: tuple[str, ...]) -> tuple[str, ...]:
    """One tuple for the boards of a file that have the same tag names (bounded, so a
    file of ever-new names costs its own tuples, no more)."""
    return names


class ScoringView(Board):
    """A board as scoring reads it (see the module doc); its ``tags`` field is empty."""

    # (a factory: pydantic deep-copies a private default for every view made)
    _compact: Compact = PrivateAttr(default_factory=lambda: _NO_TAGS)

    def compact(self) -> Compact:
        """The tags, as :func:`scoring_view` keeps them."""
        # (read where pydantic keeps private values: ``self._compact`` goes through the
        # model's __getattr__, and scoring asks for a board's tags many times)
        private = self.__pydantic_private__
        return _NO_TAGS if private is None else private["_compact"]

    def tag(self, name: str) -> str | None:
        names, values, _ = self.compact()
        try:
            return values[names.index(name)]  # the first of its name (PBN 2.6)
        except ValueError:
            return None

    def tag_pair(self, name: str) -> TagPair | None:
        """The tag's name, value and place (what a finding about it needs)."""
        names, values, where = self.compact()
        try:
            i = names.index(name)
        except ValueError:
            return None
        return TagPair(name=name, value=values[i], line=where[2 * i], column=where[2 * i + 1])

    def tag_where(self, tag: int | str) -> tuple[int | None, int | None]:
        """Where a tag stood, as :meth:`Board.tag_where` says it."""
        names, _, where = self.compact()
        if isinstance(tag, str):
            if tag not in names:
                return None, None
            tag = names.index(tag)
        return where[2 * tag], where[2 * tag + 1]

    def with_tag(self, name: str, value: str) -> Board:
        """A copy with tag ``name`` set, as :meth:`Board.with_tag` sets it."""
        names, values, where = self.compact()
        if name in names:
            i = names.index(name)
            compact: Compact = (names, (*values[:i], value, *values[i + 1:]), where)
        else:
            compact = (_shared((*names, name)), (*values, value), (*where, None, None))
        copy = self.replace()
        assert isinstance(copy, ScoringView)  # (a model's copy is of its class)
        copy._compact = compact
        return copy

    def __reduce__(self) -> tuple[Callable[..., ScoringView], tuple[Any, ...]]:
        """Pickled as its fields (scoring's records wait on disk): pydantic's own pickling
        copies every field and cached view."""
        return _view, (self.compact(), self.tables, self.format, self.index, self.line)


def scoring_view(board: Board) -> ScoringView:
    """The board's record for scoring: its tags, tables and place in the file."""
    tags = board.tags
    where = tuple(n for i in range(len(tags)) for n in board.tag_where(i))
    compact = (_shared(tuple(t.name for t in tags)), tuple(t.value for t in tags), where)
    return _view(compact, board.tables, board.format, board.index, board.line)


def _view(compact: Compact, tables: tuple[Table, ...], format: str | None, index: int | None,
          line: int | None) -> ScoringView:
    view = ScoringView(tables=tables, format=format, index=index, line=line)
    view._compact = compact
    return view
