"""Real BEN files write the calls ``1N``/``3N`` (and ``P``), the contract ``3N`` and
``Result "0"`` on a passed-out board. Each is an unambiguous dialect form
(``bridgefiles.formats.pbn.dialect``): lenient reading takes it, with a warning
(``dialect``) saying what was read (never a silent repair); strict reading refuses it as
an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from shared import FIXTURES, REAL_PBN, need, needs_corpus

ROOT = FIXTURES.parent
# the BEN files that write 1N-style calls or contracts, or Result "0" on a passed-out board
DIALECT = ["ben__2H-3H.PBN", "ben__2Openings.pbn", "ben__camrose2024_BEN.pbn",
           "ben__christy170a.pbn", "ben__pav_first120-GIB-BBO-8730.pbn", "ben__pav_first120.pbn"]
CAMROSE = REAL_PBN / "ben__camrose2024_BEN.pbn"
CHRISTY = REAL_PBN / "ben__christy170a.pbn"  # Contract "3N"
TWO_HEARTS = REAL_PBN / "ben__2H-3H.PBN"  # 'P' for Pass
PASSED_OUT = 'Result "0" read as none: passed out, no tricks taken and no score'


def bf_run(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "bridgefiles.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


def report(path: Path, *extra: str) -> dict[str, Any]:
    proc = bf_run("validate", "--format", "json", "-q", str(path), *extra)
    assert proc.returncode in (0, 1), proc.stderr
    data: dict[str, Any] = json.loads(proc.stdout)
    return data


def dialect(data: dict[str, Any]) -> Counter[tuple[str, str]]:
    """(severity, what) of the findings about the dialect forms: 1N-style calls and
    contracts, and a Result on a passed-out board."""
    found: Counter[tuple[str, str]] = Counter()
    for entry in data["files"]:
        for board in entry["boards"]:
            for d in board["diagnostics"]:
                message = d["message"]
                if "N' is not a PBN call" in message or "N' is not a contract" in message:
                    found[(d["severity"], "1N")] += 1
                elif "passed-out board has no result" in message:
                    found[(d["severity"], "Result 0")] += 1
    return found


@needs_corpus
@pytest.mark.parametrize("name", DIALECT)
def test_lenient_reading_warns_about_dialect_forms(name: str) -> None:
    found = dialect(report(need(REAL_PBN / name)))
    assert found and not [k for k in found if k[0] == "error"], found


@needs_corpus
def test_lenient_camrose_has_no_dialect_errors_and_says_what_it_read() -> None:
    data = report(CAMROSE)
    found = dialect(data)
    assert found[("warning", "1N")] > 0 and found[("warning", "Result 0")] == 3
    assert ("error", "1N") not in found and ("error", "Result 0") not in found
    messages = [d["message"] for f in data["files"] for b in f["boards"]
                for d in b["diagnostics"] if "N' is not a PBN call" in d["message"]]
    # each says what it read: '1N' as 1NT, '3N' as 3NT (and 2N, 4N, 5N, 6N alike)
    assert messages and all(m.endswith(f"read as {m[1]}NT") for m in messages), messages


@needs_corpus
def test_strict_reading_refuses_a_dialect_call() -> None:
    data = report(CAMROSE, "--strict")
    first = data["files"][0]
    reasons = [d for d in first["diagnostics"] if d["severity"] == "error"]
    assert reasons and "is not a" in reasons[-1]["message"]
    assert data["summary"]["errors"] >= 1


def findings(data: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [d for f in data["files"] for b in f["boards"] for d in b["diagnostics"]
            if d["code"] == code]


@needs_corpus
def test_camrose_passed_out_boards_are_scored_as_passed_out_and_said() -> None:
    data = report(need(CAMROSE))
    boards = {b["board"]: b for b in data["files"][0]["boards"]}
    for number in ("99", "109", "144"):
        board = boards[number]
        assert (board["contract"], board["tricks"], board["score"]) == (
            "Pass", None, {"ns": 0, "ew": 0})
        said = [(d["severity"], d["message"]) for d in board["diagnostics"]
                if d["code"] in ("dialect", "result-mismatch")]
        assert len(said) == 1 and said[0][0] == "warning" and PASSED_OUT in said[0][1], said
    assert data["summary"]["errors"] == 0


@needs_corpus
def test_dialect_contracts_and_passes_are_read_and_said() -> None:
    contracts = [d for d in findings(report(need(CHRISTY)), "dialect")
                 if d["message"].startswith("Contract:")]
    assert len(contracts) == 5
    assert {d["severity"] for d in contracts} == {"warning"}
    assert all(d["message"].endswith("'3N' is not a contract like 4HX, 3NT or Pass; read as 3NT")
               for d in contracts)
    passes = [d for d in findings(report(need(TWO_HEARTS)), "dialect")
              if d["message"].startswith("'P' ")]
    assert len(passes) == 230 and all(d["message"].endswith("read as Pass") for d in passes)


@needs_corpus
def test_dialect_warnings_count_for_fail_on_warning() -> None:
    proc = bf_run("validate", str(need(CAMROSE)), "--fail-on", "warning", "-q")
    assert proc.returncode == 1
    assert "warning[dialect] board 1: '1N' is not a PBN call" in proc.stdout
    assert bf_run("validate", str(CAMROSE), "-q").returncode == 0  # lenient: no error


@needs_corpus
def test_strict_reading_refuses_result_zero_on_a_passed_out_board(tmp_path: Path) -> None:
    lines = need(CAMROSE).read_text(encoding="latin-1").splitlines(keepends=True)
    start = lines.index('[Board "99"]\n') - 1  # board 99 of the real file, alone
    end = lines.index('[Board "100"]\n') - 1
    board = tmp_path / "board99.pbn"
    board.write_text("".join(lines[start:end]), encoding="latin-1")
    assert report(board)["summary"] == {"files": 1, "boards": 1, "errors": 0, "warnings": 1,
                                        "infos": 2}  # the two tags PBN does not define
    proc = bf_run("validate", "--strict", str(board))
    assert proc.returncode == 1
    assert f"{board}:12:1: error[dialect] board 99: a passed-out" in proc.stdout
    assert "strict reading refuses a dialect form" in proc.stdout
