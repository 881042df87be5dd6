"""The command line as a shell runs it: real processes, pipes, a full disk, a closed pipe,
outputs that cannot be written, and the exit statuses of DESIGN.md. Never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from shared import FIXTURES, REAL, REAL_LIN, REAL_PBN, ROOT, needs_corpus

from bridgefiles.checks.schema import Report
from bridgefiles.cli import main

SAMPLE = FIXTURES / "sample-event.pbn"
LATIN1 = REAL_PBN / "pbntools__sm0807.pbn"  # ISO-8859-1 bytes (0xf3) in names
CP1252_LIN = REAL_LIN / "aabridge__103_mitche_097.lin"  # an en dash: not in ISO-8859-1
LOSSY = REAL_PBN / "pbntools__wb130808.pbn"  # Contract and Result with no auction
FAULTY = REAL_PBN / "pybcdd__faulty.pbn"  # error[deal]
CAMROSE = REAL_PBN / "ben__camrose2024_BEN.pbn"  # 169 warnings (BEN's dialect)



def shell(command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """``command`` through sh, with ``bf`` the command line of this checkout."""
    bf = f"{sys.executable} -m bridgefiles.cli"
    return subprocess.run(["sh", "-c", command.replace("bf ", bf + " ")], capture_output=True,
                          cwd=cwd or ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})


def no_traceback(proc: subprocess.CompletedProcess[bytes]) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return err


@needs_corpus
def test_latin1_pbn_scored_to_a_pipe_is_its_own_bytes(tmp_path: Path) -> None:
    piped = shell(f"bf score {LATIN1} | cat > {tmp_path / 'piped.pbn'}")
    no_traceback(piped)
    written = shell(f"bf score {LATIN1} -o {tmp_path / 'file.pbn'}")
    assert written.returncode == 0, no_traceback(written)
    assert (tmp_path / "piped.pbn").read_bytes() == (tmp_path / "file.pbn").read_bytes()
    assert b"\xf3" in (tmp_path / "file.pbn").read_bytes()


@needs_corpus
def test_every_lin_file_of_a_folder_converts_to_a_pipe() -> None:
    proc = shell(f"bf convert {REAL / 'lin'} --to pbn -q | wc -c")
    err = no_traceback(proc)
    assert "cannot be written" not in err
    assert int(proc.stdout) > 100_000


@needs_corpus
def test_stdin_to_stdout_in_the_charset_the_text_needs(tmp_path: Path) -> None:
    proc = shell(f"bf convert - --to pbn < {CP1252_LIN} > {tmp_path / 'out.pbn'}")
    assert proc.returncode == 0, no_traceback(proc)
    from_file = shell(f"bf convert {CP1252_LIN} --to pbn -o {tmp_path / 'file.pbn'}")
    assert from_file.returncode == 0, no_traceback(from_file)
    assert (tmp_path / "out.pbn").read_bytes() == (tmp_path / "file.pbn").read_bytes()


@needs_corpus
def test_conversion_losses_are_listed_and_fail_on_warning(tmp_path: Path) -> None:
    proc = shell(f"bf convert {LOSSY} --to lin -o {tmp_path / 'wb.lin'} --fail-on warning "
                 "--verify")
    err = no_traceback(proc)
    assert proc.returncode == 1
    assert "warning[lost-in-conversion]" in err
    summary = err.strip().splitlines()[-1]
    assert "0 warning(s)" not in summary


@needs_corpus
def test_a_vugraph_header_loss_is_listed_once_not_on_every_board() -> None:
    vugraph = REAL_LIN / "aabridge__f1.lin"  # 32 boards, one vg and one rs header
    proc = shell(f"bf convert {vugraph} --to pbn > /dev/null")
    err = no_traceback(proc)
    header = [line for line in err.splitlines() if "file header: " in line]
    assert len(header) == 2, header
    assert any("vg fields" in line for line in header)
    assert any("rs list" in line for line in header)
    summary = err.strip().splitlines()[-1]
    assert "32 board(s)" in summary
    assert f"{len(err.strip().splitlines()) - 1} warning(s)" in summary


@needs_corpus
def test_read_errors_fail_a_conversion_on_error() -> None:
    proc = shell(f"bf convert {FAULTY} --to lin --fail-on error > /dev/null")
    assert proc.returncode == 1
    assert "error[deal]" in no_traceback(proc)


@needs_corpus
def test_score_counts_what_validate_counts() -> None:
    scored = shell(f"bf score {CAMROSE} --fail-on warning > /dev/null")
    validated = shell(f"bf validate {CAMROSE} --fail-on warning > /dev/null")
    assert scored.returncode == 1 and validated.returncode == 1
    counts = [no_traceback(p).strip().splitlines()[-1].split(":", 1)[1]
              for p in (scored, validated)]
    assert counts[0] == counts[1] and "0 error(s), 169 warning(s)" in counts[0]


@needs_corpus
def test_findings_name_the_board_in_text() -> None:
    proc = shell(f"bf convert {FAULTY} --to lin > /dev/null")
    lines = [line for line in no_traceback(proc).splitlines() if "error[deal]" in line]
    assert lines and all("board 2" in line for line in lines), lines


def test_a_full_disk_on_standard_output() -> None:
    proc = shell(f"bf convert {SAMPLE} --to json > /dev/full")
    err = no_traceback(proc)
    assert proc.returncode == 1 and "No space left on device" in err


def test_a_closed_standard_output() -> None:
    for command in (f"bf convert {SAMPLE} --to json", f"bf validate {SAMPLE} --format json",
                    f"bf show {SAMPLE}"):
        proc = shell(f"{command} | head -c1 > /dev/null; exit 0")
        no_traceback(proc)


def test_out_dir_onto_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    proc = shell(f"bf convert {SAMPLE} --to lin --out-dir {tmp_path / 'afile'}")
    assert proc.returncode == 2 and "cannot be made" in no_traceback(proc)
    assert (tmp_path / "afile").read_text() == "x"


def test_an_output_folder_that_cannot_be_made(tmp_path: Path) -> None:
    proc = shell(f"bf convert {SAMPLE} --to lin --out-dir /proc/no/such/folder")
    assert proc.returncode == 2 and "cannot be made" in no_traceback(proc)
    proc = shell(f"bf convert {SAMPLE} --to lin -o /proc/no/such/out.lin")
    assert proc.returncode == 2 and "cannot be made" in no_traceback(proc)


def test_hello_world_is_not_a_clean_file() -> None:
    proc = shell("echo 'hello world' | bf validate -")
    assert proc.returncode == 2 and "--from" in no_traceback(proc) + proc.stdout.decode()


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    proc = shell(f"bf validate {tmp_path}")
    assert proc.returncode == 2 and "nothing read" in no_traceback(proc)


def test_a_missing_file_is_named_once(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pbn"
    proc = shell(f"bf validate {missing}")
    err = no_traceback(proc)
    assert proc.returncode == 2
    assert all(line.count(str(missing)) <= 1 for line in err.splitlines()), err


def test_strict_says_the_prefix_once(tmp_path: Path) -> None:
    bad = tmp_path / "x.pbn"
    bad.write_text('[Board "1"\n[Deal "N:AKQ"]\n')
    proc = shell(f"bf validate --strict {bad}")
    err = no_traceback(proc) + proc.stdout.decode()
    assert proc.returncode == 1
    assert all(line.count("error") <= 1 for line in err.splitlines() if "x.pbn" in line), err


def test_an_unknown_output_format_is_a_usage_error() -> None:
    proc = shell(f"bf convert {SAMPLE} --to html")
    assert proc.returncode == 2 and "html" in no_traceback(proc)


# -- options --------------------------------------------------------------------------------


def _invoke(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_convert_to_handviewer_urls() -> None:
    code, out, _ = _invoke(["convert", str(SAMPLE), "--to", "url", "-q"])
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 12 and all(line.startswith("http") for line in lines)


def test_the_scoring_method_is_chosen_on_the_command_line() -> None:
    mp = _invoke(["score", str(SAMPLE), "--method", "MP", "-q"])
    imp = _invoke(["score", str(SAMPLE), "--method", "IMP", "-q"])
    assert mp[0] == 0 and imp[0] == 0
    assert mp[1] != imp[1]
    assert _invoke(["convert", str(SAMPLE), "--to", "pbn", "--method", "MP"])[0] == 2


def test_laws_edition_is_an_option() -> None:
    assert _invoke(["validate", str(SAMPLE), "--laws", "2017", "-q"])[0] == 0
    assert _invoke(["validate", str(SAMPLE), "--laws", "1997"])[0] == 2


def test_analyze_without_the_analysis_package_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "bridgefiles.analysis", None)  # import fails
    code, _, err = _invoke(["validate", str(SAMPLE), "--analyze"])
    assert code == 2 and "pip install '.[dds]'" in err


def test_analyze_reports_what_check_board_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    from bridgefiles.model.diagnostic import Diagnostic, Severity

    fake = types.ModuleType("bridgefiles.analysis")

    def check_board(board: object) -> list[Diagnostic]:
        return [Diagnostic(code="dd-mismatch", severity=Severity.WARNING,
                           message="makes 11 double dummy")]

    fake.check_board = check_board  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bridgefiles.analysis", fake)
    # every board counts as carrying values to compare, whether or not an earlier test
    # imported the real bridgefiles.analysis.check (the run's order must not decide)
    carried = types.ModuleType("bridgefiles.analysis.check")
    carried.carries_analysis = lambda board: True  # type: ignore[attr-defined]
    carried.solvable_deal = lambda board: board  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bridgefiles.analysis.check", carried)
    code, out, err = _invoke(["validate", str(SAMPLE), "--analyze", "--fail-on", "warning"])
    assert code == 1
    assert out.count("warning[dd-mismatch] board") == 12
    assert "12 warning(s)" in err
    code, out, _ = _invoke(["validate", str(SAMPLE), "--analyze", "--format", "json"])
    data = json.loads(out)
    Report.model_validate(data)  # in each board's entry: the published schema holds
    boards = data["files"][0]["boards"]
    assert [[d["code"] for d in b["diagnostics"]] for b in boards] == [["dd-mismatch"]] * 12
    assert data["summary"]["warnings"] == 12


def test_commands_of_new_packages_are_added(monkeypatch: pytest.MonkeyPatch) -> None:
    @click.command("hello")
    def hello() -> None:
        """Say hello."""
        click.echo("hello from a plugin")

    fake = types.ModuleType("bridgefiles.web.cli")
    fake.COMMANDS = (hello,)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bridgefiles.web.cli", fake)
    monkeypatch.setitem(sys.modules, "bridgefiles.analysis.cli", None)  # missing: skipped
    code, out, _ = _invoke(["hello"])
    assert code == 0 and out == "hello from a plugin\n"
    assert "hello" in _invoke(["--help"])[1]
