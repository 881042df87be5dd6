"""Bytes to text, a line at a time, so reading streams (DESIGN: decode layer).

Policy (pbn.md 2.2): a BOM decides (UTF-8, UTF-16); else a ``charset=`` in a
``%Content-type`` line near the top; else each line is tried as UTF-8 and, when
it is not valid UTF-8, read as Windows-1252 (a superset of ISO-8859-1's printable
range) and the file is taken as single-byte from then on. Any byte the chosen
charset cannot decode becomes an ``encoding`` diagnostic with its byte offset,
never a silent repair.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from bridgefiles.model.diagnostic import Diagnostic, error, warning

_CHARSET_RE = re.compile(rb"charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_SINGLE_BYTE_FALLBACK = "cp1252"


def _normalise_charset(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


@dataclass
class LineDecoder:
    """Decodes binary lines; remembers the charset it settled on and what it found."""

    path: str | None = None
    declared: str | None = None  # a charset the caller insists on
    encoding: str | None = None  # what the file turned out to be
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _bom_checked: bool = False
    _offset: int = 0

    def decode_all(self, data: bytes) -> str:
        """The whole text (for small inputs and ``loads``)."""
        return "".join(self.lines(split_lines(data)))

    def lines(self, raw_lines: Iterable[bytes]) -> Iterator[str]:
        """Text lines, each with its line end as in the source."""
        lineno = 0
        for raw in raw_lines:
            lineno += 1
            if not self._bom_checked:
                raw = self._first_line(raw)
            yield self._decode(raw, lineno)
            self._offset += len(raw)

    def _first_line(self, raw: bytes) -> bytes:
        self._bom_checked = True
        if self.declared:
            self.encoding = _normalise_charset(self.declared) or self.declared
            return raw
        if raw.startswith(codecs.BOM_UTF8):
            self.encoding = "utf-8"
            self._offset += 3
            return raw[3:]
        m = _CHARSET_RE.search(raw) if raw.startswith(b"%") else None
        if m:
            name = _normalise_charset(m.group(1).decode("ascii", "replace"))
            if name is None:
                self.diagnostics.append(
                    warning(
                        "encoding",
                        f"unknown charset {m.group(1).decode('ascii', 'replace')!r} declared; "
                        "reading as UTF-8 where valid, else Windows-1252",
                        line=1,
                        column=m.start(1) + 1,
                        path=self.path,
                    )
                )
            else:
                self.encoding = "iso8859-1" if name in ("latin_1", "iso8859-1") else name
        return raw

    def declare_from_directive(self, raw: bytes) -> None:
        """A ``charset=`` seen on a later header line, before any non-ASCII text."""
        if self.encoding is None:
            m = _CHARSET_RE.search(raw)
            if m:
                name = _normalise_charset(m.group(1).decode("ascii", "replace"))
                if name:
                    self.encoding = name

    def _decode(self, raw: bytes, lineno: int) -> str:
        if raw.isascii():
            if self.encoding is None and raw.startswith(b"%"):
                self.declare_from_directive(raw)
            return raw.decode("ascii")
        enc = self.encoding
        if enc is None:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.encoding = _SINGLE_BYTE_FALLBACK
                return self._decode_with(raw, _SINGLE_BYTE_FALLBACK, lineno)
            self.encoding = "utf-8"
            return text
        return self._decode_with(raw, enc, lineno)

    def _decode_with(self, raw: bytes, enc: str, lineno: int) -> str:
        try:
            return raw.decode(enc)
        except UnicodeDecodeError as exc:
            col = len(raw[: exc.start].decode(enc, "replace")) + 1
            self.diagnostics.append(
                error(
                    "encoding",
                    f"byte 0x{raw[exc.start]:02X} at byte offset {self._offset + exc.start} "
                    f"is not valid {enc}; shown as U+FFFD",
                    line=lineno,
                    column=col,
                    path=self.path,
                )
            )
            return raw.decode(enc, "replace")
        except LookupError:
            return raw.decode(_SINGLE_BYTE_FALLBACK, "replace")


def split_lines(data: bytes) -> Iterator[bytes]:
    """Binary lines with their ends kept; CR, LF and CRLF all end a line."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # A UTF-16 file: decode it whole and re-encode as UTF-8 with a BOM so the
        # line decoder settles on UTF-8.
        text = data.decode("utf-16")
        data = codecs.BOM_UTF8 + text.encode("utf-8")
    start = 0
    n = len(data)
    while start < n:
        i = data.find(b"\n", start)
        j = data.find(b"\r", start, i if i >= 0 else n)
        if j >= 0 and (i < 0 or j < i):
            end = j + 2 if j + 1 < n and data[j + 1 : j + 2] == b"\n" else j + 1
        elif i >= 0:
            end = i + 1
        else:
            end = n
        yield data[start:end]
        start = end


def stream_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Binary lines from a stream of chunks (a file read piece by piece)."""
    pending = b""
    first = True
    for chunk in chunks:
        if first:
            first = False
            if chunk.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
                rest = b"".join(chunks)
                yield from split_lines(chunk + rest)
                return
        data = pending + chunk
        lines = list(split_lines(data))
        if lines and not lines[-1].endswith((b"\n", b"\r")):
            pending = lines.pop()
        elif lines and lines[-1].endswith(b"\r"):
            # a CR at the end of a chunk may be the first half of CRLF
            pending = lines.pop()
        else:
            pending = b""
        yield from lines
    if pending:
        yield pending


_TEXT_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def text_lines(text: str) -> Iterator[str]:
    """Lines of an already-decoded string, with their ends kept (only CR, LF, CRLF end a line)."""
    for m in _TEXT_LINE.finditer(text):
        yield m.group(0)
