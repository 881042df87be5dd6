"""Every command on every real file, as a pipeline runs it: to standard output, to ``-o`` and
from standard input, the same bytes, the same exit status, never a traceback.

The bulk runs in-process (click's runner, which hands the command a binary standard output
as a pipe does), the runs of a file spread over two worker processes; ``test_cli_pipes.py``
runs real processes for pipes and exit statuses.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import REAL, needs_corpus

from bridgefiles import batch
from bridgefiles.cli import main
from bridgefiles.formats import registry

pytestmark = needs_corpus

FILES = [Path(i.path) for i in batch.expand([str(REAL)])] if REAL.is_dir() else []
COMMANDS = [["convert", "--to", "pbn"], ["convert", "--to", "lin"], ["convert", "--to", "json"],
            ["convert", "--to", "csv"], ["score"]]


def _run(args: list[str], input: bytes | None = None) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(main, [*args, "-q", "-j", "1"], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}") from result.exception
    assert "Traceback" not in result.stderr, result.stderr
    return result.exit_code, result.stdout_bytes, result.stderr


@pytest.fixture(scope="module")
def workers() -> Iterator[ProcessPoolExecutor]:
    """The runs of a file spread over the cores (each run is in-process in its worker)."""
    with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        yield pool


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(REAL)) for p in FILES])
def test_stdout_output_file_and_stdin_give_the_same_bytes(
    path: Path, tmp_path: Path, workers: ProcessPoolExecutor
) -> None:
    fmt = registry.from_path(str(path))
    assert fmt is not None
    data = path.read_bytes()
    named = str(path).encode()
    runs = []
    for command in COMMANDS:
        out = tmp_path / f"out-{len(command)}-{command[-1]}"
        runs.append((command, out, [
            workers.submit(_run, [command[0], str(path), *command[1:]]),
            workers.submit(_run, [command[0], str(path), *command[1:], "-o", str(out)]),
            workers.submit(_run, [command[0], "-", "--from", fmt.name, *command[1:]], data),
        ]))
    for command, out, futures in runs:
        to_stdout, to_file, from_stdin = (f.result() for f in futures)
        assert to_stdout[0] == to_file[0] == from_stdin[0], (command, to_stdout[2], to_file[2])
        assert to_stdout[0] in (0, 1, 2), to_stdout[2]
        if to_file[0] == 0:
            assert to_stdout[1] == out.read_bytes(), command
            # the one difference: where findings and table rows say they come from
            assert from_stdin[1] == to_stdout[1].replace(named, b"<stdin>"), command
        else:  # a file that fails writes nothing anywhere
            assert to_stdout[1] == b"" and from_stdin[1] == b"" and not out.exists(), command
