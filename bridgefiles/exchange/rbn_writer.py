"""Writing RBN (see rbn_labels.py), and what a board from elsewhere loses on the way.

Labels come in RBN 3.1's order (``DTLESFKNBHACPRMI``, then the notes), a record ends
with a blank line and lines end with LF as RBN 3.2 writes them. A repeating label
(``TDLESFKNBH``) is written only when it changes (RBN repeats it by itself), and
written empty when a value the records before had is gone. Extras kept from an RBN
file (``T``, ``M``, ``I``, a ``K`` with carry-overs...) are written back as read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from bridgefiles.exchange.rbn_labels import (
    ORDER,
    REPEATING,
    ROOMS_BACK,
    SCORING_BACK,
    VUL_BACK,
    rbn_call,
    rbn_date,
)
from bridgefiles.formats.convert import ALERT_NOTE, LOST
from bridgefiles.formats.lin.auction_play import chronological
from bridgefiles.formats.registry import FileInfo, WriteOptions
from bridgefiles.model.auction import AuctionEnd, EntryKind
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import warning
from bridgefiles.model.seats import ROTATION

# the PBN tags an RBN record carries (the others are lost-in-conversion)
CARRIED = frozenset(
    {
        "Event", "Site", "Date", "Time", "Stage", "Scoring", "HomeTeam", "VisitTeam",
        "North", "South", "West", "East", "Room", "Table", "Board", "Section", "Deal",
        "Dealer", "Vulnerable", "Contract", "Declarer", "Result", "Note", "Auction", "Play",
    }
)
_NAMES = frozenset({"North", "South", "West", "East"})
_BLANK = re.compile(r"(?:\r?\n[ \t]*){2,}")
_ALERT_NOTE = 11  # how the reader numbers an alert's note (RBN notes 0-9 are PBN 1-10)


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    """A record a board, a blank line after each."""
    nl = options.newline or "\n"
    before: dict[str, str] = {}
    if info is not None and info.format == "rbn" and info.directives:
        yield nl.join(f"%{d.text}" for d in info.directives) + nl * 2
    for board in boards:
        if options.layout == "preserve" and board.format == "rbn" and board.source is not None:
            text = board.source
            end = "\r\n" if text.endswith("\r\n") else "\n"
            yield text.rstrip("\r\n") + end * 2
            continue
        labels = record_labels(board)
        if not labels and not board.comments:
            continue  # nothing to write (its conversion finding says so)
        lines = [f"%{e.value}" for e in board.extras if e.format == "rbn" and e.key == "%"]
        for label in ORDER:
            value = labels.get(label)
            if label in REPEATING:
                if value is None and before.get(label):
                    value = ""  # gone: say so, or the last record's value repeats
                if value is not None and before.get(label) == value:
                    continue
                before[label] = value or ""
            if value is not None:
                lines.append(f"{label} {value}".rstrip() if value == "" else f"{label} {value}")
        lines += [f"{k} {v}" for k, v in sorted(labels.items()) if k.isdigit()]
        lines += [f"{{{_BLANK.sub(nl, c.text)}}}" for c in board.comments]
        yield nl.join(lines) + nl * 2


def record_labels(board: Board) -> dict[str, str]:
    """The label values of a board (those it has no value for left out)."""
    kept = {e.key: e.value for e in board.extras if e.format == "rbn" and e.key != "?"}
    out: dict[str, str] = {k: v for k, v in kept.items() if k in "DTFKNCRMIP"}

    def tag(name: str) -> str | None:
        v = board.tag(name)
        return v if v not in (None, "", "?") else None

    date = tag("Date")
    if "D" not in out and date is not None:
        d = rbn_date(date, tag("Time"))
        if d is not None:
            out["D"] = d
    for label, name in (("L", "Site"), ("E", "Event"), ("S", "Stage")):
        if (v := tag(name)) is not None:
            out[label] = v
    scoring = tag("Scoring")
    if "F" not in out and scoring is not None:
        out["F"] = SCORING_BACK.get(scoring.lower(), scoring)
    home, visitors = tag("HomeTeam"), tag("VisitTeam")
    if "K" not in out and (home or visitors):
        out["K"] = f"{home or ''}:{visitors or ''}"
    if "N" not in out:
        names = _names(board)
        if names:
            out["N"] = names
    if (number := tag("Board")) is not None:
        section = tag("Section")
        out["B"] = number + (f":{section}" if section else "")
    hands = _hands(board)
    if hands:
        out["H"] = hands
    auction = _auction(board)
    if auction is not None:
        out["A"] = auction
    contract = board.contract
    if "C" not in out and contract is not None:
        c = str(contract).replace("NT", "N")
        declarer = board.declarer
        out["C"] = c if declarer is None else f"{c}:{declarer.value}"
    play = _play(board)
    if "P" not in out and play:
        out["P"] = play
    result = tag("Result")
    if "R" not in out and result is not None:
        out["R"] = result
    if board.auction is not None:
        for note in board.auction.notes:
            if 1 <= note.index <= 10:
                out[str(note.index - 1)] = note.text
    return out


def _names(board: Board) -> str:
    """``North+South:West+East[:room]``, a pair with no names left empty."""

    def pair(a: str, b: str) -> str:
        first, second = (board.tag(t) for t in (a, b))
        names = [v if v not in (None, "?") else "" for v in (first, second)]
        return f"{names[0]}+{names[1]}" if any(names) else ""

    fields = [pair("North", "South"), pair("West", "East")]
    room, table = board.tag("Room"), board.tag("Table")
    if room in ROOMS_BACK:
        fields.append(ROOMS_BACK[room])
    elif table is not None and table.isdecimal():
        fields.append(table)
    return ":".join(fields).rstrip(":")


def _hands(board: Board) -> str | None:
    deal = board.deal
    if deal is None:
        return None
    first = board.dealer or deal.first
    start = ROTATION.index(first)
    seats = ROTATION[start:] + ROTATION[:start]
    hands = ["" if (hand := deal.hand(s)) is None else hand.pbn for s in seats]
    if deal.is_complete:
        hands[3] = ""  # three hands and a colon: the fourth holds the rest
    return f"{first.value}:" + ":".join(hands)


def _auction(board: Board) -> str | None:
    dealer, vul = board.dealer, board.vulnerable
    auction = board.auction
    if dealer is None and (auction is None or not auction.entries):
        return None
    head = f"{(dealer or (auction.first if auction else ROTATION[3])).value}"
    head += VUL_BACK.get(str(vul), "?") if vul is not None else "?"
    calls: list[str] = []
    if auction is not None:
        for entry in auction.entries:
            if entry.kind is not EntryKind.CALL:
                continue
            if entry.call is None:  # a call we do not know: RBN has no word for it
                calls.append("Y")
                break
            token = rbn_call(entry.call.text)
            ann = entry.annotations
            token += ann.suffix or ""
            if ann.alert or (ann.note == _ALERT_NOTE and _is_alert(board, ann.note)):
                token += "*"
            elif ann.note is not None and 1 <= ann.note <= 10:
                token += str(ann.note - 1)
            calls.append(token)
        if calls and calls[-1] == "Y":
            pass
        elif auction.end is AuctionEnd.ALL_PASS:
            calls.append("A")
        elif auction.end in (AuctionEnd.STOPPED, AuctionEnd.CONTINUE):
            calls.append("Y")
    rounds = ["".join(calls[i : i + 4]) for i in range(0, len(calls), 4)]
    return head + ":" + ":".join(rounds)


def _is_alert(board: Board, index: int) -> bool:
    note = board.auction.note(index) if board.auction is not None else None
    return note is not None and note.text == ALERT_NOTE


def _play(board: Board) -> str:
    play, contract = board.play, board.contract
    if play is None or not play.slots:
        return ""
    strain = contract.strain if contract is not None else None
    marks = {s.card: s.annotations.suffix or "" for s in play.slots if s.card is not None}
    cards = chronological(play.first, play.slots, strain)
    tricks = []
    for i in range(0, len(cards), 4):
        trick = cards[i : i + 4]
        led = trick[0].suit
        tricks.append("".join(
            (c.code if c.suit is not led or k == 0 else c.rank.char) + marks.get(c, "")
            for k, c in enumerate(trick)
        ))
    return ":".join(tricks)


def adapt(board: Board) -> Board:
    """``board`` ready for the RBN writer: what RBN cannot carry, as findings."""
    lost: list[str] = []
    dropped = [t.name for t in board.tags if t.name not in CARRIED and t.value not in ("", "?")]
    if dropped:
        lost.append(f"the tags {', '.join(dropped)}")
    odd = [t.name for t in board.tags if t.name in _NAMES and ("+" in t.value or ":" in t.value)]
    odd += [t.name for t in board.tags if t.name in ("HomeTeam", "Board") and ":" in t.value]
    if odd:
        lost.append(f"the ':' or '+' in {', '.join(odd)} (RBN's separators)")
    if any(_BLANK.search(c.text) for c in board.comments):
        lost.append("blank lines in commentary (a blank line ends an RBN record)")
    commented = [t.name for t in board.tags if t.comments]
    if commented:
        lost.append(f"commentary on the tags {', '.join(commented)}")
    if board.tables:
        lost.append(f"tables ({len(board.tables)})")
    date = board.tag("Date")
    if date not in (None, "", "?") and rbn_date(date, board.tag("Time")) is None:
        lost.append(f"the date {date}")
    if board.dealer is None and board.vulnerable is not None:
        lost.append("a vulnerability with no dealer (RBN gives them together)")
    auction = board.auction
    if auction is not None:
        unknown = [e.text or "?" for e in auction.entries if e.kind is EntryKind.CALL
                   and e.call is None]
        if unknown:
            lost.append(f"the calls from {unknown[0]!r} on (no call RBN knows; written 'Y')")
        if any(e.kind is EntryKind.SKIP for e in auction.entries):
            lost.append("the skipped turns of calls out of rotation (^S)")
        annotated = [e for e in auction.entries if e.annotations.nags or e.annotations.comments]
        if annotated:
            lost.append(f"NAGs and commentary on {len(annotated)} call(s)")
        far = [n.index for n in auction.notes if not 1 <= n.index <= 10 and n.text != ALERT_NOTE]
        if far:
            lost.append(f"notes numbered {far} (RBN has notes 0-9)")
    play = board.play
    if play is not None:
        noted = [s for s in play.slots if s.annotations.note is not None or s.annotations.nags
                 or s.annotations.comments]
        if noted or play.notes:
            lost.append("notes, NAGs and commentary on cards")
    others = [e for e in board.extras if e.format != "rbn"]
    if others:
        lost.append(f"{len(others)} item(s) kept from {others[0].format}")
    if not record_labels(board) and not board.comments:
        lost.append("a board with nothing it can write (no record is written)")
    diags = tuple(
        warning(LOST, f"RBN cannot carry {what}", line=board.line, board=board.board_number)
        for what in lost
    )
    return board.replace(diagnostics=(*board.diagnostics, *diags), format="rbn")
