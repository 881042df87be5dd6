"""Issue #15, output amplification: no output grows more than ``Limits.max_output_factor``
times its input plus ``max_output_base``, whatever the writer and the path (``bf.convert``,
``convert``, ``score``, tables, ``bf.dumps``/``bf.write`` given ``max_size``). Over the
budget: a ``limit`` error, nothing left behind, the exit status of a failed file."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared import REAL

import bridgefiles as bf
from bridgefiles.cli import main
from bridgefiles.limits import Limits
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.testing.fuzzing import vugraph_header as vugraph
from bridgefiles.views.table import have_parquet

GAME = b'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Contract "3NT"]\n[Declarer "S"]\n' \
    b'[Result "9"]\n\n'


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_the_vugraph_header_bomb_is_stopped_and_nothing_is_written(tmp_path: Path) -> None:
    source = tmp_path / "vg.lin"
    source.write_bytes(vugraph())
    found: list[Diagnostic] = []
    with pytest.raises(bf.BridgeFileError) as caught:
        bf.convert(source, tmp_path / "vg.json", on_diagnostic=found.append)
    assert not isinstance(caught.value, bf.InternalError)
    limit = [d for d in found if d.code == "limit"]
    assert len(limit) == 1 and "max_output_factor=32" in limit[0].message, found[-3:]
    assert caught.value.diagnostic == limit[0]
    assert leftovers(tmp_path) == ["vg.lin"]  # no output, no temporary file


def test_the_same_boards_without_the_big_header_convert(tmp_path: Path) -> None:
    data = vugraph(header=10, names=3)
    out = io.BytesIO()
    done = bf.convert(io.BytesIO(data), out, to="json", format="lin")
    assert done.boards == 32 and not [d for d in done.diagnostics if d.code == "limit"]
    assert len(out.getvalue()) < Limits().output_budget(len(data))  # type: ignore[operator]


def test_the_budget_is_a_factor_of_the_input_plus_a_base() -> None:
    limits = Limits(max_output_factor=3, max_output_base=100)
    assert limits.output_budget(1000) == 3100
    assert Limits().output_budget(0) == 256 * 1024
    assert Limits.unlimited().output_budget(10**9) is None
    with pytest.raises(ValueError):
        Limits(max_output_factor=0)


TIGHT = Limits(max_output_factor=1, max_output_base=1)
FORMATS = ["pbn", "lin", "json", "url", "csv", *(["parquet"] if have_parquet() else [])]


TINY_LIN = b"".join(b"qx|o%d|pg||\n" % i for i in range(1, 41))  # 40 boards, 11 bytes each
CASES = [("lin", to, False) for to in FORMATS] + [("pbn", "pbn", True), ("pbn", "json", True)]


@pytest.mark.parametrize(("source_format", "to", "scored"), CASES,
                         ids=[f"{s}-to-{t}{'-scored' if c else ''}" for s, t, c in CASES])
def test_every_writer_keeps_to_the_budget(tmp_path: Path, source_format: str, to: str,
                                          scored: bool) -> None:
    target = tmp_path / f"out.{to}"
    source = tmp_path / f"in.{source_format}"
    source.write_bytes(TINY_LIN if source_format == "lin" else GAME * 40)
    how = {"score": scored, "layout": "preserve" if scored else "export"}
    found: list[Diagnostic] = []
    with pytest.raises(bf.BridgeFileError):
        bf.convert(source, target, to=to, limits=TIGHT, on_diagnostic=found.append,
                   **how)  # type: ignore[arg-type]
    assert [d.code for d in found if d.code == "limit"] == ["limit"]
    assert leftovers(tmp_path) == [source.name]
    # the same conversion with the default budget is written whole
    done = bf.convert(source, target, to=to, on_diagnostic=found.append,
                      **how)  # type: ignore[arg-type]
    assert done.boards == 40 and target.stat().st_size > 0


def test_a_stream_target_gets_nothing_over_the_budget() -> None:
    out = io.BytesIO()
    with pytest.raises(bf.BridgeFileError):
        bf.convert(io.BytesIO(vugraph()), out, to="json", format="lin")
    assert out.getvalue() == b""  # written to a spool first, copied only when complete


def test_strict_mode_raises_the_limit_as_a_strict_error(tmp_path: Path) -> None:
    with pytest.raises(bf.StrictModeError) as caught:
        bf.convert(io.BytesIO(vugraph()), tmp_path / "o.json", format="lin", strict=True,
                   check=False, limits=Limits(max_commands_per_board=None))
    assert caught.value.diagnostic is not None and caught.value.diagnostic.code == "limit"
    assert leftovers(tmp_path) == []


def test_the_command_line_fails_the_file_and_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "vg.lin"
    source.write_bytes(vugraph())
    runner = CliRunner()
    to_file = runner.invoke(main, ["convert", str(source), "--to", "json", "-q", "-j", "1",
                                   "-o", str(tmp_path / "vg.json")])
    assert to_file.exit_code == 1, to_file.output
    assert "error[limit]" in to_file.stderr and "Traceback" not in to_file.stderr
    to_stdout = runner.invoke(main, ["convert", str(source), "--to", "json", "-q", "-j", "1"])
    assert to_stdout.exit_code == 1 and to_stdout.stdout_bytes == b""
    out_dir = runner.invoke(main, ["convert", str(source), "--to", "json", "-q", "-j", "1",
                                   "--out-dir", str(tmp_path / "out")])
    assert out_dir.exit_code == 1
    assert leftovers(tmp_path) == ["out", "vg.lin"] and leftovers(tmp_path / "out") == []


def test_a_real_process_exits_1_with_no_traceback(tmp_path: Path) -> None:
    source = tmp_path / "vg.lin"
    source.write_bytes(vugraph(boards=64))
    proc = subprocess.run([sys.executable, "-m", "bridgefiles.cli", "convert", str(source),
                           "--to", "json", "-q"], capture_output=True, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and proc.stdout == b"", err
    assert "error[limit]" in err and "Traceback" not in err


def test_dumps_and_write_take_a_max_size(tmp_path: Path) -> None:
    whole = bf.loads(GAME * 10)
    text = bf.dumps(whole, "json")
    assert bf.dumps(whole, "json", max_size=len(text)) == text
    with pytest.raises(bf.BridgeFileError) as caught:
        bf.dumps(whole, "json", max_size=len(text) - 1)
    assert caught.value.diagnostic is not None and caught.value.diagnostic.code == "limit"
    target = tmp_path / "o.json"
    with pytest.raises(bf.BridgeFileError):
        bf.write(whole, target, max_size=100)
    assert leftovers(tmp_path) == []
    bf.write(whole, target, max_size=len(text.encode()))
    assert target.read_text(encoding="utf-8") == text
    with pytest.raises(bf.BridgeFileError):
        bf.write(whole, io.BytesIO(), "json", max_size=100)
    for wrong in (0, -1, "10", True):
        with pytest.raises(bf.UsageError):
            bf.dumps(whole, "json", max_size=wrong)  # type: ignore[arg-type]


def _real_files() -> Iterator[Path]:
    if REAL.is_dir():
        yield from sorted(p for p in REAL.rglob("*") if p.is_file() and p.suffix != ".md")


REAL_FILES = list(_real_files())
HEADROOM = 2  # every real file stays under half of the budget


@pytest.mark.skipif(not REAL_FILES, reason=f"shared corpus not found at {REAL}")
@pytest.mark.parametrize("path", REAL_FILES, ids=[p.name for p in REAL_FILES])
def test_every_real_file_converts_well_under_the_budget(tmp_path: Path, path: Path) -> None:
    size = path.stat().st_size
    half = Limits(max_output_factor=32 // HEADROOM, max_output_base=256 * 1024 // HEADROOM)
    for to in FORMATS:
        target = tmp_path / f"out.{to}"
        try:
            bf.convert(path, target, to=to, check=False, limits=half,
                       on_diagnostic=lambda d: None)
        except bf.BridgeFileError as exc:
            assert "max_output" not in str(exc), (to, exc)
            assert not isinstance(exc, bf.InternalError), exc
            continue
        assert os.path.getsize(target) <= half.output_budget(size)  # type: ignore[operator]
