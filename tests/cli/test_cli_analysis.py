"""``analyze``, ``handrecord`` and ``validate --analyze`` as a user runs them: outputs that
never collide, never go through links and always appear whole; the reading's findings
reported; boards named; the missing solver said, never skipped in silence."""

from __future__ import annotations

import importlib.util
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from shared import FIXTURES, REAL_PBN, need

import bridgefiles as bf
from bridgefiles.analysis import files as work
from bridgefiles.analysis import solver
from bridgefiles.analysis.models import DDTable
from bridgefiles.cli import main
from bridgefiles.files.output import write_text_file
from bridgefiles.model.board import Board
from bridgefiles.testing import synthetic

ROOT = FIXTURES.parent
SAMPLE = FIXTURES / "sample-event.pbn"
FAULTY = REAL_PBN / "pybcdd__faulty.pbn"  # board 2: a 10-card North
COMMON_GAME = REAL_PBN / "bridgeparsers__CommonGame_260119HandRecord.pbn"  # [Event ""]
WRONG_DD = ('[Board "7"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
            '[DoubleDummyTricks "00000000000000000000"]\n')

pytest.importorskip("endplay", reason="the solver is the extra 'dds' (pip install endplay)")


def bf_run(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "bridgefiles.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return proc


def two_events(tmp_path: Path) -> Path:
    """col/a/event.pbn and col/b/event.pbn: one name in two folders."""
    for part, source in (("a", need(FAULTY)), ("b", SAMPLE)):
        (tmp_path / "col" / part).mkdir(parents=True)
        (tmp_path / "col" / part / "event.pbn").write_bytes(source.read_bytes())
    return tmp_path / "col"


def test_analyze_refuses_two_inputs_onto_one_output(tmp_path: Path) -> None:
    col = two_events(tmp_path)
    for inputs in ((col / "a", col / "b"), (col / "a" / "event.pbn", col / "b" / "event.pbn")):
        proc = bf_run("analyze", "--out-dir", str(tmp_path / "out"), *map(str, inputs))
        assert proc.returncode == 2
        assert (f"{col / 'a' / 'event.pbn'} and {col / 'b' / 'event.pbn'} would both write "
                f"{tmp_path / 'out' / 'event.pbn'}") in proc.stderr
        assert not (tmp_path / "out").exists()


def test_analyze_mirrors_the_tree_and_says_why_boards_were_not_analysed(tmp_path: Path) -> None:
    col = two_events(tmp_path)
    proc = bf_run("analyze", "--out-dir", str(tmp_path / "out"), str(col))
    assert proc.returncode == 0, proc.stderr
    assert sorted(str(p.relative_to(tmp_path / "out")) for p in (tmp_path / "out").rglob("*.pbn")
                  ) == ["a/event.pbn", "b/event.pbn"]
    # the reading's finding, naming its board, and the count of boards not analysed, with why
    assert re.search(r"a/event\.pbn:11:7: error\[deal\] board 2: Deal: hands hold", proc.stderr)
    assert "14 boards, 13 analysed (1 without a full deal of four 13-card hands)" in proc.stderr
    # and, for the board not analysed, why
    assert re.search(r"a/event\.pbn:11:1: warning\[deal\] board 2: not analysed: hands hold "
                     r"different numbers of cards \(North 10, East 13, South 13, West 13\)",
                     proc.stderr), proc.stderr


def test_analyze_dd_mismatch_names_the_board(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.pbn"
    wrong.write_text(WRONG_DD, encoding="utf-8")
    proc = bf_run("analyze", "--check", str(wrong))
    assert proc.returncode == 1
    assert f"{wrong}:5:1: error[dd-mismatch] board 7: DoubleDummyTricks" in proc.stdout
    validated = bf_run("validate", "--analyze", str(wrong))
    assert "error[dd-mismatch] board 7: DoubleDummyTricks" in validated.stdout


def test_analyze_draws_a_progress_bar(tmp_path: Path) -> None:
    proc = bf_run("analyze", str(need(COMMON_GAME)), "-o", str(tmp_path / "out.pbn"),
                  "--progress")
    assert proc.returncode == 0
    assert re.search(r"\d+%\|.*boards.*files", proc.stderr), proc.stderr


def test_analyze_draws_no_bar_in_a_pipe(tmp_path: Path) -> None:
    """As validate and convert: the bar only on a terminal (stderr here is a pipe)."""
    proc = bf_run("analyze", str(need(FAULTY)), "-o", str(tmp_path / "out.pbn"))
    assert proc.returncode == 0
    assert "%|" not in proc.stderr and "\r" not in proc.stderr


def test_analyze_never_writes_through_a_link_and_leaves_nothing_half_written(
        tmp_path: Path) -> None:
    kept = tmp_path / "kept.pbn"
    kept.write_text("kept\n", encoding="utf-8")
    link = tmp_path / "link.pbn"
    link.symlink_to(kept)
    proc = bf_run("analyze", str(need(FAULTY)), "-o", str(link))
    assert proc.returncode == 2
    assert f"{link} is a symbolic link" in proc.stderr
    assert kept.read_text(encoding="utf-8") == "kept\n" and link.is_symlink()
    proc = bf_run("analyze", str(need(FAULTY)), "-o", "/dev/full")
    assert proc.returncode == 2 and "/dev/full is a device" in proc.stderr
    out = tmp_path / "out.pbn"
    assert bf_run("analyze", str(need(FAULTY)), "-o", str(out)).returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.pbn", "link.pbn", "out.pbn"]


def test_validate_analyze_without_the_solver_says_so() -> None:
    """With endplay absent, --analyze is a usage error naming the extra, not a silent pass."""
    code = ("import sys; sys.modules['endplay'] = None; sys.argv = ['bridgefiles', 'validate', "
            f"'--analyze', {str(SAMPLE)!r}]; from bridgefiles.cli import main; main()")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert "pip install '.[dds]' from the bridgefiles clone" in proc.stderr


def test_validate_analyze_help_says_what_it_checks() -> None:
    text = " ".join(bf_run("validate", "--help").stdout.split())
    assert "double-dummy values a file carries" in text
    assert "results against double dummy" not in text


# -- hand records ------------------------------------------------------------------------

needs_jinja = pytest.mark.skipif(importlib.util.find_spec("jinja2") is None,
                                 reason="hand records are the extra 'pdf' (jinja2)")


@needs_jinja
def test_handrecord_leaves_out_impossible_hands_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "faulty.html"
    proc = bf_run("handrecord", str(need(FAULTY)), "-o", str(out))
    assert proc.returncode == 0
    assert "error[deal] board 2: Deal: hands hold different numbers of cards" in proc.stderr
    assert "warning[deal] board 2: not printed" in proc.stderr
    text = out.read_text(encoding="utf-8")
    assert 'id="board-1"' in text and 'id="board-2"' not in text


@needs_jinja
def test_handrecord_board_lists_and_hand_record_titles(tmp_path: Path) -> None:
    out = tmp_path / "cg.html"
    proc = bf_run("handrecord", str(need(COMMON_GAME)), "-o", str(out), "--boards", "1,3,5-7")
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert re.findall(r'id="board-(\d+)"', text) == ["1", "3", "5", "6", "7"]
    # [Event ""]: the file's %HRTitleEvent names the event
    assert "Monday 01/19/2026 -  Common Game (2601501)" in text
    assert "Hand records" not in re.sub(r"<style.*?</style>", "", text, flags=re.S)


@needs_jinja
@pytest.mark.parametrize(("boards", "why"), [
    ("7-5", "'7-5': the range runs backwards (write 5-7)"),
    ("1,,3", "'1,,3': an empty item between commas"),
    ("3-", "'3-': a range needs a board at each end"),
    ("0", "'0': boards are numbered from 1"),
    ("1,x", "'x': 'x' is not a board number"),
])
def test_handrecord_refuses_bad_board_lists_saying_why(tmp_path: Path, boards: str,
                                                       why: str) -> None:
    out = tmp_path / "out.html"
    proc = bf_run("handrecord", str(SAMPLE), "-o", str(out), "--boards", boards)
    assert proc.returncode == 2
    assert f"Invalid value for --boards: {why}" in proc.stderr
    assert not out.exists()


@needs_jinja
def test_handrecord_writes_like_every_output(tmp_path: Path) -> None:
    """A regular file with the usual mode, never through a symbolic link (unless asked),
    and a full device blamed by its name."""
    out = tmp_path / "records.html"
    assert bf_run("handrecord", str(SAMPLE), "-o", str(out)).returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    link = tmp_path / "link.html"
    link.symlink_to(out)
    before = out.read_bytes()
    proc = bf_run("handrecord", str(SAMPLE), "-o", str(link), "--boards", "1")
    assert proc.returncode == 2 and "symbolic link" in proc.stderr
    assert out.read_bytes() == before and link.is_symlink()
    full = tmp_path / "full.html"
    full.symlink_to("/dev/full")
    proc = bf_run("handrecord", str(SAMPLE), "-o", str(full), "--write-through")
    assert proc.returncode == 1
    assert f"{full}: cannot write: No space left on device" in proc.stderr
    assert "standard output" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full.html", "link.html",
                                                          "records.html"]


@needs_jinja
def test_handrecord_pdf_has_the_usual_mode(tmp_path: Path) -> None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        pytest.skip(f"weasyprint cannot load: {exc}")
    out = tmp_path / "records.pdf"
    assert bf_run("handrecord", str(SAMPLE), "-o", str(out), "--boards", "1-2").returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    assert out.read_bytes().startswith(b"%PDF")


# -- streaming ---------------------------------------------------------------------------


class Counted:
    """The boards of a reading, counted as they are handed over."""

    def __init__(self, boards: Iterator[Board]) -> None:
        self.boards = boards
        self.read = 0

    def __iter__(self) -> Iterator[Board]:
        for board in self.boards:
            self.read += 1
            yield board


def _quick_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search replaced by one table (par still by DDS): many boards in a second."""
    table = DDTable(tricks=(7,) * 20)
    monkeypatch.setattr(solver, "dd_tables", lambda deals, progress=None: [table] * len(deals))


def _counted_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: Any,
                   seed: int) -> tuple[Path, list[Counted]]:
    """A generated event of five solver batches, the solver quick, and ``module``'s
    readings counted (the list fills as the command reads)."""
    event = tmp_path / "event.pbn"
    event.write_text("".join(synthetic.to_pbn(synthetic.generate(5 * solver.BATCH,
                                                                 seed=seed))),
                     encoding="utf-8")
    _quick_solver(monkeypatch)
    readings: list[Counted] = []

    def counted_read(*args: Any, **kwargs: Any) -> Iterator[Board]:
        readings.append(Counted(bf.read(*args, **kwargs)))
        return iter(readings[-1])

    monkeypatch.setattr(module, "read", counted_read)
    return event, readings


def test_analyze_streams_a_board_at_a_time(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """When the first board is written, reading has gone no further than one batch of
    the solver's, in a file of five batches: the boards are never held whole."""
    boards = 5 * solver.BATCH
    event, readings = _counted_event(tmp_path, monkeypatch, work, seed=3)
    seen_at_first: list[int] = []

    monkeypatch.setattr(work, "iter_dumps", lambda *a, **k: watched(
        bf.iter_dumps(*a, **k), '[Board "1"]', readings, seen_at_first))
    out = tmp_path / "out.pbn"
    result = _streamed(["analyze", str(event), "-o", str(out)], readings, seen_at_first)
    assert f"{boards} boards, {boards} analysed, {boards} written" in result.stderr
    assert out.read_text(encoding="utf-8").count("[DoubleDummyTricks ") == boards


def watched(pieces: Iterator[str], mark: str, readings: list[Counted],
            seen: list[int]) -> Iterator[str]:
    """``pieces`` passed on; ``seen`` gets how far the reading was when ``mark`` (the
    first board) was written."""
    text = ""  # jinja hands a page over in small pieces
    for piece in pieces:
        text += str(piece)  # (a Markup piece would escape the text added to it)
        if not seen and mark in text:
            seen.append(readings[0].read)
        yield piece


def _streamed(args: list[str], readings: list[Counted], seen: list[int]) -> Any:
    """The command run; the first board written within one solver batch of reading,
    and every board read."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert seen and seen[0] <= solver.BATCH + 1
    assert readings[0].read == 5 * solver.BATCH
    return result


@needs_jinja
def test_handrecord_writes_pages_as_they_fill(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """When the first board's page is written, reading has gone no further than one
    batch of the solver's, in a file of five: neither boards nor records are held whole."""
    from bridgefiles.analysis import handrecord as hr

    boards = 5 * solver.BATCH
    event, readings = _counted_event(tmp_path, monkeypatch, hr, seed=4)
    seen_at_first: list[int] = []

    monkeypatch.setattr(hr, "write_text_file", lambda pieces, *a, **k: write_text_file(
        watched(pieces, 'id="board-1"', readings, seen_at_first), *a, **k))
    out = tmp_path / "records.html"
    result = _streamed(["handrecord", str(event), "-o", str(out)], readings, seen_at_first)
    assert f"{boards} boards written" in result.stderr
    assert out.read_text(encoding="utf-8").count('<div class="board" id="board-') == boards
