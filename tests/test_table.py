"""The analysis table: one flat row per board (bridgefiles.table)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bridgefiles as bf
from bridgefiles.table import COLUMN_TYPES, COLUMNS, board_rows, read_csv_rows, write_table

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "fixtures" / "sample-event.pbn"
REAL = ROOT.parent / "shared" / "corpus" / "real"


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
    assert first["dealer"] == "N" and first["vulnerable"] == "None"
    assert first["deal"] == "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"
    assert first["auction"] == "1C Pass Pass 2C 2S Pass Pass Pass"
    assert first["alerts"] is None
    assert (first["contract"], first["declarer"], first["lead"]) == ("2S", "N", "CK")
    assert first["tricks"] == 3 and first["score_ns"] == -250 and first["score_ew"] == 250
    assert second["alerts"] == "1C: weak"
    assert second["contract"] == "2H" and second["declarer"] == "W" and second["lead"] == "D5"


@pytest.mark.skipif(not REAL.is_dir(), reason=f"shared corpus not found at {REAL}")
def test_lin_alerts_with_explanations() -> None:
    rows = list(board_rows(bf.read(REAL / "lin" / "pbntools__3381671193.lin")))
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
