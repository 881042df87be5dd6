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
read, each with a ``limit`` diagnostic. The bytes are split into lines by
linesplit.py (one pass over each byte; memory holds one chunk and one bounded line)
and the charsets are named and registered by charsets.py.
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.charsets import (
    C1_KEPT,
    LOSSLESS_CP1252,
    SINGLE_BYTE,
    SINGLE_BYTE_FALLBACK,
    fallback_text,
    normalise_charset,
)
from bridgefiles.formats.linesplit import (
    CutLine,
    LineSplitter,
    SplitStats,
    split_lines,
    stream_lines,
)
from bridgefiles.limits import DEFAULT_LIMITS, Limits, limit_diagnostic
from bridgefiles.model.diagnostic import Diagnostic, Severity, error, warning

_CHARSET_RE = re.compile(rb"charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def _cut_whole_characters(raw: CutLine) -> CutLine:
    """A cut UTF-8 line ends on a whole character: a split one would read as a bad byte."""
    body = raw.rstrip(b"\r\n")
    k = _utf8_tail(body)
    if not k:
        return raw
    return CutLine(body[:-k] + raw[len(body) :], raw.dropped + k)


def _utf8_tail(body: bytes) -> int:
    """Bytes at the end of ``body`` that are an incomplete UTF-8 sequence (a cut mid-character)."""
    for back in range(1, min(4, len(body)) + 1):
        b = body[-back]
        if b & 0xC0 != 0x80:  # a lead byte or ASCII
            need = 4 if b >= 0xF0 else 3 if b >= 0xE0 else 2 if b >= 0xC0 else 1
            return back if need > back else 0
    return 0


def _plain_batch(batch: list[bytes], utf8: bool) -> list[str] | None:
    """The lines of ``batch`` decoded when each is what the loop of
    :meth:`LineDecoder._batched` decodes with nothing to check or say (whole, not a ``%``
    line, and ASCII, or valid UTF-8 once the file is known to be UTF-8); else None.
    In C-level passes: for a batch of thousands of lines, a line's loop costs the most."""
    joined = b"".join(batch)
    if (
        joined[:1] == b"%"
        or b"\n%" in joined
        or b"\r%" in joined
        or set(map(type, batch)) != {bytes}  # (a CutLine is cut: said alone)
    ):
        return None
    if not (utf8 or joined.isascii()):
        return None
    try:
        return list(map(bytes.decode, batch))  # (UTF-8, which ASCII is)
    except UnicodeDecodeError:
        return None  # (the loop finds the line and says why)


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

    def read(self, chunks: Iterable[bytes]) -> Iterator[str]:
        """Text lines from binary chunks, within ``limits``: the whole decode layer."""
        for batch in self.read_batches(chunks):
            yield from batch

    def read_batches(self, chunks: Iterable[bytes]) -> Iterator[list[str]]:
        """:meth:`read` several lines at a time (see :meth:`_batched`)."""
        longest = getattr(self.limits, self.line_setting)
        self.splitter = LineSplitter(self.limits.but(max_line_length=longest))
        return self._batched(self.splitter.batches(chunks))

    def decode_all(self, data: bytes) -> str:
        """The whole text (for small inputs and ``loads``)."""
        return "".join(self.read([data]))

    def _batched(self, batches: Iterable[list[bytes]]) -> Iterator[list[str]]:
        """The decoded lines in runs: one path per line, so each rule is written once.

        A line with nothing to decide or report (not the first, not a ``%`` line, not
        cut, and ASCII or, once the file is known to be UTF-8 and is not UTF-16, valid
        UTF-8) is decoded in the loop and joins the current run; any other line ends
        the run and goes alone through :meth:`_line`, with its checks. So what a line
        holds to report is found when the reader asks for that line, not before: its
        finding goes with the board being read."""
        lineno = 0
        for batch in batches:
            if not self._bom_checked and batch:
                lineno += 1
                yield [self._line(batch[0], lineno)]
                batch = batch[1:]
            utf8 = self.encoding == "utf-8" and not self._utf16
            plain = _plain_batch(batch, utf8) if batch else None
            if plain is not None:  # the usual batch: nothing to check or say of a line
                lineno += len(batch)
                self._offset += sum(map(len, batch))
                yield plain
                continue
            run: list[str] = []
            for raw in batch:
                lineno += 1
                if type(raw) is bytes and raw[:1] != b"%":
                    if raw.isascii():
                        self._offset += len(raw)
                        run.append(raw.decode("ascii"))
                        continue
                    if utf8:
                        try:
                            text = raw.decode("utf-8")
                        except UnicodeDecodeError:
                            pass  # (_line reports it)
                        else:
                            self._offset += len(raw)
                            run.append(text)
                            continue
                if run:
                    yield run
                    run = []
                yield [self._line(raw, lineno)]
                utf8 = self.encoding == "utf-8" and not self._utf16  # (the line may decide it)
            if run:
                yield run
        self._end(lineno)

    def lines(self, raw_lines: Iterable[bytes]) -> Iterator[str]:
        """Text lines, each with its line end as in the source."""
        for run in self._batched([raw] for raw in raw_lines):
            yield from run

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
            name = normalise_charset(self.declared)
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
        name = normalise_charset(label)
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
                self.encoding = SINGLE_BYTE_FALLBACK
                self._keep_c1(raw)
                # ISO-8859-1 is PBN's own charset, so reading it is no guess; only the
                # bytes Windows-1252 gives a meaning to (0x80-0x9F) are reported.
                self._check_c1(raw, lineno)
                return fallback_text(raw)
            self.encoding = "utf-8"
            return text
        if enc in (SINGLE_BYTE_FALLBACK, LOSSLESS_CP1252) and not self._explicit:
            self._check_c1(raw, lineno)
            self._keep_c1(raw)
        if enc in SINGLE_BYTE and self._explicit:
            self._check_declared_single_byte(raw, enc, lineno)
        try:
            return raw.decode(enc)
        except UnicodeDecodeError as exc:
            return self._undecodable(raw, enc, lineno, exc)
        except LookupError:  # pragma: no cover - names are checked by codecs.lookup
            return fallback_text(raw)

    def _keep_c1(self, raw: bytes) -> None:
        """A byte Windows-1252 leaves undefined was read: the file is in the lossless
        variant from now on (the same reading), so writing it back keeps the byte."""
        if self.encoding == SINGLE_BYTE_FALLBACK and not C1_KEPT.isdisjoint(raw):
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
                f"{fallback_text(raw[first : first + 1])!r}",
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
        return fallback_text(raw)


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


__all__ = [
    "LOSSLESS_CP1252",
    "CutLine",
    "LineDecoder",
    "LineSplitter",
    "SplitStats",
    "limited_text_lines",
    "split_lines",
    "stream_lines",
    "text_lines",
]
