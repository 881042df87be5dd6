"""The analysis table: one flat row per board (bridgefiles.views.table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared import FIXTURES, REAL, REAL_LIN, needs_corpus

import bridgefiles as bf
from bridgefiles.views.table import COLUMN_TYPES, COLUMNS, board_rows, read_csv_rows, write_table

SAMPLE = FIXTURES / "sample-event.pbn"


def test_columns_are_the_documented_ones() -> None:
    assert tuple(COLUMN_TYPES) == COLUMNS
    for name in ("event", "board", "room", "north", "east", "south", "west", "dealer",
                 "vulnerable", "deal", "auction", "alerts", "contract", "declarer", "lead",
                 "tricks", "score_ns"):
        assert name in COLUMNS


def test_rows_of_the_sample_event() -> None:
    rows = list(board_rows(bf.read(SAMPLE), "sample.pbn"))
    assert len(rows) == 12
    first, second = rows[0], rows[1]
    assert set(first) == set(COLUMNS)
    assert first["file"] == "sample.pbn" and first["index"] == 0
    assert first["event"] == "Sample Club Pairs" and first["board"] == "1"
    assert (first["north"], first["east"], first["south"], first["west"]) == (
        "Ivanova", "Silva", "Müller", "Novak")
    assert first["dealer"] == "N" and first["vulnerable"] == "Love"
    assert first["deal"] == "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"
    assert first["auction"] == "1C Pass Pass 2C 2S Pass Pass Pass"
    assert first["alerts"] is None
    assert (first["contract"], first["declarer"], first["lead"]) == ("2S", "N", "CK")
    assert first["tricks"] == 3 and first["score_ns"] == -250 and first["score_ew"] == 250
    assert second["alerts"] == "1C: weak"
    assert second["contract"] == "2H" and second["declarer"] == "W" and second["lead"] == "D5"


@needs_corpus
def test_lin_alerts_with_explanations() -> None:
    rows = list(board_rows(bf.read(REAL_LIN / "pbntools__3381671193.lin")))
    assert rows[0]["auction"] is not None and "2NT!" in rows[0]["auction"]
    assert rows[0]["alerts"] == "2NT: gesthem"
    assert rows[0]["contract"] == "5D" and rows[0]["declarer"] == "E"


def test_csv_round_trip_keeps_types_and_missing_values(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    assert write_table(bf.read(SAMPLE), out, "csv", path="x") == 12
    back = list(read_csv_rows(out))
    assert back == list(board_rows(bf.read(SAMPLE), "x"))


def test_parquet_round_trip(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "t.parquet"
    assert write_table(bf.read(SAMPLE), out, "parquet") == 12
    assert pq.read_table(out).to_pylist() == list(board_rows(bf.read(SAMPLE)))
    empty = tmp_path / "e.parquet"
    assert write_table([], empty, "parquet") == 0
    assert pq.read_table(empty).column_names == list(COLUMNS)


def test_new_columns_of_the_sample_event() -> None:
    first = next(iter(board_rows(bf.read(SAMPLE))))
    assert first["result"] == -5  # 2S, three tricks
    assert first["play"] is not None and first["play"].startswith("E: CK ")
    assert first["play"].count("|") == len(first["play"].split("|")) - 1
    scored = bf.score(bf.load(SAMPLE))
    rows = list(board_rows(scored.boards))
    assert any(r["mp"] or r["percentage"] or r["imp"] for r in rows)


def test_pandas_reads_the_csv_back_as_written(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    out = tmp_path / "t.csv"
    write_table(bf.read(SAMPLE), out, "csv")
    plain = pd.read_csv(out)
    assert plain["vulnerable"].isna().sum() == 0  # "None" would be NaN; "Love" is not
    assert set(plain["vulnerable"]) <= {"Love", "NS", "EW", "All"}
    from bridgefiles.views.table import pandas_dtypes

    exact = pd.read_csv(out, dtype=pandas_dtypes(), keep_default_na=False, na_values=[""])
    assert list(exact["board"]) == [r["board"] for r in read_csv_rows(out)]


@pytest.mark.parametrize("value", ["=HYPERLINK(\"http://x\",\"y\")", "+1", "-1", "@SUM(A1)",
                                   "\tx", "\rx", "'=quoted", "'plain", "plain"])
def test_csv_cells_a_spreadsheet_would_evaluate_are_neutralised(tmp_path: Path,
                                                               value: str) -> None:
    board = bf.loads(f'[Board "1"]\n[North "{value}"]\n'.encode()).boards[0]
    out = tmp_path / "t.csv"
    write_table([board], out, "csv")
    import csv

    with open(out, encoding="utf-8", newline="") as f:
        north = next(csv.DictReader(f))["north"]
    assert not north.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert next(iter(read_csv_rows(out)))["north"] == board.tag("North")


@needs_corpus
def test_vulnerability_reads_back_on_real_files(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    out = tmp_path / "t.csv"
    boards = [b for name in ("pbn/pbntools__PCH1003.pbn", "lin/pbntools__3381671193.lin")
              for b in bf.read(REAL / name)]
    write_table(boards, out, "csv")
    frame = pd.read_csv(out)
    expected = [r["vulnerable"] for r in board_rows(boards)]
    assert [None if pd.isna(v) else v for v in frame["vulnerable"]] == expected


def test_score_columns_have_numbers_beside_the_text() -> None:
    scored = bf.score(bf.load(SAMPLE))
    rows = list(board_rows(scored.boards))
    assert rows[0]["mp"] == "NS 0 EW 4" and (rows[0]["mp_ns"], rows[0]["mp_ew"]) == (0.0, 4.0)
    assert rows[0]["percentage_ew"] == 100.0
    # a board's matchpoints add up to its top, for every board of the event
    for row in rows:
        assert row["percentage_ns"] + row["percentage_ew"] == 100.0
    teams = list(board_rows(bf.score(bf.load(FIXTURES / "scoring-teams.pbn")).boards))
    assert any(r["imp_ns"] for r in teams)
    for row in teams:
        if row["imp"] is not None:
            assert row["imp_ns"] == -row["imp_ew"]


@pytest.mark.parametrize("text, ns, ew", [
    ("NS 2 EW 18", 2.0, 18.0), ("EW -2.5", 2.5, -2.5), ("3", 3.0, -3.0), ("nonsense", None, None),
])
def test_one_sided_imps_are_the_others_negative(text: str, ns: float | None,
                                               ew: float | None) -> None:
    board = bf.loads(f'[Board "1"]\n[Declarer "N"]\n[ScoreIMP "{text}"]\n'
                     f'[ScoreMP "{text}"]\n'.encode()).boards[0]
    row = next(iter(board_rows([board])))
    assert (row["imp_ns"], row["imp_ew"]) == (ns, ew)
    if text == "EW -2.5":  # matchpoints are never derived for the side not given
        assert (row["mp_ns"], row["mp_ew"]) == (None, -2.5)


@pytest.mark.parametrize("to", ["csv", "parquet"])
def test_a_table_reads_back_into_pandas_as_written(tmp_path: Path, to: str) -> None:
    pd = pytest.importorskip("pandas")
    if to == "parquet":
        pytest.importorskip("pyarrow")
    from bridgefiles.views.table import read_frame

    out = tmp_path / f"t.{to}"
    scored = bf.score(bf.load(SAMPLE))
    write_table(scored.boards, out, to)
    frame = read_frame(out)
    assert str(frame["tricks"].dtype) == "Int64" and str(frame["errors"].dtype) == "Int64"
    assert str(frame["mp_ns"].dtype) == "Float64" and str(frame["board"].dtype) == "string"
    rows = list(board_rows(scored.boards))
    for name in COLUMNS:
        assert [None if v is pd.NA else v for v in frame[name].tolist()] == \
            [r[name] for r in rows], name
    assert frame["mp_ns"].sum() + frame["mp_ew"].sum() == sum(
        r["mp_ns"] + r["mp_ew"] for r in rows)
