"""The double-dummy score of a contract (bf.dd_score), its cache and the tables' dd columns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from shared import FIXTURES, REAL_PBN, files

import bridgefiles as bf
from bridgefiles.analysis import ddscore, solver
from bridgefiles.analysis.models import DDTable
from bridgefiles.model.calls import Contract
from bridgefiles.model.cards import Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring import contract_score
from bridgefiles.views.table import board_rows

pytest.importorskip("endplay", reason="the double-dummy solver is the extra 'dds'")

DEAL = "N:K843.T542.J6.863 AQJ7.K.Q75.AT942 962.AJ7.KT82.J75 T5.Q9863.A943.KQ"
TABLE = DDTable.from_hex("2333223332aaaabaaaab")  # the solver module's own example


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    ddscore.clear_cache()
    ddscore.use_cache_file(None)
    yield
    ddscore.clear_cache()
    ddscore.use_cache_file(None)


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many deals the solver was asked for."""
    calls: list[int] = []
    real = solver.dd_tables

    def counted(deals: list[Deal], *args: Any) -> list[DDTable]:
        calls.append(len(deals))
        return real(deals, *args)

    monkeypatch.setattr(ddscore, "dd_tables", counted)
    return calls


@pytest.mark.parametrize("seat", list(Seat))
@pytest.mark.parametrize("strain", list(Strain))
def test_tricks_and_score_are_the_table_and_law_77(seat: Seat, strain: Strain) -> None:
    contract = f"4{strain.value}X"
    got = bf.dd_score(DEAL, contract, seat, vulnerable=True)
    assert got.tricks == TABLE.tricks_for(seat, strain)
    assert got.score == contract_score(contract, vulnerable=True, tricks=got.tricks)
    assert got.result == got.tricks - 10


def test_strings_and_models_alike() -> None:
    by_text = bf.dd_score(DEAL, "3n", "east", "NS")
    by_model = bf.dd_score(Deal.parse(DEAL), Contract.parse("3NT"), Seat.E, False)
    assert by_text == by_model
    assert (by_text.tricks, by_text.score, by_text.vulnerable) == (10, 430, False)
    assert bf.dd_score(DEAL, "3NT", "E", Vulnerability.EW).score == 630
    assert bf.dd_score(DEAL, "3NT", "E", "All").vulnerable is True


@pytest.mark.parametrize("args, words", [
    ((DEAL, "Pass", "N", False), "no declarer"),
    ((DEAL, "8S", "N", False), "not a contract"),
    ((DEAL, "4S", "X", False), "not a declarer"),
    ((DEAL, "4S", "N", "sometimes"), "not a vulnerability"),
    ((DEAL, 4, "N", False), "contract must be a Contract"),
    (("N:AKQ... - - -", "4S", "N", False), "four sound 13-card hands"),
    (("N:x", "4S", "N", False), "not a deal"),
])
def test_wrong_arguments_are_usage_errors(args: tuple[Any, ...], words: str) -> None:
    with pytest.raises(bf.UsageError, match=words):
        bf.dd_score(*args)


def test_no_solver_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise solver.AnalysisUnavailable(solver.MISSING)

    monkeypatch.setattr(solver, "_dds", missing)
    with pytest.raises(bf.BridgeFileError, match=r"pip install '\.\[dds\]'"):
        bf.dd_score(DEAL, "4S", "N", False)


def test_a_deal_is_solved_once_per_process(solves: list[int]) -> None:
    rotated = Deal.parse(DEAL).pbn(Seat.W)  # the same deal written from West
    for contract, seat in (("4S", "N"), ("3NT", "E"), ("2H", "W")):
        bf.dd_score(DEAL, contract, seat, False)
        bf.dd_score(rotated, contract, seat, True)
    assert solves == [1]


