"""The auction as recorded: calls with their annotations and irregularity marks.

This is a record, not a ruling: it keeps exactly what the file says (leading
``-`` placeholders, PBN ``^I`` and ``^S`` marks, ``AP``, ``*`` and ``+``).
The Laws package replays it to find the contract and any irregularity.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
)

from bridgefiles.model.annotations import (
    NO_ANNOTATIONS,
    Annotations,
    Comment,
    Note,
    numbered_note,
)
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind
from bridgefiles.model.positions import Placed
from bridgefiles.model.seats import Seat
from bridgefiles.model.shared import SharedTable


class EntryKind(str, Enum):
    """What an auction entry is: a call, or a turn that holds none (PBN 3.5.1)."""

    CALL = "call"  # a real call
    SKIP = "skip"  # PBN ^S: the call of a player skipped by a call out of rotation
    NONE = "none"  # PBN '-': a seat before the dealer in the first line (import format)


class AuctionEntry(BaseModel):
    """One token of the auction that takes a seat's turn.

    A plain call (no mark, no annotation) read from a file is one shared value per call
    (:func:`plain_entry`), with no line or column of its own: :meth:`Auction.where` says
    where each entry stood.
    """

    model_config = ConfigDict(frozen=True)

    kind: EntryKind = EntryKind.CALL
    call: Call | None = None
    insufficient: bool = False  # PBN ^I: an insufficient bid, accepted (Law 27A)
    text: str | None = None  # the token as written when it is no call we know (written back)
    annotations: Annotations = NO_ANNOTATIONS
    line: int | None = None
    column: int | None = None

    def __reduce_ex__(self, protocol: Any) -> Any:
        """A shared entry comes back as the same shared value (a pickled board stays lean)."""
        code = _CODE_OF_ENTRY.get(id(self))
        if code is not None:
            return _shared_entry, (code,)
        return super().__reduce_ex__(protocol)


class AuctionEnd(str, Enum):
    """How the recorded auction stops."""

    OPEN = ""  # nothing after the last call (complete, or simply unfinished)
    ALL_PASS = "AP"  # AP: the remaining players pass
    STOPPED = "*"  # no more calls will be given
    CONTINUE = "+"  # the next call is still to be made


class Auction(Placed):
    """The calls in rotation, starting with ``first`` (the Auction tag's seat)."""

    model_config = ConfigDict(frozen=True)
    ITEMS: ClassVar[str] = "entries"  # what ``where`` places (Placed)

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

# The shared entries: a plain call each (by its code), then '-' and '^S'.
SHARED_ENTRIES: tuple[AuctionEntry, ...] = (
    *(AuctionEntry(call=call) for call in CALL_BY_CODE),
    AuctionEntry(kind=EntryKind.NONE),
    AuctionEntry(kind=EntryKind.SKIP),
)
_CODE_OF_ENTRY = {id(entry): code for code, entry in enumerate(SHARED_ENTRIES)}
NONE_ENTRY, SKIP_ENTRY = SHARED_ENTRIES[NONE_CODE], SHARED_ENTRIES[SKIP_CODE]


def _shared_entry(code: int) -> AuctionEntry:
    return SHARED_ENTRIES[code]


def call_code(call: Call) -> int:
    """A call's code (see ``CALL_BY_CODE``)."""
    code = _CODE_BY_ID.get(id(call))
    if code is None:  # not one of the interned calls (built from data): by its facts
        if call.kind is CallKind.BID:
            return call.index
        return _OTHER_CODES.get(call.kind, REDOUBLE_CODE)
    return code


def plain_entry(call: Call) -> AuctionEntry:
    """The shared entry of ``call`` with no mark and no annotation."""
    return SHARED_ENTRIES[call_code(call)]


# Entries with annotations (an alert, a note reference, a suffix, NAGs) shared by every
# auction that has the same one (most alerts of a file repeat: a note number, "transfer"),
# as the plain ones are, by their facts: the code, insufficient (also on a call that is no
# bid), the annotations' suffix, note, NAGs, alert and explanation.
SharedKey = tuple[int, bool, str | None, int | None, tuple[int, ...], bool, str | None]
_INTERNED: SharedTable[SharedKey, AuctionEntry] = SharedTable(2048)
LONGEST_SHARED_TEXT = 40  # a longer explanation is seldom said twice: never kept


def interned(entry: AuctionEntry) -> AuctionEntry:
    """The shared entry equal to ``entry``, for one with no place of its own (its
    auction's positions say where it stood) and no commentary; else ``entry`` itself."""
    code = _CODE_OF_ENTRY.get(id(entry))
    if code is not None:
        return entry
    ann = entry.annotations
    explanation = ann.explanation
    if (
        entry.line is not None
        or entry.column is not None
        or entry.text is not None
        or ann.comments
        or (explanation is not None and len(explanation) > LONGEST_SHARED_TEXT)
    ):
        return entry
    key = shared_key(
        entry.kind, entry.call, entry.insufficient, ann.suffix, ann.note, ann.nags, ann.alert,
        explanation,
    )
    return _INTERNED.share(key, entry)


def shared_key(
    kind: EntryKind,
    call: Call | None,
    insufficient: bool,
    suffix: str | None,
    note: int | None,
    nags: tuple[int, ...],
    alert: bool = False,
    explanation: str | None = None,
) -> SharedKey:
    """A shared entry's key, its facts: the one layout :func:`interned` keeps by and
    :func:`shared_annotated` looks up by."""
    code = entry_code(kind, call, insufficient)
    return (code, insufficient, suffix, note, nags, alert, explanation)


def shared_annotated(key: SharedKey) -> AuctionEntry | None:
    """The shared entry :func:`interned` keeps under ``key`` (see :func:`shared_key`), if
    one is kept yet: a reader asks before it builds, so an annotated call seen before
    costs no new model."""
    return _INTERNED.get(key)


def _entry_code(entry: AuctionEntry) -> int:
    return entry_code(entry.kind, entry.call, entry.insufficient)


def entry_code(kind: EntryKind, call: Call | None, insufficient: bool) -> int:
    """The code of an entry of these facts (see ``CALL_BY_CODE``, ``INSUFFICIENT``)."""
    if kind is EntryKind.NONE:
        return NONE_CODE
    if kind is EntryKind.SKIP:
        return SKIP_CODE
    if call is None:
        return UNKNOWN_CODE
    code = call_code(call)
    return code + INSUFFICIENT if code < PASS_CODE and insufficient else code


def entry_codes(auction: Auction) -> list[int]:
    """Each entry of ``auction`` as its code: a call's (plus INSUFFICIENT for a bid marked
    '^I'), NONE_CODE, SKIP_CODE or UNKNOWN_CODE. The shared entries are their codes by
    identity, in one C-level pass; only the others are looked at."""
    entries = auction.entries
    codes: list[int | None] = list(map(_CODE_OF_ENTRY.get, map(id, entries)))
    if None in codes:
        for i, code in enumerate(codes):
            if code is None:
                codes[i] = _entry_code(entries[i])
    return codes  # type: ignore[return-value]  # no None left
