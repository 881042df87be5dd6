"""The README's section on dealing machines and archives runs as written."""

from __future__ import annotations

import doctest
import os
import re
import shlex
from pathlib import Path

from click.testing import CliRunner
from shared import FIXTURES

from bridgefiles.cli import main

ROOT = FIXTURES.parent
README = ROOT / "README.md"
TITLE = "## Dealing machines and archives: BRI, DGE, DUP, DLM, RBN"


def _blocks(kind: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index(TITLE)
    end = text.index("\n## ", start + 1)
    return re.findall(rf"```{kind}\n(.*?)```", text[start:end], re.DOTALL)


def test_the_python_session_runs() -> None:
    session = "\n".join(_blocks("python"))
    test = doctest.DocTestParser().get_doctest(session, {}, "README dealing", str(README), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    cwd = os.getcwd()
    os.chdir(ROOT)  # the session names fixtures/ as the README's reader would
    try:
        runner.run(test)
    finally:
        os.chdir(cwd)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)


def test_the_commands_run(tmp_path: Path) -> None:
    (tmp_path / "fixtures").symlink_to(FIXTURES)
    commands = [line.split("#")[0].split() for line in _blocks("sh")[0].splitlines()]
    assert commands
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for words in commands:
            assert words[0] == "scripts/run"
            result = CliRunner().invoke(main, words[1:])
            assert result.exit_code == 0, (shlex.join(words), result.output)
    finally:
        os.chdir(cwd)
    assert (tmp_path / "event.dup").stat().st_size == 4 * 156
    assert "[Deal " in (tmp_path / "deals.pbn").read_text("iso8859-1")
    assert "Sample Club Pairs" in (tmp_path / "sample.pbn").read_text("iso8859-1")
