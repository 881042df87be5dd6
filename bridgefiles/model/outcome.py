"""What an auction and a play come to: the contract, declarer, and who wins each trick.

One source of truth for every part of the tree (the Laws, both readers, both
writers, the conversion): pure functions over model values. This is the
bookkeeping of the Laws that everyone needs (Laws 19, 22, 36, 44); the Laws
package adds the rulings and their diagnostics on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bridgefiles.model.auction import (
    DOUBLE_CODE,
    INSUFFICIENT,
    NONE_CODE,
    PASS_CODE,
    REDOUBLE_CODE,
    SKIP_CODE,
    Auction,
    AuctionEnd,
    entry_codes,
)
from bridgefiles.model.calls import PASSED_OUT, Contract, Risk
from bridgefiles.model.cards import STRAIN_BY_ORDER, Card, Strain
from bridgefiles.model.seats import ROTATION, SEAT_ORDER, Seat

_RISKS = (Risk.NONE, Risk.DOUBLED, Risk.REDOUBLED)


class AuctionOutcome(NamedTuple):
    """The end of a recorded auction (immutable; a tuple, cheap to build every board).

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


_ALL_PASS = AuctionEnd.ALL_PASS


def auction_outcome(auction: Auction, dealer: Seat | None) -> AuctionOutcome:
    """The contract and declarer of a recorded auction, in rotation from its first seat.

    ``dealer`` (None: whoever makes the first call) only decides whether the first
    call is in rotation; ``AP`` stands for the passes that end the auction.

    The loop reads the entries as their codes (``model.auction.entry_codes``: a bid is
    its index 0-34) and seats by their order (0-3; a side is the order's parity).
    """
    codes = entry_codes(auction)
    n = len(codes)
    lead = 0
    while lead < n and codes[lead] == NONE_CODE:
        lead += 1
    first = SEAT_ORDER[auction.first]
    irregular = dealer is not None and lead < n and ROTATION[(first + lead) & 3] is not dealer
    last_index = -1  # the last bid's code; -1: no bid yet
    last_bidder = -1  # order of the last bidder
    risk = 0  # 0 undoubled, 1 doubled, 2 redoubled since the last bid
    passes = 0
    ended = passed_out = False
    ended_at: int | None = None
    first_named: dict[tuple[int, int], int] = {}  # (side parity, strain order) -> seat order
    for i in range(lead, n):
        if ended:
            irregular = True  # a call after the end is cancelled (Law 39)
            break
        code = codes[i]
        if code == PASS_CODE:
            passes += 1
            if passes >= (4 if last_index < 0 else 3):
                ended, passed_out, ended_at = True, last_index < 0, i + 1
        elif code < PASS_CODE or code >= INSUFFICIENT:  # a bid
            if code >= INSUFFICIENT:
                code -= INSUFFICIENT
                irregular = True
            elif code <= last_index:
                irregular = True
            seat = (first + i) & 3
            last_index, last_bidder, risk, passes = code, seat, 0, 0
            first_named.setdefault((seat & 1, code % 5), seat)
        elif code <= REDOUBLE_CODE:
            passes = 0
            # Law 19: a double needs an undoubled bid of an opponent; a redouble, a double
            # of an opponent of one's own side's bid
            same_side = last_bidder >= 0 and not (last_bidder ^ (first + i)) & 1
            if code == DOUBLE_CODE:
                inadmissible = last_bidder < 0 or same_side or risk != 0
            else:
                inadmissible = last_bidder < 0 or risk != 1 or not same_side
            if inadmissible:
                irregular = True  # Law 36: cancelled, the contract is as if not made
            else:
                risk = 1 if code == DOUBLE_CODE else 2
        elif code == NONE_CODE:
            irregular = True  # '-' after the auction began: the turn is skipped
        elif code == SKIP_CODE:
            irregular = True
            passes = 0
        else:  # an unknown call: what follows cannot be judged
            return AuctionOutcome(None, None, False, False, irregular=True)
    if not ended and auction.end is _ALL_PASS:
        ended = True
        passed_out = last_index < 0
    if passed_out:
        return AuctionOutcome(PASSED_OUT, None, True, True, irregular, ended_at)
    if not ended or last_index < 0:
        return AuctionOutcome(None, None, False, ended, irregular, ended_at)
    strain = last_index % 5
    contract = Contract.of(last_index // 5 + 1, STRAIN_BY_ORDER[strain], _RISKS[risk])
    declarer = first_named.get((last_bidder & 1, strain))
    by = ROTATION[declarer] if declarer is not None else None
    return AuctionOutcome(contract, by, False, True, irregular, ended_at)


def trick_winner(leader: Seat, cards: Sequence[Card], trump: Strain | None) -> Seat:
    """Who wins a trick of cards played in order from ``leader`` (Law 44).

    The highest trump wins; without trumps, the highest card of the suit led.
    """
    trump_order = trump.order if trump is not None else NO_TRUMP
    return leader.offset(winning_position([c.index for c in cards], trump_order))


NO_TRUMP = 4  # a trump "suit order" no card has: Strain.NT.order


def _ranking(trump: int, led: int) -> tuple[int, ...]:
    # a card's standing in the trick: a trump (of another suit than the one led) above
    # every card of the suit led, those above the rest, and by rank within each
    return tuple(
        (50 if i // 13 == led else 100 if i // 13 == trump else 0) + i % 13 for i in range(52)
    )


STANDINGS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ranking(trump, led) for led in range(4)) for trump in range(5)
)
"""Law 44 as a table: ``STANDINGS[trump][led][card index]`` ranks a card in a trick
(the highest wins): a card of the suit led 50-62, a trump of another suit 100-112,
any other card 0-12; ``trump`` is the trump suit's order or ``NO_TRUMP``."""


def best_card(cards: Sequence[int], led: int, trump: int) -> int:
    """Law 44 on card indices (0-51, ``Card.index``): the place in ``cards`` of the card
    that wins a trick whose lead was of suit ``led`` (order 0-3); ``trump`` is the trump
    suit's order, or ``NO_TRUMP``. The order of ``cards`` does not matter otherwise; of
    two equal cards (a record that repeats one) the first wins.
    """
    standing = STANDINGS[trump][led]
    scores = [standing[c] for c in cards]
    return scores.index(max(scores))


def winning_position(cards: Sequence[int], trump: int) -> int:
    """:func:`best_card` of a trick given in playing order: the first card is the lead."""
    if not cards:
        return 0
    return best_card(cards, cards[0] // 13, trump)


__all__ = [
    "NO_TRUMP",
    "STANDINGS",
    "AuctionOutcome",
    "auction_outcome",
    "best_card",
    "trick_winner",
    "winning_position",
]
