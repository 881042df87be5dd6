"""``bridgefiles analyze`` as a pipeline runs it: files, standard input and output,
folders, ``--check`` and its exit codes, and the message when the extra is missing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from analysis_corpus import CRLF_RECORDS, YOUTH, need
from click.testing import CliRunner

import bridgefiles as bf
from bridgefiles.analysis import check_board, cli, solver
from bridgefiles.cli import main

pytest.importorskip("endplay", reason="the solver is the extra 'dds' (pip install endplay)")


def test_commands_are_importable_without_extras() -> None:
    code = ("import sys; sys.modules['endplay'] = None; sys.modules['jinja2'] = None; "
            "sys.modules['weasyprint'] = None; "
            "from bridgefiles.analysis.cli import COMMANDS; "
            "print(sorted(c.name for c in COMMANDS))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "['analyze', 'handrecord']"


def test_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "available", lambda: False)
    result = CliRunner().invoke(main, ["analyze", str(need(YOUTH))])
    assert result.exit_code == 2
    assert "pip install '.[dds]'" in result.output


def test_analyze_to_stdout_then_check_is_clean(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["analyze", str(need(YOUTH))])
    assert result.exit_code == 0, result.output
    written = result.stdout
    assert written.count("[DoubleDummyTricks ") == 2
    assert re.search(r"2 boards, 2 analysed, 2 written, 0 dd-mismatch", result.stderr)
    out = tmp_path / "youth.pbn"
    out.write_text(written, encoding="utf-8")
    checked = runner.invoke(main, ["analyze", "--check", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "0 dd-mismatch" in checked.stderr


def test_stdin_to_output_file(tmp_path: Path) -> None:
    data = need(CRLF_RECORDS).read_bytes()
    out = tmp_path / "out.pbn"
    result = CliRunner().invoke(main, ["analyze", "-", "-o", str(out)], input=data)
    assert result.exit_code == 0, result.output
    text = out.read_bytes()
    # the boards carry the right table and OptimumScore; only ParContract is new
    added = re.findall(rb'\[ParContract "[^"]*"\]\r\n', text)
    assert len(added) == 3
    assert re.sub(rb'\r\n\[ParContract "[^"]*"\]', b"", text) == data


def test_check_reports_a_rotated_deal_and_exits_1(tmp_path: Path) -> None:
    text = need(CRLF_RECORDS).read_bytes().decode("utf-8")
    deal = "N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7"
    rotated = "N:T2.Q652.QJT972.7 Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532"
    bad = tmp_path / "rotated.pbn"
    bad.write_bytes(text.replace(deal, rotated, 1).encode("utf-8"))
    result = CliRunner().invoke(main, ["analyze", "--check", str(bad)])
    assert result.exit_code == 1
    lines = [x for x in result.stdout.splitlines() if "dd-mismatch" in x]
    assert lines and all(x.startswith(f"{bad}:") and "error[dd-mismatch]" in x for x in lines)
    assert any("DoubleDummyTricks" in x for x in lines)
    # analyze puts it right, and says what it replaced
    fixed = tmp_path / "fixed.pbn"
    result = CliRunner().invoke(main, ["analyze", str(bad), "-o", str(fixed)])
    assert result.exit_code == 0
    assert "dd-mismatch" in result.stderr
    for board in bf.load(fixed).boards:
        assert check_board(board) == []


def test_out_dir_and_several_files_in_processes(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in (YOUTH, CRLF_RECORDS):
        (folder / need(name).name).write_bytes(name.read_bytes())
    result = CliRunner().invoke(main, ["analyze", str(folder), "--out-dir", str(tmp_path / "out"),
                                       "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        p.name for p in folder.iterdir())
    assert "2 files, 5 boards, 5 analysed, 5 written, 0 dd-mismatch" in result.stderr


def test_refuses_to_overwrite_an_input(tmp_path: Path) -> None:
    target = tmp_path / "a.pbn"
    target.write_bytes(need(YOUTH).read_bytes())
    result = CliRunner().invoke(main, ["analyze", str(target), "-o", str(target)])
    assert result.exit_code == 2
    assert "never overwrites" in result.output


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["analyze", str(tmp_path / "missing.pbn")])
    assert result.exit_code == 2
    assert "missing.pbn: error[unreadable] No such file" in result.stderr


def test_board_range_parsing() -> None:
    assert cli._board_range("1-18") == (1, 18)
    assert cli._board_range("7") == (7, 7)
    assert cli._board_range(None) is None
