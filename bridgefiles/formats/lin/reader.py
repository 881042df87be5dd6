"""LIN commands to boards, one board at a time (lin.md sections 3, 4, 5 and 11).

Board boundaries (lin.md 4): ``qx`` opens a table record; ``md`` with a dealer
digit opens a new board once the current one has a deal; commands that open a
board (``pn``, ``mn``, ``qx`` ...) met after a board's deal are held until the
next command shows whether they belong to the next board. Header commands of a
vugraph file (``vg rs pw mp bn`` and an 8-name ``pn`` before the first board)
are kept in the file preamble and, as extras at position -1 plus PBN tags
(Event, Stage, Scoring, teams, players by room), on every board.

Every command lands somewhere: in a model field, or kept as an :class:`Extra`
(format "lin", position = calls and cards made before it) so nothing is lost;
whatever could not be read is a diagnostic with line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.lin import values
from bridgefiles.formats.lin.auction_play import place_cards
from bridgefiles.formats.lin.commands import _WS, Command, Run, chunks
from bridgefiles.formats.lin.source import PendingText
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.model.annotations import NO_ANNOTATIONS, Annotations
from bridgefiles.model.auction import Auction, AuctionEntry, EntryKind
from bridgefiles.model.board import Board, EscapeLine, Extra, TagPair
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import ALL_CARDS, Card, Rank, Strain, Suit
from bridgefiles.model.deal import Deal, Hand
from bridgefiles.model.diagnostic import Diagnostic, Severity, error, info, warning
from bridgefiles.model.fast import construct
from bridgefiles.model.fast import make as _make
from bridgefiles.model.outcome import AuctionOutcome, auction_outcome, trick_winner
from bridgefiles.model.play import Claim, Play, PlayEnd
from bridgefiles.model.seats import Seat, Vulnerability

FORMAT = "lin"
HEADER_POSITION = -1

HEADER_TAGS = frozenset({"vg", "rs", "pw", "mp", "bn"})
# Commands that may begin a board; after a deal they wait to see where they belong.
_OPEN_AFTER_DEAL = frozenset({"pn", "mn", "st", "qx", *HEADER_TAGS})
_OPEN_AFTER_BODY = _OPEN_AFTER_DEAL | {"rh", "ah"}
_DIGITS = frozenset("1234")
_TEXT_TAGS = frozenset({"nt", "at", "an", "mn", "ah", "lb", "sb", "pd", "bt"})

_KNOWN = (
    "pn st md rh ah sv mb an pg pc mc qx nt vg rs pw mp bn mn at sk hc lc hs ls sc sa va "
    "up ub tc pf pa lb bt tu sb ha ia ih cr cg cb cp cq cs fh ff fb fi fu fm fp ht bg bd "
    "bm wb hb lf se sr rt zm su vx vi vj vp vh wt ts ob mx xl kc rc tt os do jp kp hf bs "
    "hz lg rq eb bv fg xx ip pd pi sj tb by sd dn cm fa ss vv uu zs zv"
)
KNOWN_TAGS = frozenset(_KNOWN.split())  # lin.md section 5


# One pair of a PLAY_RUN or AUCTION_RUN token: blanks, the two-letter name, the value.
_RUN_PAIR = re.compile(r"(\s*)(\S\S)\|([^|]*)\|")

_CARD_TEXT: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _text in (
        _card.code,
        _card.code.lower(),
        _card.code[0] + _card.code[1].lower(),
        _card.code[0].lower() + _card.code[1],
    ):
        _CARD_TEXT[_text] = _card


def _header_like(cmd: Command) -> bool:
    """What a vugraph header holds besides vg/rs/pw/mp/bn: pauses, chat, 8 names."""
    if cmd.tag in HEADER_TAGS or cmd.tag in ("pg", "nt", "", "%"):
        return True
    return cmd.tag == "pn" and len(cmd.value.split(",")) != 4


@dataclass
class _Header:
    """File or segment level commands, carried onto each board."""

    vg: list[str] | None = None
    rs: list[str] | None = None
    pn: list[str] | None = None
    pw: list[str] | None = None
    bn: list[str] | None = None
    extras: list[Extra] = field(default_factory=list)


@dataclass(slots=True)
class _Entry:
    call: Call
    alert: bool
    explanation: str | None
    line: int
    column: int


@dataclass(slots=True)
class _PendingCard:
    suit: Suit
    rank: Rank | None
    value: str
    line: int
    column: int
    position: int
    card: Card | None = None  # the card itself when the rank is known
    kept: int = 0  # extras kept before this card (where it goes back if taken back)


# mb values already read to one plain call: (call, alert). Filled as values come, up to
# a bound (memory stays flat whatever the file); the same answer values.calls gives.
_MB_CACHE: dict[str, tuple[Call, bool]] = {}
_MB_CACHE_SIZE = 2048


def _single_call(value: str) -> tuple[Call, bool] | None:
    """The one call an ``mb`` value makes, or None for anything unusual (the general
    path, with its diagnostics, then takes the command)."""
    found = _MB_CACHE.get(value)
    if found is not None:
        return found
    try:
        parsed = values.calls(value)
    except ValueError:
        return None
    if len(parsed) != 1 or parsed[0][0] is None:
        return None
    found = (parsed[0][0], parsed[0][1])
    if len(_MB_CACHE) < _MB_CACHE_SIZE:
        _MB_CACHE[value] = found
    return found


@dataclass
class _Acc:
    """A board being gathered."""

    offset: int
    line: int
    index: int
    header: _Header
    names: list[str] | None = None
    room: str | None = None
    number: str | None = None
    dealer: Seat | None = None
    dealer_given: bool = False
    hands: dict[Seat, Hand | None] | None = None
    md_line: int | None = None
    md_column: int | None = None
    vulnerability: Vulnerability | None = None
    entries: list[_Entry] = field(default_factory=list)
    unknown_calls: int = 0
    cards: list[_PendingCard] = field(default_factory=list)
    claim: Claim | None = None
    extras: list[Extra] = field(default_factory=list)
    escapes: list[EscapeLine] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    events: int = 0
    last: str = ""  # tag of the last command applied
    has_qx: bool = False
    known: bool = False  # a LIN command was applied (a board holds at least one)
    commands: int = 0
    over_limit: bool = False

    @property
    def has_body(self) -> bool:
        return bool(self.entries or self.cards or self.claim or self.unknown_calls)


_LINE_OPENERS = frozenset({"st", "md", "ah", "rh"})


class _Builder:
    def __init__(self, options: ReadOptions, info: FileInfo) -> None:
        self.options = options
        self.info = info
        self.header = _Header()
        self.header_started = False
        self.cur: _Acc | None = None
        self.pending: list[Command] = []
        self.count = 0
        self.text = PendingText()
        self.preamble_done = False

    # -- diagnostics ----------------------------------------------------------
    def report(self, target: list[Diagnostic], diag: Diagnostic) -> None:
        diag = diag.model_copy(update={"path": self.options.path}) if self.options.path else diag
        if self.options.strict and diag.severity is Severity.ERROR:
            raise StrictModeError(diag.format(), diag)
        target.append(diag)

    def file_report(self, diag: Diagnostic) -> None:
        self.report(self.info.diagnostics, diag)

    # -- text bookkeeping --------------------------------------------------------
    def add_text(self, text: str) -> None:
        """Text read so far and not yet given to a board (or the preamble)."""
        self.text.add(text)

    def cut(self, offset: int) -> str:
        """The text from the last cut up to ``offset``."""
        return self.text.cut(offset)

    def rest(self) -> str:
        return self.text.rest()

    # -- the command stream -------------------------------------------------------
    def feed(self, cmd: Command) -> Iterator[Board]:
        cur = self.cur
        if cur is None:
            if self.is_header(cmd):
                self.apply_header(cmd)
                return
            yield from self.start(cmd)
            return
        tag = cmd.tag
        if tag == "qx" and (cur.has_qx or cur.hands is not None or cur.has_body):
            yield from self.start(cmd)
            return
        if (
            cmd.column == 1
            and cur.has_body
            and not cur.has_qx
            and (
                (tag == "pn" and len(cmd.value.split(",")) == 4)
                or (tag in _LINE_OPENERS and cur.hands is None)
            )
        ):
            # lin.md 4, rule 3: in a file of one board a line, a line that starts with the
            # players, ``st``, ``md``, ``ah`` or ``rh`` opens the next board even when the
            # current one has no deal to tell it by (a second table's record of a deal).
            yield from self.start(cmd)
            return
        if (
            tag == "md"
            and cur.hands is not None
            and (
                cmd.value.strip()[:1] in _DIGITS or (self.pending and not cmd.value.startswith("0"))
            )
        ):
            yield from self.start(cmd)
            return
        openers = _OPEN_AFTER_BODY if cur.has_body else _OPEN_AFTER_DEAL
        if cur.hands is not None and (
            tag in openers or (self.pending and self.pending[0].tag == "vg" and _header_like(cmd))
        ):
            self.pending.append(cmd)
            return
        if self.pending:
            held, self.pending = self.pending, []
            for c in held:
                self.apply(cur, c)
        self.apply(cur, cmd)

    def feed_run(self, run: Run) -> Iterator[Board]:
        """A run of ``pc`` (or ``mb``/``an``) pairs: inside a board, with nothing held, its
        usual pairs are taken here in one pass; otherwise command by command."""
        acc = self.cur
        if acc is None or self.pending:
            for cmd in run.commands():
                yield from self.feed(cmd)
            return
        self.apply_run(acc, run)

    def apply_run(self, acc: _Acc, run: Run) -> None:
        """What :meth:`apply` does for each pair of ``run``, with its handlers' plain
        cases inlined (one card, one call, an explanation, an empty pause); any other
        pair goes through :meth:`apply` itself."""
        text = run.text
        if self.options.limits.exceeded("max_commands_per_board", acc.commands + text.count("|")):
            for cmd in run.commands():  # near the limit: the general path counts and stops
                self.apply(acc, cmd)
            return
        acc.known = True  # a run holds pc, mb or an pairs
        line, column = run.line, run.column
        flat = "\n" not in text
        cards = acc.cards
        entries = acc.entries
        for m in _RUN_PAIR.finditer(text):
            blanks, written, value = m.group(1, 2, 3)
            at = m.start(2)
            if flat:
                pline, pcol = line, column + at
            else:
                pline, pcol = run.position(at)
            tag = written.lower()
            if not blanks or not blanks.strip(_WS):
                if tag == "pc":
                    card = _CARD_TEXT.get(value)
                    if card is not None:
                        acc.commands += 1
                        cards.append(
                            _PendingCard(
                                card.suit,
                                card.rank,
                                value,
                                pline,
                                pcol,
                                acc.events,
                                card,
                                len(acc.extras),
                            )
                        )
                        acc.events += 1
                        acc.last = tag
                        continue
                elif tag == "mb":
                    single = _single_call(value)
                    if single is not None:
                        acc.commands += 1
                        entries.append(_Entry(single[0], single[1], None, pline, pcol))
                        acc.events += 1
                        acc.last = tag
                        continue
                elif tag == "an":
                    if acc.last == "mb" and entries and entries[-1].explanation is None:
                        acc.commands += 1
                        entry = entries[-1]
                        if value == "!" and not entry.alert:
                            entry.alert = True
                        else:
                            entry.explanation = value
                        acc.last = tag
                        continue
                elif tag == "pg" and not value:
                    acc.commands += 1
                    acc.last = tag
                    continue
            cmd = run.pair(blanks + written, value, m.start())
            self.apply(acc, cmd)

    def is_header(self, cmd: Command) -> bool:
        if cmd.tag == "%":
            return True
        if cmd.tag in HEADER_TAGS:
            self.header_started = True
            return True
        if not self.header_started:
            return False
        if cmd.tag in ("pg", "nt", ""):
            return True
        return cmd.tag == "pn" and len(cmd.value.split(",")) != 4

    def start(self, cmd: Command) -> Iterator[Board]:
        """Begin a board at ``cmd`` (or at the first held command)."""
        held, self.pending = self.pending, []
        first = held[0] if held else cmd
        if self.cur is not None:
            yield self.finish(self.cur, self.cut(first.offset))
        elif not self.preamble_done:
            self.preamble_done = True
            text = self.cut(first.offset)
            self.info.preamble = text or None
        if any(c.tag == "vg" for c in held):
            # a new segment's header (files joined together): it heads the boards after it
            self.header = _Header()
            while held and _header_like(held[0]):
                self.apply_header(held.pop(0), file_level=False)
        self.cur = _Acc(offset=first.offset, line=first.line, index=self.count, header=self.header)
        self.count += 1
        for c in held:
            self.apply(self.cur, c)
        self.apply(self.cur, cmd)

    def end(self) -> Iterator[Board]:
        cur = self.cur
        if cur is not None:
            for c in self.pending:
                self.apply(cur, c)
            self.pending = []
            if cur.known or self.count > 1:
                yield self.finish(cur, self.rest())
                return
        # no board: text with no LIN command in it (a board needs at least one)
        rest = self.rest()
        self.info.preamble = (self.info.preamble or "") + rest or None
        self.file_report(
            error(
                "syntax",
                "no board: no LIN command (pn|...|, md|...|, mb|...|, pc|...|) in the text; "
                "not a LIN file",
                line=1,
            )
        )

    # -- header ------------------------------------------------------------------
    def apply_header(self, cmd: Command, file_level: bool = True) -> None:
        """A header command: file level, and carried onto every board after it."""
        if cmd.tag == "%":
            if file_level:
                self.info.directives.append(EscapeLine(text=cmd.value, line=cmd.line))
            return
        self.update_header(cmd, self.info.diagnostics)
        self.header.extras.append(
            Extra(
                format=FORMAT,
                key=cmd.written if cmd.tag == "" else cmd.tag,
                value=cmd.value,
                position=HEADER_POSITION,
                line=cmd.line,
                column=cmd.column,
            )
        )

    def update_header(self, cmd: Command, diags: list[Diagnostic]) -> None:
        tag = cmd.tag
        h = self.header
        fields = cmd.value.split(",")
        if tag == "vg":
            h.vg = fields
            if len(fields) != 9:
                self.report(
                    diags,
                    warning(
                        "tag-value",
                        f"vg has {len(fields)} fields, 9 expected",
                        line=cmd.line,
                        column=cmd.column,
                    ),
                )
        elif tag == "rs":
            h.rs = fields
        elif tag == "pw":
            h.pw = fields
        elif tag == "bn":
            h.bn = [f.strip() for f in fields]
        elif tag == "pn":
            h.pn = fields
            if len(fields) != 8:
                self.report(
                    diags,
                    warning(
                        "tag-value",
                        f"pn in the header has {len(fields)} names, 8 expected",
                        line=cmd.line,
                        column=cmd.column,
                    ),
                )
        elif tag == "" and cmd.value:
            self.report(
                diags,
                info(
                    "syntax",
                    "free text between commands kept as a comment",
                    line=cmd.line,
                    column=cmd.column,
                ),
            )

    # -- board commands ------------------------------------------------------------
    def keep(self, acc: _Acc, cmd: Command, key: str | None = None) -> None:
        acc.extras.append(
            Extra(
                format=FORMAT,
                key=key if key is not None else cmd.tag,
                value=cmd.value,
                position=acc.events,
                line=cmd.line,
                column=cmd.column,
            )
        )

    def bad_value(self, acc: _Acc, cmd: Command, why: str, severity: str = "error") -> None:
        make = {"error": error, "warning": warning, "info": info}[severity]
        self.report(
            acc.diagnostics,
            make(
                "tag-value",
                f"{cmd.tag}|{cmd.value.strip()}|: {why}; kept as written",
                line=cmd.line,
                column=cmd.column,
            ),
        )
        self.keep(acc, cmd)

    def apply(self, acc: _Acc, cmd: Command) -> None:
        tag = cmd.tag
        acc.commands += 1
        limits = self.options.limits
        if limits.exceeded("max_commands_per_board", acc.commands):
            if not acc.over_limit:
                acc.over_limit = True
                diag = limits.check(
                    "max_commands_per_board",
                    acc.commands,
                    what="the commands of this board",
                    strict=self.options.strict,
                    consequence="the rest of the board is kept as text only",
                    line=cmd.line,
                    column=cmd.column,
                    path=self.options.path,
                )
                if diag is not None:
                    acc.diagnostics.append(diag)
            return
        if tag == "%":
            acc.escapes.append(EscapeLine(text=cmd.value, line=cmd.line))
            return
        if tag in KNOWN_TAGS:
            acc.known = True
        if cmd.stray:
            if len(cmd.stray) <= 2 and cmd.stray.lower() in KNOWN_TAGS:
                msg = f"{cmd.stray!r} lost its value and bar before {cmd.tag!r}"
                self.report(
                    acc.diagnostics, warning("syntax", msg, line=cmd.line, column=cmd.column)
                )
            else:
                self.report(
                    acc.diagnostics,
                    info(
                        "syntax",
                        f"free text before {cmd.tag!r} kept as a comment",
                        line=cmd.line,
                        column=cmd.column,
                    ),
                )
            acc.extras.append(
                Extra(
                    format=FORMAT,
                    key="",
                    value=cmd.stray,
                    position=acc.events,
                    line=cmd.line,
                    column=cmd.column,
                )
            )
        if not cmd.closed:
            self.report(
                acc.diagnostics,
                info(
                    "syntax",
                    f"the last command {tag}|{cmd.value}| has no closing bar",
                    line=cmd.line,
                    column=cmd.column,
                ),
            )
        handler = _HANDLERS.get(tag)
        if handler is not None:
            handler(self, acc, cmd)
        elif tag in HEADER_TAGS:
            self.update_header(cmd, acc.diagnostics)
            self.keep(acc, cmd)
        elif tag == "":
            self.report(
                acc.diagnostics,
                info(
                    "syntax",
                    "free text between commands kept as a comment",
                    line=cmd.line,
                    column=cmd.column,
                ),
            )
            self.keep(acc, cmd, key="")
        else:
            if tag not in KNOWN_TAGS:
                if len(tag) != 2:
                    self.report(
                        acc.diagnostics,
                        warning(
                            "syntax",
                            f"command name {cmd.written!r} is not two characters",
                            line=cmd.line,
                            column=cmd.column,
                        ),
                    )
                    self.keep(acc, cmd, key=cmd.written)
                    acc.last = tag
                    return
                self.report(
                    acc.diagnostics,
                    info(
                        "unknown-tag",
                        f"unknown command {cmd.written!r} kept as written",
                        line=cmd.line,
                        column=cmd.column,
                    ),
                )
            self.keep(acc, cmd)
        acc.last = tag

    def on_pn(self, acc: _Acc, cmd: Command) -> None:
        names = cmd.value.split(",")
        if len(names) == 4 and acc.names is None:
            acc.names = names
            return
        if len(names) == 8 and not acc.has_body and acc.names is None:
            acc.names = names[4:] if acc.room == "Closed" else names[:4]
            self.keep(acc, cmd)
            return
        self.bad_value(
            acc,
            cmd,
            f"{len(names)} names where 4 are expected"
            if len(names) != 4
            else "players already given",
            "warning",
        )

    def on_md(self, acc: _Acc, cmd: Command) -> None:
        try:
            dealer, digit, hands = values.deal(cmd.value)
        except ValueError as exc:
            self.bad_value(acc, cmd, str(exc))
            return
        why = None
        if not digit and all(h is None for h in hands.values()):
            why = "md with no dealer and no hand kept as a display command"  # a movie's clear
        elif digit == "0" or (acc.hands is not None and not digit):
            why = "md that edits the deal shown (a movie step) kept as a display command"
        if why is not None:
            self.report(acc.diagnostics, info("deal", why, line=cmd.line, column=cmd.column))
            self.keep(acc, cmd)
            return
        acc.dealer, acc.dealer_given = dealer, bool(digit)
        acc.hands = hands
        acc.md_line, acc.md_column = cmd.line, cmd.column
        given = [h for h in hands.values() if h is not None]
        where = {"line": cmd.line, "column": cmd.column}
        if len(given) == 3 and any(len(h) != 13 for h in given):
            self.report(
                acc.diagnostics,
                info(
                    "deal",
                    "three hands given, not of 13 cards each: the fourth is left unknown",
                    **where,
                ),
            )
        elif len(given) < 3:
            self.report(
                acc.diagnostics, info("deal", "incomplete deal: fewer than three hands", **where)
            )
        if not digit:
            self.report(acc.diagnostics, warning("deal", "md has no dealer digit", **where))

    def on_sv(self, acc: _Acc, cmd: Command) -> None:
        if not cmd.value.strip():
            self.bad_value(acc, cmd, "empty vulnerability", "warning")
            return
        try:
            acc.vulnerability = values.vulnerability(cmd.value)
        except ValueError as exc:
            self.bad_value(acc, cmd, str(exc))

    def on_mb(self, acc: _Acc, cmd: Command) -> None:
        try:
            parsed = values.calls(cmd.value)
        except ValueError as exc:
            self.bad_value(acc, cmd, str(exc))
            acc.unknown_calls += 1
            return
        if len(parsed) > 1 or parsed[0][0] is None:
            # movie forms: keep the command as written, and the calls it makes
            self.report(
                acc.diagnostics,
                info(
                    "tag-value",
                    f"mb|{cmd.value}| holds {len(parsed)} calls or a placeholder",
                    line=cmd.line,
                    column=cmd.column,
                ),
            )
            self.keep(acc, cmd)
            acc.unknown_calls += 1
            return
        call, alert, _ = parsed[0]
        assert call is not None
        acc.entries.append(_Entry(call, alert, None, cmd.line, cmd.column))
        acc.events += 1

    def on_an(self, acc: _Acc, cmd: Command) -> None:
        if acc.last == "mb" and acc.entries and acc.entries[-1].explanation is None:
            entry = acc.entries[-1]
            if cmd.value == "!" and not entry.alert:
                entry.alert = True
            else:
                entry.explanation = cmd.value
            return
        self.report(
            acc.diagnostics,
            info(
                "note",
                "an that does not follow a call kept as written",
                line=cmd.line,
                column=cmd.column,
            ),
        )
        self.keep(acc, cmd)

    def on_pc(self, acc: _Acc, cmd: Command) -> None:
        card = _CARD_TEXT.get(cmd.value)
        if card is not None:  # the usual case: one card, as BBO writes it
            pending = _PendingCard(
                card.suit,
                card.rank,
                cmd.value,
                cmd.line,
                cmd.column,
                acc.events,
                card,
                len(acc.extras),
            )
            acc.cards.append(pending)
            acc.events += 1
            return
        try:
            items = values.cards(cmd.value)
        except ValueError as exc:
            self.bad_value(acc, cmd, str(exc))
            return
        if any(unknown for _, _, unknown in items):
            self.report(
                acc.diagnostics,
                info(
                    "tag-value",
                    f"pc|{cmd.value}| shows an unknown card; kept as a display command",
                    line=cmd.line,
                    column=cmd.column,
                ),
            )
            self.keep(acc, cmd)
            return
        if len(items) > 1 or items[0][1] is None:
            self.report(
                acc.diagnostics,
                info(
                    "tag-value",
                    f"pc|{cmd.value}|: movie form (several cards or a suit alone), read as cards",
                    line=cmd.line,
                    column=cmd.column,
                ),
            )
        for suit, rank, _ in items:
            card = Card.of(suit, rank) if rank is not None else None
            acc.cards.append(
                _PendingCard(
                    suit, rank, cmd.value, cmd.line, cmd.column, acc.events, card, len(acc.extras)
                )
            )
            acc.events += 1

    def on_up(self, acc: _Acc, cmd: Command) -> None:
        t = cmd.value.strip()
        n = int(t) if t.isdigit() else (1 if not t else -1)
        if n < 0:
            self.bad_value(acc, cmd, "not a number of cards to take back", "warning")
            return
        if n and acc.cards:
            self.take_back(acc, max(0, len(acc.cards) - n))
        self.report(
            acc.diagnostics,
            info(
                "play",
                f"up|{t}|: {n} card(s) taken back (movie undo)",
                line=cmd.line,
                column=cmd.column,
            ),
        )
        self.keep(acc, cmd)

    def take_back(self, acc: _Acc, start: int) -> None:
        """Cards from ``start`` on are taken back (a movie's undo)."""
        removed = acc.cards[start:]
        del acc.cards[start:]
        _unplay(acc, removed)

    def on_mc(self, acc: _Acc, cmd: Command) -> None:
        try:
            tricks = values.claim(cmd.value)
        except ValueError as exc:
            self.bad_value(acc, cmd, str(exc))
            return
        if acc.claim is not None:
            self.bad_value(acc, cmd, "a second claim", "warning")
            return
        acc.claim = Claim(
            tricks=tricks,
            raw=None if cmd.value == str(tricks) else cmd.value,
            line=cmd.line,
            column=cmd.column,
        )

    def on_qx(self, acc: _Acc, cmd: Command) -> None:
        room, number = values.table_label(cmd.value)
        acc.has_qx = True
        acc.room = room or acc.room
        acc.number = number or acc.number
        canonical = (
            room is not None and number is not None and cmd.value == (f"{room[0].lower()}{number}")
        )
        if not canonical:
            self.keep(acc, cmd)

    def on_ah(self, acc: _Acc, cmd: Command) -> None:
        number = values.heading_number(cmd.value)
        if acc.number is None:
            acc.number = number
        if number is None or cmd.value != f"Board {number}" or number != acc.number:
            self.keep(acc, cmd)

    def on_layout(self, acc: _Acc, cmd: Command) -> None:
        """``st``, ``rh``, ``pg``: no data when empty; kept when they carry text."""
        if cmd.value:
            self.keep(acc, cmd)

    # -- the finished board ------------------------------------------------------
    def finish(self, acc: _Acc, source: str) -> Board:
        tags: list[TagPair] = []
        diags = acc.diagnostics
        h = acc.header

        def tag(name: str, value: str | None) -> None:
            if value is not None:
                tags.append(_make(TagPair, name=name, value=value))

        vg = h.vg or []

        def vg_field(i: int) -> str | None:
            return vg[i].strip() if len(vg) > i and vg[i].strip() else None

        tag("Event", vg_field(0))
        tag("Stage", vg_field(1))
        tag("Board", acc.number)
        names = acc.names
        if names is None and h.pn is not None and len(h.pn) == 8:
            names = h.pn[4:] if acc.room == "Closed" else h.pn[:4]
        if names is None and h.pw and h.bn and acc.number in h.bn:
            size = len(h.pw) // len(h.bn)
            if size in (4, 8):
                i = h.bn.index(acc.number) * size + (4 if size == 8 and acc.room == "Closed" else 0)
                names = h.pw[i : i + 4]
        if names is not None and any(n.strip() for n in names):
            by_seat = dict(zip(values.LIN_ORDER, names, strict=False))
            for seat in (Seat.W, Seat.N, Seat.E, Seat.S):
                tag(seat.full_name, by_seat.get(seat, ""))
        dealer = acc.dealer
        tag("Dealer", dealer.value if dealer else None)
        vul = acc.vulnerability
        if vul is not None:
            tag("Vulnerable", vul.value)
        elif acc.hands is not None:
            self.report(
                diags,
                info(
                    "missing-tag",
                    "no sv: vulnerability unknown",
                    line=acc.md_line,
                    column=acc.md_column,
                ),
            )
        deal: Deal | None = None
        if acc.hands is not None:
            deal = _make(Deal, hands=acc.hands, first=dealer or Seat.N)
            given = [h for h in acc.hands.values() if h is not None]
            distinct = len({c.index for h in given for c in h.cards})
            if distinct == 13 * len(given) == 39:
                deal = deal.completed()  # the fourth hand is implied (lin.md 6.1)
                distinct, given = 52, list(deal.hands.values())  # type: ignore[arg-type]
            if distinct != 13 * len(given) or (distinct == 52) is not (len(given) == 4):
                for problem in deal.problems():
                    self.report(
                        diags, error("deal", problem, line=acc.md_line, column=acc.md_column)
                    )
            if any(h is not None for h in deal.hands.values()):
                tag("Deal", deal.pbn(dealer or Seat.N))
        scoring = vg_field(2)
        if scoring is not None:
            tag("Scoring", values.SCORING.get(scoring.upper(), scoring))

        auction: Auction | None = None
        outcome: AuctionOutcome | None = None
        if acc.entries:
            first = dealer
            if first is None:
                first = Seat.S
                self.report(
                    diags,
                    warning(
                        "missing-tag",
                        "calls without a dealer: South taken as dealer",
                        line=acc.entries[0].line,
                        column=acc.entries[0].column,
                    ),
                )
            auction = _make(
                Auction,
                first=first,
                entries=tuple(
                    construct(
                        AuctionEntry,
                        {
                            "kind": EntryKind.CALL,
                            "call": e.call,
                            "insufficient": False,
                            "annotations": Annotations(alert=e.alert, explanation=e.explanation)
                            if e.alert or e.explanation is not None
                            else NO_ANNOTATIONS,
                            "line": e.line,
                            "column": e.column,
                        },
                        {"call", "annotations", "line", "column"},
                    )
                    for e in acc.entries
                ),
                line=acc.entries[0].line,
                column=acc.entries[0].column,
            )
            if not acc.unknown_calls:
                found = auction_outcome(auction, first)
                if found.complete and found.contract is not None:
                    outcome = found
        result: int | None = None
        play: Play | None = None
        if outcome is not None:
            if outcome.declarer is not None:
                tag("Declarer", outcome.declarer.value)
            tag("Contract", outcome.contract.text if outcome.contract else None)
        if acc.cards:
            play, result = self.build_play(acc, deal, outcome)
        if acc.claim is not None:
            result = acc.claim.tricks
        if result is not None and (outcome is None or outcome.declarer is not None):
            tag("Result", str(result))
        self.check_rs(acc, outcome, result)
        tag("Room", acc.room)
        tag("HomeTeam", vg_field(5))
        tag("VisitTeam", vg_field(7))
        extras = [*h.extras, *acc.extras] if h.extras else acc.extras
        return _make(
            Board,
            tags=tuple(tags),
            auction=auction,
            play=play,
            escapes=tuple(acc.escapes),
            extras=tuple(extras),
            format=FORMAT,
            index=acc.index,
            line=acc.line,
            source=source,
            diagnostics=tuple(diags),
        )

    def check_rs(self, acc: _Acc, outcome: AuctionOutcome | None, result: int | None) -> None:
        """The header's ``rs`` entry for this table against what the board itself says
        (lin.md 7: the entries run open, closed for each board from vg's first board)."""
        h = acc.header
        if not h.rs or not h.vg or len(h.vg) < 4 or acc.room not in ("Open", "Closed"):
            return
        first, number = h.vg[3].strip(), acc.number
        if not first.isdigit() or number is None or not number.isdigit():
            return
        i = 2 * (int(number) - int(first)) + (acc.room == "Closed")
        if not 0 <= i < len(h.rs):
            return
        try:
            entry = values.table_result(h.rs[i])
        except ValueError as exc:
            self.report(acc.diagnostics, warning("tag-value", f"rs: {exc}", line=acc.line))
            return
        if entry is None:
            return
        contract, declarer, tricks = entry
        where = f"the rs entry {h.rs[i].strip()!r} for this table says"
        made = outcome.contract.text if outcome is not None and outcome.contract else None
        if made is not None and made != contract.text:
            self.report(
                acc.diagnostics,
                warning(
                    "contract-mismatch",
                    f"the auction ends in {made}; {where} {contract.text}",
                    line=acc.line,
                ),
            )
        elif outcome is not None and declarer is not None and outcome.declarer is not declarer:
            d = outcome.declarer.value if outcome.declarer else "nobody"
            self.report(
                acc.diagnostics,
                warning(
                    "declarer-mismatch",
                    f"the auction makes {d} declarer; {where} {declarer.value}",
                    line=acc.line,
                ),
            )
        elif result is not None and tricks is not None and result != tricks:
            self.report(
                acc.diagnostics,
                warning(
                    "result-mismatch",
                    f"the board gives {result} tricks; {where} {tricks}",
                    line=acc.line,
                ),
            )

    def build_play(
        self, acc: _Acc, deal: Deal | None, outcome: AuctionOutcome | None
    ) -> tuple[Play, int | None]:
        diags = acc.diagnostics
        first_card = acc.cards[0]
        declarer = outcome.declarer if outcome else None
        strain = outcome.contract.strain if outcome and outcome.contract else None
        if declarer is not None:
            leader = declarer.lho
        else:
            leader = Seat.W
            holder = None
            if deal is not None and first_card.rank is not None:
                card = Card.of(first_card.suit, first_card.rank)
                holder = next((s for s, h in deal.hands.items() if h and card in h), None)
            leader = holder or leader
            self.report(
                diags,
                warning(
                    "play",
                    f"cards played without a contract: {leader.full_name} taken as the "
                    "opening leader, tricks won as at notrump",
                    line=first_card.line,
                    column=first_card.column,
                ),
            )
        cards = self.resolve(acc, deal, leader, strain)
        placed = place_cards(leader, cards, strain, declarer)
        claim = acc.claim
        result: int | None = None
        if claim is None and placed.complete_tricks == 13 and declarer is not None:
            result = placed.declarer_tricks
        if len(cards) > 52:
            self.report(
                diags,
                error("play", f"{len(cards)} cards played, more than 52", line=first_card.line),
            )
        play = _make(
            Play,
            first=leader,
            slots=placed.slots,
            end=PlayEnd.STOPPED if claim is not None else PlayEnd.OPEN,
            claim=claim,
            line=first_card.line,
            column=first_card.column,
        )
        return play, result

    def resolve(
        self, acc: _Acc, deal: Deal | None, leader: Seat, strain: Strain | None
    ) -> list[tuple[Card, int | None, int | None]]:
        """Cards with ranks; a suit alone (movies) is the lowest card the player holds."""
        out: list[tuple[Card, int | None, int | None]] = []
        if all(c.card is not None for c in acc.cards):
            return [(c.card, c.line, c.column) for c in acc.cards]  # type: ignore[misc]
        held = {s: set(h.cards) if h else set() for s, h in (deal.hands.items() if deal else ())}
        seat = leader
        trick: list[Card] = []
        trick_leader = leader
        dropped: list[_PendingCard] = []
        for c in acc.cards:
            card: Card | None = None
            if c.rank is not None:
                card = Card.of(c.suit, c.rank)
            else:
                options = sorted(
                    (k for k in held.get(seat, ()) if k.suit is c.suit), key=lambda k: k.rank
                )
                if options:
                    card = options[0]
            if card is None:
                self.report(
                    acc.diagnostics,
                    warning(
                        "tag-value",
                        f"pc|{c.value}|: no {c.suit.value} card to play; dropped from "
                        "the play and kept as written",
                        line=c.line,
                        column=c.column,
                    ),
                )
                dropped.append(c)
                continue
            held.get(seat, set()).discard(card)
            out.append((card, c.line, c.column))
            trick.append(card)
            if len(trick) == 4:
                trick_leader = trick_winner(trick_leader, trick, strain)
                seat, trick = trick_leader, []
            else:
                seat = seat.lho
        if dropped:
            _unplay(acc, dropped)
        return out


def _unplay(acc: _Acc, removed: list[_PendingCard]) -> None:
    """Cards no longer in the play (taken back by ``up``, or with no card to play) stay
    in the board as ``pc`` display commands where they stood, and what was kept after
    them moves back by as many places as cards went before it: writing the board and
    reading it back gives the same board (an idempotent export)."""
    extras = acc.extras
    k = 0
    for index in range(len(extras)):
        while k < len(removed) and removed[k].kept <= index:
            k += 1
        position = extras[index].position
        if k and position is not None and position >= 0:
            extras[index] = extras[index].model_copy(update={"position": position - k})
    for shift, c in reversed(list(enumerate(removed))):
        written = c.value.strip(_WS)
        if len(written) != (1 if c.card is None else 2):  # one of several cards of a command
            written = c.card.code if c.card is not None else c.suit.value
        extras.insert(
            c.kept,
            Extra(
                format=FORMAT,
                key="pc",
                value=written,
                position=c.position - shift,
                line=c.line,
                column=c.column,
            ),
        )
    acc.events -= len(removed)


_HANDLERS = {
    "pn": _Builder.on_pn,
    "md": _Builder.on_md,
    "sv": _Builder.on_sv,
    "mb": _Builder.on_mb,
    "an": _Builder.on_an,
    "pc": _Builder.on_pc,
    "up": _Builder.on_up,
    "mc": _Builder.on_mc,
    "qx": _Builder.on_qx,
    "ah": _Builder.on_ah,
    "st": _Builder.on_layout,
    "rh": _Builder.on_layout,
    "pg": _Builder.on_layout,
}


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """The boards of a LIN text, one at a time."""
    builder = _Builder(options, info)
    limits = options.limits
    nul_seen = False
    for chunk in chunks(_newline_watch(lines, info), limits.max_comment_size):
        builder.add_text(chunk.text)
        if not nul_seen and "\x00" in chunk.text:
            nul_seen = True  # reported once: a UTF-16 file read as 8-bit text has one in 2
            line = chunk.items[0].line if chunk.items else None
            builder.file_report(
                error(
                    "encoding",
                    "NUL characters in the text: UTF-16 without a byte-order mark? "
                    "LIN is 8-bit text",
                    line=line,
                )
            )
        if chunk.cut:
            diag = limits.check(
                "max_comment_size",
                len(chunk.text),
                what="a value with no closing bar",
                strict=options.strict,
                consequence="it is cut there and reading goes on",
                line=chunk.items[0].line if chunk.items else None,
                path=options.path,
            )
            if diag is not None:
                (builder.cur.diagnostics if builder.cur else info.diagnostics).append(diag)
        for item in chunk.items:
            if isinstance(item, Run):
                yield from builder.feed_run(item)
            else:
                yield from builder.feed(item)
    yield from builder.end()


def _newline_watch(lines: Iterator[str], info: FileInfo) -> Iterator[str]:
    for line in lines:
        if info.newline is None and line.endswith("\n"):
            info.newline = "\r\n" if line.endswith("\r\n") else "\n"
        yield line
