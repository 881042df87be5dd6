"""Bytes to text, a line at a time, so reading streams (DESIGN: decode layer).

Policy (pbn.md 2.2, lin.md 9): a BOM decides (UTF-8, UTF-16); else a ``charset=``
in a ``%`` line before any non-ASCII text; else each line is tried as UTF-8 and,
when it is not valid UTF-8, read as Windows-1252 (a superset of ISO-8859-1's
printable range). Bytes the charset in force cannot decode are an ``encoding``
diagnostic with their exact byte offset, and the line is then read as
Windows-1252 with its five undefined bytes kept as the ISO-8859-1 controls, so
no byte is ever lost or turned into ``?``. A declaration the bytes contradict is
a warning, never a silent guess.

This layer also enforces the generic limits (bridgefiles.limits): a line longer
than ``max_line_length`` is cut there, the bytes after ``max_file_size`` are not
read, each with a ``limit`` diagnostic. Splitting is one pass over each byte,
and memory holds one chunk and one (bounded) line.
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain

from bridgefiles.errors import StrictModeError
from bridgefiles.limits import DEFAULT_LIMITS, Limits, limit_diagnostic
from bridgefiles.model.diagnostic import Diagnostic, Severity, error, warning

_CHARSET_RE = re.compile(rb"charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_LINE_END = re.compile(rb"\r\n|\r|\n")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SINGLE_BYTE_FALLBACK = "cp1252"
_SINGLE_BYTE = frozenset(
    {"cp1252", "latin-1", "x-bridgefiles-cp1252", *(f"iso8859-{i}" for i in range(1, 17))}
)
_PIECE = 1 << 16
_MAX_UTF16_REPORTS = 100


def _keep_as_latin1(exc: UnicodeError) -> tuple[str, int]:
    """Error handler: an undecodable byte becomes the ISO-8859-1 character of the same code."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("bridgefiles-latin1", _keep_as_latin1)


@lru_cache(maxsize=64)
def _normalise_charset(name: str) -> str | None:
    """The codec of a charset label, or None when it is no charset a text file can be
    in: unknown, or a codec that is not a text encoding (rot13, hex, base64, zlib) or
    cannot decode any bytes (idna, punycode)."""
    try:
        found = codecs.lookup(name).name
        "probe".encode(found)  # LookupError for bytes-to-bytes and str-to-str codecs
        bytes(range(256)).decode(found, "replace")  # UnicodeError for idna, punycode
    except (LookupError, UnicodeError, ValueError, TypeError):
        return None
    return "iso8859-1" if found in ("latin-1", "latin_1") else found


# Windows-1252 with its five undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) read and written
# as the ISO-8859-1 controls of the same code: what the fallback reads, as a codec, so a
# file that holds those bytes can be written back as it was read (issue 15).
LOSSLESS_CP1252 = "x-bridgefiles-cp1252"
_C1_KEPT = frozenset(b"\x81\x8d\x8f\x90\x9d")


def _lossless_cp1252() -> codecs.CodecInfo:
    from encodings import cp1252

    table = "".join(chr(i) if c == "\ufffe" else c for i, c in enumerate(cp1252.decoding_table))
    encoding_table = codecs.charmap_build(table)

    def to_bytes(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding_table)

    def to_text(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, table)

    class Encoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return codecs.charmap_encode(text, self.errors, encoding_table)[0]

    class Decoder(codecs.IncrementalDecoder):
        def decode(self, data: bytes, final: bool = False) -> str:  # type: ignore[override]
            return codecs.charmap_decode(data, self.errors, table)[0]

    class Writer(codecs.StreamWriter):
        encode = staticmethod(to_bytes)  # type: ignore[assignment]

    class Reader(codecs.StreamReader):
        decode = staticmethod(to_text)  # type: ignore[assignment]

    return codecs.CodecInfo(
        to_bytes,
        to_text,  # type: ignore[arg-type]
        Reader,
        Writer,
        incrementalencoder=Encoder,
        incrementaldecoder=Decoder,
        name=LOSSLESS_CP1252,
    )


def _search(name: str) -> codecs.CodecInfo | None:
    return _lossless_cp1252() if name.replace("_", "-") == LOSSLESS_CP1252 else None


codecs.register(_search)


def _fallback(raw: bytes) -> str:
    """Windows-1252, with its undefined bytes kept as ISO-8859-1 controls: never lossy."""
    return raw.decode(_SINGLE_BYTE_FALLBACK, "bridgefiles-latin1")


