"""Hostile score tables (issue 15): each bomb bounded by a setting, reported, never raised.

The bombs as measured before the fix: a ``Multiplicity`` of 1E6 ran for hours (the row
was repeated, then compared with every copy) and 1E9 ran out of memory; a cell
``1e10000000`` took over a minute of Decimal arithmetic; ``NaN`` and ``Infinity`` cells
raised ValueError and OverflowError out of ``bf.score``; matchpoints took time
quadratic in the rows. Timings live in ``scripts/bench_limits.py``; here the work is
counted and the results checked against the plain definitions.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bridgefiles as bf
from bridgefiles.errors import BridgeFileError
from bridgefiles.limits import Limits
from bridgefiles.model.board import Board
from bridgefiles.model.file import BridgeFile
from bridgefiles.scoring import record as record_module
from bridgefiles.scoring.butler import butler, butler_datum, cross_imps
from bridgefiles.scoring.fill import score_file
from bridgefiles.scoring.imps import imps
from bridgefiles.scoring.matchpoints import matchpoints, score_board, weighted_matchpoints

HEAD = '[Event "e"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Scoring "MP"]\n'
COLUMNS = "Contract\\2R;Declarer\\1R;Result\\2R;Score_NS\\5R;Multiplicity\\8R"


def _traveller(rows: list[str], columns: str = COLUMNS, scoring: str = "MP") -> BridgeFile:
    text = HEAD.replace('"MP"', f'"{scoring}"') + f'[ScoreTable "{columns}"]\n' + "".join(
        f"{r}\n" for r in rows
    )
    return bf.loads(text + "\n", "pbn")


def _board(scored: BridgeFile) -> Board:
    (board,) = scored.boards
    return board


def _codes(board: Board) -> list[str]:
    return [d.code for d in board.diagnostics]


def _column(board: Board, name: str) -> list[str]:
    table = board.table("ScoreTable")
    assert table is not None
    return [r.get(name, "-") for r in table.records()]


# -- Multiplicity: a weight, bounded -----------------------------------------------------


def test_multiplicity_is_a_weight_equal_to_repeated_rows() -> None:
    weighted = _board(bf.score(_traveller(["3NT N 9 - 3", "4S N 10 - 1", "3NT N 8 - 1"])))
    repeated = _board(
        bf.score(
            _traveller(["3NT N 9 - 1", "3NT N 9 - 1", "3NT N 9 - 1", "4S N 10 - 1", "3NT N 8 - 1"])
        )
    )
    # 3NT= ties with two copies of itself and beats 3NT-1: 2*1 + 2 = 4 of 8.
    assert _column(weighted, "MP_NS") == ["4", "8", "0"]
    assert _column(repeated, "MP_NS")[0] == "4" and _column(repeated, "MP_NS")[3:] == ["8", "0"]
    assert _codes(weighted) == []


@pytest.mark.parametrize("value", ["1E6", "1000000000", "1E9"])
def test_huge_multiplicity_is_a_limit_finding_and_leaves_the_deal_unscored(value: str) -> None:
    board = _board(bf.score(_traveller([f"3NT N 9 - {value}", "4S N 10 - 1"])))
    (d,) = [d for d in board.diagnostics if d.code == "limit"]
    assert "max_multiplicity=10,000" in d.message and "row 1" in d.message
    assert _column(board, "MP_NS") == ["-", "-"]  # no result column written


def test_the_work_does_not_depend_on_the_multiplicity() -> None:
    """With the limit lifted, 1E9 equal results are a weight: no row is repeated."""
    unlimited = Limits(max_multiplicity=None)
    board = _board(
        score_file(_traveller(["3NT N 9 - 1E9", "4S N 10 - 1"]), limits=unlimited)
    )
    assert _codes(board) == []
    top = 2 * (10**9 + 1 - 1)
    assert _column(board, "MP_NS") == [str(10**9 - 1), str(top)]


def test_a_small_multiplicity_limit() -> None:
    small = Limits(max_multiplicity=2)
    board = _board(score_file(_traveller(["3NT N 9 - 3", "4S N 10 - 1"]), limits=small))
    assert _codes(board) == ["limit"]
    assert "max_multiplicity=2" in board.diagnostics[0].message


# -- numbers in cells ----------------------------------------------------------------------


@pytest.mark.parametrize("cell", ["1e10000000", "1E99999999999999999999", "1" * 40])
def test_a_number_too_long_is_a_limit_finding(cell: str) -> None:
    board = _board(bf.score(_traveller([f"{cell} 1", "420 1"], "Score_NS\\5R;Multiplicity")))
    (d,) = board.diagnostics
    assert d.code == "limit" and "max_number_digits=30" in d.message
    # The row has no usable score: the other result stands alone (an average).
    assert _column(board, "Percentage_NS") == ["-", "50"]


def test_a_smaller_digit_limit() -> None:
    rows = ["12345 1", "420 1"]
    small = Limits(max_number_digits=4)
    board = _board(score_file(_traveller(rows, "Score_NS\\5R;Multiplicity"), limits=small))
    assert _codes(board) == ["limit"] and "max_number_digits=4" in board.diagnostics[0].message


@pytest.mark.parametrize("cell", ["NaN", "Infinity", "-inf", "sNaN", "abc"])
@pytest.mark.parametrize("column", ["Score_NS", "Multiplicity"])
def test_a_cell_that_is_not_a_number_is_a_table_finding(cell: str, column: str) -> None:
    row = f"{cell} 1" if column == "Score_NS" else f"420 {cell}"
    board = _board(bf.score(_traveller([row, "100 1"], "Score_NS\\5R;Multiplicity")))
    (d,) = board.diagnostics
    assert d.code == "table" and column in d.message and "is not a number" in d.message


def test_total_score_table_numbers_are_bounded_too() -> None:
    rows = ["3NT N 9 - 1", "4S N 10 - 1"]
    text = HEAD + f'[ScoreTable "{COLUMNS}"]\n' + "\n".join(rows) + "\n"
    text += '[TotalScoreTable "Rank\\2R;PairId\\2R;TotalMP\\8R"]\n1 1 1e10000000\n\n'
    scored = bf.score(bf.loads(text, "pbn"))
    assert all(d.code != "internal" for b in scored.boards for d in b.diagnostics)


# -- linear-ish work -----------------------------------------------------------------------


class _Counted(float):
    """A score that counts the comparisons made with it."""

    calls = 0

    def __lt__(self, other: object) -> bool:
        _Counted.calls += 1
        return float(self) < float(other)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        _Counted.calls += 1
        return float(self) == float(other)  # type: ignore[arg-type]

    __hash__ = float.__hash__


def test_matchpointing_is_n_log_n_comparisons() -> None:
    n = 4096
    scores = [_Counted((i * 7919) % 1000 * 10) for i in range(n)]
    _Counted.calls = 0
    matchpoints(scores)
    assert _Counted.calls <= 4 * n * math.log2(n)  # every pair compared: n² = 16.7M


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([-500, -100, -50, 100, 110, 140, 400, 420, 450, 620, 1430]),
                  st.integers(1, 4)),
        min_size=1,
        max_size=12,
    )
)
def test_weights_equal_repetition(runs: list[tuple[int, int]]) -> None:
    scores = [s for s, _ in runs]
    weights = [w for _, w in runs]
    expanded = [s for s, w in runs for _ in range(w)]
    first = list(itertools.accumulate([0, *weights[:-1]]))
    plain = _brute_matchpoints(expanded)
    assert weighted_matchpoints(scores, weights) == [plain[i] for i in first]
    board = score_board([float(s) for s in scores], weights=weights, expected=len(expanded) + 2)
    assert board.ns == pytest.approx(
        [score_board([float(s) for s in expanded], expected=len(expanded) + 2).ns[i]
         for i in first]
    )
    settings_: dict[str, Any] = {"discard": 1, "round_datum": 10}
    assert butler_datum(scores, weights=weights, **settings_) == butler_datum(
        expanded, **settings_
    )
    assert butler_datum(scores, weights=weights, average="median") == butler_datum(
        expanded, average="median"
    )
    assert butler(scores, weights=weights) == [butler(expanded)[i] for i in first]
    assert cross_imps(scores, weights=weights) == pytest.approx(
        [_brute_cross(expanded)[i] for i in first]
    )


def _brute_matchpoints(scores: list[int]) -> list[float]:
    return [
        float(sum(2 if s > t else 1 if s == t else 0 for j, t in enumerate(scores) if j != i))
        for i, s in enumerate(scores)
    ]


def _brute_cross(scores: list[int]) -> list[float]:
    n = len(scores)
    sums = [sum(imps(s - t) for j, t in enumerate(scores) if j != i) for i, s in enumerate(scores)]
    return [s / (n - 1) if n > 1 else 0.0 for s in sums]


# -- the settings and misuse -----------------------------------------------------------------


@pytest.mark.parametrize(
    "settings_",
    [
        {"laws": "1997"},
        {"limits": "x"},
        {"units": 2},
        {"places": -1},
        {"expected_results": 0},
        {"expected_results": 10**30},  # Neuberg to a field that large overflowed Decimal
        {"round_datum": 10**40},
        {"replace": "yes"},
        {"no_such_setting": 1},
    ],
)
def test_bad_settings_are_our_error(settings_: dict[str, Any]) -> None:
    with pytest.raises(BridgeFileError, match="bad scoring settings"):
        score_file(_traveller(["3NT N 9 - 1"]), **settings_)


@pytest.mark.parametrize("thing", [None, [], "file.pbn"])
def test_score_of_what_is_not_a_file_is_our_error(thing: Any) -> None:
    with pytest.raises(BridgeFileError, match="needs a BridgeFile"):
        score_file(thing)
    with pytest.raises(BridgeFileError, match="takes a BridgeFile"):  # the public verb
        bf.score(thing)


@pytest.mark.parametrize("laws", ["2017", "2007"])
def test_the_laws_edition_reaches_the_ruling(
    laws: Literal["2017", "2007"], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    from bridgefiles.laws.result import board_result as real

    def spy(board: Board, *, laws: Any = "2017") -> Any:
        seen.append(laws)
        return real(board, laws=laws)

    monkeypatch.setattr(record_module, "board_result", spy)
    scored = bf.score(_traveller(["3NT N 9 - 1"]), laws=laws)
    assert seen == [laws] and _board(scored).tag("Score") is None


def test_a_bug_in_the_ruling_is_an_internal_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(board: Board, *, laws: Any = "2017") -> Any:
        raise KeyError("oops")

    monkeypatch.setattr(record_module, "board_result", broken)
    text = HEAD + '[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n\n'
    (board,) = bf.score(bf.loads(text, "pbn")).boards
    assert _codes(board) == ["internal"] and "KeyError" in board.diagnostics[0].message
    assert board.tag("Score") == "NS 420"  # scored from the tags


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-300, 300).map(lambda x: x * 5.0), min_size=1, max_size=15),
    st.sampled_from(["lower", "nearest", "upper"]),
    st.sampled_from(["comparisons", "scores", "none"]),
)
def test_cross_imps_by_binary_search_equal_every_pair(
    scores: list[float], rounding: Any, divide: Any
) -> None:
    n = len(scores)
    sums = [
        sum(imps(s - t, rounding=rounding) for j, t in enumerate(scores) if j != i)
        for i, s in enumerate(scores)
    ]
    by = {"comparisons": n - 1, "scores": n, "none": 1}[divide]
    expected = [x / by if by > 0 else 0.0 for x in sums]
    assert cross_imps(scores, rounding=rounding, divide=divide) == pytest.approx(expected)


def test_numbers_as_long_as_a_cell_may_hold_are_written_whole() -> None:
    from decimal import Decimal

    from bridgefiles.scoring.values import format_number

    big = "123456789012345678901234567890"  # max_number_digits: 30
    assert format_number(Decimal(big + ".125")) == big + ".13"
    assert format_number(int(big)) == big
    with pytest.raises(ValueError):
        format_number(float("nan"))


@pytest.mark.parametrize("scoring", ["MP", "IMP", "IMP;Butler", "IMP;Cross"])
@pytest.mark.parametrize("digits", [400, 20_000])
def test_a_score_tag_too_long_is_a_limit_finding(scoring: str, digits: int) -> None:
    """A Score of 400 digits raised OverflowError (no float holds it), 20,000 digits a
    ValueError from int-to-text conversion; both are now a limit finding at the tag."""

    def record(pair: int, score: str) -> str:
        return (
            f'[Event "e"]\n[Board "1"]\n[Vulnerable "None"]\n[Scoring "{scoring}"]\n'
            f'[PairNS "{pair}"]\n[Score "{score}"]\n\n'
        )

    text = record(1, "NS " + "9" * digits) + record(2, "NS 420")
    first, second = bf.score(bf.loads(text, "pbn")).boards
    (d,) = [d for d in first.diagnostics if d.code == "limit"]
    assert d.message.startswith("Score: ") and "max_number_digits=30" in d.message
    assert d.line == 6
    assert not [d for d in second.diagnostics if d.code != "syntax"]
