"""What an auction and a play come to: the contract, declarer, and who wins each trick.

One source of truth for every part of the tree (the Laws, both readers, both
writers, the conversion): pure functions over model values. This is the
bookkeeping of the Laws that everyone needs (Laws 19, 22, 36, 44); the Laws
package adds the rulings and their diagnostics on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bridgefiles.model.auction import Auction, AuctionEnd, EntryKind
from bridgefiles.model.calls import PASSED_OUT, Call, CallKind, Contract, Risk
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.seats import Seat, Side

_RISKS = (Risk.NONE, Risk.DOUBLED, Risk.REDOUBLED)


@dataclass(frozen=True, slots=True)
class AuctionOutcome:
    """The end of a recorded auction.

    ``contract``: the final contract (``Pass`` when passed out), doubles and
    redoubles that Law 36 cancels left out; None while the auction is unfinished
    or an unknown call hides its end. ``irregular``: the record holds something
    the Laws do not let stand as written (a call out of rotation, an insufficient
    bid, an inadmissible double, a call after the end, an unknown call); the
    contract is still the one the calls that stand give. ``ended_at``: how many
    entries of the record the auction used, up to the call that ended it (None
    when it is not ended by a recorded call).
    """

    contract: Contract | None
    declarer: Seat | None
    passed_out: bool
    complete: bool
    irregular: bool = False
    ended_at: int | None = None


_UNFINISHED = AuctionOutcome(contract=None, declarer=None, passed_out=False, complete=False)


def _inadmissible(call: Call, seat: Seat, last_bidder: Seat | None, risk: int) -> bool:
    """Law 19: a double needs an undoubled bid of an opponent; a redouble, a double of
    an opponent of one's own side's bid."""
    if last_bidder is None:
        return True
    if call.kind is CallKind.DOUBLE:
        return last_bidder.side is seat.side or risk != 0
    return risk != 1 or last_bidder.side is not seat.side


def auction_outcome(auction: Auction, dealer: Seat | None) -> AuctionOutcome:
    """The contract and declarer of a recorded auction, in rotation from its first seat.

    ``dealer`` (None: whoever makes the first call) only decides whether the first
    call is in rotation; ``AP`` stands for the passes that end the auction.
    """
    entries = auction.entries
    n = len(entries)
    lead = 0
    while lead < n and entries[lead].kind is EntryKind.NONE:
        lead += 1
    irregular = dealer is not None and lead < n and auction.first.offset(lead) is not dealer
    last_bid: Call | None = None
    last_bidder: Seat | None = None
    risk = 0  # 0 undoubled, 1 doubled, 2 redoubled since the last bid
    passes = 0
    ended = passed_out = False
    ended_at: int | None = None
    first_named: dict[tuple[Side, Strain], Seat] = {}
    for i in range(lead, n):
        entry = entries[i]
        if ended:
            irregular = True  # a call after the end is cancelled (Law 39)
            break
        if entry.kind is EntryKind.NONE:
            irregular = True  # '-' after the auction began: the turn is skipped
            continue
        call = entry.call
        if entry.kind is EntryKind.SKIP or call is None:
            if entry.kind is EntryKind.CALL:  # an unknown call: what follows cannot be judged
                return AuctionOutcome(None, None, False, False, irregular=True)
            irregular = True
            passes = 0
            continue
        seat = auction.first.offset(i)
        kind = call.kind
        if kind is CallKind.PASS:
            passes += 1
            if passes >= (4 if last_bid is None else 3):
                ended, passed_out, ended_at = True, last_bid is None, i + 1
        elif kind is CallKind.BID:
            assert call.strain is not None
            if entry.insufficient or (last_bid is not None and call.index <= last_bid.index):
                irregular = True
            last_bid, last_bidder, risk, passes = call, seat, 0, 0
            first_named.setdefault((seat.side, call.strain), seat)
        else:
            passes = 0
            if _inadmissible(call, seat, last_bidder, risk):
                irregular = True  # Law 36: cancelled, the contract is as if not made
            else:
                risk = 1 if kind is CallKind.DOUBLE else 2
    if not ended and auction.end is AuctionEnd.ALL_PASS:
        ended = True
        passed_out = last_bid is None
    if passed_out:
        return AuctionOutcome(PASSED_OUT, None, True, True, irregular, ended_at)
    if not ended or last_bid is None or last_bidder is None:
        return AuctionOutcome(None, None, False, ended, irregular, ended_at)
    assert last_bid.level is not None and last_bid.strain is not None
    contract = Contract(level=last_bid.level, strain=last_bid.strain, risk=_RISKS[risk])
    declarer = first_named.get((last_bidder.side, last_bid.strain))
    return AuctionOutcome(contract, declarer, False, True, irregular, ended_at)


def trick_winner(leader: Seat, cards: Sequence[Card], trump: Strain | None) -> Seat:
    """Who wins a trick of cards played in order from ``leader`` (Law 44).

    The highest trump wins; without trumps, the highest card of the suit led.
    """
    trump_order = trump.order if trump is not None else NO_TRUMP
    return leader.offset(winning_position([c.index for c in cards], trump_order))


NO_TRUMP = 4  # a trump "suit order" no card has: Strain.NT.order


def winning_position(cards: Sequence[int], trump: int) -> int:
    """Law 44 on card indices (0-51, ``Card.index``): the place in playing order, from 0,
    of the card that wins; ``trump`` is the trump suit's order (0-3), or ``NO_TRUMP``.

    Within a suit a higher index is a higher rank, so one comparison decides.
    """
    if not cards:
        return 0
    best = cards[0]
    pos = 0
    for k in range(1, len(cards)):
        c = cards[k]
        suit = c // 13
        if suit == best // 13:
            if c > best:
                best, pos = c, k
        elif suit == trump:
            best, pos = c, k
    return pos


__all__ = ["NO_TRUMP", "AuctionOutcome", "auction_outcome", "trick_winner", "winning_position"]
