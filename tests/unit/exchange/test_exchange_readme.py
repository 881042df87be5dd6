"""The README's USEBIO section runs as written: its commands and its Python session."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import FIXTURES

from bridgefiles.cli import main

README = FIXTURES.parent / "README.md"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Results for the national body: USEBIO XML")
    return text[start : text.index("\n## ", start + 1)]


def _commands() -> list[list[str]]:
    block = re.findall(r"```sh\n(.*?)```", _section(), re.DOTALL)[0]
    lines = [line.split("#")[0].strip() for line in block.splitlines()]
    return [shlex.split(line)[1:] for line in lines if line.startswith("bridgefiles ")]


def test_the_commands_run_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fixtures").symlink_to(FIXTURES)
    monkeypatch.chdir(tmp_path)
    commands = _commands()
    assert len(commands) == 4
    for args in commands:
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
    assert (tmp_path / "event.xml").read_bytes().startswith(b"<?xml")
    assert b'EVENT_TYPE="TEAMS"' in (tmp_path / "teams.xml").read_bytes()
    ranked = (tmp_path / "ranked.pbn").read_text(encoding="iso-8859-1")
    assert '[TotalScoreTable "Rank;PairId;Names;NrBoards;TotalMP;TotalPercentage"]' in ranked
    assert '1 3 "Ida;Jo" 2 9.67 80.56' in ranked


def test_the_python_session_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("endplay", reason="the session's dd_score needs the extra 'dds'")
    monkeypatch.chdir(FIXTURES.parent)
    monkeypatch.delenv("BRIDGEFILES_DD_CACHE", raising=False)
    block = "\n".join(re.findall(r"```python\n(.*?)```", _section(), re.DOTALL))
    test = doctest.DocTestParser().get_doctest(block, {}, "README USEBIO", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert test.examples and result.failed == 0 and result.attempted == len(test.examples)
