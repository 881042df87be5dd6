"""The auction as recorded: calls with their annotations and irregularity marks.

This is a record, not a ruling: it keeps exactly what the file says (leading
``-`` placeholders, PBN ``^I`` and ``^S`` marks, ``AP``, ``*`` and ``+``).
The Laws package replays it to find the contract and any irregularity.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.annotations import NO_ANNOTATIONS, Annotations, Comment, Note
from bridgefiles.model.calls import Call
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
        for n in self.notes:
            if n.index == index:
                return n
        return None
