"""What the LIN reader holds while it reads: the board being gathered, the vugraph
header in force, and the reading context (options, file info, where findings go)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import NamedTuple

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.lin.commands import Command
from bridgefiles.formats.lin.tokens import FORMAT
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.model.board import EscapeLine
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Card, Suit
from bridgefiles.model.deal import Hand
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.extras import ExtraRow
from bridgefiles.model.fast import make
from bridgefiles.model.play import Claim
from bridgefiles.model.seats import Seat, Vulnerability


@dataclass
class VugraphHeader:
    """File or segment level commands, carried onto each board."""

    vg: list[str] | None = None
    rs: list[str] | None = None
    pn: list[str] | None = None
    pw: list[str] | None = None
    bn: list[str] | None = None
    extras: list[ExtraRow] = field(default_factory=list)


@dataclass(slots=True)
class Entry:
    call: Call
    alert: bool
    explanation: str | None
    line: int
    column: int


class PendingCard(NamedTuple):
    """A ``pc`` card as read, placed in the play when the board ends. A tuple: a board
    holds one per card played, and the reader makes them by the thousand."""

    card: Card | None  # the card, when its rank is known
    suit: Suit | None  # a suit written without a rank (movies); None when ``card`` is set
    value: str  # the value as written
    line: int
    column: int
    position: int  # calls and cards before it
    kept: int  # extras kept before it (where it goes back if taken back)


new_card = tuple.__new__
"""``new_card(PendingCard, (card, suit, value, line, column, position, kept))``: a
:class:`PendingCard` without the keyword handling of its constructor (the readers'
hot loop)."""


@dataclass
class BoardState:
    """A board being gathered."""

    offset: int
    line: int
    index: int
    header: VugraphHeader
    names: list[str] | None = None
    room: str | None = None
    number: str | None = None
    dealer: Seat | None = None
    dealer_given: bool = False
    hands: dict[Seat, Hand | None] | None = None
    md_line: int | None = None
    deal_text: str | None = None  # PBN Deal value of a whole deal read from md (completed)
    md_column: int | None = None
    vulnerability: Vulnerability | None = None
    entries: list[Entry] = field(default_factory=list)
    unknown_calls: int = 0
    cards: list[PendingCard] = field(default_factory=list)
    removed: list[PendingCard] = field(default_factory=list)  # taken back (movies.settle)
    claim: Claim | None = None
    extras: list[ExtraRow] = field(default_factory=list)  # kept as rows (model/extras.py)
    escapes: list[EscapeLine] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    events: int = 0  # calls and cards made so far, those taken back too (movies.settle)
    last: str = ""  # tag of the last command applied
    has_qx: bool = False
    known: bool = False  # a LIN command was applied (a board holds at least one)
    commands: int = 0
    over_limit: bool = False

    @property
    def has_body(self) -> bool:
        return bool(self.entries or self.cards or self.claim or self.unknown_calls)


def lin_extra(
    key: str, value: str, position: int, line: int | None, column: int | None
) -> ExtraRow:
    """A LIN command kept as written, ``position`` calls and cards into the board, as the
    row of an Extra (no model made: the board's Extras row holds it). Its key is interned:
    a file repeats a few commands (``nt``, ``at``, ``pg``) on every board, and each key read
    is a string of its own (some 50 bytes an extra)."""
    return (FORMAT, sys.intern(key), value, position, line, column)


_SHARED_MESSAGES = 4096
"""How many finding texts a reading keeps to share (memory stays flat whatever the file)."""


def escape_line(cmd: Command) -> EscapeLine:
    """A ``%`` comment line, kept (built lean: a file may hold many)."""
    return make(EscapeLine, text=cmd.value, line=cmd.line)


class Reading:
    """The context every part of the builder works in: how to read, the file's info,
    the vugraph header in force, and where findings go (strict mode raises)."""

    def __init__(self, options: ReadOptions, info: FileInfo) -> None:
        self.options = options
        self.info = info
        self.header = VugraphHeader()
        self.header_commands = 0  # header commands and comment lines read so far
        self.messages: dict[str, str] = {}  # the text of findings made so far (shared)
        cap = options.limits.max_commands_per_board
        self.command_cap = sys.maxsize if cap is None else cap  # commands a board may hold

    def report(self, target: list[Diagnostic], diag: Diagnostic) -> None:
        diag = diag.model_copy(update={"path": self.options.path}) if self.options.path else diag
        if self.options.strict and diag.severity is Severity.ERROR:
            raise StrictModeError(diag.format(), diag)
        target.append(diag)

    def file_report(self, diag: Diagnostic) -> None:
        self.report(self.info.diagnostics, diag)

    def over_limit(
        self,
        target: list[Diagnostic],
        name: str,
        count: int,
        what: str,
        consequence: str,
        line: int | None,
        column: int | None = None,
    ) -> None:
        """The ``limit`` finding for ``count`` going over the setting ``name``."""
        options = self.options
        diag = options.limits.check(
            name,
            count,
            what=what,
            strict=options.strict,
            consequence=consequence,
            line=line,
            column=column,
            path=options.path,
        )
        if diag is not None:
            target.append(diag)

    def about(
        self,
        target: list[Diagnostic],
        cmd: Command,
        severity: Severity,
        code: str,
        message: str,
    ) -> None:
        """A finding that points at ``cmd``."""
        self.say(target, severity, code, message, cmd.line, cmd.column)

    def say(
        self,
        target: list[Diagnostic],
        severity: Severity,
        code: str,
        message: str,
        line: int | None,
        column: int | None = None,
    ) -> None:
        """A finding, built lean: a hostile board holds one per command (up to
        ``max_commands_per_board``), so it is made without validation (its values are
        ours), with the field names shared, and its text shared with the findings
        before it that say the same."""
        messages = self.messages
        known = messages.get(message)
        if known is not None:
            message = known
        elif len(messages) < _SHARED_MESSAGES:
            messages[message] = message
        options = self.options
        diag = make(
            Diagnostic,
            code=code,
            severity=severity,
            message=message,
            line=line,
            column=column,
            path=options.path or None,
        )
        if options.strict and severity is Severity.ERROR:
            raise StrictModeError(diag.format(), diag)
        target.append(diag)
