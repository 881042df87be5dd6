"""LIN text to records through the grammar (``grammars/lin.lark``): Lark's LALR parser,
its callbacks making the reader's :class:`Command` and :class:`Run` values as each record
is reduced (no tree is kept), on lark-cython when it is installed.

What the grammar rejects (free text, a name that is not two characters, a value with no
closing bar, a value of ``md``, ``sv``, ``mb``, ``pc`` or ``mc`` that is not one) stops
Lark's lexer there; :meth:`_Parse.rejected` takes it and Lark's
interactive parser resumes the parse after it (what ``on_error`` does, without the
deprecated ``lexer_state`` lark-cython's ``on_error`` still reads): in lenient mode
it is kept as the command it reads as (lin.md 1: a name is the last two letters before the
bar) and reading goes on at the next record; the builder then says what it was, where it
is. Strict mode stops at the first, with its line and column (a value not read: where
the builder reports it).

``BRIDGEFILES_LARK=python`` in the environment picks pure-Python Lark even when
lark-cython is installed (both give the same records: tests/test_lin_parser.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from lark import Lark
from lark.exceptions import UnexpectedCharacters

from bridgefiles.errors import StrictModeError
from bridgefiles.formats import terminals
from bridgefiles.formats.lin.commands import CHUNK_CAP_FACTOR, Chunk, Command, Run, named, safe_cut
from bridgefiles.formats.lin.tokens import BLANKS
from bridgefiles.formats.terminals import ENGINE_VARIABLE, engine
from bridgefiles.model.diagnostic import error

GRAMMAR = "lin.lark"
TYPED_VALUES = frozenset({"md", "sv", "mb", "pc", "mc"})
"""The commands whose values the grammar reads (lin.md 6), so that it rejects a value
that is not one: the builder says what is wrong with it."""
__all__ = ["ENGINE_VARIABLE", "build", "chunks", "engine", "grammar_text", "parse_chunk"]


def grammar_text() -> str:
    """The text of ``lin.lark``, from the installed package or the source tree."""
    return terminals.grammar_text(GRAMMAR)


def build(transformer: Any = None, which: str | None = None) -> Lark:
    """The LALR parser of the grammar with ``transformer``'s callbacks, on the engine
    ``which`` (default :func:`engine`): its terminals mean the same everywhere, so
    Lark's basic lexer."""
    return terminals.lalr(GRAMMAR, transformer, which, lexer="basic")


