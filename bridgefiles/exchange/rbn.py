"""RBN (Richard's Bridge Notation, Pavlicek's archive format), registered as "rbn".

A record (lines up to a blank line) is read by saying it in PBN and reading that with
the PBN reader, so the deal, the auction, the play and their findings are worked out
by the one code that does so (the labels are in rbn_labels.py). Each finding is moved
to the RBN line it came from. What has no PBN tag (a title ``T``, double-dummy makes
``M``, items ``I``, carry-overs, a date span) is kept as an extra of format "rbn" and
written back by the RBN writer (rbn_writer.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from bridgefiles.errors import StrictModeError
from bridgefiles.exchange.cards import found
from bridgefiles.exchange.rbn_labels import (
    CALL,
    CARD,
    REPEATING,
    ROOMS,
    SCORING,
    VUL,
    pbn_call,
    pbn_date,
    seat,
)
from bridgefiles.exchange.rbn_writer import adapt, write
from bridgefiles.formats.decode import text_lines
from bridgefiles.formats.pbn.reader import read_pbn
from bridgefiles.formats.registry import FileInfo, Format, ReadOptions, register
from bridgefiles.model.annotations import Comment
from bridgefiles.model.board import Board, EscapeLine, Extra
from bridgefiles.model.cards import Card, Suit
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.outcome import trick_winner
from bridgefiles.model.seats import Seat, rotation_from

LABELS = frozenset("DTLESFKNBHACPRMI0123456789")


@dataclass
class Record:
    """One RBN record on its way to PBN: tag and section lines, each with its RBN line."""

    lines: list[tuple[str, int]] = field(default_factory=list)
    extras: list[Extra] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    notes: dict[str, tuple[str, int]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def tag(self, name: str, value: str, line: int) -> None:
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        self.lines.append((f'[{name} "{escaped}"]', line))

    def keep(self, label: str, value: str, line: int) -> None:
        self.extras.append(Extra(format="rbn", key=label, value=value, line=line))


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """A board per record; the repeating labels carry into the records after them."""
    repeated: dict[str, tuple[str, int]] = {}
    record: list[tuple[int, str]] = []
    size = 0
    skipping = False  # past the size limit of a record: to its end, nothing is read
    index = 0
    for lineno, line in enumerate(lines, start=1):
        if line.strip():
            size += len(line)
            if skipping:
                continue
            start = record[0][0] if record else lineno
            over = options.limits.check(
                "max_board_size", size, what=f"the record from line {start}",
                strict=options.strict, consequence="the rest of it is not read",
                line=lineno, path=options.path,
            )
            if over is not None:
                info.diagnostics.append(over)
                skipping = True
                continue
            record.append((lineno, line))
            continue
        size, skipping = 0, False
        if record and all(text.startswith("%") for _, text in record):
            info.directives.extend(  # a record of % lines alone: the file's own
                EscapeLine(text=text[1:].rstrip("\r\n"), line=n) for n, text in record
            )
        elif record:
            board = _board(record, repeated, options, index)
            if board is not None:
                yield board
                index += 1
        record = []
    if record:
        board = _board(record, repeated, options, index)
        if board is not None:
            yield board
            index += 1
    if index == 0:
        found(options, error("syntax", "no RBN record in the input"), info.diagnostics)


def _board(
    record: list[tuple[int, str]],
    repeated: dict[str, tuple[str, int]],
    options: ReadOptions,
    index: int,
) -> Board | None:
    out = Record()
    labels: dict[str, tuple[str, int]] = {}
    paragraph: list[str] = []
    for lineno, line in record:
        text = line.rstrip("\r\n")
        if paragraph or text.startswith("{"):
            paragraph.append(text)
            if text.rstrip().endswith("}"):
                body = "\n".join(paragraph).strip()[1:-1]
                out.comments.append(Comment(text=body, line=lineno - len(paragraph) + 1))
                paragraph = []
            continue
        label, value = text[:1], text[2:]
        if label == "%":
            out.keep("%", text[1:], lineno)
        elif label not in LABELS or text[1:2] not in (" ", ""):
            message = f"not an RBN line (a label, a space, then the data): {text[:40]!r}"
            found(options, warning("syntax", message + "; not read", line=lineno),
                  out.diagnostics)
            out.keep("?", text, lineno)
        elif label in labels:
            message = f"a second {label} line in one record: kept, not read"
            found(options, warning("syntax", message, line=lineno), out.diagnostics)
            out.keep(label, value, lineno)
        else:
            labels[label] = (value, lineno)
    if paragraph:
        message = "commentary not closed by '}' at the end of a line"
        found(options, warning("syntax", message, line=record[-1][0]), out.diagnostics)
        out.comments.append(Comment(text="\n".join(paragraph).lstrip()[1:], line=record[0][0]))
    if not labels and not out.comments and not out.extras:
        return None
    for label in REPEATING:
        if label in labels:
            repeated[label] = labels[label]
        elif label in repeated:
            labels[label] = repeated[label]
    for label in "0123456789":
        if label in labels:
            out.notes[label] = labels.pop(label)
    for label in [k for k, (v, _) in labels.items() if not v.strip()]:
        del labels[label]  # an empty label: no value (and it stops a repeating one)
    _identification(labels, out)
    return _parsed(out, labels, record, options, index)


def _identification(labels: dict[str, tuple[str, int]], out: Record) -> None:
    """The labels that are tags: date, places, names, board, deal, contract, result."""
    simple = {"L": "Site", "E": "Event", "S": "Stage"}
    for label, (value, line) in labels.items():
        if label in simple:
            out.tag(simple[label], value, line)
        elif label == "D":
            date = pbn_date(value)
            if date is None:
                out.keep("D", value, line)
            else:
                out.tag("Date", date[0], line)
                if date[1] is not None:
                    out.tag("Time", date[1], line)
        elif label == "F":
            if value.upper() in SCORING:
                out.tag("Scoring", SCORING[value.upper()], line)
            elif len(value) > 1 and ":" not in value:  # words: as they stand
                out.tag("Scoring", value, line)
            else:  # a letter PBN has no word for, or a modifier
                out.keep("F", value, line)
        elif label == "K":
            home, _, rest = value.partition(":")
            visitors, _, carry = rest.partition(":")
            out.tag("HomeTeam", home, line)
            out.tag("VisitTeam", visitors, line)
            if carry:
                out.keep("K", value, line)
        elif label == "N":
            _names(value, line, out)
        elif label == "B":
            number, _, section = value.partition(":")
            out.tag("Board", number, line)
            if section:
                out.tag("Section", section, line)
        elif label == "H":
            out.tag("Deal", _deal(value), line)
        elif label == "C":
            contract, _, rest = value.partition(":")
            declarer, _, leader = rest.partition(":")
            out.tag("Contract", contract.upper().replace("N", "NT").replace("NTT", "NT")
                    if contract.upper() != "P" else "Pass", line)
            if declarer:
                out.tag("Declarer", declarer.upper(), line)
            if leader:
                out.keep("C", value, line)
        elif label == "R":
            digits = len(value) - len(value.lstrip("0123456789"))
            if digits:
                out.tag("Result", value[:digits], line)
            if value[digits:] or not digits:
                out.keep("R", value, line)
        elif label in "TMI":
            out.keep(label, value, line)


def _names(value: str, line: int, out: Record) -> None:
    fields = value.split(":")
    pairs = [*fields, ""][:2]
    ns = [*pairs[0].split("+"), ""][:2]
    we = [*pairs[1].split("+"), ""][:2]
    for name, who in zip(("North", "South", "West", "East"), (*ns, *we), strict=True):
        if who:
            out.tag(name, who, line)
    if len(fields) > 2 and fields[2] in ROOMS:
        out.tag("Room", ROOMS[fields[2]], line)
    elif len(fields) > 2 and fields[2].isdecimal():
        out.tag("Table", fields[2], line)
    if len(fields) > 3 or (len(fields) > 2 and fields[2] not in ROOMS
                           and not fields[2].isdecimal()):
        out.keep("N", value, line)


def _deal(value: str) -> str:
    """``W:hand:hand:hand:`` as a PBN Deal; a last empty hand after a colon is the rest."""
    first, _, hands = value.partition(":")
    parts = hands.split(":")
    rest = len(parts) == 4 and parts[3] == ""
    shown = [p if p else "-" for p in parts[:4]] + ["-"] * (4 - len(parts[:4]))
    text = f"{first.upper()}:" + " ".join(shown)
    if rest:
        with contextlib.suppress(ValueError):  # (the PBN reader says what is wrong)
            text = Deal.parse(text).completed().pbn()
    return text


def _parsed(
    out: Record,
    labels: dict[str, tuple[str, int]],
    record: list[tuple[int, str]],
    options: ReadOptions,
    index: int,
) -> Board:
    """Read the record's PBN with the PBN reader (twice when there is play: the leader
    and trumps come from the contract the first reading finds)."""
    if "A" in labels:
        _auction(*labels["A"], out)
    board = _read(out, options)
    if "P" in labels and board is not None:
        _play(*labels["P"], board, out)
        board = _read(out, options)
    source = "".join(line for _, line in record)
    kept = Board() if board is None else board
    diags = (*out.diagnostics, *kept.diagnostics)
    return kept.model_copy(
        update={
            "format": "rbn",
            "index": index,
            "line": record[0][0],
            "source": source,
            "extras": tuple(out.extras),
            "comments": (*kept.comments, *out.comments),
            "diagnostics": diags,
        }
    )


def _read(out: Record, options: ReadOptions) -> Board | None:
    """The record's PBN read by the PBN reader, its findings put on the RBN lines."""
    text = "".join(f"{line}\n" for line, _ in out.lines)
    where = [rbn for _, rbn in out.lines]
    inner = ReadOptions(limits=options.limits, path=options.path)
    info = FileInfo(path=options.path)
    board = next(read_pbn(text_lines(text), inner, info), None)
    if board is None:
        return None
    moved = []
    for d in (*info.diagnostics, *board.diagnostics):
        line = where[d.line - 1] if d.line is not None and 0 < d.line <= len(where) else None
        moved.append(d.model_copy(update={"line": line, "column": None}))
    if options.strict:
        for d in moved:
            if d.severity.value == "error":
                raise StrictModeError(d.format(options.path), d)
    return board.model_copy(update={"diagnostics": tuple(moved)})


