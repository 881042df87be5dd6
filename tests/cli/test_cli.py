"""The command line, run for real: click's runner and a subprocess for each command and option.

Inputs are the fixtures and corpus files copied into tmp_path at test time (a tree of
mixed PBN, LIN and JSON), plus JSON written through the library.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from shared import FIXTURES, REAL, REAL_LIN, ROOT, needs_corpus

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.cli import main
from bridgefiles.model.content import same_game

SAMPLE = FIXTURES / "sample-event.pbn"
LIN_SAMPLE = REAL_LIN / "pbntools__3381671193.lin"
LIN_MANY = REAL_LIN / "bridgebots__usbf_sf_14502.lin"



@dataclass
class Ran:
    code: int
    stdout: bytes
    stderr: str

    @property
    def text(self) -> str:
        return self.stdout.decode("utf-8")


Cli = Callable[..., Ran]


def _runner(args: list[str], input: bytes | None = None, cwd: Path | None = None) -> Ran:
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, input=input)
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout_bytes, result.stderr)


def _subprocess(args: list[str], input: bytes | None = None, cwd: Path | None = None) -> Ran:
    proc = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", *args],
        input=input,
        capture_output=True,
        cwd=cwd or ROOT,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    return Ran(proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))


@pytest.fixture(params=["runner", "subprocess"])
def cli(request: pytest.FixtureRequest) -> Cli:
    return _runner if request.param == "runner" else _subprocess


def _json_copy(source: Path, target: Path, change: dict[str, str] | None = None) -> Path:
    """The boards of ``source`` as our JSON, optionally with tags changed on every board."""
    boards = list(bf.read(source))
    if change:
        for name, value in change.items():
            boards = [b.with_tag(name, value) for b in boards]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(bf.dumps(boards, "json"), encoding="utf-8")
    return target


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder tree of mixed PBN, LIN and JSON, with files the walk must skip."""
    root = tmp_path / "tree"
    (root / "club" / "week1").mkdir(parents=True)
    (root / "bbo").mkdir()
    shutil.copy(SAMPLE, root / "club" / "week1" / "pairs.pbn")
    _json_copy(SAMPLE, root / "club" / "pairs-copy.json")
    (root / "notes.txt").write_text("not a bridge file\n")
    (root / "club" / ".hidden.pbn").write_text('[Board "1"]\n')
    if REAL.is_dir():
        shutil.copy(LIN_SAMPLE, root / "bbo" / "one.lin")
        shutil.copy(LIN_MANY, root / "bbo" / "vugraph.lin")
    return root


def _boards(path: Path, fmt: str | None = None) -> list[bf.Board]:
    return list(bf.read(path, fmt))


# -- inputs: files, folders, globs, standard input ---------------------------------------


@needs_corpus
def test_expand_walks_folders_and_globs(tree: Path) -> None:
    found = batch.expand([str(tree)])
    rel = sorted(str(i.relative) for i in found)
    assert rel == ["bbo/one.lin", "bbo/vugraph.lin", "club/pairs-copy.json", "club/week1/pairs.pbn"]
    globbed = batch.expand([str(tree / "**" / "*.lin")])
    assert sorted(str(i.relative) for i in globbed) == ["bbo/one.lin", "bbo/vugraph.lin"]
    with pytest.raises(bf.BridgeFileError):
        batch.expand([str(tree / "*.nothing")])


def test_validate_a_file_exits_0_with_a_summary(cli: Cli) -> None:
    ran = cli(["validate", str(SAMPLE)])
    assert ran.code == 0, ran.stderr
    # the rate appears on runs longer than half a second: not part of what is checked
    assert re.search(r"validated 1 file\(s\), 12 board\(s\)( \([\d,]+ boards/s\))?: 0 error",
                     ran.stderr), ran.stderr
    quiet = cli(["validate", "-q", str(SAMPLE)])
    assert quiet.code == 0 and quiet.stderr == ""


@needs_corpus
def test_validate_a_mixed_tree_with_jobs(cli: Cli, tree: Path) -> None:
    one = cli(["validate", str(tree), "--jobs", "1"])
    two = cli(["validate", str(tree), "--jobs", "2"])
    assert one.code == two.code
    assert one.stdout == two.stdout  # the same report, in input order, whatever the jobs
    expected = 12 + 12 + len(_boards(LIN_SAMPLE)) + len(_boards(LIN_MANY))
    assert f"validated 4 file(s), {expected} board(s)" in one.stderr
    assert "\r" not in one.stderr  # no progress bar when standard error is not a terminal