class _Parse:
    """One chunk being parsed: where its records go and where it stands in the file."""

    __slots__ = ("chunk", "column", "line", "path", "rejects", "strict", "text")

    def __init__(
        self, chunk: Chunk, line: int, column: int, strict: bool, path: str | None
    ) -> None:
        self.chunk = chunk
        self.text = chunk.text
        self.line = line  # the file line of the chunk's first line
        self.column = column  # the file column of its first character
        self.strict = strict
        self.path = path
        self.rejects: deque[tuple[int, Command]] = deque()  # rejected, not yet placed

    def where(self, line: int, column: int) -> tuple[int, int]:
        """A chunk's line and column (Lark's, from 1) in the file."""
        if line == 1:
            return self.line, column + self.column - 1
        return self.line + line - 1, column

    def place(self, before: int) -> None:
        """The rejected text before ``before`` goes in first: a record is reduced when the
        token after it is read, so the text rejected after it waits for it."""
        rejects = self.rejects
        items = self.chunk.items
        while rejects and rejects[0][0] < before:
            items.append(rejects.popleft()[1])

    def pair(self, token: Any) -> None:
        start = token.start_pos
        if self.rejects:
            self.place(start)
        body = token.value
        raw_tag, value, _ = body.split("|")
        line, column = token.line, token.column
        lead = len(raw_tag) - 2  # the name is two characters; blanks before it
        if lead:
            nl = raw_tag.rfind("\n", 0, lead)
            if nl >= 0:
                line, column = line + raw_tag.count("\n", 0, lead), lead - nl
            else:
                column += lead
        at = self.where(line, column)
        self.chunk.items.append(
            named(raw_tag, value, self.chunk.offset, start, lambda _: at, closed=True)
        )

    def commands(self, token: Any) -> None:
        """A run of commands each of which the builder places on its own (it may begin
        a board): taken apart here."""
        start = token.start_pos
        if self.rejects:
            self.place(start)
        line, column = self.where(token.line, token.column)
        run = Run(token.value, self.chunk.offset + start, line, column)
        self.chunk.items.extend(run.commands())

    def run(self, token: Any) -> None:
        start = token.start_pos
        if self.rejects:
            self.place(start)
        line, column = self.where(token.line, token.column)
        self.chunk.items.append(
            Run(token.value, self.chunk.offset + start, line, column, token.type == "CARDS")
        )

    def rejected(self, exc: UnexpectedCharacters) -> None:
        """Where the grammar stopped: the text from there to the end of the pair it
        belongs to (or of the chunk) is one command, as lin.md 1 reads it, and the lexer
        goes on after it. A whole pair whose value the grammar does not read (``mb|1Z|``)
        is the builder's to report, even in strict mode: it says what is wrong with the
        value (``tag-value``, an error, so strict reading stops there all the same)."""
        state = exc.interactive_parser.lexer_thread.state
        assert state is not None  # the lexer stopped in this text
        counter = state.line_ctr
        text = self.text
        pos = counter.char_pos
        at = self.where(counter.line, counter.column)
        start = pos
        while start and text[start - 1] in BLANKS:  # blanks the grammar skipped before it
            start -= 1
        bar = text.find("|", pos)
        closing = text.find("|", bar + 1) if bar >= 0 else -1
        if self.strict and not (closing >= 0 and text[pos:bar].lower() in TYPED_VALUES):
            diag = error(
                "syntax",
                f"text the LIN grammar does not read: {text[pos : pos + 20]!r} "
                "(not a command|value| pair)",
                line=at[0],
                column=at[1],
                path=self.path,
            )
            raise StrictModeError(diag.format(), diag)
        offset = self.chunk.offset
        cmd: Command | None
        if bar < 0:  # free text to the end of the chunk
            end = len(text)
            body = text[start:end]
            lead = pos - start
            nl = body.rfind("\n", 0, lead)
            cmd = Command(
                "", body.strip(BLANKS), "", offset + start + (nl + 1 if nl >= 0 else 0), *at
            )
        else:
            end = len(text) if closing < 0 else closing + 1
            value = text[bar + 1 : end - (closing >= 0)]
            cmd = named(text[start:bar], value, offset, start, lambda _: at, closing >= 0)
        self.rejects.append((pos, cmd))
        skipped = text[pos:end]
        if _CYTHON_COUNTER is not None and isinstance(counter, _CYTHON_COUNTER):
            counter.feed(skipped, True)
        else:
            counter.feed(skipped)


try:
    from lark_cython.lark_cython import LineCounter as _CYTHON_COUNTER
except ImportError:  # pragma: no cover - lark-cython is a dependency where it installs
    _CYTHON_COUNTER = None


class Records:
    """The grammar's callbacks: each record, as it is reduced, to the chunk being parsed
    (one parser a thread, so the callbacks know their chunk)."""

    def __init__(self) -> None:
        self.current: _Parse | None = None

    def _pair(self, children: list[Any]) -> None:
        assert self.current is not None
        self.current.pair(children[0])

    def _run(self, children: list[Any]) -> None:
        assert self.current is not None
        self.current.run(children[0])

    def deal(self, children: list[Any]) -> None:
        assert self.current is not None
        self.current.commands(children[0])

    claim = undo = note = header = other = _pair
    auction = play = _run

    def start(self, children: list[Any]) -> None:
        return None


def _parser(which: str) -> tuple[Lark, Records]:
    """This thread's parser on ``which`` engine, and its callbacks."""

    def make() -> tuple[Lark, Records]:
        records = Records()
        return build(records, which), records

    return terminals.per_thread(f"parser_{which}", make)