class CutLine(bytes):
    """A line cut at ``max_line_length``: ``dropped`` bytes of it (before its end) were not read."""

    dropped: int

    def __new__(cls, value: bytes, dropped: int) -> CutLine:
        self = super().__new__(cls, value)
        self.dropped = dropped
        return self


def _cut_whole_characters(raw: CutLine) -> CutLine:
    """A cut UTF-8 line ends on a whole character: a split one would read as a bad byte."""
    body = raw.rstrip(b"\r\n")
    k = _utf8_tail(body)
    if not k:
        return raw
    return CutLine(body[:-k] + raw[len(body) :], raw.dropped + k)


@dataclass
class SplitStats:
    """Work done by the splitter, counted (tests assert linear growth on these)."""

    bytes_in: int = 0  # bytes taken from the input (each split once, in C)
    bytes_moved: int = 0  # bytes of lines that span chunks or are cut, copied to join them
    most_held: int = 0  # the longest partial line held in memory
    lines: int = 0
    truncated_at: int | None = None  # max_file_size reached after this many bytes
    source_encoding: str | None = None  # "utf-16" when the input was converted from it
    utf16_errors: list[tuple[int, int]] = field(default_factory=list)  # (offset, code unit)
    utf16_error_count: int = 0


class LineSplitter:
    """Binary lines (ends kept; CR, LF and CRLF end a line) from chunks, within the limits."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.max_line = limits.max_line_length
        self.max_size = limits.max_file_size
        self.stats = SplitStats()
        self._pieces: list[bytes] = []
        self._held = 0
        self._dropped = 0
        self._units = 0
        self._open = False  # a line is pending (spans chunks)
        self._carry_cr = False

    def split(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """The lines, one pass: every byte is looked at and moved a bounded number of times."""
        for batch in self.batches(chunks):
            yield from batch

    def batches(self, chunks: Iterable[bytes]) -> Iterator[list[bytes]]:
        """:meth:`split` a chunk's lines at a time: the decoder's fast path takes a batch
        of plain lines whole."""
        stream = self._budget(chunks)
        head = b""
        for chunk in stream:
            head += chunk
            if len(head) >= 2:
                break
        rest: Iterator[bytes] = chain([head], stream)
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            self.stats.source_encoding = "utf-16"
            rest = self._from_utf16(rest)
        yield from self._split(rest)

    def _budget(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        for chunk in chunks:
            if not chunk:
                continue
            if self.max_size is not None and self.stats.bytes_in + len(chunk) > self.max_size:
                keep = self.max_size - self.stats.bytes_in
                self.stats.bytes_in += keep
                self.stats.truncated_at = self.max_size
                if keep:
                    yield chunk[:keep]
                return
            self.stats.bytes_in += len(chunk)
            yield chunk

    def _split(self, chunks: Iterable[bytes]) -> Iterator[list[bytes]]:
        """``bytes.splitlines`` per chunk (C speed), the lines of a chunk in one list; only
        a line that spans chunks or goes over the limit takes the slow path through
        ``_add`` and ``_take``."""
        max_line = self.max_line
        stats = self.stats
        for chunk in chunks:
            if not chunk:
                continue
            lines = chunk.splitlines(True)
            out: list[bytes] = []
            first = 0
            if self._carry_cr:  # the last chunk ended in CR: is this LF its other half?
                self._carry_cr = False
                if lines[0] == b"\n":
                    first = 1
                    out.append(self._take(b"\r\n"))
                else:
                    out.append(self._take(b"\r"))
            last = len(lines) - 1
            tail = lines[last]
            complete = last if tail[-1:] != b"\n" else last + 1  # lines that end here
            if (
                not self._open
                and complete > first
                and (max_line is None or max(map(len, lines)) <= max_line + 1)
            ):
                out.extend(lines[first:complete] if first or complete <= last else lines)
                stats.lines += complete - first
                first = complete
            for i in range(first, last + 1):
                line = lines[i]
                end = line[-1:]
                if i == last and end != b"\n":
                    if end == b"\r":  # maybe the first half of a CRLF split across chunks
                        self._add(line[:-1])
                        self._open = self._carry_cr = True
                    else:
                        self._add(line)
                        self._open = True
                    break
                if self._open or (max_line is not None and len(line) > max_line + 1):
                    size = 2 if line.endswith(b"\r\n") else 1
                    self._add(line[:-size])
                    out.append(self._take(line[-size:]))
                    continue
                stats.lines += 1
                out.append(line)
            if out:
                yield out
        if self._carry_cr:
            self._carry_cr = False
            yield [self._take(b"\r")]
        elif self._open:
            yield [self._take(b"")]

    def _add(self, piece: bytes) -> None:
        if not piece:
            return
        if self.max_line is not None and (self._dropped or self._held + len(piece) > self.max_line):
            keep = max(0, self.max_line - self._held)
            if keep:
                self._pieces.append(piece[:keep])
                self._held += keep
                self.stats.most_held = max(self.stats.most_held, self._held)
            self._dropped += len(piece) - keep
            self.stats.bytes_moved += keep
            return
        self._pieces.append(piece)
        self._held += len(piece)
        self.stats.bytes_moved += len(piece)
        if self._held > self.stats.most_held:
            self.stats.most_held = self._held

    def _take(self, end: bytes) -> bytes:
        pieces = self._pieces
        line = b"".join(pieces) + end
        self.stats.bytes_moved += len(line)
        self.stats.lines += 1
        dropped = self._dropped
        self._pieces, self._held, self._dropped, self._open = [], 0, 0, False
        return CutLine(line, dropped) if dropped else line

    def _from_utf16(self, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """UTF-16 (with BOM) re-encoded as UTF-8 with a BOM, a piece at a time."""
        decoder = codecs.getincrementaldecoder("utf-16")(errors="surrogatepass")
        fed = 0
        self._units = 1  # the BOM's code unit: offsets count from the start of the file
        yield codecs.BOM_UTF8
        for chunk in chunks:
            for i in range(0, len(chunk), _PIECE):
                piece = chunk[i : i + _PIECE]
                fed += len(piece)
                yield self._utf16_text(decoder.decode(piece))
        try:
            tail = decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            self._utf16_error(fed - 1, -1)
            tail = "\ufffd"
        yield self._utf16_text(tail)

    def _utf16_text(self, text: str) -> bytes:
        """UTF-8 of a decoded piece; unpaired surrogates reported at their byte offset."""
        if _SURROGATE.search(text) is not None:
            last = 0
            for m in _SURROGATE.finditer(text):
                before = text[last : m.start()]
                self._units += len(before) + sum(1 for c in before if ord(c) > 0xFFFF)
                self._utf16_error(2 * self._units, ord(m.group()))
                self._units += 1
                last = m.end()
            rest = text[last:]
            self._units += len(rest) + sum(1 for c in rest if ord(c) > 0xFFFF)
            return _SURROGATE.sub("\ufffd", text).encode("utf-8")
        self._units += len(text) + (
            sum(1 for c in text if ord(c) > 0xFFFF) if not text.isascii() else 0
        )
        return text.encode("utf-8")

    def _utf16_error(self, offset: int, unit: int) -> None:
        self.stats.utf16_error_count += 1
        if len(self.stats.utf16_errors) < _MAX_UTF16_REPORTS:
            self.stats.utf16_errors.append((offset, unit))


@dataclass
class LineDecoder:
    """Decodes binary lines; remembers the charset it settled on and what it found.

    ``declared`` is a charset the caller insists on. With ``strict`` the first
    error found raises StrictModeError instead of being collected.
    """

    path: str | None = None
    declared: str | None = None
    encoding: str | None = None  # what the file turned out to be
    diagnostics: list[Diagnostic] = field(default_factory=list)
    strict: bool = False
    limits: Limits = DEFAULT_LIMITS
    line_setting: str = "max_line_length"  # the setting of ``limits`` that bounds a line
    splitter: LineSplitter | None = None
    _bom_checked: bool = False
    _offset: int = 0
    _from_bom: bool = False
    _explicit: bool = False  # the charset in force was declared (BOM, directive or caller)
    _utf16: bool = False  # the input was UTF-16, converted by the splitter
    _ascii_batch: bool = True  # the batch _plain_batch passed last is ASCII

    def read(self, chunks: Iterable[bytes]) -> Iterator[str]:
        """Text lines from binary chunks, within ``limits``: the whole decode layer."""
        longest = getattr(self.limits, self.line_setting)
        self.splitter = LineSplitter(self.limits.but(max_line_length=longest))
        yield from self._batched(self.splitter.batches(chunks))

    def decode_all(self, data: bytes) -> str:
        """The whole text (for small inputs and ``loads``)."""
        return "".join(self.read([data]))

    def _batched(self, batches: Iterable[list[bytes]]) -> Iterator[str]:
        """:meth:`lines` a chunk's lines at a time: a batch of plain lines (no ``%`` line,
        none cut, ASCII or, once the file is known to be UTF-8, valid UTF-8) has nothing
        to decide or report, so it is decoded without the checks; other lines one at a
        time, as :meth:`lines` reads them."""
        lineno = 0
        for batch in batches:
            if not self._bom_checked and batch:
                lineno += 1
                yield self._line(batch[0], lineno)
                batch = batch[1:]
            if not self._utf16 and self._plain_batch(batch):
                lineno += len(batch)
                codec = "ascii" if self._ascii_batch else "utf-8"
                yield from [raw.decode(codec) for raw in batch]
                continue
            for raw in batch:
                lineno += 1
                if type(raw) is bytes and raw.isascii() and raw[:1] != b"%":
                    self._offset += len(raw)
                    yield raw.decode("ascii")
                else:
                    yield self._line(raw, lineno)
        self._end(lineno)

    def _plain_batch(self, batch: list[bytes]) -> bool:
        """Whether ``batch`` needs no check (see :meth:`_batched`); counts its bytes if so."""
        joined = b"".join(batch)
        if (
            joined.startswith(b"%")
            or b"\n%" in joined
            or b"\r%" in joined
            or CutLine in map(type, batch)
        ):
            return False
        self._ascii_batch = joined.isascii()
        if not self._ascii_batch:
            if self.encoding != "utf-8":
                return False
            try:
                joined.decode("utf-8")
            except UnicodeDecodeError:
                return False
        self._offset += len(joined)
        return True

    def lines(self, raw_lines: Iterable[bytes]) -> Iterator[str]:
        """Text lines, each with its line end as in the source."""
        lineno = 0
        for raw in raw_lines:
            lineno += 1
            if self._bom_checked and type(raw) is bytes and raw.isascii() and raw[:1] != b"%":
                self._offset += len(raw)  # the common case, kept short
                yield raw.decode("ascii")
                continue
            yield self._line(raw, lineno)
        self._end(lineno)

    def _line(self, raw: bytes, lineno: int) -> str:
        """One line's text, with what it holds to report."""
        start = self._offset
        if not self._bom_checked:
            raw = self._first_line(raw)
            start = self._offset
            splitter = self.splitter
            self._utf16 = splitter is not None and splitter.stats.source_encoding is not None
        if isinstance(raw, CutLine) and self.encoding in (None, "utf-8"):
            raw = _cut_whole_characters(raw)
        text = self._decode(raw, lineno)
        self._offset += len(raw)
        if isinstance(raw, CutLine):
            self._cut(raw, text, lineno, start)
        if self._utf16:
            self._utf16_findings(lineno)
        return text

    def _end(self, lineno: int) -> None:
        """After the last line: what the splitter found about the input as a whole."""
        self._utf16_findings(lineno)
        stats = self.splitter.stats if self.splitter is not None else None
        if stats is not None and stats.truncated_at is not None:
            self._add(
                limit_diagnostic(
                    "max_file_size",
                    stats.truncated_at,
                    f"the input (more than {stats.truncated_at:,} bytes)",
                    f"nothing after byte offset {stats.truncated_at} is read",
                    line=lineno or None,
                    path=self.path,
                )
            )
        if stats is not None and stats.source_encoding == "utf-16":
            self.encoding = "utf-16"

    def _cut(self, raw: CutLine, text: str, lineno: int, start: int) -> None:
        body = len(raw.rstrip(b"\r\n"))
        self._add(
            limit_diagnostic(
                self.line_setting,
                getattr(self.limits, self.line_setting) or body,
                f"line {lineno} ({body + raw.dropped:,} bytes)",
                f"its {raw.dropped:,} bytes from byte offset {start + body} are not read",
                line=lineno,
                column=len(text.rstrip("\r\n")) + 1,
                path=self.path,
            )
        )
        self._offset += raw.dropped

    def _utf16_findings(self, lineno: int) -> None:
        stats = self.splitter.stats if self.splitter is not None else None
        if stats is None or not stats.utf16_errors:
            return
        found, stats.utf16_errors[:] = list(stats.utf16_errors), []
        for offset, unit in found:
            what = "a truncated code unit" if unit < 0 else f"unpaired surrogate U+{unit:04X}"
            self._add(
                error(
                    "encoding",
                    f"{what} at byte offset {offset} is not valid UTF-16; shown as U+FFFD",
                    line=lineno,
                    path=self.path,
                )
            )

    def _add(self, diag: Diagnostic) -> None:
        if self.strict and diag.severity is Severity.ERROR:
            raise StrictModeError(diag.format(), diag)
        self.diagnostics.append(diag)

    def _first_line(self, raw: bytes) -> bytes:
        self._bom_checked = True
        if self.declared:
            name = _normalise_charset(self.declared)
            if name is None:
                self._add(
                    warning(
                        "encoding",
                        f"unknown charset {self.declared!r} asked for (or not a text encoding); "
                        "reading as UTF-8 where valid, else Windows-1252",
                        path=self.path,
                    )
                )
            else:
                self.encoding, self._explicit = name, True
        if raw.startswith(codecs.BOM_UTF8):
            if self.encoding not in (None, "utf-8"):
                self._add(
                    warning(
                        "encoding",
                        f"the file starts with a UTF-8 byte order mark but {self.encoding} was "
                        f"asked for; reading as {self.encoding}",
                        line=1,
                        column=1,
                        path=self.path,
                    )
                )
                return raw
            self.encoding, self._explicit, self._from_bom = "utf-8", True, True
            self._offset += 3
            return raw[3:]
        return raw

    def _directive(self, raw: bytes, lineno: int) -> None:
        """A ``charset=`` on a ``%`` line: in force if nothing decided the charset yet."""
        m = _CHARSET_RE.search(raw)
        if m is None:
            return
        label = m.group(1).decode("ascii", "replace")
        name = _normalise_charset(label)
        where = {"line": lineno, "column": m.start(1) + 1, "path": self.path}
        if name is None:
            self._add(
                warning(
                    "encoding",
                    f"unknown charset {label!r} declared (or not a text encoding); reading as "
                    "UTF-8 where valid, else Windows-1252",
                    **where,
                )
            )
        elif self.encoding is None:
            self.encoding, self._explicit = name, True
        elif name != self.encoding:
            why = (
                "the byte order mark"
                if self._from_bom
                else "the caller's choice"
                if self.declared
                else "an earlier declaration or the text before it"
            )
            self._add(
                warning(
                    "encoding",
                    f"charset {label!r} declared, but {why} already set {self.encoding}; "
                    f"the declaration is ignored",
                    **where,
                )
            )

    def _decode(self, raw: bytes, lineno: int) -> str:
        if raw.isascii():
            if raw.startswith(b"%"):
                self._directive(raw, lineno)
            return raw.decode("ascii")
        enc = self.encoding
        if enc is None:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.encoding = _SINGLE_BYTE_FALLBACK
                self._keep_c1(raw)
                # ISO-8859-1 is PBN's own charset, so reading it is no guess; only the
                # bytes Windows-1252 gives a meaning to (0x80-0x9F) are reported.
                self._check_c1(raw, lineno)
                return _fallback(raw)
            self.encoding = "utf-8"
            return text
        if enc in (_SINGLE_BYTE_FALLBACK, LOSSLESS_CP1252) and not self._explicit:
            self._check_c1(raw, lineno)
            self._keep_c1(raw)
        if enc in _SINGLE_BYTE and self._explicit:
            self._check_declared_single_byte(raw, enc, lineno)
        try:
            return raw.decode(enc)
        except UnicodeDecodeError as exc:
            return self._undecodable(raw, enc, lineno, exc)
        except LookupError:  # pragma: no cover - names are checked by codecs.lookup
            return _fallback(raw)

    def _keep_c1(self, raw: bytes) -> None:
        """A byte Windows-1252 leaves undefined was read: the file is in the lossless
        variant from now on (the same reading), so writing it back keeps the byte."""
        if self.encoding == _SINGLE_BYTE_FALLBACK and not _C1_KEPT.isdisjoint(raw):
            self.encoding = LOSSLESS_CP1252

    def _check_c1(self, raw: bytes, lineno: int) -> None:
        """Bytes 0x80-0x9F are not ISO-8859-1 (PBN's character set, pbn.md 2.2): read as
        Windows-1252 they are a guess, so say where they are."""
        c1 = [i for i, b in enumerate(raw) if 0x80 <= b <= 0x9F]
        if not c1:
            return
        first = c1[0]
        more = f" ({len(c1)} such bytes on this line)" if len(c1) > 1 else ""
        self._add(
            warning(
                "encoding",
                f"byte 0x{raw[first]:02X} at byte offset {self._offset + first} is not an "
                f"ISO-8859-1 character{more}; read as Windows-1252 "
                f"{_fallback(raw[first : first + 1])!r}",
                line=lineno,
                column=first + 1,
                path=self.path,
            )
        )

    def _check_declared_single_byte(self, raw: bytes, enc: str, lineno: int) -> None:
        """Declared single-byte, yet the line is UTF-8 with non-ASCII text: say so."""
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return
        first = next(i for i, b in enumerate(raw) if b > 0x7F)
        self._add(
            warning(
                "encoding",
                f"the file is declared {enc} but the bytes from byte offset "
                f"{self._offset + first} read as UTF-8; read as {enc} as declared",
                line=lineno,
                column=len(raw[:first].decode(enc, "replace")) + 1,
                path=self.path,
            )
        )

    def _undecodable(self, raw: bytes, enc: str, lineno: int, exc: UnicodeDecodeError) -> str:
        bad = _bad_count(raw, enc)
        more = f" ({bad} undecodable bytes on this line)" if bad > 1 else ""
        auto = enc == "utf-8" and not self._explicit
        diag = (warning if auto else error)(
            "encoding",
            f"byte 0x{raw[exc.start]:02X} at byte offset {self._offset + exc.start} is not "
            f"valid {enc}{more}; "
            + (
                "this line is read as Windows-1252 (earlier lines were UTF-8)"
                if auto
                else "the line is read as Windows-1252"
            ),
            line=lineno,
            column=len(raw[: exc.start].decode(enc, "replace")) + 1,
            path=self.path,
        )
        self._add(diag)
        return _fallback(raw)


