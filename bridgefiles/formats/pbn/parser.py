"""PBN text through the grammar (``grammars/pbn.lark``): Lark's LALR parser, its
callbacks handing a :class:`GameBuilder` each section as its rule completes (the
tokens of a tag, table, Auction or Play, flat) and each game's end; no tree is kept.

What the grammar rejects stops Lark there. In lenient mode the error is handed to the
builder where it is (line and column, what was found), with the text from there to
the next tag or game end, kept whole; the tokens of the section it broke go to the
builder first, as far as they were read. Then the parse goes on at that tag or game
end, in the grammar's ``resume`` rule (the rest of a game, then games), on a parser
whose lexer starts there (no copy of the text). Strict mode stops at the first.

A parse may be given a budget of tokens (``Limits.max_commands_per_board``): past it
the parse stops, the sections read so far are handed on, and the builder is told where
(``cut``), so one game of a million comments builds no more than the budget. Only a
text longer than the budget can hold more tokens than it (a token is one character or
more), so only such a text is parsed a token at a time, counting; every other text is
parsed in one call. It is the same parser either way.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from bridgefiles.errors import StrictModeError
from bridgefiles.formats import terminals
from bridgefiles.formats.pbn.grammar import build
from bridgefiles.formats.pbn.sections import TOKEN
from bridgefiles.formats.terminals import engine
from bridgefiles.model.diagnostic import error

# the terminal that opens each kind of section, to its rule
SECTION_OF = {
    "TAG": "tag",
    "TAGS": "tag",
    "INHERITED": "tag",
    "DEFAULT": "tag",
    "TABLE_TAG": "table",
    "AUCTION_TAG": "auction",
    "PLAY_TAG": "play",
}
# Where reading goes on after a rejection: a game's end (a semi-empty line) or a tag.
_RESUME = re.compile(r"(?:\r\n|\r(?!\n)|\n)(?:[ \t]*(?:\r\n|\r(?!\n)|\n))+|\[")
_LINE_END = re.compile(r"\r\n|\r|\n")


class GameBuilder(Protocol):
    """What the parse hands on, in file order."""

    def lead(self, token: Token) -> None:
        """Commentary or an escape line before a game's first tag."""

    def section(self, kind: str, tokens: list[Token]) -> None:
        """A tag pair and what follows it (``kind``: tag, table, auction or play)."""

    def game_end(self) -> None:
        """The game of the sections since the last end is whole."""

    def rejected(self, text: str, line: int, column: int, message: str) -> None:
        """Text the grammar does not read (kept whole), where it starts, and why."""

    def cut(self, line: int, column: int) -> None:
        """The token budget ran out at line:column: the rest is not read."""


class _Rules:
    """The grammar's callbacks, to the builder of the parse under way (one parser a
    thread, so the callbacks know it)."""

    def __init__(self) -> None:
        self.builder: GameBuilder | None = None
        self.open = False  # a section was handed on since the last game end
        self.skipped: list[Token] = []  # passed over in the section being read

    def took(self, kind: str, children: list[Token]) -> None:
        """(Not a rule's name: Lark looks every rule's name up here, ``_section`` too.)"""
        assert self.builder is not None
        self.open = True
        if self.skipped:  # in their places among the section's tokens
            children = sorted([*children, *self.skipped], key=_start)
            self.skipped = []
        self.builder.section(kind, children)

    def tag(self, children: list[Token]) -> None:
        self.took("tag", children)

    def table(self, children: list[Token]) -> None:
        self.took("table", children)

    def auction(self, children: list[Token]) -> None:
        self.took("auction", children)

    def play(self, children: list[Token]) -> None:
        self.took("play", children)

    def lead(self, children: list[Token]) -> None:
        assert self.builder is not None
        self.builder.lead(children[0])

    def game(self, children: list[Any]) -> None:
        self.end()

    rest = game

    def end(self) -> None:
        if self.open:
            assert self.builder is not None
            self.open = False
            self.builder.game_end()

    def start(self, children: list[Any]) -> None:
        return None

    resume = start


