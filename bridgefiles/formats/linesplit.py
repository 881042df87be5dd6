"""Bytes to lines, within the limits (DESIGN: decode layer): CR, LF and CRLF end a
line, a line longer than ``max_line_length`` is cut there, the bytes after
``max_file_size`` are not read; a UTF-16 input (with a BOM) is converted to UTF-8 on
the way. One pass over each byte, and memory holds one chunk and one (bounded) line.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain

from bridgefiles.limits import DEFAULT_LIMITS, Limits

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_PIECE = 1 << 16
_MAX_UTF16_REPORTS = 100


class CutLine(bytes):
    """A line cut at ``max_line_length``: ``dropped`` bytes of it (before its end) were not read."""

    dropped: int

    def __new__(cls, value: bytes, dropped: int) -> CutLine:
        self = super().__new__(cls, value)
        self.dropped = dropped
        return self


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


def split_lines(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Iterator[bytes]:
    """Binary lines with their ends kept; CR, LF and CRLF all end a line."""
    return LineSplitter(limits).split([data])


def stream_lines(chunks: Iterable[bytes], limits: Limits = DEFAULT_LIMITS) -> Iterator[bytes]:
    """Binary lines from a stream of chunks (a file read piece by piece)."""
    return LineSplitter(limits).split(chunks)