@needs_corpus
def test_validate_json_report_conforms_and_matches_the_library(cli: Cli, tree: Path) -> None:
    from bridgefiles.checks.schema import Report
    from bridgefiles.checks.validate import report_json, validate_board

    ran = cli(["validate", str(tree), "--format", "json", "-j", "2"])
    data = json.loads(ran.stdout)
    Report.model_validate(data)  # the published schema holds
    files: list[tuple[str, str, list[bf.Diagnostic], list[Any]]] = []
    for item in batch.expand([str(tree)]):
        reports = [validate_board(b) for b in bf.read(item.path)]
        files.append((item.path, batch.format_name(item, None), [], reports))
    assert data == report_json(files)


def test_validate_fail_on_warning(cli: Cli, tmp_path: Path) -> None:
    # vulnerable All: the board number says otherwise (a warning)
    doubtful = _json_copy(SAMPLE, tmp_path / "doubtful.json", {"Vulnerable": "All"})
    report = json.loads(cli(["validate", str(doubtful), "--format", "json"]).stdout)
    assert report["summary"]["warnings"] > 0 and report["summary"]["errors"] == 0
    assert cli(["validate", str(doubtful)]).code == 0
    assert cli(["validate", str(doubtful), "--fail-on", "warning"]).code == 1


def test_validate_an_error_exits_1(cli: Cli, tmp_path: Path) -> None:
    wrong = _json_copy(SAMPLE, tmp_path / "wrong.json", {"Contract": "7NT"})
    ran = cli(["validate", str(wrong)])
    assert ran.code == 1
    assert "error[contract-mismatch]" in ran.text
    assert f"{wrong}:" in ran.text  # compiler-style lines name the file


def test_unreadable_input_and_usage_errors_exit_2(cli: Cli, tmp_path: Path) -> None:
    assert cli(["validate", str(tmp_path / "missing.pbn")]).code == 2
    assert cli(["validate", str(tmp_path / "*.none")]).code == 2
    assert cli(["validate", "--no-such-option", str(SAMPLE)]).code == 2
    assert cli(["convert", str(SAMPLE)]).code == 2  # --to is required
    assert cli(["validate", str(SAMPLE), "--jobs", "-1"]).code == 2
    garbage = tmp_path / "garbage.dat"
    garbage.write_bytes(b"\x00\x01 nothing we know")
    assert cli(["validate", str(garbage)]).code == 2


def test_validate_from_standard_input(cli: Cli) -> None:
    ran = cli(["validate", "-", "--format", "json"], input=SAMPLE.read_bytes())
    assert ran.code == 0, ran.stderr
    data = json.loads(ran.stdout)
    assert data["files"][0]["path"] == "<stdin>"
    assert data["summary"]["boards"] == 12


def test_strict_stops_at_the_first_error(cli: Cli, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"bridgefiles": 1, "boards": [\n{"tags": 5}\n]}\n')
    assert cli(["validate", str(broken)]).code == 1
    strict = cli(["validate", "--strict", str(broken)])
    assert strict.code == 1 and "error" in strict.stderr


# -- convert ------------------------------------------------------------------------------


def test_convert_to_standard_output_and_back(cli: Cli) -> None:
    ran = cli(["convert", str(SAMPLE), "--to", "json"])
    assert ran.code == 0, ran.stderr
    back = list(bf.loads(ran.stdout, "json").boards)
    assert len(back) == 12
    assert all(same_game(a, b) for a, b in zip(_boards(SAMPLE), back, strict=True))


def test_convert_stdin_to_stdout(cli: Cli) -> None:
    ran = cli(["convert", "-", "--to", "json", "--from", "pbn"], input=SAMPLE.read_bytes())
    assert ran.code == 0, ran.stderr
    assert len(bf.loads(ran.stdout, "json").boards) == 12


def test_a_real_pipeline_convert_then_validate(tmp_path: Path) -> None:
    """`bridgefiles convert ... | bridgefiles validate -`: two processes and a pipe."""
    cmd = [sys.executable, "-m", "bridgefiles.cli"]
    first = subprocess.Popen(
        [*cmd, "convert", str(SAMPLE), "--to", "json"], stdout=subprocess.PIPE, cwd=ROOT
    )
    second = subprocess.run(
        [*cmd, "validate", "-", "--format", "json"],
        stdin=first.stdout,
        capture_output=True,
        cwd=ROOT,
    )
    assert first.stdout is not None
    first.stdout.close()
    assert first.wait() == 0
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["summary"]["boards"] == 12


