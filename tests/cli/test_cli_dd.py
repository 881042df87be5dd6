"""The ``dd`` columns of a table (issue 27, point 3) within a user's reach: ``convert --to csv
--dd`` on the command line, ``bf.convert(..., extra=dd_columns)`` in the library; without
the solver (extra ``dds``) a usage error that names it, and nothing written."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from shared import FIXTURES

import bridgefiles as bf

EVENT = FIXTURES / "sample-event.pbn"
DD = ("dd_tricks", "dd_score_ns", "dd_difference")


def _convert(cwd: Path, *args: str, code: str = "pass") -> subprocess.CompletedProcess[str]:
    """``bridgefiles convert ARGS`` in a fresh interpreter (``code`` run first)."""
    run = (f"{code}; import sys; sys.argv = ['bridgefiles', 'convert', *{list(args)!r}]; "
           "from bridgefiles.cli import main; main()")
    return subprocess.run([sys.executable, "-c", run], cwd=cwd, capture_output=True,
                          text=True, check=False)


def test_dd_columns_from_the_command_line_are_the_librarys(tmp_path: Path) -> None:
    pytest.importorskip("endplay", reason="the solver is the extra 'dds' (pip install endplay)")
    from bridgefiles.analysis.ddscore import DD_COLUMN_TYPES, dd_columns

    done = _convert(tmp_path, str(EVENT), "--to", "csv", "--dd", "-o", "table.csv", "-j", "1",
                    "-q")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO((tmp_path / "table.csv").read_text("utf-8"))))
    assert len(rows) == 12 and all(set(DD) <= set(row) for row in rows)
    played = 0
    for board, row in zip(bf.read(EVENT), rows, strict=True):
        if not row["declarer"]:  # no contract played: nothing to solve, the cells empty
            assert [row[c] for c in DD] == ["", "", ""]
            continue
        played += 1
        found = bf.dd_score(board.deal, row["contract"], row["declarer"],
                            board.vulnerable or "None")
        ns = found.score if row["declarer"] in "NS" else -found.score
        assert (int(row["dd_tricks"]), int(row["dd_score_ns"])) == (found.tricks, ns)
        assert int(row["dd_difference"]) == int(row["tricks"]) - found.tricks
    assert played == 11
    # the library writes the same table
    out = io.BytesIO()
    bf.convert(str(EVENT), out, to="csv", extra=dd_columns, extra_types=DD_COLUMN_TYPES)
    assert out.getvalue() == (tmp_path / "table.csv").read_bytes()


def test_dd_without_the_solver_names_the_extra_and_writes_nothing(tmp_path: Path) -> None:
    done = _convert(tmp_path, str(EVENT), "--to", "csv", "--dd", "-o", "table.csv",
                    code="import sys; sys.modules['endplay'] = None")
    assert done.returncode == 2, done.stderr
    assert "--dd needs the double-dummy solver: pip install '.[dds]' from the bridgefiles " \
           "clone" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "table.csv").exists()


def test_dd_is_a_tables_and_refused_elsewhere(tmp_path: Path) -> None:
    done = _convert(tmp_path, str(EVENT), "--to", "pbn", "--dd", "-o", "out.pbn")
    assert done.returncode == 2
    assert "--dd adds columns to a table: give --to csv or parquet, not pbn" in done.stderr
    assert not (tmp_path / "out.pbn").exists()
    with pytest.raises(bf.UsageError, match="extra columns are a table's"):
        bf.convert(str(EVENT), io.BytesIO(), to="pbn", extra=lambda board, row: {})
    with pytest.raises(bf.UsageError, match="extra columns are a table's"):  # by the name
        bf.convert(str(EVENT), str(tmp_path / "by-name.lin"), extra=lambda board, row: {})
    assert not (tmp_path / "by-name.lin").exists()


def _help(command: str) -> str:
    done = subprocess.run([sys.executable, "-m", "bridgefiles.cli", command, "--help"],
                          capture_output=True, text=True, check=False, env={
                              **os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())


def test_help_lists_the_exchange_formats_and_what_o_event_xml_does() -> None:
    convert = _help("convert")
    assert "--to [bri|csv|dge|dlm|dup|json|lin|parquet|pbn|rbn|url|usebio]" in convert
    assert "usebio: USEBIO 1.2 XML results of a scored event" in convert
    assert "bri, dge, dup, dlm: the deals for a dealing machine" in convert
    assert "rbn: Pavlicek's notation" in convert
    assert "--score --to usebio -o event.xml: the event's results" in convert
    assert "--dd" in convert and "extra dds" in convert
    score = _help("score")
    assert "-o event.xml: USEBIO 1.2 XML results" in score
    assert "-o event.xml writes USEBIO XML" in score
