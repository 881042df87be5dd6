"""score_file: results and scores filled in, on the fixtures and on boards built directly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.errors import BridgeFileError
from bridgefiles.model.board import Board, Column, Table, TagPair
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring.fill import score_file
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.vp import victory_points

PAIRS = FIXTURES / "scoring-pairs.pbn"
TEAMS = FIXTURES / "scoring-teams.pbn"


def _load(path: Path) -> BridgeFile:
    return bf.load(path)


def _validate(board: Board) -> Any:
    from bridgefiles.checks.validate import validate_board

    return validate_board(board)


def _tags(board: Board) -> dict[str, str]:
    return {t.name: t.value for t in board.tags}


def _table_rows(board: Board, name: str) -> list[dict[str, str]]:
    table = board.table(name)
    assert table is not None, f"{board.label} has no {name}"
    return table.records()


# -- built directly ------------------------------------------------------------------


def _board(index: int = 0, **tags: str) -> Board:
    return Board(tags=tuple(TagPair(name=k, value=v) for k, v in tags.items()), index=index)


def _file(*boards: Board) -> BridgeFile:
    return BridgeFile(format="pbn", boards=boards)


def test_changed_copy_reads_its_new_tags() -> None:
    """Board.replace drops the cached views (model fix made for the scorer)."""
    board = _board(Contract="?", Declarer="", Vulnerable="None")
    assert board.contract is None and board.declarer is None
    changed = board.with_tag("Contract", "4HX").with_tag("Declarer", "E")
    assert changed.contract is not None and changed.contract.text == "4HX"
    assert changed.declarer is Seat.E
    assert changed.with_tag("Vulnerable", "All").vulnerable is Vulnerability.ALL


def test_record_filled_from_tags() -> None:
    board = _board(Board="1", Vulnerable="All", Contract="4S", Declarer="N", Result="10")
    (out,) = score_file(_file(board)).boards
    assert out.tag("Score") == "NS 620"
    assert out.diagnostics == ()
    assert out.source is None  # changed: preserve mode must re-render it


@pytest.mark.parametrize(
    ("contract", "declarer", "tricks", "vul", "score"),
    [
        ("4S", "E", "9", "None", "NS 50"),
        ("3NT", "W", "9", "EW", "EW 600"),
        ("4SX", "N", "9", "All", "EW 200"),
        ("Pass", "", "", "All", "NS 0"),
        ("7NTXX", "S", "13", "NS", "NS 2980"),
    ],
)
def test_score_form(contract: str, declarer: str, tricks: str, vul: str, score: str) -> None:
    board = _board(Board="1", Vulnerable=vul, Contract=contract, Declarer=declarer, Result=tricks)
    (out,) = score_file(_file(board)).boards
    assert out.tag("Score") == score


def test_score_form_ns() -> None:
    board = _board(Board="1", Vulnerable="None", Contract="4S", Declarer="E", Result="10")
    (out,) = score_file(_file(board), score_form="ns").boards
    assert out.tag("Score") == "NS -420"


def test_disagreeing_score_is_reported_and_kept() -> None:
    board = _board(
        Board="1", Vulnerable="All", Contract="4S", Declarer="N", Result="10", Score="NS 420"
    )
    (kept,) = score_file(_file(board)).boards
    assert kept.tag("Score") == "NS 420"
    (d,) = kept.diagnostics
    assert d.code == "score-mismatch" and "NS 620" in d.message and "kept" in d.message
    assert kept.source == board.source  # only the diagnostic was added
    (replaced,) = score_file(_file(board), replace=True).boards
    assert replaced.tag("Score") == "NS 620"
    assert [d.code for d in replaced.diagnostics] == ["score-mismatch"]
    assert "replaced" in replaced.diagnostics[0].message


def test_agreeing_values_leave_the_board_alone() -> None:
    board = _board(
        Board="1", Vulnerable="All", Contract="4S", Declarer="N", Result="10", Score="620"
    ).model_copy(update={"source": '[Board "1"]\n'})
    (out,) = score_file(_file(board)).boards
    assert out is board  # nothing to fill, nothing to report: the same board


def test_passed_out_board_scores_zero() -> None:
    board = _board(Board="1", Vulnerable="None", Contract="Pass", Result="9")
    # A passed-out board has no declarer's tricks: the Result is not compared.
    (out,) = score_file(_file(board)).boards
    assert out.tag("Score") == "NS 0"
    assert out.diagnostics == ()


def test_contract_unlike_the_auction_is_reported_and_kept_unless_replace() -> None:
    original = _load(PAIRS)
    first = original.boards[0].with_tag("Contract", "4NT")  # the auction says 3NT
    changed = original.model_copy(update={"boards": (first, *original.boards[1:])})
    kept = bf.score(changed).boards[0]
    assert kept.tag("Contract") == "4NT"
    assert [d.code for d in kept.diagnostics] == ["contract-mismatch"]
    assert "3NT" in kept.diagnostics[0].message
    assert kept.tag("Score") == "EW 50"  # the contract kept is the one scored: 4NT down one
    replaced = bf.score(changed, replace=True).boards[0]
    assert replaced.tag("Contract") == "3NT"
    assert replaced.tag("Score") == "NS 400"


def test_rubber_files_are_left_alone() -> None:
    board = _board(
        Board="1", Vulnerable="None", Scoring="Rubber", Contract="4S", Declarer="N", Result="10"
    )
    (out,) = score_file(_file(board)).boards
    assert out is board


def test_pairs_built_directly_with_neuberg() -> None:
    results = [("3NT", "N", "9"), ("3NT", "N", "10"), ("4S", "S", "10"), ("2S", "N", "10")]
    boards = [
        _board(
            i,
            Event="E",
            Board="1",
            Vulnerable="None",
            Scoring="MP",
            Contract=c,
            Declarer=d,
            Result=r,
            PairNS=str(i + 1),
            PairEW=str(i + 11),
        )
        for i, (c, d, r) in enumerate(results)
    ]
    # One more result on board 2 sets the field size to 5: board 1 is Neubergised 4 -> 5.
    boards += [
        _board(
            4 + i,
            Event="E",
            Board="2",
            Vulnerable="NS",
            Scoring="MP",
            Contract="1NT",
            Declarer="N",
            Result=str(7 + (i % 2)),
            PairNS=str(i + 1),
            PairEW=str(i + 11),
        )
        for i in range(5)
    ]
    out = score_file(_file(*boards)).boards
    # Board 1 among 4: 400, 430, 420, 170 -> 2, 6, 4, 0 (top 6); Neuberg to 5 results:
    # (S + 1) * 5/4 - 1 -> 2.75, 7.75, 5.25, 0.25 of a top of 8.
    assert [o.tag("ScoreMP") for o in out[:4]] == [
        "NS 2.75 EW 5.25",
        "NS 7.75 EW 0.25",
        "NS 5.25 EW 2.75",
        "NS 0.25 EW 7.75",
    ]
    assert out[1].tag("ScorePercentage") == "NS 96.88 EW 3.13"  # halves rounded up
    assert out[4].tag("ScoreMP") == "NS 2 EW 6"  # board 2 is complete: no Neuberg
    standings = _table_rows(out[-1], "TotalScoreTable")
    # Pair 2: 7.75 + 7 of 16; pair 15 played board 2 only: 6 of 8 (75%).
    assert [r["PairId"] for r in standings][:2] == ["2", "15"]
    assert standings[1]["TotalPercentage"] == "75" and standings[1]["NrBoards"] == "1"


def test_bad_settings_raise_our_error() -> None:
    with pytest.raises(BridgeFileError):
        score_file(_file(), no_such_setting=1)
    with pytest.raises(BridgeFileError):
        score_file(_file(), units="3")  # type: ignore[arg-type]


# -- the fixtures ----------------------------------------------------------------------


def test_pairs_fixture_scores() -> None:
    scored = bf.score(_load(PAIRS))
    boards = scored.boards
    assert len(boards) == 23
    assert not [d for b in boards for d in b.diagnostics if d.severity.value == "error"]
    # Board 1: 400, 430, 420, 400, 170, -100 -> 5, 10, 8, 5, 2, 0 of a top of 10.
    assert [b.tag("ScoreMP") for b in boards[:6]] == [
        "NS 5 EW 5",
        "NS 10 EW 0",
        "NS 8 EW 2",
        "NS 5 EW 5",
        "NS 2 EW 8",
        "NS 0 EW 10",
    ]
    assert boards[5].tag("Score") == "EW 100"  # 3NTX down one, not vulnerable
    assert boards[1].tag("ScorePercentage") == "NS 100 EW 0"
    # Board 2, table 2 had no Contract or Declarer: they come from the auction.
    assert boards[7].tag("Contract") == "4H" and boards[7].tag("Declarer") == "E"
    # Board 4 was played 5 times in a field of 6: Neuberg, (S + 1) * 6/5 - 1.
    assert [b.tag("ScoreMP") for b in boards[18:23]] == [
        "NS 5 EW 5",
        "NS 2.6 EW 7.4",
        "NS 0.2 EW 9.8",
        "NS 9.8 EW 0.2",
        "NS 7.4 EW 2.6",
    ]
    traveller = _table_rows(boards[0], "ScoreTable")
    assert [r["MP_NS"] for r in traveller] == ["5", "10", "8", "5", "2", "0"]
    assert traveller[5]["Score_EW"] == "100" and traveller[5]["Score_NS"] == "-"
    standings = _table_rows(boards[-1], "TotalScoreTable")
    assert standings[0] == {
        "Rank": "1",
        "PairId": "2",
        "Names": '"N2;S2"',
        "NrBoards": "4",
        "TotalMP": "32.6",
        "TotalPercentage": "81.5",
    }
    assert len(standings) == 12
    assert sum(float(r["TotalMP"]) for r in standings) == pytest.approx(3 * 60 + 50)


def test_teams_fixture_scores() -> None:
    scored = bf.score(_load(TEAMS))
    boards = scored.boards
    assert [b.tag("ScoreIMP") for b in boards] == [
        "NS 10 EW -10",
        "NS -10 EW 10",
        "NS -6 EW 6",
        "NS 6 EW -6",
        "NS 8 EW -8",
        "NS -8 EW 8",
        "NS 0 EW 0",
        "NS 0 EW 0",
    ]
    assert boards[5].tag("Contract") == "4H" and boards[5].tag("Declarer") == "W"
    running = [_table_rows(b, "TotalScoreTable") for b in boards[1::2]]
    assert [[(r["Names"], r["TotalIMP"]) for r in t] for t in running] == [
        [("Lions", "10"), ("Tigers", "0")],
        [("Lions", "10"), ("Tigers", "6")],
        [("Lions", "18"), ("Tigers", "6")],
        [("Lions", "18"), ("Tigers", "6")],
    ]
    winner, loser = victory_points(12, 4)
    assert running[-1][0]["VP"] == f"{winner:.2f}" and running[-1][1]["VP"] == f"{loser:.2f}"
    assert [r["IMP_NS"] for r in _table_rows(boards[0], "ScoreTable")] == ["10", "-10"]


def test_teams_fixture_board_a_match() -> None:
    """BAM (Law 78C): the better aggregate on a board wins it, equal halves it."""
    boards = bf.score(_load(TEAMS), method="BAM").boards
    assert [b.tag("ScoreMP") for b in boards] == [
        "NS 2 EW 0",
        "NS 0 EW 2",
        "NS 0 EW 2",
        "NS 2 EW 0",
        "NS 2 EW 0",
        "NS 0 EW 2",
        "NS 1 EW 1",
        "NS 1 EW 1",
    ]
    assert all(b.tag("ScoreIMP") is None for b in boards)
    assert boards[0].tag("ScorePercentage") == "NS 100 EW 0"
    running = [_table_rows(b, "TotalScoreTable") for b in boards[1::2]]
    assert [[(r["Names"], r["TotalMP"]) for r in t] for t in running] == [
        [("Lions", "2"), ("Tigers", "0")],
        [("Lions", "2"), ("Tigers", "2")],
        [("Lions", "4"), ("Tigers", "2")],
        [("Lions", "5"), ("Tigers", "3")],
    ]
    assert "VP" not in running[-1][0]
    assert [r["MP_NS"] for r in _table_rows(boards[0], "ScoreTable")] == ["2", "0"]
    halves = bf.score(_load(TEAMS), method="BAM", settings=ScoreSettings(units="1")).boards
    assert halves[6].tag("ScoreMP") == "NS 0.5 EW 0.5"


@pytest.mark.parametrize("path", [PAIRS, TEAMS], ids=lambda p: p.name)
def test_fixture_is_valid_and_scoring_is_idempotent(path: Path) -> None:
    original = _load(path)
    for board in original.boards:
        errors = [d for d in _validate(board).diagnostics if d.severity.value == "error"]
        assert errors == [], board.label
    once = bf.score(original)
    twice = bf.score(once)
    assert [b.model_dump() for b in twice.boards] == [b.model_dump() for b in once.boards]
    assert not [d for b in twice.boards for d in b.diagnostics if d.code.endswith("mismatch")]


def _comparable(board: Board) -> dict[str, Any]:
    """What must survive writing: tags (the export format may reorder them), tables, auction."""
    return {
        "tags": sorted((t.name, t.value) for t in board.tags),
        "tables": [(t.name, [c.name for c in t.columns], t.rows) for t in board.tables],
        "auction": (
            board.auction.first,
            [e.call.text if e.call else None for e in board.auction.entries],
        )
        if board.auction
        else None,
    }


@pytest.mark.parametrize("path", [PAIRS, TEAMS], ids=lambda p: p.name)
def test_scored_fixture_written_out_reads_back_equal(path: Path) -> None:
    scored = bf.score(_load(path))
    text = bf.dumps(scored, format="pbn")
    assert text.strip()
    back = bf.loads(text, format="pbn")
    assert [_comparable(b) for b in back.boards] == [_comparable(b) for b in scored.boards]
    for board in back.boards:
        report = _validate(board)
        errors = [d for d in report.diagnostics if d.severity.value == "error"]
        assert errors == [], board.label
        assert report.score is not None
    rescored = bf.score(back)
    assert not [d for b in rescored.boards for d in b.diagnostics if d.code.endswith("mismatch")]


# -- never a crash -----------------------------------------------------------------------

_VALUES = {
    "Event": st.sampled_from(["E", "F", ""]),
    "Board": st.sampled_from(["1", "2", "17", "?", "", "x", "0", "-3"]),
    "Vulnerable": st.sampled_from(["None", "All", "NS", "EW", "Both", "?", "bad"]),
    "Scoring": st.sampled_from(
        [
            "MP",
            "IMP",
            "IMP;Butler",
            "IMP;Cross1",
            "MP;MP2",
            "Rubber",
            "BAM",
            "",
            "MP;OldMP",
            "IMP;Median;Butler-2",
        ]
    ),
    "Contract": st.sampled_from(["4S", "3NTX", "7CXX", "Pass", "?", "", "8S", "H"]),
    "Declarer": st.sampled_from(["N", "E", "S", "W", "^S", "", "?", "Q"]),
    "Result": st.sampled_from(["0", "9", "13", "14", "NS 9", "EW 4", "^10", "", "x"]),
    "Score": st.sampled_from(["NS 620", "-100", "EW 0", "NS 1 EW 1", "^A+", "x", ""]),
    "ScoreIMP": st.sampled_from(["NS 3 EW -3", "", "2.5", "x"]),
    "ScoreMP": st.sampled_from(["NS 4 EW 2", "", "x"]),
    "HomeTeam": st.sampled_from(["A", "B", ""]),
    "VisitTeam": st.sampled_from(["A", "B", ""]),
    "Room": st.sampled_from(["Open", "Closed", "", "other"]),
    "PairNS": st.sampled_from(["1", "2", ""]),
    "PairEW": st.sampled_from(["1", "3", ""]),
    "ScoreRubberHistory": st.sampled_from(
        ["NS 0 0 / 0 EW 0 0 / 0", "NS 0 0 / 100 0 EW 0 0 / 0 0", "bad", ""]
    ),
    "ScoreRubber": st.sampled_from(["NS 0/0 EW 100/0", "300/40", "bad"]),
}


@st.composite
def _random_board(draw: Any) -> Board:
    names = draw(st.lists(st.sampled_from(sorted(_VALUES)), unique=True))
    tags = tuple(TagPair(name=n, value=draw(_VALUES[n])) for n in names)
    tables: tuple[Table, ...] = ()
    if draw(st.booleans()):
        columns = draw(
            st.lists(
                st.sampled_from(
                    [
                        "Contract",
                        "Declarer",
                        "Result",
                        "Score_NS",
                        "Score_EW",
                        "MP_NS",
                        "IMP_EW",
                        "Multiplicity",
                        "PairId_NS",
                        "Section",
                    ]
                ),
                min_size=1,
                unique=True,
            )
        )
        cell = st.sampled_from(["4S", "N", "10", "420", "-", "?", "^A+", "3", "x", ""])
        rows = draw(st.lists(st.tuples(*[cell for _ in columns]), max_size=4))
        tables = (
            Table(
                name="ScoreTable", columns=tuple(Column(name=c) for c in columns), rows=tuple(rows)
            ),
        )
    return Board(tags=tags, tables=tables)


@settings(max_examples=150, deadline=None)
@given(st.lists(_random_board(), max_size=6), st.booleans())
def test_scoring_never_crashes(boards: list[Board], replace: bool) -> None:
    indexed = tuple(b.model_copy(update={"index": i}) for i, b in enumerate(boards))
    scored = score_file(_file(*indexed), replace=replace)
    assert len(scored.boards) == len(boards)
    again = score_file(scored, replace=replace)
    assert len(again.boards) == len(boards)


def test_existing_standings_are_compared() -> None:
    original = _load(PAIRS)
    last = original.boards[-1]
    theirs = Table(
        name="TotalScoreTable",
        columns=(Column(name="PairId"), Column(name="TotalMP"), Column(name="TotalPercentage")),
        rows=(("2", "32.6", "81.5"), ("11", "26.6", "60.1"), ("99", "1", "1")),
    )
    changed = original.model_copy(
        update={"boards": (*original.boards[:-1], last.replace(tables=(theirs,)))}
    )
    kept = bf.score(changed).boards[-1]
    assert kept.table("TotalScoreTable") == theirs
    (d,) = [d for d in kept.diagnostics if d.code == "score-mismatch"]
    assert "11 TotalPercentage 60.1 (ours 66.5)" in d.message and "32.6" not in d.message
    replaced = bf.score(changed, replace=True).boards[-1].table("TotalScoreTable")
    assert replaced is not None and len(replaced.rows) == 12


def test_traveller_record_gets_its_own_row_scores() -> None:
    traveller = Table(
        name="ScoreTable",
        columns=tuple(
            Column(name=c)
            for c in ("PairId_NS", "PairId_EW", "Contract", "Declarer", "Result", "Score_NS")
        ),
        rows=(
            ("1", "5", "4S", "N", "10", "420"),
            ("2", "6", "4S", "N", "11", "450"),
            ("3", "7", "3NT", "S", "9", "?"),
        ),
    )
    board = _board(Board="3", Vulnerable="EW", Scoring="MP", PairNS="2", PairEW="6").replace(
        tables=(traveller,)
    )
    (out,) = score_file(_file(board)).boards
    assert out.tag("ScoreMP") == "NS 4 EW 0"
    assert out.tag("ScorePercentage") == "NS 100 EW 0"
    rows = out.table("ScoreTable")
    assert rows is not None
    records = rows.records()
    assert [r["MP_NS"] for r in records] == ["2", "4", "0"]  # 420, 450 and the 3NT row: 400
    assert records[2]["Score_NS"] == "400"
    assert [d.code for d in out.diagnostics] == []


@pytest.mark.parametrize("modifier", ["IMP_1948", "IMP_1961", "EMP"])
def test_scale_not_implemented_is_a_warning(modifier: str) -> None:
    """pbn.md 10 names scales we do not implement: scored on today's scale, and told so."""
    plain = bf.score(_load(TEAMS))
    named = _load(TEAMS)
    named = named.model_copy(
        update={"boards": tuple(b.with_tag("Scoring", f"IMP;{modifier}") for b in named.boards)}
    )
    scored = bf.score(named)
    assert [b.tag("ScoreIMP") for b in scored.boards] == [b.tag("ScoreIMP") for b in plain.boards]
    for board in scored.boards:
        found = [d for d in board.diagnostics if modifier in d.message]
        assert len(found) == 1, board.label
        (d,) = found
        assert d.code == "score-mismatch" and d.severity.value == "warning"
        assert "current IMP scale" in d.message
        assert board.tag_pair("Scoring") is not None
        assert (d.line, d.column) == board.tag_where("Scoring") != (None, None)
    assert not any("not implemented" in d.message for b in plain.boards for d in b.diagnostics)


def test_scale_not_implemented_given_as_the_method() -> None:
    scored = bf.score(_load(PAIRS), method="MP;EMP")
    for board in scored.boards:
        (d,) = [d for d in board.diagnostics if "EMP" in d.message]
        assert d.severity.value == "warning" and "ordinary matchpoints" in d.message
        assert d.message.startswith("the method given names EMP")
