"""Replay of a recorded auction: legality of each call, end, contract and declarer.

The record (``bridgefiles.model.auction.Auction``) keeps what the file says; this
module rules on it as the Laws do (17-22, 27, 29, 36, 39) and never repairs
silently: every call the Laws do not let stand gives a diagnostic.
"""

from __future__ import annotations

from typing import NamedTuple

from bridgefiles.model.auction import (
    Auction,
    AuctionEnd,
    EntryKind,
)
from bridgefiles.model.calls import PASS, Call, CallKind, Contract
from bridgefiles.model.cards import Strain
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.outcome import AuctionOutcome, auction_outcome
from bridgefiles.model.seats import ROTATION, SEAT_ORDER, Seat, Side


class AuctionResult(NamedTuple):
    """What the Laws make of a recorded auction.

    ``calls`` is the legal auction with seats (``AP`` expanded, calls after the
    end and inadmissible doubles left out); ``first_illegal`` is the position in
    the record of the first call the Laws do not let stand (None: a legal auction).
    """

    contract: Contract | None
    declarer: Seat | None
    complete: bool
    passed_out: bool
    calls: tuple[tuple[Seat, Call], ...]
    diagnostics: tuple[Diagnostic, ...]
    first_illegal: int | None = None
    stopped: bool = False  # the record ends with '*' or '+': it says it stops there
    unknown: bool = False  # a call could not be read: the auction is not judged beyond it
    last_bid: Call | None = None
    last_bidder: Seat | None = None
    first_named: tuple[tuple[Side, Strain, Seat], ...] = ()

    @property
    def legal(self) -> bool:
        return self.first_illegal is None

    def first_to_name(self, side: Side, strain: Strain) -> Seat | None:
        """Who of ``side`` first named ``strain`` in the legal auction (declarer's rule)."""
        for s, d, seat in self.first_named:
            if s is side and d is strain:
                return seat
        return None


def is_sufficient(bid: Call, last_bid: Call | None) -> bool:
    """Law 18B: higher than the last bid (any bid is sufficient before the first)."""
    return last_bid is None or bid.index > last_bid.index


def lowest_sufficient_same_strain(last_bid: Call, bid: Call) -> Call | None:
    """The lowest sufficient bid naming the same denomination (Law 27B1(a)), or None above 7."""
    if bid.strain is None:
        return None
    for level in range(1, 8):
        candidate = Call.bid(level, bid.strain)
        if candidate.index > last_bid.index:
            return candidate
    return None


def _where(auction: Auction, index: int, seat: Seat | None) -> dict[str, object]:
    """Where entry ``index`` stood, for a finding about it."""
    line, column = auction.where(index)
    return {"line": line, "column": column, "seat": seat}


class AuctionState:
    """The running facts of the auction that decide what each call means."""

    __slots__ = ("ended", "first_named", "last_bid", "last_bidder", "passed_out", "passes", "risk")

    def __init__(self) -> None:
        self.last_bid: Call | None = None
        self.last_bidder: Seat | None = None
        self.risk = 0  # 0 undoubled, 1 doubled, 2 redoubled since the last bid
        self.passes = 0  # consecutive passes
        self.ended = False
        self.passed_out = False
        self.first_named: dict[tuple[Side, Strain], Seat] = {}

    def bid(self, seat: Seat, call: Call) -> None:
        assert call.strain is not None
        self.last_bid, self.last_bidder, self.risk, self.passes = call, seat, 0, 0
        self.first_named.setdefault((seat.side, call.strain), seat)

    def pass_(self) -> None:
        self.passes += 1
        if self.last_bid is not None and self.passes >= 3:
            self.ended = True
        elif self.last_bid is None and self.passes >= 4:
            self.ended = self.passed_out = True

    def why_inadmissible(self, seat: Seat, call: Call) -> str | None:
        """Why Law 19 does not allow this double or redouble (None: it is allowed)."""
        if call.kind is CallKind.DOUBLE:
            if self.last_bid is None or self.last_bidder is None:
                return "there is no bid to double (Law 19A1)"
            if self.last_bidder.side is seat.side:
                return "it doubles partner's bid (Law 19A1)"
            if self.risk != 0:
                return "the bid is already doubled or redoubled (Law 19A1)"
            return None
        if self.risk != 1 or self.last_bidder is None:
            return "there is no double to redouble (Law 19B1)"
        if self.last_bidder.side is not seat.side:
            return "it redoubles partner's double (Law 19B1)"
        return None


_ORDERS = tuple(tuple((first + k) & 3 for k in range(4)) for first in range(4))
_NONE, _SKIP, _CALL = EntryKind.NONE, EntryKind.SKIP, EntryKind.CALL
_PASS, _BID = CallKind.PASS, CallKind.BID


