"""Writing outputs safely: only regular files are replaced, atomically, in the right charset.

Every writer of the library (``bf.write``, ``bf.convert``, the batches and the command
line) goes through here, so the rules hold everywhere:

* a target that exists must be a regular file; a symbolic link, a FIFO, a device node or
  a folder is refused (:class:`UsageError`) unless the caller asks to write *through*
  it, and then it is written through, never replaced;
* a regular file is replaced atomically (a temporary file beside it, then a rename),
  keeping the mode of the file it replaces;
* text is encoded in the charset of the format (or of the file as read), and a
  character that charset cannot hold is an error before anything is replaced.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from glob import escape as glob_escape
from pathlib import Path
from typing import IO, Any

from bridgefiles.errors import BridgeFileError, StrictModeError, UsageError
from bridgefiles.formats import registry
from bridgefiles.limits import Limits, limit_diagnostic
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.file import BridgeFile

PathLike = str | os.PathLike[str]
_C1 = "bridgefiles-c1"


def _c1_as_bytes(exc: UnicodeError) -> tuple[bytes | str, int]:
    """Write U+0080-U+009F back as the byte they were read from (a Windows-1252 file
    holding 0x81, 0x8D, 0x8F, 0x90 or 0x9D is read through the ISO-8859-1 fallback)."""
    if isinstance(exc, UnicodeDecodeError):
        raw = exc.object[exc.start : exc.end]
        if all(0x80 <= b <= 0x9F for b in raw):
            return raw.decode("latin-1"), exc.end
        raise exc
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    bad = exc.object[exc.start : exc.end]
    if all(0x80 <= ord(c) <= 0x9F for c in bad):
        return bad.encode("latin-1"), exc.end
    raise exc


codecs.register_error(_C1, _c1_as_bytes)


def check_target(target: PathLike, *, through: bool = False) -> bool:
    """Whether ``target`` may be replaced by a new regular file (True) or must be written
    through (False: a FIFO, a device or a symbolic link, when ``through`` is asked).

    Raises :class:`UsageError` for a folder, and for anything but a regular file or a
    missing one unless ``through`` is given.
    """
    path = os.fspath(target)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError as exc:
        raise BridgeFileError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    if stat.S_ISREG(st.st_mode):
        return True
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{path} is a folder; give a file name")
    what = (
        "a symbolic link" if stat.S_ISLNK(st.st_mode)
        else "a FIFO" if stat.S_ISFIFO(st.st_mode)
        else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
        else "not a regular file"
    )
    if not through:
        raise UsageError(
            f"{path} is {what}; only regular files are replaced "
            "(ask to write through it to write into it)"
        )
    if stat.S_ISLNK(st.st_mode):
        real = os.path.realpath(path)
        if os.path.isdir(real):
            raise UsageError(f"{path} points to a folder; give a file name")
    return False


def charset_for(format: str, read_as: str | None, asked: str | None, layout: str = "export") -> str:
    """The charset to write ``format`` in: ``asked``, else the charset the file was read in
    (PBN, and every format in preserve layout), else the format's own (registry)."""
    charset = asked or registry.charset(format) or "utf-8"
    if asked is None and read_as and (format == "pbn" or layout == "preserve"):
        try:
            found = text_charset(read_as)
        except UsageError:  # "str": read from text, no charset of its own (or not a text one)
            found = "ascii"
        if found != "ascii":
            charset = found
    return text_charset(charset)


def output_charset(
    obj: BridgeFile | Iterable[Any], format: str, asked: str | None, layout: str = "export"
) -> str:
    """:func:`charset_for` a file (its own charset as read) or boards (none)."""
    read_as = obj.encoding if isinstance(obj, BridgeFile) else None
    return charset_for(format, read_as, asked, layout)


def text_charset(name: str) -> str:
    """``name`` if it is a text encoding Python knows; a :class:`UsageError` otherwise
    (``rot13``, ``base64``, ``zlib``... are codecs, not charsets)."""
    try:
        info = codecs.lookup(name)
    except (LookupError, TypeError, ValueError):
        raise UsageError(f"unknown output encoding {name!r}") from None
    if not getattr(info, "_is_text_encoding", True) or info.name in ("idna", "punycode"):
        raise UsageError(f"{name!r} is not a text encoding")
    return info.name


