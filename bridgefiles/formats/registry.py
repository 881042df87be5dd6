"""The format registry: the one list of formats (like Biopython's SeqIO).

A format module registers a :class:`Format`: how to recognise it, how to read
boards from decoded lines (streaming, one board at a time) and how to write
boards. Tables (CSV, Parquet) are registered here too, as formats of kind
``"table"`` (one row per board, written by ``bridgefiles.views.table``). Names,
extensions, output charsets and media types come from here and nowhere else:
the public API, batches, the command line and the upload service all ask.

>>> [f.name for f in formats(kind="boards", writable=True)]
['bri', 'dge', 'dlm', 'dup', 'json', 'lin', 'pbn', 'rbn', 'url', 'usebio']
>>> extension("parquet"), charset("pbn"), media_type("csv")
('.parquet', 'iso8859-1', 'text/csv')
>>> from_path("EVENT.PBN").name
'pbn'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from bridgefiles.errors import UsageError
from bridgefiles.formats.visitor import BoardVisitor
from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.model.board import Board, EscapeLine
from bridgefiles.model.diagnostic import Diagnostic

Layout = Literal["export", "preserve"]
Kind = Literal["boards", "table"]


@dataclass(frozen=True)
class ReadOptions:
    """How to read. ``strict`` raises on the first error instead of collecting it.

    ``limits`` bounds the work one input can cause (bridgefiles.limits);
    ``max_line_length`` and ``max_boards`` mirror the same settings of ``limits``
    (readers may use either; giving one here overrides the one in ``limits``).
    """

    strict: bool = False
    path: str | None = None
    encoding: str | None = None
    max_line_length: int = 1_000_000
    max_boards: int | None = None
    limits: Limits = DEFAULT_LIMITS
    # How much of each board to build (formats/visitor.py); None: every board whole.
    visitor: BoardVisitor[Board] | None = None

    def __post_init__(self) -> None:
        limits = self.limits
        if self.max_line_length != 1_000_000:
            limits = limits.but(max_line_length=self.max_line_length)
        if self.max_boards is not None:
            limits = limits.but(max_boards=self.max_boards)
        object.__setattr__(self, "limits", limits)
        object.__setattr__(self, "max_line_length", limits.max_line_length or 1 << 62)
        object.__setattr__(self, "max_boards", limits.max_boards)


@dataclass
class FileInfo:
    """What a reader learns about the file as a whole while it streams the boards."""

    path: str | None = None
    format: str | None = None
    encoding: str | None = None
    newline: str | None = None
    directives: list[EscapeLine] = field(default_factory=list)
    preamble: str | None = None
    trailer: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class WriteOptions:
    """How to write. ``layout="preserve"`` gives back the text as read where it can."""

    layout: Layout = "export"
    newline: str | None = None  # None: the format's own rule (CRLF for PBN export)


class BoardReader(Protocol):
    """What a format's reader is: decoded lines in, boards out, one at a time."""

    def __call__(
        self, lines: Iterator[str], options: ReadOptions, info: FileInfo
    ) -> Iterator[Board]: ...


class BoardWriter(Protocol):
    """Yields the output text in pieces (a board at a time), so writing streams."""

    def __call__(
        self, boards: Iterable[Board], options: WriteOptions, info: FileInfo | None
    ) -> Iterator[str]: ...


def _never(head: str) -> int:
    return 0


@dataclass(frozen=True)
class Format:
    """A registered format.

    ``charset`` is what output in this format is written in (None for a binary format);
    ``media_type`` what an upload or download of it is served as. The first extension
    is the one outputs get.
    """

    name: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], int] = _never  # confidence 0-100 that the text head is this format
    read: BoardReader | None = None
    write: BoardWriter | None = None
    text_is_bytes_safe: bool = True
    charset: str | None = None
    media_type: str | None = None
    kind: Kind = "boards"
    line_limit: str = "max_line_length"  # the Limits setting that bounds one line of it
    # False for a format that gathers the games of a board into one (USEBIO): an output
    # that cannot be compared board by board with what was written (``verify``).
    board_for_board: bool = True
    # For each file written in this format from another one, a fresh function that makes
    # each board ready for the writer, with what this format cannot carry as
    # lost-in-conversion findings (api.adapted asks; formats/convert.py does PBN and LIN).
    adapter: Callable[[], Callable[[Board], Board]] | None = None

    @property
    def extension(self) -> str:
        """The extension outputs in this format get."""
        return self.extensions[0]

    @property
    def binary(self) -> bool:
        return self.charset is None


# Charsets and media types of the built-in formats, applied when their modules register
# (the format modules say how to read and write; this is the one list of what files are).
_FILE_FACTS: dict[str, tuple[str | None, str]] = {
    "pbn": ("iso8859-1", "application/x-bridge-pbn"),  # PBN 2.1 section 3.1: ISO-8859-1
    "lin": ("utf-8", "application/x-bridge-lin"),
    "json": ("utf-8", "application/json"),
    "url": ("utf-8", "text/uri-list"),
    "csv": ("utf-8", "text/csv"),
    "parquet": (None, "application/vnd.apache.parquet"),
    "usebio": ("iso8859-1", "application/xml"),  # USEBIO 1.2: the ISO-8859-1 prolog
    # dealing machines (Duplimate; Big Deal writes them all) and Pavlicek's archive format
    "bri": ("iso8859-1", "application/octet-stream"),
    "dge": ("iso8859-1", "application/octet-stream"),
    "dup": ("iso8859-1", "application/octet-stream"),
    "dlm": ("iso8859-1", "text/plain"),
    "rbn": ("utf-8", "text/plain"),  # RBN files are ASCII; UTF-8 keeps any name
}

_FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> None:
    """Add (or replace) a format; charset and media type default to the built-in facts."""
    charset, media = _FILE_FACTS.get(fmt.name, ("utf-8", "text/plain"))
    if fmt.media_type is None:
        fmt = replace(fmt, media_type=media, charset=fmt.charset or charset)
    _FORMATS[fmt.name] = fmt


register(Format(name="csv", extensions=(".csv",), kind="table"))
register(Format(name="parquet", extensions=(".parquet",), kind="table"))


def get(name: str) -> Format:
    """The format called ``name``; an unknown name is a :class:`UsageError`."""
    _load_builtin()
    try:
        return _FORMATS[str(name).lower()]
    except (KeyError, AttributeError):
        known = ", ".join(sorted(_FORMATS))
        raise UsageError(f"unknown format {name!r} (known: {known})") from None


def formats(
    *, kind: Kind | None = None, readable: bool | None = None, writable: bool | None = None
) -> list[Format]:
    """The registered formats, by name, filtered by kind and by what can be done with them.

    A table is writable (``bridgefiles.views.table`` writes it) but not readable.
    """
    _load_builtin()
    out = []
    for name in sorted(_FORMATS):
        fmt = _FORMATS[name]
        can_write = fmt.write is not None or fmt.kind == "table"
        if kind is not None and fmt.kind != kind:
            continue
        if readable is not None and (fmt.read is not None) != readable:
            continue
        if writable is not None and can_write != writable:
            continue
        out.append(fmt)
    return out


def names(
    *, kind: Kind | None = None, readable: bool | None = None, writable: bool | None = None
) -> list[str]:
    """The names of :func:`formats`, e.g. the choices of ``--from`` and ``--to``."""
    return [f.name for f in formats(kind=kind, readable=readable, writable=writable)]


def extension(name: str) -> str:
    """The extension an output in format ``name`` gets (``.pbn``, ``.csv``...)."""
    return get(name).extension


def charset(name: str) -> str | None:
    """The charset output in format ``name`` is written in (None: binary)."""
    return get(name).charset


def media_type(name: str) -> str:
    """The media type of format ``name`` (for uploads and downloads)."""
    return get(name).media_type or "application/octet-stream"


def read_extensions() -> tuple[str, ...]:
    """Extensions of the formats that can be read (what a folder is searched for)."""
    return tuple(sorted({e for f in formats(readable=True) for e in f.extensions}))


def from_path(path: str) -> Format | None:
    """The format a file name says (its extension, in any case), if any."""
    _load_builtin()
    lower = str(path).lower()
    for fmt in _FORMATS.values():
        if any(lower.endswith(ext) for ext in fmt.extensions):
            return fmt
    return None


def sniff(head: str) -> Format | None:
    """The format whose sniffer is most confident about this text, if any is."""
    _load_builtin()
    best: tuple[int, Format | None] = (0, None)
    for fmt in _FORMATS.values():
        if fmt.read is None:
            continue
        score = fmt.sniff(head)
        if score > best[0]:
            best = (score, fmt)
    return best[1]


# Text formats only: a NUL byte in the head of a file that does not start with a UTF-16
# byte order mark means a binary file (an executable, an image, an archive not unpacked),
# refused before any reader sees it; the command line and the upload service share it.
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def binary(head: bytes) -> bool:
    r"""Whether these first bytes (at most a few KB) are a binary file's, not one of ours:
    a NUL outside UTF-16, unless a format of fixed records that pads with NULs (a dealing
    machine's BRI, DGE, DUP) knows the content.

    >>> binary(b"\x7fELF\x02\x01\x01\x00"), binary(b'[Board "1"]\n')
    (True, False)
    """
    if b"\0" not in head or head.startswith(_UTF16_BOMS):
        return False
    sample = head[:512]
    if len(sample) >= 4 and (not sample[0::2].strip(b"\0") or not sample[1::2].strip(b"\0")):
        return False  # UTF-16 text with no byte order mark: the readers say its encoding
    _load_builtin()
    text = head.decode("latin-1")
    padded = (f for name, f in _FORMATS.items() if name in _NUL_PADDED and f.read is not None)
    return not any(f.sniff(text) > 0 for f in padded)


# Formats of fixed records padded with NULs: a NUL in their head is theirs, not a binary's.
_NUL_PADDED = ("bri", "dge", "dup")


_loaded = False


def _load_builtin() -> None:
    """Import the built-in format modules once; each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib

    for module in (
        "bridgefiles.formats.pbn",
        "bridgefiles.formats.lin",
        "bridgefiles.formats.json_format",
        "bridgefiles.formats.url",
        "bridgefiles.exchange",
        "bridgefiles.exchange.bri",
        "bridgefiles.exchange.dge",
        "bridgefiles.exchange.dup",
        "bridgefiles.exchange.dlm",
        "bridgefiles.exchange.rbn",
    ):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a format not built yet
            if exc.name != module:
                raise