def replay_auction(
    auction: Auction,
    dealer: Seat | None,
    *,
    marked: bool = True,
    outcome: AuctionOutcome | None = None,
) -> AuctionResult:
    """Rule on each call of a recorded auction, in rotation from the record's first seat.

    ``marked``: the format marks accepted irregularities (PBN ``^I``, ``^S``), so an
    unmarked one is an error of the file; without marks (LIN) it is only a warning.
    ``outcome``: the auction's :func:`auction_outcome` with the same dealer, when the
    caller has it (``Board.outcome``). Every auction is replayed call by call, a regular
    one too: one path, so what the Laws say of a call is said in one place.
    """
    if outcome is None:
        outcome = auction_outcome(auction, dealer)  # the one reckoning of contract and declarer
    entries = auction.entries
    n = len(entries)
    diags: list[Diagnostic] = []
    first_illegal: int | None = None
    lead = 0
    while lead < n and entries[lead].kind is _NONE:
        lead += 1
    first = SEAT_ORDER[auction.first]
    start_seat = ROTATION[(first + lead) & 3]
    if dealer is None:
        dealer = start_seat
    elif lead < n and start_seat is not dealer:
        diags.append(
            error(
                "call-out-of-rotation",
                f"the first call is {start_seat.full_name}'s, but {dealer.full_name} is dealer",
                law="17B",
                **_where(auction, lead, start_seat),
            )
        )
        first_illegal = lead
    state = AuctionState()
    calls: list[tuple[Seat, Call]] = []
    after_reported = False
    unknown = False
    for i in range(lead, n):
        entry = entries[i]
        seat = ROTATION[(first + i) & 3]
        if state.ended:
            if not after_reported:
                after_reported = True
                first_illegal = i if first_illegal is None else first_illegal
                what = "passed out" if state.passed_out else "ended with three passes"
                diags.append(
                    error(
                        "call-after-auction",
                        f"{seat.full_name} calls after the auction {what}: cancelled",
                        law="39",
                        **_where(auction, i, seat),
                    )
                )
            continue
        kind = entry.kind
        if kind is _NONE:
            diags.append(
                error(
                    "call-out-of-rotation",
                    f"'-' stands for {seat.full_name}'s call after the auction began; "
                    "the turn is taken as skipped",
                    law="17C",
                    **_where(auction, i, seat),
                )
            )
            first_illegal = i if first_illegal is None else first_illegal
            continue
        call = entry.call
        if kind is _CALL and call is None:
            unknown = True  # the reader has said why; what follows cannot be judged
            break
        if kind is _SKIP or call is None:
            state.passes = 0  # a missed turn: passes before it do not close the auction
            diags.append(
                warning(
                    "call-out-of-rotation",
                    f"{seat.full_name}'s turn was skipped by a call out of rotation, "
                    "accepted by calling over it",
                    law="29A",
                    **_where(auction, i, seat),
                )
            )
            continue
        what = call.kind
        if what is _PASS:
            calls.append((seat, call))
            state.pass_()
        elif what is _BID:
            if state.last_bid is not None and call.index <= state.last_bid.index:  # Law 18B
                accepted = i + 1 < n and entries[i + 1].kind is not EntryKind.NONE
                text = f"{seat.full_name}'s {call} is insufficient over {state.last_bid}"
                if entry.insufficient or (accepted and not marked):
                    diags.append(
                        warning(
                            "insufficient-bid",
                            f"{text}, accepted by {seat.lho.full_name} calling over it",
                            law="27A1",
                            **_where(auction, i, seat),
                        )
                    )
                elif accepted:
                    diags.append(
                        error(
                            "insufficient-bid",
                            f"{text} and not marked '^I'; accepted as {seat.lho.full_name} "
                            "called over it",
                            law="27A1",
                            **_where(auction, i, seat),
                        )
                    )
                else:
                    first_illegal = i if first_illegal is None else first_illegal
                    diags.append(
                        error(
                            "insufficient-bid",
                            f"{text}, and not (yet) accepted: it must be replaced",
                            law="27B",
                            **_where(auction, i, seat),
                        )
                    )
            elif entry.insufficient:
                diags.append(
                    error(
                        "insufficient-bid",
                        f"{seat.full_name}'s {call} is marked '^I' but is sufficient",
                        law="18B",
                        **_where(auction, i, seat),
                    )
                )
            calls.append((seat, call))
            state.bid(seat, call)
        else:
            why = state.why_inadmissible(seat, call)
            state.passes = 0
            if why is not None:
                first_illegal = i if first_illegal is None else first_illegal
                diags.append(
                    error(
                        "inadmissible-call",
                        f"{seat.full_name}'s {call} is inadmissible: {why}; "
                        "the contract is scored as if it had not been made",
                        law="36",
                        **_where(auction, i, seat),
                    )
                )
            else:
                calls.append((seat, call))
                state.risk = 1 if what is CallKind.DOUBLE else 2
    if unknown:
        pass
    elif auction.end is AuctionEnd.ALL_PASS:
        if state.ended:
            diags.append(
                error(
                    "call-after-auction",
                    "'AP' after the auction had ended",
                    law="39",
                    line=auction.line,
                    column=auction.column,
                )
            )
        else:
            seat = auction.first.offset(n)
            while not state.ended:
                calls.append((seat, PASS))
                state.pass_()
                seat = seat.lho
    stopped = auction.end in (AuctionEnd.STOPPED, AuctionEnd.CONTINUE)
    if not state.ended and not stopped and not unknown:
        diags.append(
            warning(
                "auction-incomplete",
                "the auction stops before it has ended (three passes after a bid, or four)",
                law="22",
                **(_where(auction, n - 1, None) if entries else {"line": auction.line}),
            )
        )
    contract, declarer = outcome.contract, outcome.declarer
    return AuctionResult(
        contract=contract,
        declarer=declarer,
        complete=state.ended,
        passed_out=state.passed_out,
        calls=tuple(calls),
        diagnostics=tuple(diags),
        first_illegal=first_illegal,
        stopped=stopped,
        unknown=unknown,
        last_bid=state.last_bid,
        last_bidder=state.last_bidder,
        first_named=tuple((s, d, seat) for (s, d), seat in state.first_named.items()),
    )