def _auction(value: str, line: int, out: Record) -> None:
    head, colon, calls = value.partition(":")
    dealer = seat(head[:1]) if colon and len(head) == 2 else None
    if dealer is None or head[1:].upper() not in (*VUL, "?"):
        dealer, calls = Seat.W, value  # RBN 3.2: no "DV:" start means dealer West
        out.tag("Dealer", dealer.value, line)
    else:
        vul = VUL.get(head[1:].upper())
        out.tag("Dealer", dealer.value, line)
        if vul is not None:
            out.tag("Vulnerable", vul, line)
    if not calls:
        return  # a dealer and vulnerability, no call
    out.lines.append((f'[Auction "{dealer.value}"]', line))
    tokens: list[str] = []
    text = calls.replace(":", "")
    at = 0
    while at < len(text):
        m = _call_at(text, at)
        if m is None:
            message = f"the auction has {text[at]!r} where a call is expected: the rest not read"
            out.diagnostics.append(warning("syntax", message, line=line))
            break
        token, at = m
        tokens.append(token)
    for i in range(0, len(tokens), 4):
        out.lines.append((" ".join(tokens[i : i + 4]), line))
    _notes(out, line)


def _call_at(text: str, at: int) -> tuple[str, int] | None:
    m = CALL.match(text, at)
    if m is None:
        return None
    token = pbn_call(m.group(1), m.group(2), m.group(3))
    at = m.end()
    while at < len(text) and text[at] in "*!?":
        if text[at] == "*":
            token += " =A="
        else:
            token += text[at]
        at += 1
    if at < len(text) and text[at].isdigit() and not (
        at + 1 < len(text) and text[at + 1].upper() in "CDHSN"
    ):
        token += f" ={text[at]}="
        at += 1
    return token, at


