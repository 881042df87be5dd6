"""What a board says about double dummy, against a fresh analysis: ``dd-mismatch``.

A board may carry the 20 trick counts twice (BridgeComposer's ``DoubleDummyTricks`` and
PBN 2.1's ``OptimumResultTable``) and the par twice (``OptimumScore``, ``ParContract``).
Each is compared by meaning, not by spelling: ``"EW 430"`` and ``"NS -430"`` are the same
optimum score, and the rows of a result table may come in any order.

>>> import bridgefiles as bf
>>> board = bf.loads('[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. '
...     '...AKQJT98765432"]\\n[DoubleDummyTricks "00000000000000000000"]\\n',
...     format="pbn").boards[0]
>>> print(check_board(board)[0].format())  # doctest: +ELLIPSIS
<input>:2:1: error[dd-mismatch] DoubleDummyTricks disagrees with the deal: North in S takes 13 ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping, Sequence

from pydantic import BaseModel, ConfigDict

from bridgefiles.analysis import solver
from bridgefiles.analysis.models import (
    TABLE_SEATS,
    TABLE_STRAINS,
    DDTable,
    Par,
    ParContract,
    parse_hex,
    parse_optimum_score,
)
from bridgefiles.model.board import Board
from bridgefiles.model.cards import Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import Diagnostic, Severity, error
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring.board import board_dealer, board_vulnerability, parse_board_number

CODE = "dd-mismatch"
CARRIED_TAGS = ("DoubleDummyTricks", "OptimumScore", "ParContract")
RESULT_TABLE = "OptimumResultTable"


class Analysis(BaseModel):
    """A board's fresh analysis: the table, and the par when dealer and vulnerability
    are known (from the board's tags, else from its number, Law 2)."""

    model_config = ConfigDict(frozen=True)

    table: DDTable
    par: Par | None = None


def solvable_deal(board: Board) -> Deal | None:
    """The board's deal when it is four sound 13-card hands, else None."""
    deal = board.deal
    if deal is None or not deal.is_complete or deal.problems():
        return None
    return deal


def why_unsolvable(board: Board) -> str | None:
    """Why the board cannot be analysed (``the deal has 51 cards``), None when it can:
    what a director is told of each board left out, instead of a bare count."""
    deal = board.deal
    if deal is None:
        return "it has no deal"
    problems = deal.problems()
    if problems:
        return "; ".join(problems)
    if not deal.is_complete:
        cards = sum(len(h) for h in deal.hands.values() if h is not None)
        return f"the deal has {cards} cards, not 52 in four hands of 13"
    return None


def left_out(board: Board, what: str) -> Diagnostic | None:
    """Why the board is left out of the work, as a finding at its deal
    (``not analysed: the deal has 51 cards``); None when the deal is sound. A deal given
    wrong is a warning; no deal at all (a board of results only) is worth knowing."""
    why = why_unsolvable(board)
    if why is None:
        return None
    line, column = board.tag_where("Deal")
    severity = Severity.INFO if board.deal is None else Severity.WARNING
    return Diagnostic(code="deal", severity=severity, message=f"{what}: {why}",
                      line=line, column=column)


def conditions(board: Board) -> tuple[Seat, Vulnerability] | None:
    """Dealer and vulnerability: the tags, else the board number's (Law 2), else None."""
    number = parse_board_number(board.board_number)
    dealer = board.dealer or (board_dealer(number) if number else None)
    vulnerable = board.vulnerable or (board_vulnerability(number) if number else None)
    if dealer is None or vulnerable is None:
        return None
    return dealer, vulnerable


def analyse_boards(
    boards: Sequence[Board], progress: Callable[[int], None] | None = None,
    known: MutableMapping[str, DDTable] | None = None,
) -> list[Analysis | None]:
    """Fresh analyses, one per board (None without a full deal); the solver sees each
    distinct deal once, in batches (``progress``: deals solved so far). ``known``: tables
    by deal (``Deal.pbn(Seat.N)``) solved before, used and added to, so that a deal
    repeated across a stream's batches (the rooms of a match) is solved once."""
    deals = {i: d for i, b in enumerate(boards) if (d := solvable_deal(b)) is not None}
    keys = {i: d.pbn(Seat.N) for i, d in deals.items()}
    tables = {k: known[k] for k in set(keys.values()) if known is not None and k in known}
    distinct = {k: deals[i] for i, k in keys.items() if k not in tables}
    tables.update(zip(distinct, solver.dd_tables(list(distinct.values()), progress),
                      strict=True))
    if known is not None:
        for key in distinct:
            known[key] = tables[key]
    out: list[Analysis | None] = []
    for i, board in enumerate(boards):
        if i not in keys:
            out.append(None)
            continue
        table = tables[keys[i]]
        given = conditions(board)
        out.append(Analysis(table=table,
                            par=solver.par(table, given[1], given[0]) if given else None))
    return out


def check_board(board: Board, analysis: Analysis | None = None) -> list[Diagnostic]:
    """``dd-mismatch`` findings for what the board carries, against ``analysis`` (made
    here when not given). A board without a full deal, or carrying none of the tags,
    gives none."""
    return list(mismatches(board, analysis).values())


def mismatches(board: Board, analysis: Analysis | None = None) -> dict[str, Diagnostic]:
    """The findings of :func:`check_board` by the name of the tag each is about."""
    if not carries_analysis(board):
        return {}
    if analysis is None:
        analysis = analyse_boards([board])[0]
    if analysis is None:
        return {}
    return dict([*_check_tricks(board, analysis.table), *_check_par(board, analysis.par)])


def carries_analysis(board: Board) -> bool:
    tags = any(board.tag(n) is not None for n in CARRIED_TAGS)
    return tags or board.table(RESULT_TABLE) is not None


def _name(seat: Seat, strain: Strain) -> str:
    return f"{seat.full_name} in {'notrump' if strain is Strain.NT else strain.value}"


def _differences(found: list[tuple[Seat, Strain, int]], table: DDTable) -> str | None:
    wrong = [(s, st, n, table.tricks_for(s, st)) for s, st, n in found
             if n != table.tricks_for(s, st)]
    if not wrong:
        return None
    s, st, n, fresh = wrong[0]
    text = f"{_name(s, st)} takes {fresh} tricks double dummy, not {n}"
    if len(wrong) > 1:
        text += f" (and {len(wrong) - 1} more of its counts differ)"
    return text


Finding = tuple[str, Diagnostic]


def _check_tricks(board: Board, table: DDTable) -> list[Finding]:
    out: list[Finding] = []
    pair = board.tag_pair("DoubleDummyTricks")
    if pair is not None and pair.value.strip() not in ("", "?"):
        name = "DoubleDummyTricks"
        try:
            counts = parse_hex(pair.value)
        except ValueError as exc:
            out.append(_finding(name, str(exc), board, *board.tag_where(name)))
        else:
            found = [(s, st, n) for (s, st, _), n in zip(table.rows(), counts, strict=True)
                     if n is not None]
            wrong = _differences(found, table)
            if wrong:
                message = f"{name} disagrees with the deal: {wrong}"
                out.append(_finding(name, message, board, *board.tag_where(name)))
    result_table = board.table(RESULT_TABLE)
    if result_table is not None:
        wrong = _differences(_result_rows(result_table.records()), table)
        if wrong:
            message = f"{RESULT_TABLE} disagrees with the deal: {wrong}"
            out.append(_finding(RESULT_TABLE, message, board, result_table.line,
                                result_table.column))
    return out


def result_rows(records: Iterable[dict[str, str]]) -> Iterator[tuple[Seat, Strain, int]]:
    """An OptimumResultTable's readable rows (declarer, strain, tricks, any count), read
    alike by the check and the hand records; unknown (``?``, ``-``) or malformed ones are
    the reader's concern."""
    for record in records:
        try:
            seat = Seat.parse(record.get("Declarer", ""))
            strain = Strain.parse(record.get("Denomination", ""))
            tricks = int(record.get("Result", ""))
        except ValueError:
            continue
        yield seat, strain, tricks


def _result_rows(records: list[dict[str, str]]) -> list[tuple[Seat, Strain, int]]:
    """The rows a fresh table can judge: a count from 0 to 13 in one of its cells."""
    return [(seat, strain, tricks) for seat, strain, tricks in result_rows(records)
            if seat in TABLE_SEATS and strain in TABLE_STRAINS and 0 <= tricks <= 13]


def _check_par(board: Board, par: Par | None) -> list[Finding]:
    if par is None:
        return []
    same: dict[str, Callable[[str], bool]] = {
        "OptimumScore": lambda v: parse_optimum_score(v) == par.score,
        "ParContract": lambda v: set(ParContract.parse(v)) == set(par.contracts),
    }
    out: list[Finding] = []
    for name, agrees in same.items():
        pair = board.tag_pair(name)
        if pair is None or pair.value.strip() in ("", "?"):
            continue
        try:
            ok = agrees(pair.value)
            message = (f'{name} "{pair.value}" disagrees with the deal: par is '
                       f"{par.optimum_score} ({par.par_contract})")
        except ValueError as exc:
            ok, message = False, str(exc)
        if not ok:
            out.append(_finding(name, message, board, *board.tag_where(name)))
    return out


def _finding(
    name: str, message: str, board: Board, line: int | None, column: int | None
) -> Finding:
    return name, error(CODE, message, line=line, column=column, board=board.board_number)