def _parser(which: str) -> tuple[Lark, _Rules]:
    """This thread's parser on ``which`` engine, and its callbacks."""

    def make() -> tuple[Lark, _Rules]:
        rules = _Rules()
        return build(rules, which), rules

    return terminals.per_thread(f"pbn_parser_{which}", make)


def _tokens(values: list[Any]) -> list[Token]:
    """The tokens of the parser's stack that no rule took yet, in order."""
    out: list[Token] = []
    for value in values:
        if isinstance(value, Tree):
            out.extend(_tokens(value.children))
        elif hasattr(value, "start_pos") and not value.type.startswith("_"):
            out.append(value)  # a token (lark-cython's is not Lark's class), not a gap
    return out


def _where(exc: UnexpectedInput) -> int:
    """Where the text the grammar rejects starts."""
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            return -1
        start: int = exc.token.start_pos or 0
        return start
    return exc.pos_in_stream or 0


def _message(exc: UnexpectedInput, text: str, pos: int) -> str:
    found = "the end of the text" if pos < 0 else repr(text[pos : pos + 20])
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    named = ", ".join(e for e in expected if not e.startswith("_"))[:160]
    return f"the PBN grammar does not read {found} here" + (f" (expected {named})" if named else "")


def _resume_at(text: str, at: int, exc: UnexpectedInput, restart: int) -> int:
    """Where reading goes on after text rejected at ``at``: there when what was rejected
    is a tag pair or a game end (what came before it is what was broken), else at the
    next tag pair or game end after it, or at the end of the text. Never again at the
    ``restart`` where this parse began, so every rejection reads on."""
    kind = exc.token.type if isinstance(exc, UnexpectedToken) else ""
    if (kind in SECTION_OF or kind == "_GAP") and at != restart:
        return at
    m = _RESUME.search(text, at + 1 if text.startswith("[", at) or at == restart else at)
    return m.start() if m else len(text)


def _line_column(text: str, pos: int, line: int, line_start: int, at: int) -> tuple[int, int, int]:
    """Line, column and line start of ``at`` in ``text``, counting on from ``pos``
    (which is on ``line``, that starts at ``line_start``)."""
    for m in _LINE_END.finditer(text, pos, at):
        line += 1
        line_start = m.end()
    return line, at - line_start + 1, line_start


def parse(
    text: str,
    builder: GameBuilder,
    strict: bool = False,
    path: str | None = None,
    which: str | None = None,
    budget: int | None = None,
) -> None:
    """The games of ``text`` to ``builder``, in order (see the module's docstring)."""
    lark, rules = _parser(which or engine())
    counted = budget is not None and len(text) > budget
    try:
        if not counted and len(text) <= _ONE_CALL:  # the usual game, read whole in one call
            heard = _Heard()
            rules.builder, rules.open, rules.skipped = heard, False, []
            try:
                lark.parse(text, start="start")
            except UnexpectedInput:
                pass  # read again below, where what the grammar rejects is handled
            else:
                heard.tell(builder)
                return
        rules.builder, rules.open, rules.skipped = builder, False, []
        _parse(lark, rules, text, builder, strict, path, budget if counted else None)
    finally:
        rules.builder = None


# The longest text parsed in one call first: what its callbacks say waits until the end
# of the text (see _Heard), so a long one (a game of many thousand tags, held within the
# limits by its builder as it reads) goes through the interactive parser at once.
_ONE_CALL = 32_768


