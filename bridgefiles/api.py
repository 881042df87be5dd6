"""The public verbs: read, load, loads, dumps, write (and validate, score).

Everything goes through the format registry; the command line is a thin layer
over these functions. Only :class:`BridgeFileError` leaves this module.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from glob import escape as glob_escape
from itertools import chain
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from bridgefiles.errors import BridgeFileError, StrictModeError, UnreadableInputError
from bridgefiles.formats import registry
from bridgefiles.formats.decode import LineDecoder, limited_text_lines
from bridgefiles.formats.registry import FileInfo, Format, Layout, ReadOptions, WriteOptions
from bridgefiles.limits import DEFAULT_LIMITS, Limits, limit_diagnostic
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.file import BridgeFile

if TYPE_CHECKING:
    from bridgefiles.validate import BoardReport

Source = str | os.PathLike[str] | IO[bytes]
_CHUNK = 1 << 16
_SNIFF_BYTES = 8192


def _guard(boards: Iterator[Board]) -> Iterator[Board]:
    """Let nothing but BridgeFileError out of a reader (DESIGN invariant 3)."""
    try:
        yield from boards
    except BridgeFileError:
        raise
    except RecursionError as exc:
        raise BridgeFileError(f"input too deeply nested to read: {exc}") from exc
    except Exception as exc:  # a bug of ours must not become the caller's crash
        raise BridgeFileError(f"internal error while reading: {type(exc).__name__}: {exc}") from exc


def _pick_format(format: str | None, path: str | None, head: bytes) -> Format:
    if format:
        return registry.get(format)
    if path:
        fmt = registry.from_path(path)
        if fmt is not None:
            return fmt
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    fmt = registry.sniff(text)
    if fmt is None:
        where = path or "input"
        raise UnreadableInputError(f"{where}: cannot tell the format (use format='pbn' or 'lin')")
    return fmt


def _chunks(stream: IO[bytes], first: bytes) -> Iterator[bytes]:
    if first:
        yield first
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return
        yield chunk


def _open(source: Source) -> tuple[IO[bytes], str | None, bool]:
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            return sys.stdin.buffer, "<stdin>", False
        try:
            return open(path, "rb"), path, True
        except OSError as exc:
            raise UnreadableInputError(f"{path}: {exc.strerror or exc}") from exc
    name = getattr(source, "name", None)
    return source, name if isinstance(name, str) else None, False


def _read_stream(
    stream: IO[bytes],
    path: str | None,
    format: str | None,
    options: ReadOptions,
    info: FileInfo,
) -> Iterator[Board]:
    try:
        head = stream.read(_SNIFF_BYTES)
    except OSError as exc:
        raise UnreadableInputError(f"{path}: {exc}") from exc
    fmt = _pick_format(format, path, head)
    if fmt.read is None:
        raise UnreadableInputError(f"format {fmt.name!r} cannot be read")
    decoder = LineDecoder(
        path=path, declared=options.encoding, strict=options.strict, limits=options.limits
    )
    lines = decoder.read(_chunks(stream, head))

    def tracked() -> Iterator[str]:
        yield from lines
        info.encoding = decoder.encoding

    info.path = path
    boards = _bounded(fmt.read(tracked(), options, info), options, info)
    yield from _with_decoder_diagnostics(boards, decoder, info)
    info.encoding = decoder.encoding or "ascii"


def _bounded(boards: Iterator[Board], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """Stop after ``limits.max_boards`` boards, with a ``limit`` diagnostic if more follow."""
    limit = options.limits.max_boards
    if limit is None:
        yield from boards
        return
    for n, board in enumerate(boards, start=1):
        yield board
        if n >= limit:
            extra = next(boards, None)
            if extra is not None:
                diag = limit_diagnostic(
                    "max_boards",
                    limit,
                    f"the input (more than {limit:,} boards)",
                    f"the boards from line {extra.line} on are not read"
                    if extra.line
                    else "the boards after it are not read",
                    line=extra.line,
                    path=options.path,
                )
                if options.strict:
                    raise StrictModeError(diag.format(), diag)
                info.diagnostics.append(diag)
            close = getattr(boards, "close", None)
            if close is not None:
                close()
            return


def _with_decoder_diagnostics(
    boards: Iterator[Board], decoder: LineDecoder, info: FileInfo
) -> Iterator[Board]:
    """Move encoding findings onto the board being read when they were found."""
    for board in boards:
        if decoder.diagnostics:
            found, decoder.diagnostics[:] = list(decoder.diagnostics), []
            board = board.model_copy(update={"diagnostics": (*found, *board.diagnostics)})
        yield board
    if decoder.diagnostics:
        info.diagnostics.extend(decoder.diagnostics)
        decoder.diagnostics.clear()


def read(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    limits: Limits | None = None,
) -> Iterator[Board]:
    """Stream the boards of a file, one at a time; problems ride on each board.

    ``source`` is a path, ``"-"`` for standard input, or a binary file object.
    The format comes from the name, else from the content; ``format`` overrides.
    """
    stream, path, owned = _open(source)
    options = ReadOptions(
        strict=strict, path=path, encoding=encoding, limits=limits or DEFAULT_LIMITS
    )
    info = FileInfo(path=path)
    try:
        yield from _guard(_read_stream(stream, path, format, options, info))
    finally:
        if owned:
            stream.close()


def file_from_info(
    boards: Iterable[Board], info: FileInfo, fmt_name: str, *, stream: bool = False
) -> BridgeFile:
    """A BridgeFile from boards and what the reader learned about the file.

    ``stream=True`` keeps ``boards`` as the iterator it is (not validated, never held
    whole): for handing a file that is still being read straight to a writer.
    """
    fields: dict[str, Any] = {
        "format": fmt_name,
        "directives": tuple(info.directives),
        "path": info.path,
        "encoding": info.encoding,
        "newline": info.newline,
        "preamble": info.preamble,
        "trailer": info.trailer,
        "diagnostics": tuple(info.diagnostics),
    }
    if stream:
        lazy: Any = boards  # writers only iterate it; a tuple is not required of them
        return BridgeFile.model_construct(boards=lazy, **fields)
    return BridgeFile(boards=tuple(boards), **fields)


def _collect(boards: Iterator[Board], info: FileInfo, fmt_name: str) -> BridgeFile:
    collected = tuple(_guard(boards))
    return file_from_info(collected, info, fmt_name)


def load(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    limits: Limits | None = None,
) -> BridgeFile:
    """A whole file: its boards, file-level directives and diagnostics."""
    stream, path, owned = _open(source)
    try:
        head = stream.read(_SNIFF_BYTES)
        fmt = _pick_format(format, path, head)
        size = (limits or DEFAULT_LIMITS).max_file_size
        # one byte past the limit is enough for the decode layer to report it
        data = head + (stream.read() if size is None else stream.read(max(0, size + 1 - len(head))))
    except OSError as exc:
        raise UnreadableInputError(f"{path}: {exc}") from exc
    finally:
        if owned:
            stream.close()
    return _loads_bytes(data, fmt, path, strict, encoding, limits)


def loads(
    data: str | bytes,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    path: str | None = None,
    limits: Limits | None = None,
) -> BridgeFile:
    """A whole file from a str or bytes (handviewer URLs: ``format="url"``)."""
    if isinstance(data, str):
        fmt = _pick_format(format, path, data[:_SNIFF_BYTES].encode("utf-8", "replace"))
        if fmt.read is None:
            raise UnreadableInputError(f"format {fmt.name!r} cannot be read")
        options = ReadOptions(
            strict=strict, path=path, encoding=encoding, limits=limits or DEFAULT_LIMITS
        )
        info = FileInfo(path=path, encoding="str")
        found: list[Diagnostic] = []
        lines = limited_text_lines(data, options.limits, found, path, strict)
        boards = _bounded(fmt.read(lines, options, info), options, info)
        result = _collect(boards, info, fmt.name)
        if found:
            result = result.model_copy(update={"diagnostics": (*found, *result.diagnostics)})
        return result
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UnreadableInputError(f"loads() takes str or bytes, not {type(data).__name__}")
    raw = bytes(data)
    fmt = _pick_format(format, path, raw[:_SNIFF_BYTES])
    return _loads_bytes(raw, fmt, path, strict, encoding, limits)


def _loads_bytes(
    data: bytes,
    fmt: Format,
    path: str | None,
    strict: bool,
    encoding: str | None,
    limits: Limits | None = None,
) -> BridgeFile:
    if fmt.read is None:
        raise UnreadableInputError(f"format {fmt.name!r} cannot be read")
    options = ReadOptions(
        strict=strict, path=path, encoding=encoding, limits=limits or DEFAULT_LIMITS
    )
    info = FileInfo(path=path)
    decoder = LineDecoder(path=path, declared=encoding, strict=strict, limits=options.limits)
    boards = _with_decoder_diagnostics(
        _bounded(fmt.read(decoder.read([data]), options, info), options, info), decoder, info
    )
    result = _collect(boards, info, fmt.name)
    return result.model_copy(update={"encoding": decoder.encoding or "ascii"})


def _boards_and_info(obj: BridgeFile | Iterable[Board]) -> tuple[Iterable[Board], FileInfo | None]:
    if isinstance(obj, BridgeFile):
        info = FileInfo(
            path=obj.path,
            encoding=obj.encoding,
            newline=obj.newline,
            directives=list(obj.directives),
            preamble=obj.preamble,
            trailer=obj.trailer,
        )
        return obj.boards, info
    if isinstance(obj, Board):
        return [obj], None
    return obj, None


def iter_dumps(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
) -> Iterator[str]:
    """The text of ``dumps`` in pieces, a board at a time, so large outputs stream.

    A board read in another format is first adapted to this one
    (:func:`bridgefiles.formats.convert.adapt`); what the target cannot carry
    becomes a ``lost-in-conversion`` diagnostic, passed to ``on_diagnostic``.
    """
    fmt = registry.get(format)
    if fmt.write is None:
        raise BridgeFileError(f"format {fmt.name!r} cannot be written")
    boards, info = _boards_and_info(obj)
    options = WriteOptions(layout=layout)
    try:
        yield from fmt.write(_adapted(boards, fmt.name, on_diagnostic), options, info)
    except BridgeFileError:
        raise
    except Exception as exc:  # a bug of ours must not become the caller's crash
        raise BridgeFileError(f"internal error while writing: {type(exc).__name__}: {exc}") from exc


def _adapted(
    boards: Iterable[Board], target: str, on_diagnostic: Callable[[Diagnostic], None] | None
) -> Iterator[Board]:
    from bridgefiles.formats.convert import LOST, adapt, family

    for board in boards:
        if board.format is not None and family(board.format) != family(target):
            before = len(board.diagnostics)
            board = adapt(board, target)
            if on_diagnostic is not None:
                for diag in board.diagnostics[before:]:
                    if diag.code == LOST:
                        on_diagnostic(diag)
        yield board


def dumps(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
) -> str:
    """Text in ``format`` ("pbn" export format, "lin", "json"); ``layout="preserve"``
    gives back the text as read for boards that were not changed."""
    return "".join(iter_dumps(obj, format, layout=layout, on_diagnostic=on_diagnostic))


def dumps_with_diagnostics(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
) -> tuple[str, list[Diagnostic]]:
    """``dumps``, and the ``lost-in-conversion`` diagnostics of a conversion."""
    found: list[Diagnostic] = []
    text = dumps(obj, format, layout=layout, on_diagnostic=found.append)
    return text, found


def write(
    obj: BridgeFile | Iterable[Board],
    target: str | os.PathLike[str] | IO[str],
    format: str | None = None,
    *,
    layout: Layout = "export",
    encoding: str | None = None,
) -> None:
    """Write to a path (atomically: a temporary file, then a rename) or a text stream."""
    if not isinstance(target, (str, os.PathLike)):
        for piece in iter_dumps(obj, format or "pbn", layout=layout):
            target.write(piece)
        return
    path = Path(target)
    if format is None:
        guessed = registry.from_path(str(path))
        format = guessed.name if guessed else "pbn"
    charset = _output_charset(obj, format, encoding, layout)
    _remove_stale_temporaries(path)
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent or "."
        )
    except OSError as exc:
        raise BridgeFileError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    try:
        with contextlib.suppress(OSError):  # mkstemp makes it 0600; give the usual mode
            os.chmod(tmp, _new_file_mode(path))
        with open(fd, "w", encoding=charset, errors="strict", newline="") as out:
            for piece in iter_dumps(obj, format, layout=layout):
                out.write(piece)
        os.replace(tmp, path)
    except UnicodeEncodeError as exc:
        os.unlink(tmp)
        bad = exc.object[exc.start : exc.end]
        raise BridgeFileError(
            f"{path}: character {bad[:1]!r} (U+{ord(bad[:1] or ' '):04X}) cannot be written in "
            f"{charset}; nothing was written (choose encoding='utf-8', or change the text)"
        ) from exc
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise BridgeFileError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _output_charset(
    obj: BridgeFile | Iterable[Board], format: str, asked: str | None, layout: str = "export"
) -> str:
    """UTF-8 for LIN and JSON; PBN in ISO-8859-1 (the standard) or the charset it was read
    in, and so is LIN in preserve layout (the bytes as read); ``asked`` wins. An unknown
    charset is a BridgeFileError, not a LookupError."""
    import codecs

    charset = asked or ("iso8859-1" if format == "pbn" else "utf-8")
    kept = format == "pbn" or (format == "lin" and layout == "preserve")
    if asked is None and kept and isinstance(obj, BridgeFile) and obj.encoding:
        try:
            read_as = codecs.lookup(obj.encoding).name
        except LookupError:  # "str": read from text, no charset of its own
            read_as = "ascii"
        if read_as != "ascii":
            charset = read_as
        elif format == "pbn":
            charset = "iso8859-1"
    try:
        codecs.lookup(charset)
    except LookupError:
        raise BridgeFileError(f"unknown output encoding {charset!r}") from None
    return charset


def _remove_stale_temporaries(path: Path, suffixes: tuple[str, ...] = (".tmp", ".part")) -> None:
    """Delete ``.NAME.<pid>.*.tmp`` (or ``.part``) siblings left by a killed writer.

    A killed writer cannot clean up after itself; its temporary file is hidden and
    never has the target's name, and the next write to the same target removes it
    once its pid no longer runs. (The command line names its temporaries the same way.)
    """
    parent = path.parent if str(path.parent) else Path(".")
    try:
        candidates = [
            p for suffix in suffixes for p in parent.glob(f".{glob_escape(path.name)}.*{suffix}")
        ]
    except OSError:
        return
    for tmp in candidates:
        pid_text = tmp.name[len(path.name) + 2 :].split(".", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            tmp.unlink()


def _new_file_mode(path: Path) -> int:
    """The mode of the file being replaced, else what a new file gets (0666 less the umask)."""
    try:
        return path.stat().st_mode & 0o7777
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


def validate(board: Board) -> BoardReport:
    """Replay a board against the Laws: the report of DESIGN.md for one board."""
    from bridgefiles.validate import validate_board

    return validate_board(board)


def score(bridge_file: BridgeFile, **settings: Any) -> BridgeFile:
    """A new BridgeFile with contracts, results and scores filled in."""
    from bridgefiles.scoring.fill import score_file

    scored: BridgeFile = score_file(bridge_file, **settings)
    return scored


def concat(*iterables: Iterable[Board]) -> Iterator[Board]:
    return chain.from_iterable(iterables)
