"""The auction as recorded: calls with their annotations and irregularity marks.

This is a record, not a ruling: it keeps exactly what the file says (leading
``-`` placeholders, PBN ``^I`` and ``^S`` marks, ``AP``, ``*`` and ``+``).
The Laws package replays it to find the contract and any irregularity.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.annotations import (
    NO_ANNOTATIONS,
    Annotations,
    Comment,
    Note,
    numbered_note,
)
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind
from bridgefiles.model.fast import attach, attached
from bridgefiles.model.seats import Seat


class EntryKind(str, Enum):
    CALL = "call"  # a real call
    SKIP = "skip"  # PBN ^S: the call of a player skipped by a call out of rotation
    NONE = "none"  # PBN '-': a seat before the dealer in the first line (import format)


class AuctionEntry(BaseModel):
    """One token of the auction that takes a seat's turn."""

    model_config = ConfigDict(frozen=True)

    kind: EntryKind = EntryKind.CALL
    call: Call | None = None
    insufficient: bool = False  # PBN ^I: an insufficient bid, accepted (Law 27A)
    text: str | None = None  # the token as written when it is no call we know (written back)
    annotations: Annotations = NO_ANNOTATIONS
    line: int | None = None
    column: int | None = None


class AuctionEnd(str, Enum):
    """How the recorded auction stops."""

    OPEN = ""  # nothing after the last call (complete, or simply unfinished)
    ALL_PASS = "AP"  # AP: the remaining players pass
    STOPPED = "*"  # no more calls will be given
    CONTINUE = "+"  # the next call is still to be made


class Auction(BaseModel):
    """The calls in rotation, starting with ``first`` (the Auction tag's seat)."""

    model_config = ConfigDict(frozen=True)

    first: Seat
    entries: tuple[AuctionEntry, ...] = ()
    end: AuctionEnd = AuctionEnd.OPEN
    end_annotations: Annotations = NO_ANNOTATIONS  # annotations after AP / * / +
    notes: tuple[Note, ...] = ()
    comments: tuple[Comment, ...] = ()  # commentary right after the Auction tag
    line: int | None = None
    column: int | None = None

    def seat_of(self, position: int) -> Seat:
        """The seat whose turn the ``position``-th entry takes."""
        return self.first.offset(position)

    def calls(self) -> list[tuple[Seat, Call]]:
        """Real calls with their seats, ``^S`` and ``-`` skipped, ``AP`` not expanded."""
        out = []
        for i, entry in enumerate(self.entries):
            if entry.kind is EntryKind.CALL and entry.call is not None:
                out.append((self.seat_of(i), entry.call))
        return out

    def note(self, index: int) -> Note | None:
        """The note ``=index=`` refers to, if the section has it."""
        return numbered_note(self.notes, index)


# An auction's entries as small ints, for the loops that read every auction: a bid is its
# Call.index (0 for 1C .. 34 for 7NT), plus INSUFFICIENT when marked '^I'; then the other
# calls, and the entries that are no call.
PASS_CODE, DOUBLE_CODE, REDOUBLE_CODE = 35, 36, 37
NONE_CODE, SKIP_CODE, UNKNOWN_CODE = 38, 39, 40  # '-', '^S', a call that could not be read
INSUFFICIENT = 64
CALL_BY_CODE: tuple[Call, ...] = (*ALL_BIDS, PASS, DOUBLE, REDOUBLE)
_CODE_BY_ID = {id(call): code for code, call in enumerate(CALL_BY_CODE)}  # the interned calls
_OTHER_CODES = {CallKind.PASS: PASS_CODE, CallKind.DOUBLE: DOUBLE_CODE}
_CODES = "_entry_codes"  # attached to an Auction: (the entries, their codes)


def call_code(call: Call) -> int:
    """A call's code (see ``CALL_BY_CODE``)."""
    code = _CODE_BY_ID.get(id(call))
    if code is None:  # not one of the interned calls (built from data): by its facts
        if call.kind is CallKind.BID:
            return call.index
        return _OTHER_CODES.get(call.kind, REDOUBLE_CODE)
    return code


def entry_codes(auction: Auction) -> list[int]:
    """Each entry of ``auction`` as its code: a call's (plus INSUFFICIENT for a bid marked
    '^I'), NONE_CODE, SKIP_CODE or UNKNOWN_CODE. Worked out once for the auction's entries
    (or given by its reader, :func:`built_plain_calls`)."""
    entries = auction.entries
    kept = attached(auction, _CODES, None)
    if kept is not None and kept[0] is entries:
        found: list[int] = kept[1]
        return found
    codes: list[int] = []
    append = codes.append
    for entry in entries:
        kind = entry.kind
        call = entry.call
        if kind is EntryKind.NONE:
            append(NONE_CODE)
        elif kind is EntryKind.SKIP:
            append(SKIP_CODE)
        elif call is None:
            append(UNKNOWN_CODE)
        else:
            code = call_code(call)
            append(code + INSUFFICIENT if code < PASS_CODE and entry.insufficient else code)
    attach(auction, _CODES, (entries, codes))
    return codes


def built_plain_calls(auction: Auction, calls: list[Call]) -> None:
    """Said by a reader that built every entry of ``auction`` as a plain call (no mark),
    ``calls`` in order: their codes are then known without looking at each entry."""
    try:
        codes = list(map(_CODE_BY_ID.__getitem__, map(id, calls)))
    except KeyError:  # a call not interned: the codes are worked out from the entries
        return
    if len(codes) == len(auction.entries):
        attach(auction, _CODES, (auction.entries, codes))
