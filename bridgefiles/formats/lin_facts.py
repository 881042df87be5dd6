"""The facts of a board (dealer, contract, declarer, result) as LIN will read them back.

LIN has no Dealer, Contract, Declarer or Result of its own: its reader works them out
from ``md``, the calls and ``mc``. A PBN board can say them otherwise (tags that
contradict the auction, a Contract with no auction, a partial Result), so a board
written as it stands could come back with other facts and a score of the other sign.
The board's own facts are the Laws' one ruling (:func:`bridgefiles.laws.result.board_result`);
what LIN will read is worked out with the same model functions its reader uses
(:func:`bridgefiles.model.outcome.auction_outcome`). Where they differ, the
conversion says which fact is lost, for that board (DESIGN invariant 1, issue 24).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from bridgefiles.laws.result import BoardResult, board_result
from bridgefiles.model.auction import Auction, EntryKind
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Contract
from bridgefiles.model.outcome import auction_outcome
from bridgefiles.model.play import Claim, Play, PlayEnd
from bridgefiles.model.seats import Seat


def first_caller(auction: Auction | None) -> Seat | None:
    """The seat of the first real call (a ``-`` before the dealer skipped)."""
    if auction is None:
        return None
    for i, entry in enumerate(auction.entries):
        if entry.kind is EntryKind.CALL:
            return auction.seat_of(i)
    return None


def dealer_for_lin(board: Board) -> tuple[Board, str | None]:
    """A board with calls and no dealer gets its first caller as dealer: LIN's calls
    start with the ``md`` dealer, and a reader given none takes South (lin.md 6.1).
    The board, and what to say about it (None: nothing changed)."""
    if board.dealer is not None:
        return board, None
    seat = first_caller(board.auction)
    if seat is None or seat is Seat.S:  # South: what a LIN reader takes without a dealer
        return board, None
    said = (
        f"no dealer: the auction's first caller, {seat.full_name}, is written as dealer "
        "(LIN's calls start with the dealer)"
    )
    return board.with_tag("Dealer", seat.value), said


class Facts(NamedTuple):
    contract: Contract | None
    declarer: Seat | None


def ruling(board: Board) -> BoardResult:
    """The board's own facts: the Laws' ruling on its record (as ``validate`` has it)."""
    return board_result(board)


def lin_facts(auction: Auction | None, dealer: Seat | None) -> Facts:
    """The contract and declarer a LIN reader works out from the calls written, from
    ``dealer`` (South when there is none, as the LIN reader takes it)."""
    if auction is None or not auction.entries:
        return Facts(None, None)
    dealer = dealer or Seat.S  # what a LIN reader takes when md names no dealer
    outcome = auction_outcome(auction.model_copy(update={"first": dealer}), dealer)
    if not outcome.complete:
        return Facts(None, None)
    return Facts(outcome.contract, None if outcome.passed_out else outcome.declarer)


def _text(contract: Contract | None, declarer: Seat | None) -> str:
    if contract is None:
        return "no contract"
    if contract.passed_out:
        return "passed out"
    return f"{contract.text} by {declarer.value}" if declarer is not None else contract.text


def differences(own: BoardResult, written: Facts, has_calls: bool) -> str | None:
    """What to say when the contract or declarer LIN reads differs from the board's."""
    if own.contract == written.contract and own.declarer == written.declarer:
        return None
    board_says = _text(own.contract, own.declarer)
    if not has_calls:
        return (
            f"the contract ({board_says}) has no auction: LIN has no place for the contract, "
            "the declarer, the result or the score"
        )
    lost = []
    if own.contract != written.contract:
        lost.append("contract")
    if own.declarer != written.declarer:
        lost.append("declarer")
    return (
        f"the {' and '.join(lost)} read back from LIN would be "
        f"{_text(written.contract, written.declarer)} (worked out from the calls: LIN has no "
        f"Contract or Declarer of its own), not the board's {board_says}; the calls are "
        "written as recorded, so the result and score follow the auction"
    )


def claim_for_lin(
    board: Board, play: Play, cards: int, own: BoardResult, say: Callable[[str], None]
) -> Claim | None:
    """The ``mc`` for a board's play of ``cards`` cards: its claim, else its Result when
    the play does not count the tricks itself (less a Law 64 transfer: LIN's reader
    applies it on top), never a partial Result (not a final count, pbn.md 4.3)."""
    claim = play.claim
    tricks = board.declarer_tricks
    counted = own.tricks
    if claim is not None or tricks is None:
        return claim
    if counted is not None and counted.final is None:
        say(f"Result {tricks} counts only the tricks played so far (the play stops without "
            "'*', a partial result, pbn.md 4.3): LIN's mc is a final count, so no result "
            "is written")
        return None
    counts_itself = cards == 52 and own.play is not None and own.play.final is not None
    if counts_itself or not (play.end is PlayEnd.STOPPED or cards):
        return None
    if counted is not None and counted.law64:
        return Claim(tricks=tricks - counted.law64)
    if (counted is None or counted.law64 is None) and any(s.revoke for s in play.slots):
        say("the Result may include a Law 64 revoke transfer the record does not fix; LIN's "
            "mc is the claim before it, so the result read back may differ")
    return Claim(tricks=tricks)


def result_for_pbn(board: Board) -> Board:
    """A LIN board whose claim (``mc``, the tricks as played and claimed) has a Law 64
    transfer on top gets the final count as its Result: PBN's Result is the final count
    (its reader takes it so), so a PBN reader scores what the LIN reader scored."""
    if board.result is None:
        return board
    tricks = ruling(board).tricks
    if tricks is None or not tricks.law64 or tricks.final is None:
        return board
    if board.declarer_tricks == tricks.final:
        return board
    return board.with_tag("Result", str(tricks.final))


__all__ = [
    "Facts",
    "claim_for_lin",
    "dealer_for_lin",
    "differences",
    "first_caller",
    "lin_facts",
    "result_for_pbn",
    "ruling",
]
