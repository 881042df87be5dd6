"""Issue #15 in the seams: only BridgeFileError leaves the library for any argument; our
bugs are InternalError; outputs replace nothing but regular files and stay in their
folder; inputs do not follow links in folders, and unreadable folders fail."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import Any

import pytest

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.batch.inputs import any_case, expand, output_path
from bridgefiles.limits import Limits

GAME = b'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Contract "3NT"]\n[Declarer "S"]\n'


def _file() -> bf.BridgeFile:
    return bf.loads(GAME)


MISUSE: list[tuple[str, Any]] = [
    ("validate None", lambda: bf.validate(None)),  # type: ignore[arg-type]
    ("validate a file", lambda: bf.validate(_file())),  # type: ignore[arg-type]
    ("validate laws", lambda: bf.validate(_file().boards[0], laws="1963")),  # type: ignore[arg-type]
    ("score a list", lambda: bf.score(list(_file().boards))),  # type: ignore[arg-type]
    ("score None", lambda: bf.score(None)),  # type: ignore[arg-type]
    ("load an int", lambda: bf.load(12345)),  # type: ignore[arg-type]
    ("read an int", lambda: list(bf.read(12345))),  # type: ignore[arg-type]
    ("loads an int", lambda: bf.loads(12345)),  # type: ignore[arg-type]
    ("read rot13", lambda: list(bf.read(io.BytesIO(GAME), "pbn", encoding="rot13"))),
    ("load base64", lambda: bf.load(io.BytesIO(GAME), "pbn", encoding="base64")),
    ("load no codec", lambda: bf.load(io.BytesIO(GAME), "pbn", encoding="no-such")),
    ("write rot13", lambda: bf.write(_file(), io.BytesIO(), encoding="rot13")),
    ("limits str", lambda: bf.load(io.BytesIO(GAME), "pbn", limits="x")),  # type: ignore[arg-type]
    ("dumps html", lambda: bf.dumps(_file(), format="html")),
    ("dumps a str", lambda: bf.dumps("text")),  # type: ignore[arg-type]
    ("dumps ints", lambda: bf.dumps([1, 2])),  # type: ignore[list-item]
    ("write to an int", lambda: bf.write(_file(), 5)),  # type: ignore[arg-type]
    ("layout", lambda: bf.dumps(_file(), layout="pretty")),  # type: ignore[arg-type]
    ("convert to an int", lambda: bf.convert(io.BytesIO(GAME), 5)),  # type: ignore[arg-type]
    ("convert to html", lambda: bf.convert(io.BytesIO(GAME), io.BytesIO(), to="html")),
    ("read as csv", lambda: bf.loads(GAME, format="csv")),
    ("validate_input None", lambda: bf.validate_input(None)),  # type: ignore[arg-type]
    ("a NUL in a path", lambda: bf.load("a\0b.pbn")),
    ("write a table", lambda: bf.write(_file(), "/nonexistent/out.csv")),
]


@pytest.mark.parametrize("case", MISUSE, ids=[name for name, _ in MISUSE])
def test_misuse_raises_only_our_error(case: tuple[str, Any]) -> None:
    _, call = case
    with pytest.raises(bf.BridgeFileError) as caught:
        call()
    assert not isinstance(caught.value, bf.InternalError), caught.value


def test_text_and_binary_handles_are_both_read() -> None:
    text = bf.load(io.StringIO(GAME.decode()), "pbn")
    binary = bf.load(io.BytesIO(GAME), "pbn")
    assert text.boards[0].contract == binary.boards[0].contract
    assert [b.board_number for b in bf.read(io.StringIO(GAME.decode()))] == ["1"]


def test_write_to_binary_and_text_streams() -> None:
    binary, text = io.BytesIO(), io.StringIO()
    bf.write(_file(), binary, "pbn")
    bf.write(_file(), text, "pbn")
    assert binary.getvalue().decode("latin-1") == text.getvalue()


def test_a_bug_in_a_reader_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from bridgefiles.formats import registry

    pbn = registry.get("pbn")

    def broken(*args: Any, **kwargs: Any) -> Any:
        yield from ()
        raise KeyError("our bug")

    monkeypatch.setitem(registry._FORMATS, "pbn", type(pbn)(**{**pbn.__dict__, "read": broken}))
    with pytest.raises(bf.InternalError) as caught:
        bf.load(io.BytesIO(GAME), "pbn")
    assert isinstance(caught.value.__cause__, KeyError)
    report = bf.validate_input(GAME, name="x.pbn")
    assert report.status == "failed" and report.diagnostics[-1].code == "internal"


def test_a_bug_in_a_writer_is_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from bridgefiles.formats import registry

    lin = registry.get("lin")

    def broken(*args: Any, **kwargs: Any) -> Any:
        yield "pn|"
        raise ZeroDivisionError("our bug")

    monkeypatch.setitem(registry._FORMATS, "lin", type(lin)(**{**lin.__dict__, "write": broken}))
    with pytest.raises(bf.InternalError):
        bf.dumps(_file(), "lin")
    with pytest.raises(bf.InternalError):
        bf.convert(io.BytesIO(GAME), io.BytesIO(), format="pbn", to="lin")


# -- output paths --------------------------------------------------------------------------


def test_a_symlink_target_is_refused_unless_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.pbn"
    real.write_text("old\n")
    os.chmod(real, 0o600)
    link = tmp_path / "link.pbn"
    link.symlink_to(real)
    with pytest.raises(bf.UsageError, match="symbolic link"):
        bf.write(_file(), link)
    with pytest.raises(bf.UsageError, match="symbolic link"):
        bf.convert(io.BytesIO(GAME), link, format="pbn")
    assert link.is_symlink() and real.read_text() == "old\n"
    bf.write(_file(), link, through=True)
    assert link.is_symlink() and b"[Board" in real.read_bytes()
    assert stat.S_IMODE(real.stat().st_mode) == 0o600  # written into, mode kept
    from bridgefiles.files.output import new_file_mode

    fresh = tmp_path / "fresh.pbn"
    assert new_file_mode(link) == new_file_mode(fresh) != 0o600  # never the link target's


def test_a_fifo_or_device_is_never_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pbn"
    os.mkfifo(fifo)
    with pytest.raises(bf.UsageError, match="FIFO"):
        bf.write(_file(), fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(bf.UsageError, match="device"):
        bf.convert(io.BytesIO(GAME), "/dev/null", format="pbn")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    bf.convert(io.BytesIO(GAME), "/dev/null", format="pbn", through=True)
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    with pytest.raises(bf.UsageError, match="folder"):
        bf.write(_file(), tmp_path)


def test_outputs_stay_inside_the_out_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "up" / "a").mkdir(parents=True)
    (tmp_path / "outside.pbn").write_bytes(GAME)
    items = expand(["up/*/../../outside.pbn"])
    assert [i.path for i in items] == ["up/a/../../outside.pbn"]
    target = output_path(items[0], "out", "lin")
    assert target == Path("out/outside.lin")
    task = batch.ConvertTask(items[0], "lin", str(target))
    assert batch.convert_file(task).status == "ok"
    assert (tmp_path / "out" / "outside.lin").exists() and not (tmp_path / "outside.lin").exists()
    climbing = batch.Input("up/a/../../../etc/x.pbn", "up")
    assert output_path(climbing, "out", "lin") == Path("out/x.lin")
    assert output_path(batch.Input("/abs/sub/d/x.pbn", "/abs/sub"), "out", "lin") == Path(
        "out/d/x.lin")


def test_links_inside_folders_are_not_followed_unless_asked(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "secret.pbn").write_bytes(GAME)
    (tmp_path / "in" / "own.pbn").write_bytes(GAME)
    (tmp_path / "in" / "link.pbn").symlink_to(tmp_path / "secret.pbn")
    (tmp_path / "in" / "dirlink").symlink_to(tmp_path)
    assert [Path(i.path).name for i in expand([str(tmp_path / "in")])] == ["own.pbn"]
    assert [Path(i.path).name for i in expand([str(tmp_path / "in" / "*.pbn")])] == ["own.pbn"]
    followed = expand([str(tmp_path / "in")], follow_symlinks=True)
    assert "link.pbn" in {Path(i.path).name for i in followed}


def test_an_unreadable_folder_is_a_failed_input(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "in" / "locked").mkdir(parents=True)
    (tmp_path / "in" / "ok.pbn").write_bytes(GAME)
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    items = expand([str(tmp_path / "in")])
    assert [i.error is not None for i in items] == [True, False]
    result = batch.validate_file(batch.ValidateTask(items[0], report="none"))
    assert result.status == "unreadable" and "Permission denied" in (result.message or "")


def test_globs_match_names_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "A.PBN").write_bytes(GAME)
    (tmp_path / "b.Pbn").write_bytes(GAME)
    assert any_case("x/*.pbn") == "x/*.[pP][bB][nN]"
    assert len(expand([str(tmp_path / "*.pbn")])) == 2


def test_a_file_with_no_board_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pbn"
    empty.write_bytes(b"")
    result = batch.validate_file(batch.ValidateTask(batch.Input(str(empty)), report="none"))
    assert result.errors == 1 and result.boards == 0
    converted = batch.convert_file(batch.ConvertTask(batch.Input(str(empty)), "lin",
                                                     str(tmp_path / "out.lin")))
    assert converted.status == "failed" and not (tmp_path / "out.lin").exists()


def test_limits_are_checked(tmp_path: Path) -> None:
    with pytest.raises(bf.UsageError, match="Limits"):
        list(bf.read(io.BytesIO(GAME), limits={"max_boards": 1}))  # type: ignore[arg-type]
    three = b"\n".join([GAME] * 3)
    assert len(bf.load(io.BytesIO(three), "pbn", limits=Limits(max_boards=2)).boards) == 2


def test_preserve_keeps_a_cp1252_lin_file_in_its_charset(tmp_path: Path) -> None:
    source = tmp_path / "in.lin"
    source.write_bytes(b"pn|M\xfcller \x96,b,c,d|st||md|1SAKQ,,,|\n")
    out = io.BytesIO()
    bf.convert(source, out, layout="preserve")
    assert b"M\xfcller \x96" in out.getvalue()
    assert bf.dumps(bf.load(source), "lin", layout="preserve").encode("cp1252") in (
        out.getvalue(), out.getvalue().replace(b"\r\n", b"\n"))


@pytest.mark.parametrize("byte", [b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d"])
def test_bytes_undefined_in_cp1252_are_written_back(tmp_path: Path, byte: bytes) -> None:
    source = tmp_path / "in.pbn"
    source.write_bytes(b'[Board "1"]\n[North "A\x96B' + byte + b'C"]\n[Dealer "N"]\n')
    for layout in ("export", "preserve"):
        out = io.BytesIO()
        bf.convert(source, out, layout=layout)
        assert b"A\x96B" + byte + b"C" in out.getvalue(), layout
    scored = io.BytesIO()
    bf.convert(source, scored, score=True)
    assert b"A\x96B" + byte + b"C" in scored.getvalue()
    written = tmp_path / "out.pbn"
    bf.write(bf.load(source), written)
    assert b"A\x96B" + byte + b"C" in written.read_bytes()


def test_a_text_handle_is_read_through_its_bytes_or_says_to_open_in_binary() -> None:
    cp1252 = b'[Board "1"]\n[North "M\xfcller \x96"]\n[Dealer "N"]\n'
    handle = io.TextIOWrapper(io.BytesIO(cp1252), encoding="utf-8")  # the wrong charset
    assert bf.load(handle).boards[0].tag("North") == "Müller –"  # read as bytes: cp1252 found
    bad = b"% " + b"x" * 20_000 + b"\n" + cp1252
    started = io.TextIOWrapper(io.BytesIO(bad), encoding="utf-8")
    started.read(1)  # the caller has read from it: only its text can be used
    with pytest.raises(bf.UnreadableInputError, match="open it in binary"):
        bf.load(started, "pbn")
