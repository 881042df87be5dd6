"""DUP: the Duplimate machine's own deal file, registered as "dup".

Each deal is 156 bytes: the 78-digit BRI deal, the 68-byte DGE copy of it (for the
operator's screen; 68 spaces when the deal is not to be shown) and 10 control bytes
(Duplimate's description): "random hands?" Y/N, "counting backwards?" Y/N, the lowest
board number of the set (3 bytes), copies of each board (2), the highest board number
(3), each left-aligned and space-padded. Boards are numbered from the lowest board.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from bridgefiles.exchange import bri, dge
from bridgefiles.exchange.cards import (
    dealt_board,
    first_of_each_number,
    first_record_fits,
    found,
    machine_format,
    number_of,
    records,
)
from bridgefiles.formats.registry import FileInfo, ReadOptions, WriteOptions, register
from bridgefiles.model.board import Board, Extra
from bridgefiles.model.diagnostic import Diagnostic, error, warning

RECORD = 156
CONTROL = bri.BODY + dge.BODY  # where the 10 control bytes start
_HIDDEN = " " * dge.BODY
_DEFAULT_FLAGS = ("YN", "0 ")  # random hands, not backwards; copies: none at once


def control(lowest: int, highest: int) -> str:
    """The control bytes the writer gives a set of boards ``lowest``-``highest``."""
    return f"YN{lowest:<3}0 {highest:<3}"[:10]


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """One board per 156-byte record, numbered from the set's lowest board."""
    index = 0
    lowest = 1
    for offset, record in records(lines, RECORD):
        if not record.strip(" \x00\r\n\x1a"):
            continue
        if index == 0 and not first_record_fits(record, "dup", bri.shaped, options, info):
            return
        diags: list[Diagnostic] = []
        where = f"deal at byte offset {offset}"
        owners, problem = bri.parse_body(record)
        if problem is not None:
            found(options, error("deal", f"{where}: {problem}"), diags)
        screen = record[bri.BODY : CONTROL]
        if owners is not None and screen != _HIDDEN:
            shown, bad = dge.parse_body(screen)
            if bad is not None or shown != owners:
                found(options, error("deal", f"{where}: its DGE copy is not the BRI deal"), diags)
        tail = record[CONTROL:RECORD]
        extras: tuple[Extra, ...] = ()
        if len(tail) < 10:
            found(options, warning("syntax", f"{where}: the 10 control bytes are cut"), diags)
        elif (tail[:2], tail[5:7]) != _DEFAULT_FLAGS:
            extras = (Extra(format="dup", key="control", value=tail),)
        if index == 0 and len(tail) >= 5:
            if tail[2:5].strip().isdecimal() and int(tail[2:5]) >= 1:
                lowest = int(tail[2:5])
            else:
                message = f"the lowest board {tail[2:5]!r} is not a number: boards from 1"
                found(options, warning("syntax", f"{where}: {message}"), diags)
        board = dealt_board(
            "dup", lowest + index, owners, index=index, source=record, diagnostics=diags
        )
        yield board.model_copy(update={"extras": extras}) if extras else board
        index += 1
    if index == 0:
        found(options, error("syntax", "no DUP deal in the input"), info.diagnostics)


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    """156 bytes a board. The control bytes name the set's highest board, so the deals
    (146 bytes a board) are held until the last board is known."""
    kept: list[tuple[str, str | None]] = []  # (deal bytes, control bytes kept from a DUP)
    first: int | None = None
    for board, owners in first_of_each_number(boards):
        if options.layout == "preserve" and board.format == "dup" and board.source is not None:
            kept.append((board.source[:CONTROL], board.source[CONTROL:]))
        else:
            own = next((e.value for e in board.extras if e.format == "dup"), None)
            kept.append((bri.body(owners) + dge.body(owners), own))
        if first is None:  # a set read from a DUP keeps its lowest board; others start at 1
            first = (number_of(board) or 1) if board.source is not None else 1
    lowest = first or 1
    default = control(lowest, lowest + len(kept) - 1)
    for deal, own in kept:
        yield deal + (own if own is not None else default)


def sniff(head: str) -> int:
    """BRI digits, then a DGE copy (or spaces), then Y/N flags at byte 146."""
    if bri.sniff(head[: bri.BODY]) == 0 or len(head) < CONTROL + 2:
        return 0
    screen = head[bri.BODY : CONTROL]
    if screen != _HIDDEN and dge.sniff(screen) == 0:
        return 0
    return 95 if set(head[CONTROL : CONTROL + 2]) <= set("YN") else 0


DUP = machine_format("dup", read, write, sniff)
register(DUP)