def parse_chunk(
    chunk: Chunk,
    first_line: int,
    first_column: int = 1,
    strict: bool = False,
    path: str | None = None,
    which: str | None = None,
) -> None:
    """The records of ``chunk.text`` into ``chunk.items``, in order, with file lines and
    columns (the chunk starts at ``first_line``, ``first_column``), parsed on the engine
    ``which`` (default :func:`engine`)."""
    lark, records = _parser(which or engine())
    job = _Parse(chunk, first_line, first_column, strict, path)
    records.current = job
    try:
        try:
            lark.parse(chunk.text)
        except UnexpectedCharacters as exc:
            # Lark's interactive parser: past the rejected text, the parse goes on where
            # it stopped (any sequence of records is one, so only the lexer stops)
            stopped = exc
            while True:
                job.rejected(stopped)
                try:
                    stopped.interactive_parser.resume_parse()  # type: ignore[no-untyped-call]
                    break
                except UnexpectedCharacters as again:
                    stopped = again
    finally:
        records.current = None
    job.place(len(chunk.text) + 1)


def chunks(
    lines: Iterator[str],
    max_open: int | None = None,
    chunk_size: int = 1 << 14,
    strict: bool = False,
    path: str | None = None,
) -> Iterator[Chunk]:
    """Chunks of lines with their commands, in file order.

    A chunk gathers at least ``chunk_size`` characters (each parse has a fixed
    cost) and ends with a line that ends with a bar, outside a value; it never
    grows past ``CHUNK_CAP_FACTOR * chunk_size`` (then it ends inside a line, after
    a bar that closes a value), so memory holds a few chunks whatever the file.
    A value still open after ``max_open`` characters (a lost closing bar) ends its
    chunk there, marked ``cut``, so one broken value cannot take the whole file.
    Each chunk is parsed by the grammar (formats/lin/parser.py; ``strict``: stop at the
    first text it rejects; ``path``: the file to name then).
    """
    cap = CHUNK_CAP_FACTOR * chunk_size
    size = 0
    buf: list[str] = []
    odd = False  # inside a value: an odd number of bars since the last chunk
    offset = 0
    line_no = 1
    first_line = 1
    first_column = 1  # column of the chunk's first character (> 1 after a cut in a line)

    def flush() -> Chunk:
        nonlocal buf, size
        text = "".join(buf)
        buf = []
        size = 0
        chunk = Chunk(text, offset)
        parse_chunk(chunk, first_line, first_column, strict, path)
        return chunk

    for line in lines:
        if not odd and line.startswith("%"):
            if buf:
                chunk = flush()
                yield chunk
                offset += len(chunk.text)
            body = line.rstrip("\r\n")
            comment = Chunk(line, offset)
            comment.items.append(Command("%", body[1:], body, offset, line_no, 1))
            yield comment
            offset += len(line)
            line_no += 1
            continue
        pos = 0
        while size + len(line) - pos > cap:
            cut = safe_cut(line, pos, pos + max(cap - size, 0), odd)
            if cut is None:
                break
            if not buf:
                first_line, first_column = line_no, pos + 1
            buf.append(line[pos:cut])
            odd = False
            chunk = flush()
            yield chunk
            offset += len(chunk.text)
            pos = cut
        if pos:
            line = line[pos:]
        if not buf:
            first_line, first_column = line_no, pos + 1
        buf.append(line)
        size += len(line)
        line_no += 1
        if line.count("|") & 1:
            odd = not odd
        if not odd and size >= chunk_size and line.rstrip(BLANKS).endswith("|"):
            chunk = flush()
            yield chunk
            offset += len(chunk.text)
        elif odd and max_open is not None and size > max_open:
            chunk = flush()
            chunk.cut = True
            odd = False
            yield chunk
            offset += len(chunk.text)
    if buf:
        yield flush()
