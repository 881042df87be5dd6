"""``validate --analyze`` as a user runs it, on real files: what it compares is what its help
says (the double-dummy values a file carries), what it does not compare is said, and
without the solver (the extra ``dds``) it stops with the install hint ``convert --dd`` gives.

The tests without the solver hide endplay in the child process, so they run (and must
pass) whether or not it is installed; those that solve deals skip without it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest
from shared import FIXTURES, REAL_PBN, need, needs_corpus

ROOT = FIXTURES.parent
COLD_6D = REAL_PBN / "ben__cold_6d.pbn"  # 6D made 11 (DD: 12), no double-dummy tags
SUNDAY = REAL_PBN / "ben__Free_Super_Sunday_Daylong_Aug4.pbn"  # 3 of 12 boards carry DD tags
SAMPLE = REAL_PBN / "endplay__sample.pbn"  # both boards carry DD tags, all right
HINT = "needs the double-dummy solver: pip install '.[dds]' from the bridgefiles clone"
CARRIED = ("DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable")

needs_solver = pytest.mark.skipif(importlib.util.find_spec("endplay") is None,
                                  reason="solving deals needs the extra 'dds' (endplay)")


def bf_run(*args: str, solver: bool = True) -> subprocess.CompletedProcess[str]:
    """The command line in a child process; ``solver=False`` hides endplay from it."""
    hide = "" if solver else "sys.modules['endplay'] = None; "
    code = (f"import sys; {hide}sys.argv = ['bridgefiles', *sys.argv[1:]]; "
            "from bridgefiles.cli import main; main()")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


@needs_corpus
def test_without_the_solver_analyze_is_a_usage_error_with_the_install_hint() -> None:
    proc = bf_run("validate", "--analyze", str(need(COLD_6D)), solver=False)
    assert proc.returncode == 2, proc.stderr
    assert f"--analyze {HINT}" in proc.stderr
    assert proc.stdout == ""  # nothing validated half-way: the run does not start
    # convert --dd says the same words, with the same exit status
    table = bf_run("convert", str(COLD_6D), "--to", "csv", "--dd", solver=False)
    assert table.returncode == 2 and f"--dd {HINT}" in table.stderr


def test_help_says_what_analyze_checks_and_what_it_needs() -> None:
    text = " ".join(bf_run("validate", "--help", solver=False).stdout.split())
    assert all(name in text for name in CARRIED)
    assert "a board carrying none is not solved" in text
    assert "tricks taken at the table are not judged against double dummy" in text
    assert "pip install '.[dds]'" in text and "usage error (exit 2)" in text


@needs_corpus
@needs_solver
def test_a_file_carrying_no_dd_values_is_said_not_passed_in_silence() -> None:
    proc = bf_run("validate", "--analyze", str(need(COLD_6D)))
    assert proc.returncode == 0, proc.stderr
    assert "dd-mismatch" not in proc.stdout  # a result under double dummy is bridge, not a fault
    assert ("--analyze compared 0 of 1 board(s) with a fresh analysis; 1 carry no "
            "double-dummy values") in proc.stderr


@needs_corpus
@needs_solver
def test_the_count_of_boards_compared_is_per_run() -> None:
    proc = bf_run("validate", "--analyze", "--format", "json", "-q", str(need(SUNDAY)),
                  str(need(SAMPLE)))
    assert proc.returncode == 0, proc.stderr
    assert "dd-mismatch" not in proc.stdout
    assert proc.stderr.strip() == (
        "--analyze compared 5 of 14 board(s) with a fresh analysis; 9 carry no double-dummy "
        f"values ({', '.join(CARRIED)}) on a full deal and were not solved (the tricks taken at "
        "the table against double dummy: convert --to csv --dd)")
    alone = bf_run("validate", "--analyze", str(SAMPLE))  # every board compared: no note
    assert alone.returncode == 0 and "--analyze" not in alone.stderr
