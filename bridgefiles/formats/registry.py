"""The format registry: a few symmetric verbs over named formats (like Biopython's SeqIO).

A format module registers a :class:`Format`: how to recognise it, how to read
boards from decoded lines (streaming, one board at a time) and how to write
boards. The public API in ``bridgefiles.api`` only ever goes through here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal, Protocol

from bridgefiles.errors import UnreadableInputError
from bridgefiles.limits import DEFAULT_LIMITS, Limits
from bridgefiles.model.board import Board, EscapeLine
from bridgefiles.model.diagnostic import Diagnostic

Layout = Literal["export", "preserve"]


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
    def __call__(
        self, lines: Iterator[str], options: ReadOptions, info: FileInfo
    ) -> Iterator[Board]: ...


class BoardWriter(Protocol):
    """Yields the output text in pieces (a board at a time), so writing streams."""

    def __call__(
        self, boards: Iterable[Board], options: WriteOptions, info: FileInfo | None
    ) -> Iterator[str]: ...


@dataclass(frozen=True)
class Format:
    """A registered format."""

    name: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], int]  # confidence 0-100 that the text head is this format
    read: BoardReader | None = None
    write: BoardWriter | None = None
    text_is_bytes_safe: bool = True


_FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> None:
    _FORMATS[fmt.name] = fmt


def get(name: str) -> Format:
    _load_builtin()
    try:
        return _FORMATS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(_FORMATS))
        raise UnreadableInputError(f"unknown format {name!r} (known: {known})") from None


def names() -> list[str]:
    _load_builtin()
    return sorted(_FORMATS)


def from_path(path: str) -> Format | None:
    _load_builtin()
    lower = path.lower()
    for fmt in _FORMATS.values():
        if any(lower.endswith(ext) for ext in fmt.extensions):
            return fmt
    return None


def sniff(head: str) -> Format | None:
    """The format whose sniffer is most confident about this text, if any is."""
    _load_builtin()
    best: tuple[int, Format | None] = (0, None)
    for fmt in _FORMATS.values():
        score = fmt.sniff(head)
        if score > best[0]:
            best = (score, fmt)
    return best[1]


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
    ):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a format not built yet
            if exc.name != module:
                raise