def _notes(out: Record, line: int) -> None:
    """The notes the section before refers to (``=n=``), as PBN Note tags."""
    text = " ".join(t for t, _ in out.lines)
    for key, (value, where) in sorted(out.notes.items()):
        if f"={key}=" in text:
            out.tag("Note", f"{int(key) + 1}:{value}", where)
    if "=A=" in text:
        out.tag("Note", "11:Alert", line)
    for i, (t, rbn) in enumerate(out.lines):
        out.lines[i] = (_renumber(t), rbn)


def _renumber(text: str) -> str:
    """RBN notes 0-9 are PBN notes 1-10 (PBN counts from 1); an alert is note 11."""
    for digit in "9876543210":
        text = text.replace(f"={digit}=", f"={int(digit) + 1}=")
    return text.replace("=A=", "=11=")


def _play(value: str, line: int, board: Board, out: Record) -> None:
    declarer, contract = board.declarer, board.contract
    if declarer is None or contract is None or contract.strain is None:
        message = "play with no contract and declarer to say who leads: not read"
        out.diagnostics.append(warning("play", message, line=line))
        out.keep("P", value, line)
        return
    strain = contract.strain
    first = leader = declarer.lho
    rows: list[str] = []
    for trick in value.replace(";", ":").split(":"):
        cards = _trick(trick, line, out)
        if cards is None:
            out.keep("P", value, line)
            return
        if not cards:
            continue
        if len(cards) > 4:
            message = f"a trick of {len(cards)} cards ({trick!r}): play not read"
            out.diagnostics.append(warning("play", message, line=line))
            out.keep("P", value, line)
            return
        by_seat: dict[Seat, str] = {}
        for k, (card, marks) in enumerate(cards):
            by_seat[leader.offset(k)] = card.code + marks
        rows.append(" ".join(by_seat.get(s, "-") for s in rotation_from(first)))
        if len(cards) == 4:
            leader = trick_winner(leader, [c for c, _ in cards], strain)
    out.lines.append((f'[Play "{first.value}"]', line))
    out.lines.extend((row, line) for row in rows)
    if len(rows) < 13 or rows[-1].count("-"):  # stopped early: a claim (the R label)
        out.lines.append(("*", line))