_COUNTED = threading.local()


def _count_bad(exc: UnicodeError) -> tuple[str, int]:
    """Error handler: counts the undecodable runs of one decode call."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _COUNTED.n = getattr(_COUNTED, "n", 0) + 1
    return "\ufffd", exc.end


codecs.register_error("bridgefiles-count", _count_bad)


def _bad_count(raw: bytes, enc: str) -> int:
    """How many undecodable runs ``raw`` has in ``enc``, in one pass."""
    _COUNTED.n = 0
    raw.decode(enc, "bridgefiles-count")
    return int(_COUNTED.n)


def _utf8_tail(body: bytes) -> int:
    """Bytes at the end of ``body`` that are an incomplete UTF-8 sequence (a cut mid-character)."""
    for back in range(1, min(4, len(body)) + 1):
        b = body[-back]
        if b & 0xC0 != 0x80:  # a lead byte or ASCII
            need = 4 if b >= 0xF0 else 3 if b >= 0xE0 else 2 if b >= 0xC0 else 1
            return back if need > back else 0
    return 0


def split_lines(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Iterator[bytes]:
    """Binary lines with their ends kept; CR, LF and CRLF all end a line."""
    return LineSplitter(limits).split([data])


def stream_lines(chunks: Iterable[bytes], limits: Limits = DEFAULT_LIMITS) -> Iterator[bytes]:
    """Binary lines from a stream of chunks (a file read piece by piece)."""
    return LineSplitter(limits).split(chunks)


_TEXT_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def text_lines(text: str) -> Iterator[str]:
    """Lines of an already-decoded string, with their ends kept (only CR, LF, CRLF end a line)."""
    for m in _TEXT_LINE.finditer(text):
        yield m.group(0)


def limited_text_lines(
    text: str,
    limits: Limits,
    diagnostics: list[Diagnostic],
    path: str | None = None,
    strict: bool = False,
    line_setting: str = "max_line_length",
) -> Iterator[str]:
    """:func:`text_lines` within ``max_line_length`` (or the ``line_setting`` a format
    names) and ``max_file_size`` (in characters)."""

    def add(diag: Diagnostic) -> None:
        if strict:
            raise StrictModeError(diag.format(), diag)
        diagnostics.append(diag)

    size = limits.max_file_size
    if size is not None and len(text) > size:
        truncated = True
        text = text[:size]
    else:
        truncated = False
    longest: int | None = getattr(limits, line_setting)
    lineno = 0
    for lineno, line in enumerate(text_lines(text), start=1):
        if longest is not None and len(line) > longest:
            body = line.rstrip("\r\n")
            if len(body) > longest:
                add(
                    limit_diagnostic(
                        line_setting,
                        longest,
                        f"line {lineno} ({len(body):,} characters)",
                        f"its last {len(body) - longest:,} characters are not read",
                        line=lineno,
                        column=longest + 1,
                        path=path,
                    )
                )
                line = body[:longest] + line[len(body) :]
        yield line
    if truncated and size is not None:
        add(
            limit_diagnostic(
                "max_file_size",
                size,
                f"the input (more than {size:,} characters)",
                f"nothing after character {size} is read",
                line=lineno or None,
                path=path,
            )
        )
