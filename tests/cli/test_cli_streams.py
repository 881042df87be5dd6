"""The command line as a shell runs it, where the streams are not what a program expects:
a file's terminal escapes, closed standard streams, pipes and FIFOs as inputs, a missing
file, and reports meant for programs on their own stream."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from shared import FIXTURES, REAL_PBN, need

ROOT = FIXTURES.parent
ESCAPES = FIXTURES / "cli-terminal-escapes.pbn"  # a board label holding OSC and CSI
SAMPLE = FIXTURES / "sample-event.pbn"


def shell(command: str, cwd: Path | None = None,
          timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    """``command`` through sh, ``bf`` the command line of this checkout."""
    bf = f"{sys.executable} -m bridgefiles.cli"
    return subprocess.run(["sh", "-c", command.replace("bf ", bf + " ")], capture_output=True,
                          cwd=cwd or ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"},
                          timeout=timeout)


def said(proc: subprocess.CompletedProcess[bytes]) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err
    return err


# -- a file's text never commands the terminal --------------------------------------------


@pytest.mark.parametrize("command, stream", [
    (f"bf validate {ESCAPES}", "stdout"),
    (f"bf convert {ESCAPES} --to lin -o /dev/null --write-through", "stderr"),
    (f"bf score {ESCAPES} -o /dev/null --write-through", "stderr"),
    (f"bf show {ESCAPES}", "stdout"),
])
def test_terminal_escapes_in_a_file_reach_the_terminal_inert(command: str, stream: str) -> None:
    proc = shell(command)
    said(proc)
    text = getattr(proc, stream)
    assert b"\x1b" not in proc.stdout + proc.stderr and b"\x07" not in proc.stdout + proc.stderr
    assert b"\\x1b]0;owned\\x07" in text  # shown, as show shows it


# -- closed standard streams: an ordinary error, exit 1 -----------------------------------


@pytest.mark.parametrize("command", [
    f"bf validate {ESCAPES} >&-",  # findings to print (a clean file prints nothing)
    f"bf validate {SAMPLE} --format json >&-",
    f"bf convert {SAMPLE} --to lin >&-",
    f"bf score {SAMPLE} >&-",
    f"bf show {SAMPLE} >&-",
])
def test_closed_standard_output_is_an_ordinary_error(command: str) -> None:
    proc = shell(command)
    assert proc.returncode == 1, said(proc)
    assert "standard output is closed" in said(proc)


@pytest.mark.parametrize("command", [
    "bf validate - <&-", "bf convert - --to json <&-", "bf score - <&-",
])
def test_closed_standard_input_is_an_ordinary_error(command: str) -> None:
    proc = shell(command)
    assert proc.returncode == 1, said(proc)
    assert "standard input is closed" in said(proc) + proc.stdout.decode()


def test_closed_streams_not_used_do_not_matter(tmp_path: Path) -> None:
    out = tmp_path / "out.lin"
    proc = shell(f"bf convert {SAMPLE} --to lin -o {out} -q >&- <&-")
    assert proc.returncode == 0, said(proc)
    assert out.read_bytes().count(b"md|") == 12


# -- pipes and FIFOs read as files (sniffed from their content) ---------------------------


@pytest.mark.parametrize("command, expected", [
    (f"bf validate <(cat {SAMPLE})", b""),
    (f"bf convert <(cat {SAMPLE}) --to lin", b"md|"),
    (f"bf score <(cat {SAMPLE})", b'[Board "4"]'),
])
def test_a_process_substitution_reads_as_a_file(command: str, expected: bytes) -> None:
    proc = subprocess.run(["bash", "-c", command.replace(
        "bf ", f"{sys.executable} -m bridgefiles.cli ")], capture_output=True, cwd=ROOT)
    err = said(proc)
    assert proc.returncode == 0, err
    assert "12 board(s)" in err
    assert expected in proc.stdout


@pytest.mark.parametrize("verb", ["validate", "score", "convert --to json"])
def test_a_named_fifo_reads_as_a_file(tmp_path: Path, verb: str) -> None:
    fifo = tmp_path / "event"  # no extension: the format comes from the content
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(SAMPLE.read_bytes())

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    proc = shell(f"bf {verb} {fifo}", timeout=60)
    writer.join(5)
    assert proc.returncode == 0, said(proc)
    assert "12 board(s)" in said(proc)


# -- a missing file is said the same way everywhere ---------------------------------------


@pytest.mark.parametrize("verb", ["validate", "convert --to lin", "score", "show"])
def test_a_missing_file_is_said_alike_by_every_command(verb: str, tmp_path: Path) -> None:
    proc = shell(f"bf {verb} {tmp_path / 'nope.pbn'}")
    err = said(proc) + proc.stdout.decode()
    assert proc.returncode == 2
    assert f"{tmp_path / 'nope.pbn'}: error[unreadable] No such file or directory" in err
    assert "syntax" not in err
    if verb != "show":
        assert "0 board(s): 1 error(s), 0 warning(s), 0 info(s); 1 input(s) failed" in err


# -- reports for programs --------------------------------------------------------------


@pytest.mark.parametrize("verb", ["score", "convert --to json -o /dev/null --write-through"])
def test_a_json_report_is_alone_on_its_stream(tmp_path: Path, verb: str) -> None:
    report = tmp_path / "findings.json"
    proc = shell(f"bf {verb} {SAMPLE} --report json 2> {report} > /dev/null")
    assert proc.returncode == 0
    data = json.loads(report.read_text())  # the whole stream is one JSON document
    assert data["summary"]["boards"] == 12


def test_strict_json_counts_the_boards_it_lists() -> None:
    faulty = need(REAL_PBN / "pybcdd__faulty.pbn")
    proc = shell(f"bf validate --strict --format json {faulty}")
    data = json.loads(proc.stdout)
    listed = sum(len(f["boards"]) for f in data["files"])
    assert listed == 1
    assert data["summary"]["boards"] == listed