def _trick(text: str, line: int, out: Record) -> list[tuple[Card, str]] | None:
    cards: list[tuple[Card, str]] = []
    led: Suit | None = None
    at = 0
    while at < len(text):
        m = CARD.match(text, at)
        if m is None:
            message = f"the play has {text[at]!r} where a card is expected: play not read"
            out.diagnostics.append(warning("play", message, line=line))
            return None
        suit = Suit(m.group(1).upper()) if m.group(1) else led
        if suit is None:
            out.diagnostics.append(warning("play", "a trick led without its suit", line=line))
            return None
        led = led or suit
        cards.append((Card.parse(suit.value + m.group(2).upper()), m.group(3)))
        at = m.end()
    return cards


def sniff(head: str) -> int:
    """Lines of ``X value`` with an ``H`` line of hands after a seat and a colon."""
    lines = [ln for ln in head.splitlines() if ln.strip()][:30]
    labelled = sum(1 for ln in lines if ln[:1] in LABELS and ln[1:2] == " ")
    hands = any(ln.startswith("H ") and ln[2:3].upper() in "NESW" and ln[3:4] == ":"
                for ln in lines)
    if hands and labelled >= 2 and labelled * 2 >= len(lines):
        return 85
    return 0


RBN = Format(
    name="rbn", extensions=(".rbn",), sniff=sniff, read=read, write=write, adapter=lambda: adapt
)
register(RBN)
