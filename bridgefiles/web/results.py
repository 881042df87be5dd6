"""What the report page shows of an event's results: each board's traveller, each table's
score, matchpoints or IMPs, and the event's standings, as plain values.

Nothing is computed here: the file is scored by the library (``bf.score``, what
``bridgefiles score`` writes), and the page shows the ScoreTable (traveller),
TotalScoreTable (standings) and Score tags of the scored boards as they come.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import bridgefiles as bf
from bridgefiles.model.board import Board, Table

Laws = Literal["2017", "2007"]

MAX_ROWS = 200  # rows of one traveller or of the standings drawn; the rest are counted
_HEADINGS = {
    "Names_NS": "NS", "Names_EW": "EW", "PairId_NS": "NS", "PairId_EW": "EW",
    "Score_NS": "Score NS", "Score_EW": "Score EW", "MP_NS": "MP NS", "MP_EW": "MP EW",
    "Percentage_NS": "% NS", "Percentage_EW": "% EW", "IMP_NS": "IMP NS", "IMP_EW": "IMP EW",
    "PairId": "Pair", "TeamId": "Team", "NrBoards": "Boards", "TotalMP": "MP",
    "TotalPercentage": "%", "TotalIMP": "IMP", "MeanIMP": "IMP a board",
}
SCORE_TAGS = (("Score", "Score"), ("ScoreMP", "MP"), ("ScorePercentage", "%"),
              ("ScoreIMP", "IMP"))


@dataclass(frozen=True)
class ResultTable:
    """A traveller or the standings: headings, rows of cell texts, rows not drawn."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    more: int = 0
    numeric: tuple[bool, ...] = ()  # a column of numbers (right-aligned)


@dataclass(frozen=True)
class Results:
    """The scored file as the page shows it: by board index, the traveller and this
    table's scores; the boards whose result is a row of an earlier board's traveller (the
    same deal at another table); the event's standings; why there are none, when scoring
    failed."""

    travellers: dict[int, ResultTable]
    scores: dict[int, tuple[tuple[str, str], ...]]
    standings: tuple[ResultTable, ...]
    covered: frozenset[int] = frozenset()
    problem: str | None = None


def _cell(text: str) -> str:
    """A table cell as read: quotes taken off, a pair's two names joined by ``&``."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return " & ".join(p for p in text.split(";") if p) if ";" in text else text


def _number(text: str) -> bool:
    return text.lstrip("+-").replace(".", "", 1).isdigit()


def table_view(table: Table, max_rows: int = MAX_ROWS) -> ResultTable:
    rows = tuple(tuple(_cell(c) for c in row) for row in table.rows[:max_rows])
    columns = tuple(_HEADINGS.get(c.name, c.name.replace("_", " ")) for c in table.columns)
    numeric = tuple(
        bool(rows) and all(_number(r[i]) or r[i] in ("-", "") for r in rows if i < len(r))
        for i in range(len(columns)))
    return ResultTable(columns, rows, max(0, len(table.rows) - max_rows), numeric)


def board_scores(board: Board) -> tuple[tuple[str, str], ...]:
    """This table's score, matchpoints, percentage and IMPs, as the scored board's tags
    give them (``("MP", "NS 12 EW 2")``)."""
    return tuple((label, value) for tag, label in SCORE_TAGS
                 if (value := board.tag(tag)) not in (None, "", "?"))


def results(boards: Iterable[Board]) -> Results:
    travellers: dict[int, ResultTable] = {}
    scores: dict[int, tuple[tuple[str, str], ...]] = {}
    standings: ResultTable | None = None  # the last TotalScoreTable: the event's

    dealt: set[tuple[str | None, str | None]] = set()  # deals whose traveller is shown
    covered: set[int] = set()
    for board in boards:
        traveller = board.table("ScoreTable")
        deal = (board.board_number, board.tag("Deal"))
        if traveller is not None and traveller.rows:
            travellers[board.index] = table_view(traveller)
            dealt.add(deal)
        elif deal in dealt:
            covered.add(board.index)
        shown = board_scores(board)
        if shown:
            scores[board.index] = shown
        total = board.table("TotalScoreTable")
        if total is not None and total.rows:  # a match's running total, or the event's
            standings = table_view(total)
    return Results(travellers, scores, (standings,) if standings else (), frozenset(covered))


MAX_ERRORS_SCORED = 10_000  # a file with more errors than this is not scored for the page


def score_file(path: str, name: str, method: str | None, laws: Laws,
               errors: int = 0) -> Results:
    """The file scored as ``bridgefiles score NAME`` scores it (streamed: written as PBN
    beside the upload in its request's folder and read back a board at a time), as the page
    shows it. ``errors``: the file's count; past ``MAX_ERRORS_SCORED`` it is not scored."""
    if errors > MAX_ERRORS_SCORED:
        return Results({}, {}, (), problem=f"{errors:,} errors: too many to score the file "
                                           "for this page")
    target = os.path.join(os.path.dirname(path), "results.pbn")  # PBN carries the tables
    try:
        bf.convert(path, target, to="pbn", score=True, method=method, laws=laws, name=name,
                   check=False)
        return results(bf.read(target))
    except bf.InternalError:
        raise  # our bug: a 500, never blamed on the file
    except bf.BridgeFileError as exc:
        return Results({}, {}, (), problem=str(exc))  # the findings say why
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(target)