@needs_corpus
def test_convert_out_dir_mirrors_the_tree(cli: Cli, tree: Path, tmp_path: Path) -> None:
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        ran = cli(["convert", str(tree), "--to", "json", "--out-dir", str(out), "-j", jobs])
        assert ran.code == 0, ran.stderr
        written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
        assert written == [
            "bbo/one.json",
            "bbo/vugraph.json",
            "club/pairs-copy.json",
            "club/week1/pairs.json",
        ]
        assert len(_boards(out / "bbo" / "vugraph.json")) == len(_boards(LIN_MANY))
        assert "converted 4 file(s)" in ran.stderr
    assert (tmp_path / "out1" / "bbo" / "vugraph.json").read_bytes() == (
        tmp_path / "out2" / "bbo" / "vugraph.json"
    ).read_bytes()


@needs_corpus
def test_convert_lin_to_lin_round_trips(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "again.lin"
    ran = cli(["convert", str(LIN_SAMPLE), "--to", "lin", "-o", str(out), "--verify"])
    assert ran.code == 0, ran.stderr
    before, after = _boards(LIN_SAMPLE), _boards(out)
    assert [b.deal for b in before] == [b.deal for b in after]
    assert [b.auction.calls() if b.auction else None for b in before] == [
        b.auction.calls() if b.auction else None for b in after
    ]


def test_convert_never_overwrites_an_input(cli: Cli, tmp_path: Path) -> None:
    source = _json_copy(SAMPLE, tmp_path / "event.json")
    original = source.read_bytes()
    refused = cli(["convert", str(source), "--to", "json", "-o", str(source)])
    assert refused.code == 2
    assert "never overwritten" in refused.stderr
    same_dir = cli(["convert", str(source), "--to", "json", "--out-dir", str(tmp_path)])
    assert same_dir.code == 2
    assert source.read_bytes() == original
    forced = cli(["convert", str(source), "--to", "json", "-o", str(source), "--force"])
    assert forced.code == 0, forced.stderr
    assert len(_boards(source)) == 12


def test_convert_in_place(cli: Cli, tmp_path: Path) -> None:
    source = tmp_path / "event.json"
    source.write_text(bf.dumps(_boards(SAMPLE)[:3], "json").replace("\n", "\n\n"))
    ran = cli(["convert", str(source), "--to", "json", "--in-place"])
    assert ran.code == 0, ran.stderr
    assert "\n\n" not in source.read_text()
    assert len(_boards(source)) == 3
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files left
    assert cli(["convert", "-", "--to", "json", "--in-place"], input=b"").code == 2


def test_convert_options_that_exclude_each_other(cli: Cli, tmp_path: Path) -> None:
    ran = cli(
        [
            "convert",
            str(SAMPLE),
            "--to",
            "json",
            "-o",
            str(tmp_path / "a.json"),
            "--out-dir",
            str(tmp_path),
        ]
    )
    assert ran.code == 2
    two = cli(["convert", str(SAMPLE), str(SAMPLE), "--to", "json", "-o", str(tmp_path / "b")])
    assert two.code == 2


def test_verify_reads_the_output_back(cli: Cli, tmp_path: Path) -> None:
    source = _json_copy(SAMPLE, tmp_path / "in" / "event.json")
    out = tmp_path / "out"
    ran = cli(["convert", str(source), "--to", "json", "--out-dir", str(out), "--verify"])
    assert ran.code == 0, ran.stderr
    assert len(_boards(out / "event.json")) == 12


def test_verify_failure_keeps_the_old_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that changes content: --verify notices, and nothing is replaced."""
    from bridgefiles.formats import json_format

    source = _json_copy(SAMPLE, tmp_path / "event.json")
    target = tmp_path / "out.json"
    target.write_text("old output\n")
    real = json_format.board_to_json
    monkeypatch.setattr(json_format, "board_to_json", lambda b: real(b.with_tag("Contract", "7NT")))
    ran = _runner(["convert", str(source), "--to", "json", "-o", str(target), "--verify"])
    assert ran.code == 1
    assert "verify" in ran.stderr
    assert target.read_text() == "old output\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    unverified = _runner(["convert", str(source), "--to", "json", "-o", str(target)])
    assert unverified.code == 0  # without --verify the change goes through unnoticed
    assert target.read_text() != "old output\n"


def test_convert_score_fills_in_scores(cli: Cli, tmp_path: Path) -> None:
    source = _json_copy(SAMPLE, tmp_path / "event.json")
    ran = cli(["convert", str(source), "--to", "json", "--score"])
    assert ran.code == 0, ran.stderr
    scored = list(bf.loads(ran.stdout, "json").boards)
    plain = _boards(source)
    assert len(scored) == 12
    assert any(b.tag("Score") for b in scored)
    assert not any(b.tag("Score") for b in plain)


def test_score_command(cli: Cli, tmp_path: Path) -> None:
    source = _json_copy(SAMPLE, tmp_path / "event.json")
    out = tmp_path / "scored.json"
    ran = cli(["score", str(source), "-o", str(out), "--verify"])
    assert ran.code == 0, ran.stderr
    assert any(b.tag("Score") for b in _boards(out))
    assert cli(["score", str(source), "-o", str(source)]).code == 2
    in_place = cli(["score", str(source), "--in-place"])
    assert in_place.code == 0, in_place.stderr
    assert any(b.tag("Score") for b in _boards(source))
    to_stdout = cli(["score", str(source)])
    assert to_stdout.code == 0
    assert len(bf.loads(to_stdout.stdout, "json").boards) == 12


def test_convert_that_writes_no_board_fails(cli: Cli, tmp_path: Path) -> None:
    """Read errors and no board written: not a success, whatever --fail-on says (#15)."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"bridgefiles": 1, "boards": [\n{"tags": 5}\n]}\n')
    for extra in ([], ["--fail-on", "error"]):
        failed = cli(["convert", str(broken), "--to", "json", *extra])
        assert failed.code != 0
        assert "error[syntax]" in failed.stderr
        assert "Traceback" not in failed.stderr


# -- tables ----------------------------------------------------------------------------------


@needs_corpus
def test_convert_to_csv_one_table_for_a_tree(cli: Cli, tree: Path, tmp_path: Path) -> None:
    from bridgefiles.views.table import COLUMNS, board_rows, read_csv_rows

    out = tmp_path / "boards.csv"
    ran = cli(["convert", str(tree), "--to", "csv", "-o", str(out), "-j", "2"])
    assert ran.code == 0, ran.stderr
    assert out.read_text().splitlines()[0] == ",".join(COLUMNS)
    rows = list(read_csv_rows(out))
    expected = [
        r for item in batch.expand([str(tree)]) for r in board_rows(bf.read(item.path), item.path)
    ]
    assert rows == expected
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_convert_to_csv_on_standard_output(cli: Cli) -> None:
    import csv

    ran = cli(["convert", str(SAMPLE), "--to", "csv"])
    assert ran.code == 0, ran.stderr
    rows = list(csv.DictReader(io.StringIO(ran.text)))
    assert len(rows) == 12
    assert rows[0]["contract"] == "2S" and rows[0]["declarer"] == "N"
    assert rows[0]["lead"] == "CK"


def test_convert_to_parquet(cli: Cli, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from bridgefiles.views.table import board_rows

    out = tmp_path / "boards.parquet"
    ran = cli(["convert", str(SAMPLE), str(SAMPLE), "--to", "parquet", "-o", str(out)])
    assert ran.code == 0, ran.stderr
    rows = pq.read_table(out).to_pylist()
    once = list(board_rows(bf.read(SAMPLE), str(SAMPLE)))
    assert rows == once + once
    assert cli(["convert", str(SAMPLE), "--to", "parquet"]).code == 2  # binary: needs -o


# -- schema ----------------------------------------------------------------------------------


def test_schema_command(cli: Cli) -> None:
    report = cli(["schema", "report"])
    assert report.code == 0
    schema = json.loads(report.stdout)
    assert set(schema["required"]) == {"version", "files", "summary"}
    board = json.loads(cli(["schema", "board"]).stdout)
    expected = bf.Board.model_json_schema()
    board.pop("$schema")
    assert board == expected
    assert cli(["schema", "nothing"]).code == 2


@needs_corpus
@pytest.mark.parametrize("to", ["pbn", "lin"])
def test_convert_a_mixed_tree_with_verify(cli: Cli, tree: Path, tmp_path: Path, to: str) -> None:
    out = tmp_path / f"out-{to}"
    ran = cli(["convert", str(tree), "--to", to, "--out-dir", str(out), "--verify", "-j", "2"])
    assert ran.code == 0, ran.stderr
    for item in batch.expand([str(tree)]):
        written = batch.output_path(item, out, to)
        before, after = _boards(Path(item.path)), _boards(written)
        assert len(after) == len(before)
        assert [b.deal for b in after] == [b.deal for b in before]
    assert not [p for p in out.rglob(".*")]  # no temporary files left behind
