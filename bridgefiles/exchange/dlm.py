"""DLM: Windows Duplimate's deal file (INI text), registered as "dlm".

A ``[Document]`` section: ``Headline``, ``Status`` (Show or Sealed), ``Duplicates``,
``From board``, ``To board``, ``Next board to duplimate``, ``PrintOuts``, ``Crypto key``
and ``Checksum`` (Duplicates xor From xor To, xor 1 when shown); then for each board
1-99 ``Duplicates NN=n`` and ``Board NN=`` 26 letters and a 3-digit checksum. Letter i
is ``'a' + 4 * owner(card 2i+1) + owner(card 2i+2)`` (cards numbered as in cards.py,
owners N=0 .. W=3); the checksum is the board number xor every letter's code. The file
always holds 99 boards: those outside From-To are fillers (spades to North, hearts to
East...), not read. An encrypted file (``Crypto key`` not 0) cannot be read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import reduce

from bridgefiles.exchange.cards import (
    OWNERS,
    DealingAdapter,
    Owners,
    dealt_board,
    first_of_each_number,
    found,
    number_of,
)
from bridgefiles.formats.registry import FileInfo, Format, ReadOptions, WriteOptions, register
from bridgefiles.model.board import Board, Extra
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.seats import Seat

LAST = 99  # the format numbers boards 01-99
_MAX_KEYS = 100  # header keys kept (Duplimate writes nine): the header stays small
FILLER = "aaaaaabffffffkkkkkklpppppp"  # spades to N, hearts to E, diamonds to S, clubs to W
_KEY = re.compile(r"^\s*([^=]+?)\s*=(.*)$")
_BOARD = re.compile(r"^(Board|Duplicates) (\d\d)$")
_LETTERS = re.compile(r"^([a-p]{26})(\d{3})$")
# header keys the writer fills in itself, and the others' values when nothing is kept
_COMPUTED = ("From board", "To board", "Crypto key", "Checksum")
_DEFAULTS = {
    "Headline": "Written by bridgefiles",
    "Status": "Show",
    "Duplicates": "0",
    "Next board to duplimate": "0",
    "PrintOuts": "0",
}


def checksum(number: int, letters: str) -> int:
    return reduce(lambda acc, c: acc ^ ord(c), letters, number)


def letters_of(owners: Owners) -> str:
    code = {seat: i for i, seat in enumerate(OWNERS)}
    return "".join(
        chr(ord("a") + 4 * code[owners[i]] + code[owners[i + 1]]) for i in range(0, 52, 2)
    )


def owners_from_letters(letters: str) -> Owners:
    out: list[Seat] = []
    for c in letters:
        high, low = divmod(ord(c) - ord("a"), 4)
        out += [OWNERS[high], OWNERS[low]]
    return tuple(out)


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """The boards From board-To board, under their own numbers."""
    header: dict[str, str] = {}
    copies: dict[int, str] = {}
    index = 0
    checked = crowded = False
    for lineno, line in enumerate(lines, start=1):
        m = _KEY.match(line.rstrip("\r\n"))
        if m is None:
            continue  # the section line, blank lines
        key, value = m.group(1), m.group(2).strip()
        board_key = _BOARD.match(key)
        if board_key is None:
            if key not in header and len(header) >= _MAX_KEYS:
                if not crowded:  # said once
                    crowded = True
                    message = f"more than {_MAX_KEYS} header keys: from {key!r} on not read"
                    found(options, warning("limit", message, line=lineno), info.diagnostics)
                continue
            header.setdefault(key, value)
            continue
        if not checked:
            checked = True
            if not _header_sound(header, options, info, lineno):
                return
        number = int(board_key.group(2))
        if board_key.group(1) == "Duplicates":
            copies[number] = value
            continue
        low, high = _range(header)
        if not low <= number <= high:
            continue  # a filler
        board = _board(number, value, line, lineno, index, options)
        extras = _kept(header) if index == 0 else []
        if copies.get(number, "0") != "0":
            extras.append(Extra(format="dlm", key=key.replace("Board", "Duplicates"),
                                value=copies[number]))
        yield board.model_copy(update={"extras": tuple(extras)}) if extras else board
        index += 1
    if index == 0:
        found(options, error("syntax", "no DLM board in the input"), info.diagnostics)


def _range(header: dict[str, str]) -> tuple[int, int]:
    def number(key: str, default: int) -> int:
        v = header.get(key, "")
        return int(v) if v.isdecimal() else default

    return number("From board", 1), number("To board", LAST)


def _header_sound(
    header: dict[str, str], options: ReadOptions, info: FileInfo, lineno: int
) -> bool:
    """Whether the boards can be read (not encrypted); a wrong checksum is a warning."""
    key = header.get("Crypto key", "0")
    if key != "0":
        message = f"the boards are encrypted (Crypto key={key}): they cannot be read"
        found(options, error("syntax", message, line=lineno), info.diagnostics)
        return False
    low, high = _range(header)
    dups = header.get("Duplicates", "0")
    want = (int(dups) if dups.isdecimal() else 0) ^ low ^ high ^ (header.get("Status") == "Show")
    if header.get("Checksum") != str(want):
        message = f"the document Checksum is {header.get('Checksum')!r}, not {want}"
        found(options, warning("syntax", message, line=lineno), info.diagnostics)
    return True


def _board(
    number: int, value: str, line: str, lineno: int, index: int, options: ReadOptions
) -> Board:
    diags: list[Diagnostic] = []
    owners: Owners | None = None
    m = _LETTERS.match(value)
    if m is None:
        message = f"Board {number:02d} is not 26 letters a-p and a 3-digit checksum"
        found(options, error("deal", message, line=lineno), diags)
    elif checksum(number, m.group(1)) != int(m.group(2)):
        want = checksum(number, m.group(1))
        message = f"Board {number:02d}'s checksum is {m.group(2)}, not {want:03d}: deal not read"
        found(options, error("deal", message, line=lineno), diags)
    else:
        owners = owners_from_letters(m.group(1))
        counts = [owners.count(s) for s in OWNERS]
        if counts != [13] * 4:
            message = f"Board {number:02d} deals {counts} cards to N, E, S, W, not 13 each"
            found(options, error("deal", message, line=lineno), diags)
            owners = None
    return dealt_board(
        "dlm", number, owners, index=index, source=line, diagnostics=diags, line=lineno
    )


def _kept(header: dict[str, str]) -> list[Extra]:
    """The file's header values the writer would not give again, kept on the first board."""
    return [
        Extra(format="dlm", key=k, value=v)
        for k, v in header.items()
        if k not in _COMPUTED and _DEFAULTS.get(k) != v
    ]


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    """The whole file: the 99 boards are held (the header names the first and the last)."""
    nl = options.newline or "\r\n"
    chosen: dict[int, tuple[str, str]] = {}
    header = dict(_DEFAULTS)
    for place, (board, owners) in enumerate(first_of_each_number(boards), start=1):
        if place == 1:
            header.update({e.key: e.value for e in board.extras if e.format == "dlm"
                           and not e.key.startswith("Duplicates ")})
        number = number_of(board) or place
        if number > LAST or number in chosen:
            continue
        dups = next((e.value for e in board.extras if e.key == f"Duplicates {number:02d}"), "0")
        chosen[number] = (letters_of(owners), dups)
    if not chosen:
        return  # no board it can hold (each one's conversion finding says why)
    low, high = min(chosen), max(chosen)
    dups = header["Duplicates"]
    total = (int(dups) if dups.isdecimal() else 0) ^ low ^ high ^ (header["Status"] == "Show")
    out = ["[Document]", *(f"{k}={header.pop(k)}" for k in ("Headline", "Status", "Duplicates"))]
    out += [f"From board={low}", f"To board={high}"]
    out += [f"{k}={header.pop(k)}" for k in ("Next board to duplimate", "PrintOuts")]
    out += [*(f"{k}={v}" for k, v in header.items()), "Crypto key=0", f"Checksum={total}"]
    for n in range(1, LAST + 1):
        letters, copies = chosen.get(n, (FILLER, "0"))
        sealed = f"{letters}{checksum(n, letters):03d}"
        out += [f"Duplicates {n:02d}={copies}", f"Board {n:02d}={sealed}"]
    yield nl.join(out) + nl


def sniff(head: str) -> int:
    text = head.lstrip("\ufeff").lstrip()
    if text.startswith("[Document]") and re.search(r"^(Board|Duplicates) \d\d=", text, re.M):
        return 95
    return 60 if text.startswith("[Document]") and "Crypto key=" in text else 0


DLM = Format(
    name="dlm",
    extensions=(".dlm",),
    sniff=sniff,
    read=read,
    write=write,
    adapter=lambda: DealingAdapter("dlm", by_place=False, highest=LAST),
)
register(DLM)