def test_the_cache_file_keeps_deals_across_runs(
    tmp_path: Path, solves: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dd.sqlite"
    monkeypatch.setenv(ddscore.ENVIRONMENT, str(path))
    ddscore._file_read = False  # as a new process would: the setting read on first use
    first = bf.dd_score(DEAL, "4S", "N", False)
    assert path.is_file() and solves == [1]
    ddscore.clear_cache()  # a new run: nothing in memory, the file remains
    assert bf.dd_score(DEAL, "4S", "N", False) == first
    assert solves == [1]
    ddscore.use_cache_file(None)
    ddscore.clear_cache()
    bf.dd_score(DEAL, "4S", "N", False)
    assert solves == [1, 1]  # memory only: solved again


def test_an_unusable_cache_file_is_a_clear_error(tmp_path: Path) -> None:
    ddscore.use_cache_file(tmp_path)  # a folder, not a file
    with pytest.raises(bf.BridgeFileError, match="double-dummy cache"):
        bf.dd_score(DEAL, "4S", "N", False)


def test_table_dd_columns() -> None:
    rows = list(board_rows(bf.read(FIXTURES / "scoring-pairs.pbn"), extra=ddscore.dd_columns))
    assert rows and all({"dd_tricks", "dd_score_ns", "dd_difference"} <= r.keys() for r in rows)
    for r in rows:
        if not r["contract"] or not r["declarer"] or r["contract"] == "Pass":
            assert r["dd_tricks"] is None
            continue
        want = bf.dd_score(r["deal"], r["contract"], r["declarer"], r["vulnerable"])
        ns = want.score if r["declarer"] in "NS" else -want.score
        assert (r["dd_tricks"], r["dd_score_ns"]) == (want.tricks, ns)
        assert r["dd_difference"] == r["tricks"] - want.tricks
    plain = next(board_rows(bf.read(FIXTURES / "scoring-pairs.pbn")))
    assert "dd_tricks" not in plain


def test_table_dd_columns_empty_without_a_contract() -> None:
    board = bf.loads(f'[Board "1"]\n[Deal "{DEAL}"]\n[Contract "Pass"]\n').boards[0]
    row = next(board_rows([board], extra=ddscore.dd_columns))
    assert (row["dd_tricks"], row["dd_score_ns"], row["dd_difference"]) == (None, None, None)


def _first_with_table(path: Path) -> tuple[str, DDTable] | None:
    for board in bf.read(path):
        text = board.tag("DoubleDummyTricks")
        if board.deal is not None and board.deal.is_complete and text:
            try:
                return board.deal.pbn(), DDTable.from_hex(text)
            except ValueError:
                return None
    return None


_CARRIERS = [p for p in files(REAL_PBN, ".pbn") if b"DoubleDummyTricks" in p.read_bytes()]


@pytest.mark.parametrize("path", _CARRIERS, ids=lambda p: p.name)
def test_real_files_double_dummy_tricks(path: Path) -> None:
    """The first analysed board of each real file: dd_score gives the tricks it carries."""
    found = _first_with_table(path)
    if found is None:
        pytest.skip("no readable DoubleDummyTricks")
    deal, table = found
    for seat in Seat:
        for strain in Strain:
            got = bf.dd_score(deal, f"1{strain.value}", seat, False)
            assert got.tricks == table.tricks_for(seat, strain), (seat, strain)


def test_module_examples_run() -> None:
    import doctest

    result = doctest.testmod(ddscore, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0 and result.attempted >= 3


@pytest.mark.parametrize("to", ["csv", "parquet"])
def test_tables_written_with_dd_columns(to: str, tmp_path: Path) -> None:
    from bridgefiles.analysis.ddscore import DD_COLUMN_TYPES, dd_columns
    from bridgefiles.views.table import write_table

    out = tmp_path / f"boards.{to}"
    rows = list(board_rows(bf.read(FIXTURES / "scoring-pairs.pbn"), extra=dd_columns))
    written_rows = write_table(bf.read(FIXTURES / "scoring-pairs.pbn"), out, to,
                               extra=dd_columns, extra_types=DD_COLUMN_TYPES)
    assert written_rows == len(rows)
    if to == "csv":
        import csv

        with open(out, encoding="utf-8", newline="") as f:
            written = list(csv.DictReader(f))
        got = [r["dd_tricks"] for r in written]
    else:
        pq = pytest.importorskip("pyarrow.parquet")
        table = pq.read_table(out)
        assert set(DD_COLUMN_TYPES) <= set(table.column_names)
        got = ["" if v is None else str(v) for v in table.column("dd_tricks").to_pylist()]
    assert got == ["" if r["dd_tricks"] is None else str(r["dd_tricks"]) for r in rows]
    assert any(got)