def fitting_charset(text_file: str, read_as: str | None) -> str:
    """For PBN converted from another format: ISO-8859-1 (PBN's own) when the text of
    ``text_file`` (UTF-8) fits, else Windows-1252 for single-byte input, else UTF-8."""
    candidates = ["iso8859-1", "utf-8"]
    if read_as is None or codecs.lookup(read_as).name != "utf-8":
        candidates.insert(1, "cp1252")
    for charset in candidates:
        try:
            with open(text_file, encoding="utf-8", newline="") as f:
                while piece := f.read(1 << 20):
                    piece.encode(charset, _C1)
        except UnicodeEncodeError:
            continue
        return charset
    return "utf-8"


def _encoding_error(exc: UnicodeEncodeError, where: str, charset: str) -> BridgeFileError:
    bad = exc.object[exc.start : exc.end][:1] or " "
    return BridgeFileError(
        f"{where}: character {bad!r} (U+{ord(bad):04X}) cannot be written in {charset}; "
        "nothing was written (choose encoding='utf-8', or change the text)"
    )


def temporary_beside(target: PathLike, suffix: str = ".part") -> str:
    """A new temporary file in the target's folder, so the final rename is atomic.

    Named ``.NAME.<pid>.*.part``: the next write to the same target removes what a
    killed run left (:func:`remove_stale_temporaries`). Its mode is the one the
    target will have.
    """
    path = Path(target)
    remove_stale_temporaries(path)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{path.name}.{os.getpid()}.", suffix=suffix, dir=path.parent or "."
        )
    except OSError as exc:
        raise BridgeFileError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    os.close(fd)
    with contextlib.suppress(OSError):  # mkstemp makes it 0600; give the usual mode
        os.chmod(tmp, new_file_mode(path))
    return tmp


def remove_stale_temporaries(path: Path, suffixes: tuple[str, ...] = (".tmp", ".part")) -> None:
    """Delete ``.NAME.<pid>.*.tmp`` (or ``.part``) siblings left by a killed writer,
    once their pid no longer runs."""
    parent = path.parent if str(path.parent) else Path(".")
    try:
        candidates = [
            p for suffix in suffixes for p in parent.glob(f".{glob_escape(path.name)}.*{suffix}")
        ]
    except OSError:
        return
    for tmp in candidates:
        pid_text = tmp.name[len(path.name) + 2 :].split(".", 1)[0]
        if not pid_text.isdecimal() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            tmp.unlink()


def new_file_mode(path: Path) -> int:
    """The mode of the regular file being replaced (never a symlink's target's), else what
    a new file gets (0666 less the umask)."""
    try:
        st = os.lstat(path)
        if stat.S_ISREG(st.st_mode):
            return st.st_mode & 0o777
    except OSError:
        pass
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def replace_file(tmp: str, target: PathLike, *, through: bool = False) -> None:
    """Put the finished temporary ``tmp`` in place of ``target`` (checked again, since
    time passed while writing); written through a FIFO, device or link when asked."""
    try:
        if check_target(target, through=through):
            os.replace(tmp, target)
            return
        with open(tmp, "rb") as src, open(target, "wb") as dst:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
        os.unlink(tmp)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise BridgeFileError(f"{target}: cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text_file(
    pieces: Iterable[str], target: PathLike, charset: str, *, through: bool = False,
    budget: Budget | None = None,
) -> None:
    """Text to ``target``, atomically, in ``charset``: it appears only complete (and
    not at all when it goes over ``budget``)."""
    check_target(target, through=through)
    tmp = temporary_beside(target)
    try:
        transcode(pieces, tmp, charset, where=os.fspath(target), budget=budget)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    replace_file(tmp, target, through=through)


def is_text_stream(stream: Any) -> bool:
    """Whether ``stream`` takes str (a text handle) rather than bytes."""
    if isinstance(stream, io.TextIOBase):
        return True
    if isinstance(stream, (io.RawIOBase, io.BufferedIOBase)):
        return False
    mode = getattr(stream, "mode", None)
    text_mode = isinstance(mode, str) and "b" not in mode
    return text_mode and getattr(stream, "encoding", None) is not None