class _Heard:
    """What the callbacks of a parse in one call say, told to the builder once the whole
    text is read: a text with something the grammar rejects is read again through the
    interactive parser (see :func:`_parse`), and its builder hears only that reading."""

    def __init__(self) -> None:
        self.said: list[tuple[str, tuple[Any, ...]]] = []

    def section(self, kind: str, tokens: list[Token]) -> None:
        self.said.append(("section", (kind, tokens)))

    def lead(self, token: Token) -> None:
        self.said.append(("lead", (token,)))

    def game_end(self) -> None:
        self.said.append(("game_end", ()))

    def rejected(self, text: str, line: int, column: int, message: str) -> None:
        self.said.append(("rejected", (text, line, column, message)))

    def cut(self, line: int, column: int) -> None:
        self.said.append(("cut", (line, column)))

    def tell(self, builder: GameBuilder) -> None:
        for name, args in self.said:
            getattr(builder, name)(*args)


class _OutOfBudget(Exception):
    """The token budget ran out at this token."""

    def __init__(self, token: Token) -> None:
        super().__init__()
        self.token = token


def _run(interactive: Any, budget: int | None, spent: list[int]) -> None:
    """The parse from where ``interactive`` stands to the end of the text; with a
    budget, a token at a time, counting (``spent`` carries the count across resumes)."""
    if budget is None:
        interactive.resume_parse()
        return
    for token in interactive.iter_parse():
        spent[0] += 1
        if spent[0] > budget:
            raise _OutOfBudget(token)
    interactive.feed_eof()


def _parse(
    lark: Lark,
    rules: _Rules,
    text: str,
    builder: GameBuilder,
    strict: bool,
    path: str | None,
    budget: int | None,
) -> None:
    start, pos, line, line_start = "start", 0, 1, 0
    spent = [0]
    interactive: Any = None
    while True:
        if interactive is None:
            interactive = lark.parse_interactive(text, start=start)
            if pos:
                counter = interactive.lexer_thread.state.line_ctr
                counter.char_pos, counter.line = pos, line
                counter.column, counter.line_start_pos = pos - line_start + 1, line_start
        try:
            _run(interactive, budget, spent)
            return
        except _OutOfBudget as over:
            state = interactive.parser_state
            _hand_on(_tokens(list(state.value_stack)), builder, rules)
            builder.cut(over.token.line or 1, over.token.column or 1)
            rules.end()
            return
        except (UnexpectedCharacters, UnexpectedToken) as exc:
            stopped = _where(exc)
            at = len(text) if stopped < 0 else stopped
            if strict:
                diag = error(
                    "syntax", _message(exc, text, stopped), line=exc.line, column=exc.column,
                    path=path,
                )  # fmt: skip
                raise StrictModeError(diag.format(), diag) from None
            # (a parse driven a token at a time, under a budget, is the one that stopped)
            interactive = getattr(exc, "interactive_parser", None) or interactive
            state = interactive.parser_state
            if _pass_over(exc, text, rules, interactive, builder):
                continue
            _hand_on(_tokens(list(state.value_stack)), builder, rules)
            resume = _resume_at(text, at, exc, pos if start == "resume" else -1)
            line, column, line_start = _line_column(text, pos, line, line_start, at)
            builder.rejected(text[at:resume], line, column, _message(exc, text, stopped))
            line, _, line_start = _line_column(text, at, line, line_start, resume)
            if resume >= len(text) or not text.startswith("[", resume):
                rules.end()  # the end of the text or of the game: the broken game is whole
            if resume >= len(text):
                return
            start, pos = "resume", resume
            interactive = None


# What the grammar does not read where it stands, one piece at a time: a '[' that opens
# no tag pair (to its ']' or the line's end), a '{' never closed (to the end), a '"'
# never closed (to the line's end), else a token as the section reader splits a
# section's words and marks (sections.TOKEN: what it then says is wrong with it).
_PIECE = re.compile(r"\[[^\]\r\n]*\]?|\{[^}]*|\"[^\r\n]*|" + TOKEN.pattern)


