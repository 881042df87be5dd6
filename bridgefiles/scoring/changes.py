"""What scoring does to one board, kept apart from the board so a file can stream.

Scoring compares boards with each other (matchpoints, IMPs, team matches, rubber
histories), so it needs facts from every board of a file, but not the boards. A
:class:`~bridgefiles.scoring.record.Record` holds a board's scoring facts (its tags
and tables, not its auction, play or text) and logs each change it makes as a
:data:`Step`. The log, the findings and the board's label are its :class:`Changes`;
:func:`apply_changes` replays them on the board as read. ``bf.score`` does exactly
that on a file in memory, and ``convert --score`` on a second reading of its input,
so there is one way to score, whichever holds the boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.model.board import Board, Table
from bridgefiles.model.diagnostic import Diagnostic

Step = tuple[str, str] | Table
"""A tag set (name, value) or a table written in place of the one of its name."""


def with_table(board: Board, table: Table) -> Board:
    """A copy of ``board`` with ``table`` in place of its table of that name (last)."""
    tables = [t for t in board.tables if t.name != table.name]
    tables.append(table)
    return board.replace(tables=tuple(tables))


def with_step(board: Board, step: Step) -> Board:
    """``board`` with one logged change made."""
    if isinstance(step, Table):
        return with_table(board, step)
    name, value = step
    return board.with_tag(name, value)


@dataclass(frozen=True)
class Changes:
    """Scoring's changes to one board: ``steps`` in order, then ``diagnostics`` added.

    ``new`` are the diagnostics that were not on the board as read (what a conversion
    reports), ``label`` the board's name in them (``board 7 (Open)``).
    """

    steps: tuple[Step, ...]
    diagnostics: tuple[Diagnostic, ...]
    new: tuple[Diagnostic, ...]
    label: str


def apply_changes(board: Board, changes: Changes | None) -> Board:
    """The board as scoring leaves it: each step made, then the findings added (a
    board that no step changed keeps its text as read)."""
    if changes is None:
        return board
    for step in changes.steps:
        board = with_step(board, step)
    if not changes.diagnostics:
        return board
    diagnostics = (*board.diagnostics, *changes.diagnostics)
    if changes.steps:
        return board.replace(diagnostics=diagnostics)
    return board.model_copy(update={"diagnostics": diagnostics})


def new_findings(
    found: Sequence[Diagnostic], known: Sequence[Diagnostic]
) -> tuple[Diagnostic, ...]:
    """The findings of ``found`` that are not among ``known`` (a set: a board may
    hold thousands of findings)."""
    if not known:
        return tuple(found)
    seen = set(known)
    return tuple(d for d in found if d not in seen)
