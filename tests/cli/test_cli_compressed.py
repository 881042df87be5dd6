"""Binary and compressed input, told by content: a binary file is refused before any
reader sees it (one rule with the upload service's 415); gzip, bz2 and xz are unpacked
and read as what they hold, by every command and by ``bf.read``."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.files.reading import binary_input

ROOT = FIXTURES.parent
SAMPLE = FIXTURES / "sample-event.pbn"
LIN = FIXTURES / "lin-bad-deal.lin"
PACKERS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


def bf_run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.run([sys.executable, "-m", "bridgefiles.cli", *args], input=stdin,
                          capture_output=True, cwd=ROOT, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert b"Traceback" not in proc.stderr and b"internal error" not in proc.stderr
    return proc


def binary_file(tmp_path: Path) -> Path:
    """An executable's head: ELF magic, NUL bytes and control bytes, no extension."""
    path = tmp_path / "program"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40)
    return path


def test_a_binary_file_is_one_error_not_thousands(tmp_path: Path) -> None:
    proc = bf_run("validate", str(binary_file(tmp_path)))
    err = proc.stdout.decode() + proc.stderr.decode()
    assert proc.returncode == 2
    assert "error[unreadable] a binary file, not PBN, LIN or JSON text" in err
    assert "1 error(s)" in err


def test_the_upload_service_and_the_reader_share_the_rule(tmp_path: Path) -> None:
    program = binary_file(tmp_path)
    packed = tmp_path / "event.pbn.gz"
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    assert binary_input(str(program)) and not binary_input(str(packed))
    assert not binary_input(str(SAMPLE))
    with pytest.raises(bf.UnreadableInputError, match="binary file"):
        bf.load(str(program))


@pytest.mark.parametrize("suffix", sorted(PACKERS))
def test_compressed_files_read_as_what_they_hold(tmp_path: Path, suffix: str) -> None:
    packed = tmp_path / f"event.pbn{suffix}"
    packed.write_bytes(PACKERS[suffix](SAMPLE.read_bytes()))
    assert len(bf.load(str(packed)).boards) == 12
    assert bf.dumps(bf.load(str(packed)), layout="preserve") == bf.dumps(
        bf.load(str(SAMPLE)), layout="preserve")
    proc = bf_run("validate", str(packed))
    assert proc.returncode == 0 and b"12 board(s): 0 error(s)" in proc.stderr
    proc = bf_run("score", str(packed))
    assert proc.returncode == 0 and proc.stdout.startswith(b"% PBN 2.1")
    proc = bf_run("convert", "-", "--to", "lin", "-q", stdin=packed.read_bytes())
    assert proc.returncode == 0 and proc.stdout.count(b"md|") == 12


def test_a_compressed_lin_without_a_telling_name_is_sniffed(tmp_path: Path) -> None:
    packed = tmp_path / "archive.xz"
    packed.write_bytes(lzma.compress(LIN.read_bytes()))
    proc = bf_run("score", str(packed), "-q")
    assert proc.stdout.startswith(b"pn|")  # written back as LIN, its own format
    assert bf.load(str(packed)).format == "lin"


def test_compressed_files_in_a_folder_are_found(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.pbn.gz").write_bytes(gzip.compress(SAMPLE.read_bytes()))
    (tree / "b.lin.bz2").write_bytes(bz2.compress(LIN.read_bytes()))
    proc = bf_run("convert", str(tree), "--to", "json", "--out-dir", str(tmp_path / "out"), "-q")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.json", "b.json"]


def test_damaged_compressed_data_is_the_inputs_fault(tmp_path: Path) -> None:
    whole = gzip.compress(SAMPLE.read_bytes() * 40)
    cut = tmp_path / "cut.pbn.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    proc = bf_run("validate", str(cut))
    assert proc.returncode == 2
    assert b"error[unreadable] its gzip data cannot be unpacked" in proc.stdout
    with pytest.raises(bf.UnreadableInputError):
        bf.load(str(cut))


def test_a_named_format_reads_even_a_binary_file(tmp_path: Path) -> None:
    """--from says what it is: read as that (the fuzzer reads any bytes so)."""
    loaded = bf.loads(binary_file(tmp_path).read_bytes(), format="pbn")
    assert any(d.code == "encoding" for b in loaded.boards for d in b.diagnostics) or \
        any(d.code == "encoding" for d in loaded.diagnostics)
