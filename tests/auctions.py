"""Auctions written as text for the tests of the Laws and of the model's outcome: one
notation, so a hand-made auction means the same in every test that writes one."""

from __future__ import annotations

from bridgefiles.model import Auction, AuctionEnd, AuctionEntry, Call, EntryKind, Seat


def auction(first: str, calls: str, end: AuctionEnd = AuctionEnd.OPEN) -> Auction:
    """``first`` begins; ``calls`` one a word: ``-`` no call in a seat, ``?`` an unknown
    call, ``^S`` a skipped seat, ``^I1H`` an insufficient bid so marked, else a call,
    validated from its text (not the interned one, as a reader that validates gives)."""
    entries = []
    for text in calls.split():
        if text == "-":
            entries.append(AuctionEntry(kind=EntryKind.NONE))
        elif text == "?":
            entries.append(AuctionEntry(kind=EntryKind.CALL, call=None))
        elif text == "^S":
            entries.append(AuctionEntry(kind=EntryKind.SKIP))
        elif text.startswith("^I"):
            entries.append(AuctionEntry(call=Call.parse(text[2:]), insufficient=True))
        else:
            entries.append(AuctionEntry.model_validate({"call": text}))
    return Auction(first=Seat.parse(first), entries=tuple(entries), end=end)