def write_stream(
    pieces: Iterable[str], stream: IO[Any], charset: str, budget: Budget | None = None
) -> None:
    """Text to an open stream: str to a text stream, bytes in ``charset`` to a binary one
    (``budget``: characters or bytes, checked before each piece is written)."""
    write = getattr(stream, "write", None)
    if not callable(write):
        raise UsageError(f"cannot write to a {type(stream).__name__}: give a path or a stream")
    text = is_text_stream(stream)
    written = 0
    try:
        for piece in pieces:
            data = piece if text else piece.encode(charset, _C1)
            written += len(data)
            if budget is not None:
                budget.spend(written)
            write(data)
    except UnicodeEncodeError as exc:
        raise _encoding_error(exc, "output", charset) from exc
    except TypeError as exc:
        raise UsageError(
            f"cannot write to this {type(stream).__name__} ({exc}); give a binary stream"
        ) from exc
    except (OSError, ValueError) as exc:
        raise BridgeFileError(f"cannot write to the output stream: {exc}") from exc


class Budget:
    """The output budget (``Limits.max_output_factor``): bytes written may not pass
    ``limits.output_budget(input bytes read so far)``, or a fixed ``most``.

    Going over it is a ``limit`` error: passed to ``on_limit`` (so it is counted and
    shown with the other findings), then raised as :class:`BridgeFileError`
    (:class:`StrictModeError` when ``strict``), so the writer stops and the caller
    discards what it wrote.
    """

    def __init__(
        self,
        limits: Limits | None = None,
        read: Callable[[], int] | None = None,
        *,
        most: int | None = None,
        strict: bool = False,
        path: str | None = None,
        on_limit: Callable[[Diagnostic], None] | None = None,
    ) -> None:
        self.limits = limits
        self.read = read
        self.most = most
        self.strict = strict
        self.path = path
        self.on_limit = on_limit

    def allowed(self) -> int | None:
        """The bytes allowed now (``None``: no budget)."""
        if self.most is not None:
            return self.most
        if self.limits is None or self.read is None:
            return None
        return self.limits.output_budget(self.read())

    def spend(self, written: int) -> None:
        """Check ``written`` (bytes so far) against the budget; raise when over it."""
        allowed = self.allowed()
        if allowed is None or written <= allowed:
            return
        if self.most is not None:
            diag = limit_diagnostic(
                "max_size", self.most, f"the output ({written:,} bytes so far)",
                "nothing is written", path=self.path)
        else:
            read = self.read() if self.read is not None else 0
            factor = self.limits.max_output_factor if self.limits is not None else None
            diag = limit_diagnostic(
                "max_output_factor", factor or 0,
                f"the output ({written:,} bytes so far from {read:,} bytes read; "
                f"{allowed:,} allowed)", "nothing is written", path=self.path)
        if self.strict:
            raise StrictModeError(diag.format(), diag)
        if self.on_limit is not None:
            self.on_limit(diag)
        raise BridgeFileError(diag.message, diag)

    def counted(self, pieces: Iterable[str]) -> Iterator[str]:
        """``pieces`` passed on, their characters spent (for text held as ``str``)."""
        total = 0
        for piece in pieces:
            total += len(piece)
            self.spend(total)
            yield piece


def transcode(
    pieces: Iterable[str],
    path: str,
    charset: str,
    where: str = "output",
    budget: Budget | None = None,
) -> None:
    """Text into the (temporary) file ``path`` in ``charset``; a character the charset
    cannot hold is a BridgeFileError, and nothing is put in place. ``budget`` counts
    the bytes as they are written (and stops the writing when they pass it)."""
    encoder = codecs.getincrementalencoder(charset)(_C1)
    written = 0
    try:
        with open(path, "wb") as out:
            for piece in pieces:
                data = encoder.encode(piece)
                written += len(data)
                if budget is not None:
                    budget.spend(written)
                out.write(data)
            out.write(encoder.encode("", final=True))
    except UnicodeEncodeError as exc:
        raise _encoding_error(exc, where, charset) from exc
    except OSError as exc:
        raise BridgeFileError(f"{where}: cannot write: {exc.strerror or exc}") from exc


def copy_file_to_stream(path: str, stream: IO[Any], charset: str | None, *, as_text: bool) -> None:
    """A finished output file to an open stream: its bytes, or its text in ``charset``."""
    try:
        if as_text:
            with open(path, encoding=charset or "utf-8", errors=_C1, newline="") as f:
                while piece := f.read(1 << 16):
                    stream.write(piece)
        else:
            with open(path, "rb") as f:
                while chunk := f.read(1 << 16):
                    stream.write(chunk)
        flush = getattr(stream, "flush", None)
        if callable(flush):
            flush()
    except TypeError as exc:
        raise UsageError(f"cannot write to this {type(stream).__name__}: {exc}") from exc
    except (OSError, ValueError) as exc:
        raise BridgeFileError(f"cannot write to the output stream: {exc}") from exc