def _pass_over(
    exc: UnexpectedInput, text: str, rules: _Rules, interactive: Any, builder: GameBuilder
) -> bool:
    """Pass over what the grammar does not read here, when it is a token or a piece of
    text within a game (not a tag pair, the game's end or the text's): the piece goes to
    the section under way as a token of its own marked rejected (``!`` before its
    terminal: ``!CALL``, ``!TEXT``), in its place, for the reader to say what is wrong
    with it; before the game's first tag, it goes to the builder as rejected. Then the
    parse reads on after it. False when the parse must resume elsewhere instead."""
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type in SECTION_OF or token.type in ("_GAP", "$END"):
            return False
        piece = Token(
            "!" + token.type, str(token), token.start_pos, token.line, token.column,
            token.end_line, token.end_column, token.end_pos,
        )  # fmt: skip
    else:
        at = exc.pos_in_stream or 0
        m = _PIECE.match(text, at)
        if m is None:  # only blanks: the lexer stops at no blank (they are ignored)
            return False
        counter = interactive.lexer_thread.state.line_ctr
        value = m.group()
        line, column = counter.line, counter.column
        piece = Token("!TEXT", value, at, line, column, end_pos=m.end())
        _advance(counter, value)
    if any(t.type in SECTION_OF for t in _tokens(list(interactive.parser_state.value_stack))):
        rules.skipped.append(piece)
    else:
        builder.rejected(str(piece), piece.line or 1, piece.column or 1, "")
    return True


def _advance(counter: Any, passed: str) -> None:
    """Lark's line counter moved past the text ``passed``."""
    breaks = passed.count("\n")
    counter.char_pos += len(passed)
    if breaks:
        counter.line += breaks
        counter.line_start_pos = counter.char_pos - (len(passed) - passed.rfind("\n") - 1)
    counter.column = counter.char_pos - counter.line_start_pos + 1


def _start(token: Token) -> int:
    return token.start_pos or 0


def _hand_on(tokens: list[Token], builder: GameBuilder, rules: _Rules) -> None:
    """The tokens read before a rejection and not yet handed on: commentary before a
    game's first tag, then each section as far as it was read (with what was passed
    over in it)."""
    if rules.skipped:
        tokens = sorted([*tokens, *rules.skipped], key=_start)
        rules.skipped = []
    i = 0
    while i < len(tokens) and tokens[i].type not in SECTION_OF:
        builder.lead(tokens[i])
        i += 1
    while i < len(tokens):
        j = i + 1
        while j < len(tokens) and tokens[j].type not in SECTION_OF:
            j += 1
        rules.open = True
        builder.section(SECTION_OF[tokens[i].type], tokens[i:j])
        i = j


# (rejected text, line, column, the grammar's message, the kind of the section it broke)
Rejection = tuple[str, int, int, str, str | None]


class ParsedGame:
    """A builder that keeps what the parse of one game hands on, for the game's reader
    (formats/pbn/game.py): the commentary before its first tag, its sections (each the
    tag's token, then the section's), what the grammar rejected, and where the token
    budget ran out. Past ``most`` sections it keeps none (the reader reads no tag past
    its tags' limit: a line of a million tag pairs holds no state per pair)."""

    __slots__ = ("kind", "leading", "most", "rejections", "sections", "stopped")

    def __init__(self, most: int | None = None) -> None:
        self.most = most
        self.leading: list[Token] = []
        self.sections: list[list[Token]] = []
        self.rejections: list[Rejection] = []
        self.stopped: tuple[int, int] | None = None
        self.kind: str | None = None  # the kind of the last section handed on

    def lead(self, token: Token) -> None:
        self.leading.append(token)

    def section(self, kind: str, tokens: list[Token]) -> None:
        self.kind = kind
        if self.most is None or len(self.sections) < self.most:
            self.sections.append(tokens)

    def game_end(self) -> None:
        return None

    def rejected(self, text: str, line: int, column: int, message: str) -> None:
        self.rejections.append((text, line, column, message, self.kind))

    def cut(self, line: int, column: int) -> None:
        self.stopped = (line, column)
