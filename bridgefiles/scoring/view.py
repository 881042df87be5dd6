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

from bridgefiles.model.board import Board, Table, TagPair
from bridgefiles.model.deal import Deal
from bridgefiles.model.fast import attach, attached, construct, shared_fields

_FIELDS = shared_fields(("tags", "tables", "format", "index", "line"))
_KEY = "scoring_tags"  # where a view keeps its tags, beside its fields
_PARSE_DEAL: Callable[[Board], Deal | None] = Board.deal.func  # Board.deal, uncached

Compact = tuple[tuple[str, ...], tuple[str, ...], tuple[int | None, ...]]
"""Tag names (one tuple shared by the boards that have the same tags), values, and
each tag's line and column (any int a file gives, or None: not known)."""


@lru_cache(maxsize=256)
def _shared(names: tuple[str, ...]) -> tuple[str, ...]:
    """One tuple for the boards of a file that have the same tag names (bounded, so a
    file of ever-new names costs its own tuples, no more)."""
    return names


class ScoringView(Board):
    """A board as scoring reads it (see the module doc); its ``tags`` field is empty."""

    def compact(self) -> Compact:
        """The tags, as :func:`scoring_view` keeps them."""
        found: Compact = attached(self, _KEY)
        return found

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

    def with_tag(self, name: str, value: str) -> Board:
        """A copy with tag ``name`` set, as :meth:`Board.with_tag` sets it."""
        names, values, where = self.compact()
        if name in names:
            i = names.index(name)
            compact: Compact = (names, (*values[:i], value, *values[i + 1:]), where)
        else:
            compact = (_shared((*names, name)), (*values, value), (*where, None, None))
        copy = self.replace()
        attach(copy, _KEY, compact)
        return copy

    def __reduce__(self) -> tuple[Callable[..., ScoringView], tuple[Any, ...]]:
        """Pickled as its fields (scoring's records wait on disk): pydantic's own pickling
        copies every field and cached view."""
        return _view, (self.compact(), self.tables, self.format, self.index, self.line)

    @property
    def deal(self) -> Deal | None:
        """Parsed each time it is asked (twice a record), not kept: a parsed deal is
        several times the rest of the record."""
        return _PARSE_DEAL(self)


def scoring_view(board: Board) -> ScoringView:
    """The board's record for scoring: its tags, tables and place in the file."""
    tags = board.tags
    where = tuple(n for t in tags for n in (t.line, t.column))
    compact = (_shared(tuple(t.name for t in tags)), tuple(t.value for t in tags), where)
    return _view(compact, board.tables, board.format, board.index, board.line)


def _view(compact: Compact, tables: tuple[Table, ...], format: str | None, index: int | None,
          line: int | None) -> ScoringView:
    data: dict[str, Any] = {
        "tags": (), "tables": tables, "format": format, "index": index, "line": line,
    }
    view = construct(ScoringView, data, _FIELDS)
    attach(view, _KEY, compact)
    return view
